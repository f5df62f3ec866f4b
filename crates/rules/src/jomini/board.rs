//! Where pieces stand, by map index: a lookup the chapters share, not a rule.

use super::{Jomini, State};
use grognard_engine::UnitId;
use grognard_hex::Hex;

/// Where pieces stand, by map index.
pub(crate) struct Board {
    /// The unit (not officer) in each hex.
    pub unit: Vec<Option<UnitId>>,
    /// The officer in each hex.
    pub officer: Vec<Option<UnitId>>,
}

impl Board {
    pub(crate) fn new(rules: &Jomini, state: &State) -> Board {
        let n = rules.map.len();
        let mut b = Board {
            unit: vec![None; n],
            officer: vec![None; n],
        };
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
