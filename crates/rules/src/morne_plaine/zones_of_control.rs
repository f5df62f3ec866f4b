//! Zones of control (morne-plaine-movement.txt, "Zones of control", "Entering an enemy
//! ZoC", "Leaving an enemy ZoC"; the movement costs of entering and leaving are priced in
//! [`super::movement`]).

use super::cell_bits as cb;
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
    /// [`MornePlaine::exerts_zoc`] for a counter, its state and its hex's index.
    #[inline]
    fn exerts_zoc_at(
        &self,
        c: &super::units::Counter,
        s: &super::units::UnitState,
        hi: usize,
    ) -> bool {
        // MP-ZOC-5, MP-DEM-4: artillery and demoralised units exert none; MP-ZOC-3:
        // units in a town or woods control nothing.
        c.class != Class::Artillery
            && (c.class == Class::Leader || s.mv > 0)
            && self.cell[hi] & cb::SHELTER == 0
    }

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
        !self.cell_is(hex, cb::SHELTER)
    }

    /// MP-ZOC-2, MP-ZOC-7: whether a hex can be controlled at all: towns and woods
    /// cannot, and units inside a fort are under no enemy zone of control.
    pub(crate) fn controllable(&self, hex: Hex) -> bool {
        self.idx(hex)
            .is_some_and(|i| self.cell[i] & cb::NO_CONTROL == 0)
    }

    pub(crate) fn is_fort(&self, hex: Hex) -> bool {
        self.cell_is(hex, cb::FORT)
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
    /// [`MOUNTED`] bits (MP-ZOC-1 to MP-ZOC-8).
    pub(crate) fn control_map(&self, state: &State, side: u8) -> Vec<u8> {
        let mut map = Vec::new();
        self.control_map_into(state, side, &mut map);
        map
    }

    /// [`MornePlaine::control_map`] at a few hexes (each with its index), from the units
    /// next to them: for the two hexes a step asks about, without building the map.
    pub(crate) fn control_at<const N: usize>(
        &self,
        state: &State,
        side: u8,
        hexes: [(Hex, usize); N],
    ) -> [u8; N] {
        let mut bits = [0; N];
        for &e in &self.side_units[usize::from(1 - side)] {
            let (c, s) = (&self.counters[usize::from(e)], &state.units[usize::from(e)]);
            let Some(h) = s.hex else {
                continue;
            };
            for (k, &(hex, at)) in hexes.iter().enumerate() {
                let Some(dir) = h.direction_to(hex) else {
                    continue;
                };
                let hi = self.nbr[at * 6 + dir.opposite().index()] as usize;
                if self.exerts_zoc_at(c, s, hi) && self.steps[hi * 6 + dir.index()].zoc {
                    bits[k] |= CONTROLLED | if c.mounted { MOUNTED } else { 0 };
                }
            }
        }
        // MP-ZOC-6, MP-ZOC-8: an adjacent fort held by the enemy, as in the map.
        for &(fort, _) in &self.forts {
            for (k, &(hex, at)) in hexes.iter().enumerate() {
                if fort.direction_to(hex).is_some()
                    && self.cell[at] & cb::NO_CONTROL == 0
                    && self.fort_holder(state, fort).is_some_and(|h| h != side)
                {
                    bits[k] |= CONTROLLED;
                }
            }
        }
        bits
    }

    /// [`MornePlaine::control_map`] into a buffer.
    pub(crate) fn control_map_into(&self, state: &State, side: u8, map: &mut Vec<u8>) {
        map.clear();
        map.resize(self.map.len(), 0);
        for (c, s) in self.counters.iter().zip(&state.units) {
            if c.side == side {
                continue;
            }
            let Some(hex) = s.hex else {
                continue;
            };
            let hi = self.idx(hex).expect("units are on the map");
            if !self.exerts_zoc_at(c, s, hi) {
                continue;
            }
            let bit = CONTROLLED | if c.mounted { MOUNTED } else { 0 };
            for st in &self.steps[hi * 6..hi * 6 + 6] {
                if st.zoc {
                    map[st.to as usize] |= bit;
                }
            }
        }
        // MP-ZOC-6, MP-ZOC-8: a fort, even empty, controls every adjacent hex that can be
        // controlled, for the side holding it. A fort's detachment is on foot: it does
        // not stop mounted units leaving freely (MP-ZOC-12).
        for &(fort, _) in &self.forts {
            let at = self.idx(fort).expect("forts are on the map");
            let holder = self.fort_holder(state, fort);
            if holder.is_some_and(|h| h != side) {
                for d in Direction::ALL {
                    if let Some(j) = self.nbr_at(at, d) {
                        if self.cell[j] & cb::NO_CONTROL == 0 {
                            map[j] |= CONTROLLED;
                        }
                    }
                }
            }
        }
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
