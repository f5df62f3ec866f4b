//! Zones of control (docs/rules/morne-plaine.md, MP-ZOC-1 to MP-ZOC-9, MP-DEM-4; the
//! movement costs of entering and leaving are priced in [`super::movement`]).
//!
//! The rule is written once: [`reaches`] says which hexsides and hexes a zone crosses
//! into (the binding stores its answer per step as [`super::StepInfo::zoc`]),
//! [`MornePlaine::zoc_exerted`] what a unit exerts ([`MornePlaine::zoc_toward`]: on one
//! neighbour, across [`MornePlaine::zoc_across`]), and [`MornePlaine::fort_zoc`] what a
//! fort exerts. Every question about control derives from those: the whole map
//! ([`MornePlaine::control_map_into`], for the legal list), a few hexes
//! ([`MornePlaine::control_at`], for a step and a charge's end), and the units that
//! control a hex ([`MornePlaine::controllers`], for retreats).

use super::cell_bits as cb;
use super::side_bits as sb;
use super::units::{Class, Counter, UnitState};
use super::{MornePlaine, State};
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex};

/// Bit: controlled by an enemy unit or fort.
pub const CONTROLLED: u8 = 1;
/// Bit: controlled by an enemy mounted unit (cavalry or leader).
pub const MOUNTED: u8 = 2;

/// MP-ZOC-2, MP-ZOC-4, MP-ZOC-7: whether a zone of control crosses a hexside with the
/// [`side_bits`](super::side_bits) `side` into a hex with the
/// [`cell_bits`](super::cell_bits) `to_cell`: towns, woods and forts cannot be
/// controlled, and a stream, a river or a double slope (or more) stops a zone.
pub(crate) fn reaches(to_cell: u8, side: u16) -> bool {
    to_cell & cb::NO_CONTROL == 0 && side & sb::BLOCKS_ZOC == 0
}

impl MornePlaine {
    /// MP-ZOC-1 with its exceptions: the zone of control a unit (its counter `c` and state
    /// `s`, standing on the hex of index `hi`) exerts around it: [`CONTROLLED`], with
    /// [`MOUNTED`] for cavalry and leaders, or 0.
    #[inline]
    pub(crate) fn zoc_exerted(&self, c: &Counter, s: &UnitState, hi: usize) -> u8 {
        // MP-ZOC-5, MP-DEM-4: artillery and demoralised units exert none (leaders have
        // no morale and are never demoralised); MP-ZOC-3: units in a town or woods
        // control nothing.
        let exerts = c.class != Class::Artillery
            && (c.class == Class::Leader || s.mv > 0)
            && self.cell[hi] & cb::SHELTER == 0;
        if exerts {
            CONTROLLED | if c.mounted { MOUNTED } else { 0 }
        } else {
            0
        }
    }

    /// MP-ZOC-1, MP-ZOC-2, MP-ZOC-4, MP-ZOC-7: the part of a zone `bits` exerted from the
    /// hex of index `hi` that reaches its neighbour toward `dir` ([`reaches`], per step).
    #[inline]
    pub(crate) fn zoc_across(&self, bits: u8, hi: usize, dir: Direction) -> u8 {
        if self.steps[hi * 6 + dir.index()].zoc {
            bits
        } else {
            0
        }
    }

    /// The zone of control a unit on the hex of index `hi` exerts on its neighbour
    /// toward `dir`: [`MornePlaine::zoc_exerted`] [`MornePlaine::zoc_across`] that hexside.
    #[inline]
    pub(crate) fn zoc_toward(&self, c: &Counter, s: &UnitState, hi: usize, dir: Direction) -> u8 {
        self.zoc_across(self.zoc_exerted(c, s, hi), hi, dir)
    }

    /// MP-ZOC-6, MP-ZOC-8: the zone of control a fort held by `holder()` exerts, for the
    /// enemies of `side`, on its neighbour of index `j`: a fort, even empty, controls
    /// every adjacent hex that can be controlled. Its detachment is on foot: it does not
    /// stop mounted units leaving freely (MP-ZOC-12), so the bit is [`CONTROLLED`] only.
    /// `holder` is asked only when the hex can be controlled.
    #[inline]
    pub(crate) fn fort_zoc(&self, holder: impl FnOnce() -> Option<u8>, side: u8, j: usize) -> u8 {
        if self.cell[j] & cb::NO_CONTROL == 0 && holder().is_some_and(|h| h != side) {
            CONTROLLED
        } else {
            0
        }
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

    /// For every hex, what the enemies of `side` exert there: [`CONTROLLED`] and
    /// [`MOUNTED`] bits (MP-ZOC-1 to MP-ZOC-8).
    pub(crate) fn control_map(&self, state: &State, side: u8) -> Vec<u8> {
        let mut map = Vec::new();
        self.control_map_into(state, side, &mut map);
        map
    }

    /// [`MornePlaine::control_map`] at a few hexes (each with its index), from the units
    /// and forts next to them: for the two hexes a step asks about, without building the
    /// map. The hexes after the first are its neighbours.
    pub(crate) fn control_at<const N: usize>(
        &self,
        state: &State,
        side: u8,
        hexes: [(Hex, usize); N],
    ) -> [u8; N] {
        let mut bits = [0; N];
        // A unit next to one of the hexes is within two steps of each coordinate of the
        // first (the hexes asked about are that hex and its neighbours): most units are
        // ruled out by that alone.
        let Some(&(near, _)) = hexes.first() else {
            return bits;
        };
        debug_assert!(hexes.iter().all(|h| near.distance(h.0) <= 1));
        let within = |a: i32, b: i32| (-2..=2).contains(&a.wrapping_sub(b));
        for &e in &self.side_units[usize::from(1 - side)] {
            let s = &state.units[usize::from(e)];
            let Some(h) = s.hex else {
                continue;
            };
            if !(within(h.q, near.q) && within(h.r, near.r)) {
                continue;
            }
            let c = &self.counters[usize::from(e)];
            for (k, &(hex, at)) in hexes.iter().enumerate() {
                let Some(dir) = h.direction_to(hex) else {
                    continue;
                };
                let hi = self.nbr[at * 6 + dir.opposite().index()] as usize;
                bits[k] |= self.zoc_toward(c, s, hi, dir);
            }
        }
        for &(fort, _) in &self.forts {
            for (k, &(hex, at)) in hexes.iter().enumerate() {
                if fort.direction_to(hex).is_some() {
                    bits[k] |= self.fort_zoc(|| self.fort_holder(state, fort), side, at);
                }
            }
        }
        #[cfg(debug_assertions)]
        {
            // Debug builds (the tests) check the few hexes against the whole map.
            let map = self.control_map(state, side);
            for (k, &(hex, at)) in hexes.iter().enumerate() {
                debug_assert_eq!(bits[k], map[at], "control at {hex:?}");
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
            let bits = self.zoc_exerted(c, s, hi);
            if bits == 0 {
                continue;
            }
            for dir in Direction::ALL {
                let across = self.zoc_across(bits, hi, dir);
                if across != 0 {
                    map[self.steps[hi * 6 + dir.index()].to as usize] |= across;
                }
            }
        }
        for &(fort, _) in &self.forts {
            let at = self.idx(fort).expect("forts are on the map");
            let holder = self.fort_holder(state, fort);
            for d in Direction::ALL {
                if let Some(j) = self.nbr_at(at, d) {
                    map[j] |= self.fort_zoc(|| holder, side, j);
                }
            }
        }
    }

    /// The enemy units of `side` whose zone of control covers `hex` (MP-RET-10 and
    /// MP-CHG-19 count them; forts are not units).
    pub(crate) fn controllers(&self, state: &State, hex: Hex, side: u8) -> Vec<UnitId> {
        let Some(at) = self.idx(hex) else {
            return Vec::new();
        };
        Direction::ALL
            .into_iter()
            .filter_map(|d| {
                let hi = self.nbr_at(at, d)?;
                let u = Self::occupant(state, self.map.hex_at(hi))?;
                let (c, s) = (&self.counters[u.index()], &state.units[u.index()]);
                (c.side != side && self.zoc_toward(c, s, hi, d.opposite()) != 0).then_some(u)
            })
            .collect()
    }
}
