//! Zones of control (morne-plaine-movement.txt, "Zones of control", "Entering an enemy
//! ZoC", "Leaving an enemy ZoC"; the movement costs of entering and leaving are priced in
//! [`super::movement`]).

use super::side_bits as sb;
use super::units::Class;
use super::{MornePlaine, State};
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex};

/// Bit: controlled by an enemy unit or fort.
pub const CONTROLLED: u8 = 1;
/// Bit: controlled by an enemy mounted unit (cavalry or leader).
pub const MOUNTED: u8 = 2;

impl MornePlaine {
    /// MP-ZOC-5, MP-ZOC-3, MP-DEM-4: whether a unit exerts a zone of control at all.
    pub(crate) fn exerts_zoc(&self, state: &State, u: UnitId) -> bool {
        let c = &self.counters[u.index()];
        let Some(hex) = state.units[u.index()].hex else {
            return false;
        };
        // MP-ZOC-5, MP-DEM-4: artillery and demoralised units exert none.
        if c.class == Class::Artillery || self.demoralised(state, u) {
            return false;
        }
        // MP-ZOC-3: units in a town or woods control nothing.
        !self.row(hex).is_some_and(|r| r.uncontrollable)
    }

    /// MP-ZOC-2, MP-ZOC-7: whether a hex can be controlled at all: towns and woods
    /// cannot, and units inside a fort are under no enemy zone of control.
    pub(crate) fn controllable(&self, hex: Hex) -> bool {
        !self.row(hex).is_some_and(|r| r.uncontrollable) && !self.is_fort(hex)
    }

    pub(crate) fn is_fort(&self, hex: Hex) -> bool {
        self.forts.iter().any(|f| f.0 == hex)
    }

    /// The side holding a fort: its occupant's, else whoever entered it last, else its
    /// owner at the start (MP-ZOC-6: an empty fort keeps its small detachment; MP-ZOC-9:
    /// a retreat never enters one the enemy holds).
    pub(crate) fn fort_holder(&self, state: &State, hex: Hex) -> Option<u8> {
        let i = self.forts.iter().position(|f| f.0 == hex)?;
        Self::occupant(state, hex)
            .map(|u| self.counters[u.index()].side)
            .or(state.forts[i])
    }

    /// MP-ZOC-1 with its exceptions: whether `u` controls the neighbour of its hex in
    /// `dir`.
    pub(crate) fn controls_toward(&self, state: &State, u: UnitId, dir: Direction) -> bool {
        let Some(hex) = state.units[u.index()].hex else {
            return false;
        };
        let to = hex.neighbor(dir);
        self.exerts_zoc(state, u)
            && self.map.contains(to)
            && self.controllable(to)
            // MP-ZOC-4: not across a stream, a river or a double slope (or more).
            && self.flags(hex, dir) & sb::BLOCKS_ZOC == 0
    }

    /// For every hex, what the enemies of `side` exert there: [`CONTROLLED`] and
    /// [`MOUNTED`] bits (MP-ZOC-1 to MP-ZOC-8). `occ` is the board's
    /// [`MornePlaine::occupancy`].
    pub(crate) fn control_map(&self, state: &State, side: u8, occ: &[u16]) -> Vec<u8> {
        let mut map = vec![0u8; self.map.len()];
        for (i, c) in self.counters.iter().enumerate() {
            if c.side == side {
                continue;
            }
            let u = UnitId(u16::try_from(i).expect("unit count fits u16"));
            let Some(hex) = state.units[i].hex else {
                continue;
            };
            if !self.exerts_zoc(state, u) {
                continue;
            }
            let bit = CONTROLLED | if c.mounted { MOUNTED } else { 0 };
            let hi = self.idx(hex).expect("units are on the map");
            for d in Direction::ALL {
                let to = hex.neighbor(d);
                let Some(j) = self.idx(to) else { continue };
                if self.controllable(to)
                    && self.side_flags[hi * 6 + d.index()] & sb::BLOCKS_ZOC == 0
                {
                    map[j] |= bit;
                }
            }
        }
        // MP-ZOC-6, MP-ZOC-8: a fort, even empty, controls every adjacent hex that can be
        // controlled, for the side holding it. A fort's detachment is on foot: it does
        // not stop mounted units leaving freely (MP-ZOC-12).
        for (fi, &(fort, _)) in self.forts.iter().enumerate() {
            let holder = self
                .occupant_in(occ, fort)
                .map(|u| self.counters[u.index()].side)
                .or(state.forts[fi]);
            if holder.is_some_and(|h| h != side) {
                for n in fort.neighbors() {
                    if let Some(j) = self.idx(n) {
                        if self.controllable(n) {
                            map[j] |= CONTROLLED;
                        }
                    }
                }
            }
        }
        map
    }

    /// The enemy units of `side` whose zone of control covers `hex` (MP-RET-10 and
    /// MP-CHG-19 count them; forts are not units).
    pub(crate) fn controllers(&self, state: &State, hex: Hex, side: u8) -> Vec<UnitId> {
        hex.neighbors()
            .into_iter()
            .zip(Direction::ALL)
            .filter_map(|(n, d)| {
                let u = Self::occupant(state, n)?;
                (self.counters[u.index()].side != side
                    && self.controls_toward(state, u, d.opposite()))
                .then_some(u)
            })
            .collect()
    }
}
