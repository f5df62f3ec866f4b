//! Zones of control (SK-ZOC-1) and the Engaged status that comes from them (SK-ZOC-2).

use super::{Skirmish, State};
use grognard_engine::UnitId;
use grognard_hex::Hex;

impl Skirmish {
    /// SK-ZOC-1 (provisional): a character in play controls the hexes within the data's
    /// radius of its own, its own included.
    pub(crate) fn controls(&self, state: &State, e: UnitId, hex: Hex) -> bool {
        Self::ch(state, e)
            .hex
            .is_some_and(|h| h.distance(hex) <= self.data.zone.radius)
    }

    /// Whether `hex` lies in the zone of control of an enemy of `side`.
    pub(crate) fn enemy_zone(&self, state: &State, side: u8, hex: Hex) -> bool {
        self.side_ids(1 - side)
            .any(|e| self.controls(state, e, hex))
    }

    /// SK-ZOC-2 (provisional): a character is Engaged while it stands in an enemy's
    /// zone of control.
    pub(crate) fn engaged(&self, state: &State, u: UnitId) -> bool {
        Self::ch(state, u)
            .hex
            .is_some_and(|h| self.enemy_zone(state, self.side_of(u), h))
    }
}
