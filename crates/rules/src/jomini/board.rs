//! Where pieces stand, by map index: a lookup the chapters share, not a rule.

use super::{Jomini, State};
use crate::common::pool;
use grognard_engine::UnitId;
use grognard_hex::Hex;

/// Where pieces stand, by map index.
///
/// A board is built for most legal lists and actions, and for every plan the search
/// weighs: its buffers are taken from a small per-thread pool and given back when it
/// is dropped, so that building one allocates nothing once a thread has built a few.
pub(crate) struct Board {
    /// The unit (not officer) in each hex.
    pub unit: Vec<Option<UnitId>>,
    /// The officer in each hex.
    pub officer: Vec<Option<UnitId>>,
}

/// A board's two buffers.
type Cells = (Vec<Option<UnitId>>, Vec<Option<UnitId>>);

thread_local! {
    /// Buffers of boards dropped on this thread, for the next boards built.
    static SPARE: std::cell::RefCell<Vec<Cells>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Board {
    pub(crate) fn new(rules: &Jomini, state: &State) -> Board {
        let n = rules.map.len();
        let (mut unit, mut officer) = pool::take(&SPARE);
        unit.clear();
        unit.resize(n, None);
        officer.clear();
        officer.resize(n, None);
        let mut b = Board { unit, officer };
        for u in rules.piece_ids() {
            if let Some(i) = state.pieces[u.index()].hex.and_then(|h| rules.map.index(h)) {
                if rules.piece(u).officer {
                    b.officer[i] = Some(u);
                } else {
                    b.unit[i] = Some(u);
                }
            }
        }
        b
    }

    /// The board once `u` has gone from `from` (none when it was off the table) to `to`,
    /// a hex no other piece of its kind (unit or officer) holds.
    pub(crate) fn relocate(&mut self, rules: &Jomini, u: UnitId, from: Option<Hex>, to: Hex) {
        let cells = if rules.piece(u).officer {
            &mut self.officer
        } else {
            &mut self.unit
        };
        if let Some(c) = from.and_then(|h| cells.get_mut(rules.map.index(h)?)) {
            if *c == Some(u) {
                *c = None;
            }
        }
        if let Some(c) = rules.map.index(to).and_then(|i| cells.get_mut(i)) {
            *c = Some(u);
        }
    }

    pub(crate) fn unit_at(&self, rules: &Jomini, hex: Hex) -> Option<UnitId> {
        rules.map.index(hex).and_then(|i| self.unit[i])
    }

    pub(crate) fn officer_at(&self, rules: &Jomini, hex: Hex) -> Option<UnitId> {
        rules.map.index(hex).and_then(|i| self.officer[i])
    }

    pub(crate) fn occupied(&self, rules: &Jomini, hex: Hex) -> bool {
        rules
            .map
            .index(hex)
            .is_some_and(|i| self.unit[i].is_some() || self.officer[i].is_some())
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let cells = (
            std::mem::take(&mut self.unit),
            std::mem::take(&mut self.officer),
        );
        pool::give(&SPARE, cells);
    }
}
