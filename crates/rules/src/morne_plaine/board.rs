//! The speed machinery of the rules, kept apart from the chapters: the per-hex and
//! per-hexside tables precomputed from the scenario, the movement phase's legal-list memo
//! ([`Board`], with its debug cross-check against a fresh build). Nothing here decides
//! a rule: the memo prices steps with
//! [`MornePlaine::price_at`] and reads zones of control from
//! [`MornePlaine::control_map_into`]; it only remembers their answers.

use super::{Action, MornePlaine, State};
use crate::common::stamp::next_id;
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;

/// Which state a [`State`] is, as the movement [`Board`] follows it: a number no other
/// state of the process carries, and, when the state is one step from another, that
/// state's number and the unit that stepped. The board remembers the number of the
/// state it was last brought up to date with; asked again for the same state it has
/// nothing to do, and asked for the state one step further it looks at the one unit
/// that moved instead of comparing every unit's key.
///
/// Every change a ruleset makes goes through `turn::apply`, which stamps the state
/// anew; a clone keeps its stamp, which is right, being the same position. A state of
/// unknown history (new, or read from a file) has number 0, which no board trusts.
/// Code that changes a state's fields by hand afterwards (the tests) must not leave a
/// stamp on it that a board has seen: debug builds check every board against a fresh
/// build, so a stale one fails there.
///
/// Never part of the game: two states compare equal whatever their stamps, and
/// nothing of it is written or shown.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stamp {
    /// This state's number; 0 for one of unknown history.
    id: u64,
    /// The number of the state one step before, when the last change was a step; else 0.
    parent: u64,
    /// The unit that stepped from the state `parent`.
    unit: u16,
}

impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true
    }
}

impl Eq for Stamp {}

impl Stamp {
    /// The stamp of a state changed by anything but a step.
    pub(crate) fn fresh() -> Stamp {
        Stamp {
            id: next_id(),
            parent: 0,
            unit: 0,
        }
    }

    /// The stamp of this state after `unit` stepped, and did nothing else.
    pub(crate) fn step(self, unit: UnitId) -> Stamp {
        Stamp {
            id: next_id(),
            parent: self.id,
            unit: unit.0,
        }
    }
}

/// Bits of the per-hexside facts the rules ask about.
pub(crate) mod side_bits {
    /// Cannot be crossed (MP-MOV-6).
    pub const IMPASSABLE: u16 = 1;
    /// Blocks a zone of control (MP-ZOC-4: stream, river, double slope).
    pub const BLOCKS_ZOC: u16 = 2;
    /// No combat across, and no contact (MP-CMB-5, MP-CMB-8: where movement is
    /// forbidden: rivers and major rivers but at a bridge or a ford, slopes of more than
    /// one level).
    pub const NO_COMBAT: u16 = 4;
    /// A stream (MP-CHG-16: charge morale +1; MP-RET-5: retreats avoid it).
    pub const STREAM: u16 = 8;
    /// A bridge or a ford over a river or major river: no charge across (MP-CHG-24).
    pub const RIVER_CROSSING: u16 = 16;
    /// A slope (MP-CHG-16: charge morale +-1).
    pub const SLOPE: u16 = 32;
    /// A bridge.
    pub const BRIDGE: u16 = 64;
}

/// Bits of the per-hex facts the hot paths ask about, precomputed from the terrain.
pub(crate) mod cell_bits {
    /// Cannot be controlled (MP-ZOC-2: towns and woods; MP-ZOC-7: forts).
    pub const NO_CONTROL: u8 = 1;
    /// Units here control nothing (MP-ZOC-3: towns and woods; MP-TER-4: a village is
    /// a town).
    pub const SHELTER: u8 = 2;
    /// A fort.
    pub const FORT: u8 = 4;
    /// Clear terrain (MP-CHG-5).
    pub const CLEAR: u8 = 8;
    /// Marsh: a bog test (MP-REF-BOG).
    pub const BOG: u8 = 16;
    /// On a road.
    pub const ROAD: u8 = 32;
    /// On a track.
    pub const TRACK: u8 = 64;
    /// A town (MP-TER-4: villages and towns, the terrain table's `town`).
    pub const TOWN: u8 = 128;
}

/// No neighbour: off the map.
pub(crate) const NO_HEX: u32 = u32::MAX;

/// What a step from a hex toward a direction meets, precomputed from the scenario so
/// that pricing a step (the hot path of the legal-action list) reads one record.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StepInfo {
    /// The hex entered, or [`NO_HEX`].
    pub to: u32,
    /// The hexside's [`side_bits`].
    pub flags: u16,
    /// Points to enter the hex by class (MP-REF-1).
    pub terrain: [u8; 4],
    /// Points the hexside adds (MP-TER-2).
    pub hexside: u8,
    /// Road link (bit 0), track link (bit 1) across the hexside.
    pub link: u8,
    /// The entered hex's [`cell_bits`].
    pub to_cell: u8,
    /// Road hex to road hex past a crossroads, cutting its corner (MP-ROAD-4).
    pub jump: bool,
    /// A unit here would control the hex entered (MP-ZOC-1, MP-ZOC-2, MP-ZOC-4, MP-ZOC-7).
    pub zoc: bool,
}

/// What the movement phase's legal list is made of, kept between calls on this thread
/// and brought up to date from the state each time it is asked for: the occupancy, the
/// control map of the enemies of the side to move, and each unit's legal steps as a
/// mask of directions.
///
/// It is a pure function of the state, remembered: every input of a unit's steps (its
/// hex, allowance, road mode, halt, morale; the occupancy of its neighbours; the enemy
/// units and the forts that make the control map) is in the key compared on each call.
/// When only units of the side to move changed (the usual case: one unit took one
/// step), only they and the units next to the hexes they left or entered are priced
/// again; when an enemy unit or a fort changed (a charge drove one back), everything is
/// rebuilt.
#[derive(Default)]
pub(crate) struct Board {
    /// The binding it was built for ([`MornePlaine::id`]); 0 before the first build.
    rules: u64,
    /// The [`Stamp`] number of the state it was last brought up to date with.
    stamp: u64,
    /// The side to move.
    side: u8,
    /// Per unit, its [`unit_key`] when last priced, and its hex's index ([`NO_HEX`]
    /// off the map).
    keys: Vec<(u64, u64)>,
    at: Vec<u32>,
    /// The state's fort record, and who held each fort, when last built.
    forts: Vec<Option<u8>>,
    holders: Vec<Option<u8>>,
    /// Per hex: the unit there as its index + 1 (0: empty).
    pub(crate) occ: Vec<u16>,
    /// Per hex: what the enemies of the side to move exert there (zones_of_control).
    pub(crate) control: Vec<u8>,
    /// Per unit: bit `d` set when a step toward direction `d` is legal now.
    pub(crate) masks: Vec<u8>,
    /// Per unit, six slots: its legal steps as actions, in direction order, the first
    /// `counts[unit]` of them in use (an array a unit: copied out whole, at a size known
    /// when compiled).
    pub(crate) moves: Vec<[Action; 6]>,
    pub(crate) counts: Vec<u8>,
    /// Scratch: the units whose key changed, with their old and new hex indices.
    changed: Vec<(usize, u32, u32)>,
}

/// Everything of a unit's state its steps, or the steps of others, depend on: its hex
/// (axial coordinates, so that the key costs no index arithmetic), allowance, morale,
/// and whether it has moved, jumped a crossroads or halted. Two words: the coordinates'
/// bits, and the rest.
#[inline]
fn unit_key(s: &super::units::UnitState) -> (u64, u64) {
    #[expect(
        clippy::cast_sign_loss,
        reason = "the coordinates' bits are packed, not their values"
    )]
    let at = match s.hex {
        Some(h) => u64::from(h.q as u32) | u64::from(h.r as u32) << 32,
        None => 0,
    };
    // A unit off the map (waiting or eliminated) has no steps, whatever else it is.
    let rest = u64::from(s.hex.is_some())
        | u64::from(s.mp) << 8
        | u64::from(s.mv) << 16
        | u64::from(s.moved) << 24
        | u64::from(s.road_penalty) << 32
        | u64::from(s.stopped) << 40;
    (at, rest)
}

impl Board {
    /// Brings the board up to date with `state` (in its movement phase).
    fn sync(&mut self, rules: &MornePlaine, state: &State) {
        let n = state.units.len();
        if self.rules != rules.id
            || self.side != state.active
            || self.keys.len() != n
            || self.forts != state.forts
        {
            return self.rebuild(rules, state);
        }
        let stamp = state.stamp;
        if stamp.id != 0 && stamp.id == self.stamp {
            // The same state as last time.
            return;
        }
        self.changed.clear();
        // One step from the state last seen: only the unit that stepped can differ
        // (`Stamp`); from anywhere else, every unit is compared.
        let units = if stamp.parent != 0 && stamp.parent == self.stamp {
            let i = usize::from(stamp.unit);
            i..i + 1
        } else {
            0..n
        };
        self.stamp = stamp.id;
        let keys = &mut self.keys[..n];
        for i in units {
            let s = &state.units[i];
            let k = unit_key(s);
            if k == keys[i] {
                continue;
            }
            if rules.counters[i].side != state.active {
                // An enemy unit moved or lost its morale: the control map changes.
                return self.rebuild(rules, state);
            }
            keys[i] = k;
            let at = hex_index(rules, s.hex);
            self.changed.push((i, self.at[i], at));
            self.at[i] = at;
        }
        if self.changed.is_empty() {
            return;
        }
        for &(i, old, _) in &self.changed {
            if old != NO_HEX && usize::from(self.occ[old as usize]) == i + 1 {
                self.occ[old as usize] = 0;
            }
        }
        for &(i, _, new) in &self.changed {
            if new != NO_HEX {
                self.occ[new as usize] = u16::try_from(i + 1).expect("unit count fits u16");
            }
        }
        // A unit entering a fort makes it its side's, and ends the fort's zone.
        for (k, &(fort, _)) in rules.forts.iter().enumerate() {
            if self.holder(rules, state, fort, k) != self.holders[k] {
                return self.rebuild(rules, state);
            }
        }
        // A hex that emptied or filled changes only the steps into it: the neighbours'
        // step toward it is priced again (or refused: MP-MOV-7).
        for c in 0..self.changed.len() {
            let (_, old, new) = self.changed[c];
            for at in [old, new] {
                if at == NO_HEX {
                    continue;
                }
                let filled = self.occ[at as usize] != 0;
                for dir in Direction::ALL {
                    let Some(j) = rules.nbr_at(at as usize, dir) else {
                        continue;
                    };
                    let o = usize::from(self.occ[j]);
                    // A unit that changed is priced in full below.
                    if o == 0
                        || rules.counters[o - 1].side != state.active
                        || self.changed.iter().any(|c| c.0 == o - 1)
                    {
                        continue;
                    }
                    let back = dir.opposite();
                    let bit = 1 << back.index();
                    let mask = if !filled && self.step_ok(rules, state, o - 1, back) {
                        self.masks[o - 1] | bit
                    } else {
                        self.masks[o - 1] & !bit
                    };
                    // A unit that stayed put keeps its slots while its mask does (a
                    // changed unit is written out again below in any case).
                    if mask != self.masks[o - 1] {
                        self.set_mask(state, o - 1, mask);
                    }
                }
            }
        }
        for c in 0..self.changed.len() {
            let i = self.changed[c].0;
            let mask = self.steps_of(rules, state, i);
            self.set_mask(state, i, mask);
        }
    }

    /// Records unit `i`'s legal step directions and writes them out as actions.
    fn set_mask(&mut self, state: &State, i: usize, mask: u8) {
        self.masks[i] = mask;
        let mut n = 0;
        if let Some(from) = state.units[i].hex {
            let unit = UnitId(u16::try_from(i).expect("unit count fits u16"));
            let slots = &mut self.moves[i];
            // Every direction is written to the next free slot, which moves on only for
            // a legal one: no branch on the mask.
            for dir in Direction::ALL {
                slots[n.min(5)] = Action::Move {
                    unit,
                    to: from.neighbor(dir),
                };
                n += usize::from(mask >> dir.index() & 1);
            }
        }
        self.counts[i] = u8::try_from(n).expect("six directions");
    }

    /// Who holds fort `k` at `fort`, read from the board's occupancy.
    #[inline(always)]
    fn holder(&self, rules: &MornePlaine, state: &State, fort: Hex, k: usize) -> Option<u8> {
        let at = rules.idx(fort).expect("forts are on the map");
        match self.occ[at] {
            0 => state.forts[k],
            o => Some(rules.counters[usize::from(o) - 1].side),
        }
    }

    /// Builds everything from the state.
    fn rebuild(&mut self, rules: &MornePlaine, state: &State) {
        self.rules = rules.id;
        self.stamp = state.stamp.id;
        self.side = state.active;
        self.keys.clear();
        self.keys.extend(state.units.iter().map(unit_key));
        self.at.clear();
        self.at
            .extend(state.units.iter().map(|s| hex_index(rules, s.hex)));
        self.forts.clone_from(&state.forts);
        rules.occupancy_into(state, &mut self.occ);
        rules.control_map_into(state, state.active, &mut self.control);
        self.holders.clear();
        for (k, &(fort, _)) in rules.forts.iter().enumerate() {
            let h = self.holder(rules, state, fort, k);
            self.holders.push(h);
        }
        let n = state.units.len();
        self.masks.clear();
        self.masks.resize(n, 0);
        self.counts.clear();
        self.counts.resize(n, 0);
        self.moves.clear();
        self.moves.resize(n, [Action::EndPhase; 6]);
        for i in 0..n {
            if rules.counters[i].side == state.active {
                let mask = self.steps_of(rules, state, i);
                self.set_mask(state, i, mask);
            }
        }
    }

    /// The legal step directions of unit `i`, as a mask, on this board.
    fn steps_of(&self, rules: &MornePlaine, state: &State, i: usize) -> u8 {
        let mut mask = 0;
        self.price_steps(rules, state, i, Direction::ALL, |d| mask |= 1 << d.index());
        mask
    }

    /// Whether unit `i` may step toward `dir`, on this board.
    fn step_ok(&self, rules: &MornePlaine, state: &State, i: usize, dir: Direction) -> bool {
        let mut ok = false;
        self.price_steps(rules, state, i, [dir], |_| ok = true);
        ok
    }

    /// Calls `legal` for each of `dirs` toward which unit `i` may step now.
    fn price_steps<const N: usize>(
        &self,
        rules: &MornePlaine,
        state: &State,
        i: usize,
        dirs: [Direction; N],
        mut legal: impl FnMut(Direction),
    ) {
        let u = UnitId(u16::try_from(i).expect("unit count fits u16"));
        let Ok((_, m)) = rules.can_move(state, u) else {
            return;
        };
        let fi = self.at[i] as usize;
        let mover = rules.mover(state, u);
        let mp = state.units[i].mp;
        for dir in dirs {
            let priced = rules.price_at::<false>(
                mover,
                fi,
                m,
                dir,
                |j| self.control[j],
                |j| self.occ[j] != 0,
            );
            if priced.is_ok_and(|p| p.affordable(mp)) {
                legal(dir);
            }
        }
    }
}

/// The index of a unit's hex, or [`NO_HEX`].
#[inline]
fn hex_index(rules: &MornePlaine, hex: Option<Hex>) -> u32 {
    hex.and_then(|h| rules.idx(h))
        .map_or(NO_HEX, |i| u32::try_from(i).expect("maps are small"))
}

thread_local! {
    /// The movement phase's [`Board`] on this thread.
    static BOARD: RefCell<Board> = RefCell::new(Board::default());
}

/// Runs `f` on the [`Board`] of `state`, which must be in its movement phase, brought up
/// to date first.
pub(crate) fn with_board<R>(rules: &MornePlaine, state: &State, f: impl FnOnce(&Board) -> R) -> R {
    BOARD.with(|cell| {
        let board = &mut *cell.borrow_mut();
        board.sync(rules, state);
        #[cfg(debug_assertions)]
        {
            // Debug builds (the tests) check the update against a fresh build.
            let mut fresh = Board::default();
            fresh.rebuild(rules, state);
            debug_assert_eq!(board.occ, fresh.occ, "board occupancy");
            debug_assert_eq!(board.control, fresh.control, "board control map");
            debug_assert_eq!(board.masks, fresh.masks, "board step masks");
            debug_assert_eq!(board.counts, fresh.counts, "board step counts");
            for (i, &n) in board.counts.iter().enumerate() {
                let used = ..usize::from(n);
                debug_assert_eq!(board.moves[i][used], fresh.moves[i][used], "board steps");
            }
        }
        f(board)
    })
}

/// What the enemies of the side to move exert at two hexes (by index), read from this
/// thread's [`Board`] when it was last brought up to date with `state` itself; `None`
/// when it was not (the caller asks the units: `MornePlaine::control_at`).
pub(crate) fn control_if_current(
    rules: &MornePlaine,
    state: &State,
    at: [usize; 2],
) -> Option<[u8; 2]> {
    BOARD.with(|cell| {
        let board = cell.borrow();
        (state.stamp.id != 0 && board.stamp == state.stamp.id && board.rules == rules.id)
            .then(|| at.map(|j| board.control[j]))
    })
}

thread_local! {
    /// A scratch [`MornePlaine::occupancy`] table on this thread, with the binding and
    /// the [`Stamp`] number of the state it was built for.
    static OCCUPANCY: RefCell<(u64, u64, Vec<u16>)> = const { RefCell::new((0, 0, Vec::new())) };
}

/// Runs `f` on the [`MornePlaine::occupancy`] of `state`, built into this thread's
/// scratch table (no allocation once it has grown to the map's size), or kept from the
/// last call when that was for the same state (its [`Stamp`]: the combat phase's list,
/// then the attack chosen from it). Not reentrant: `f` must not ask for it again.
pub(crate) fn with_occupancy<R>(
    rules: &MornePlaine,
    state: &State,
    f: impl FnOnce(&[u16]) -> R,
) -> R {
    OCCUPANCY.with(|cell| {
        let (binding, stamp, occ) = &mut *cell.borrow_mut();
        let id = state.stamp.id;
        if id == 0 || *stamp != id || *binding != rules.id {
            rules.occupancy_into(state, occ);
            (*binding, *stamp) = (rules.id, id);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(*occ, rules.occupancy(state), "the kept occupancy");
        f(occ)
    })
}
