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
