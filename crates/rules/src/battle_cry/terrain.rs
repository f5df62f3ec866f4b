//! Terrain: what stops movement, what cannot be entered, what blocks sight and what
//! protects a target. The values are in `data.toml`.

use super::data::Combine;
use super::BattleCry;
use grognard_engine::Reason;
use grognard_hex::los::{steps, LineStep};
use grognard_hex::Hex;

impl BattleCry {
    /// BC-TER-1: a unit or general entering this hex must stop there.
    pub(crate) fn stops(&self, hex: Hex) -> bool {
        self.info(hex).is_some_and(|i| i.stop)
    }

    /// BC-TER-2, BC-MOV-10: this hex cannot be entered (off the map, or impassable).
    pub(crate) fn impassable(&self, hex: Hex) -> bool {
        self.info(hex).is_none_or(|i| i.impassable)
    }

    /// BC-TER-5: the terrain of the hex of map index `i` blocks line of sight.
    pub(crate) fn blocks_sight_at(&self, i: usize) -> bool {
        self.hexes.get(i).is_some_and(|h| h.blocks_sight)
    }

    /// BC-TER-6: a unit that entered the hex of map index `i` this turn may not battle.
    pub(crate) fn forbids_battle_at(&self, i: usize) -> bool {
        self.hexes.get(i).is_some_and(|h| !h.battle_on_entering)
    }

    fn side_protection(&self, hex: Hex, toward: Hex) -> u8 {
        match (self.index(hex), hex.direction_to(toward)) {
            (Some(i), Some(d)) => self.side_protection[i * 6 + d.index()],
            _ => 0,
        }
    }

    /// BC-TER-3: the protections of a target in `target` battled from `from`: its hex's
    /// terrain and a fence it stands behind (one the line of fire crosses into its hex);
    /// [`BattleCry::protection_total`] combines them (BC-TER-4).
    pub(crate) fn protection_parts(&self, from: Hex, target: Hex) -> (u8, u8) {
        let terrain = self.info(target).map_or(0, |i| i.protection);
        if let Some(sides) = self.lines.entry_sides(from, target) {
            // The same hexes, from the table of lines.
            let fence = self.index(target).map_or(0, |i| {
                sides
                    .into_iter()
                    .flatten()
                    .map(|d| self.side_protection[i * 6 + d.index()])
                    .max()
                    .unwrap_or(0)
            });
            return (terrain, fence);
        }
        // The hexes the line of fire comes from as it enters the target hex: the one
        // before it, or the two along whose hexside it runs up to a corner of it.
        let mut before = (None, None);
        for s in steps(from, target) {
            match s {
                LineStep::Hex(h) if h == target => break,
                LineStep::Hex(h) => before = (Some(h), None),
                LineStep::Edge(a, b) => before = (Some(a), Some(b)),
            }
        }
        let fence = [before.0, before.1]
            .into_iter()
            .flatten()
            .map(|h| self.side_protection(target, h))
            .max()
            .unwrap_or(0);
        (terrain, fence)
    }

    /// BC-TER-4: the dice a target's protections take away together: the larger of the
    /// hex's and the fence's, or their sum, as `[protection] combine` in data.toml says.
    pub(crate) fn protection_total(&self, (terrain, fence): (u8, u8)) -> u8 {
        match self.data.protection.combine {
            Combine::Largest => terrain.max(fence),
            Combine::Sum => terrain.saturating_add(fence),
        }
    }

    /// Why a target is protected, for [`BattleCry::protection_parts`]' result.
    pub(crate) fn protection_reasons(
        &self,
        target: Hex,
        (terrain, fence): (u8, u8),
    ) -> Vec<Reason> {
        let mut reasons = Vec::new();
        let sum = self.data.protection.combine == Combine::Sum;
        if terrain > 0 && (sum || terrain >= fence) {
            reasons.push(Reason::new(
                "BC-TER-3",
                format!(
                    "the target is in {} ({}): -{terrain} dice",
                    self.terrain_name(target),
                    self.label(target)
                ),
            ));
        }
        if fence > 0 && (sum || fence > terrain) {
            reasons.push(Reason::new(
                "BC-TER-3",
                format!("the target is behind a fence: -{fence} dice"),
            ));
        }
        if terrain > 0 && fence > 0 {
            reasons.push(Reason::new(
                "BC-TER-4",
                if sum {
                    "terrain in the hex and a fence add up".to_owned()
                } else {
                    "terrain in the hex and a fence do not add up: the larger protection counts"
                        .to_owned()
                },
            ));
        }
        reasons
    }
}
