//! The hexes a unit can reach this movement phase (`Ruleset::reachable`): a least-cost
//! search whose every step is one the legal list would offer, so that following a
//! listed path step by step lands where it says, at its cost (issue 15).
//!
//! A search state is the hex, the road mode ([`mode`]: MP-ROAD-3 to MP-ROAD-5) and the
//! direction of a run-up onto clear terrain (MP-CHG-6), since a step continuing a run
//! toward an enemy in line is a charge and not a move (MP-CHG-10). States are taken
//! cheapest first, and at one cost those reached with the fewest bog tests first
//! (MP-REF-BOG), so a listed path crosses a marsh only when no dry way costs as little.

use super::cell_bits as cb;
use super::movement::mode;
use super::zones_of_control::CONTROLLED;
use super::{MornePlaine, State, NO_HEX};
use grognard_engine::{Reached, Refusal, UnitId};
use grognard_hex::Direction;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Run states: none (or not over clear terrain), or a run-up toward each direction.
const RUNS: usize = 7;
/// No state: the parent of the start.
const NONE: u32 = u32::MAX;

/// The hexes `u` can reach this phase, with costs in movement points and paths
/// (MP-MOV-3 to MP-MOV-8, roads, zones of control). Bog tests are assumed passed
/// (MP-REF-BOG), and each path rolls as few of them as its cost allows; a charge is not
/// a move.
/// The search's tables, kept on each thread from one call to the next: the keys and
/// parents are reset only where a call touched them, so that a call costs what it
/// explores, not the size of the map times the road modes times the run-ups.
#[derive(Default)]
struct Scratch {
    key: Vec<(u16, u16)>,
    parent: Vec<u32>,
    /// The states whose key a call set.
    touched: Vec<u32>,
    best: Vec<u32>,
    occ: Vec<u16>,
    control: Vec<u8>,
    queue: BinaryHeap<Reverse<(u16, u16, usize)>>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The hexes `u` can reach this phase, with costs in movement points and paths
/// (MP-MOV-3 to MP-MOV-8, roads, zones of control). Bog tests are assumed passed
/// (MP-REF-BOG), and each path rolls as few of them as its cost allows; a charge is not
/// a move.
pub(crate) fn reachable(
    rules: &MornePlaine,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reached>, Refusal> {
    let (from, start_mode) = rules.may_move(state, u)?;
    let Some(start) = rules.idx(from) else {
        return Err(Refusal::new("MP-MOV-5", "the unit is off the map"));
    };
    SCRATCH.with(|cell| {
        let scratch = &mut *cell.borrow_mut();
        let out = search(rules, state, u, start, start_mode, scratch);
        // Back to untouched for the next call.
        for &n in &scratch.touched {
            scratch.key[n as usize] = (u16::MAX, u16::MAX);
            scratch.parent[n as usize] = NONE;
        }
        scratch.touched.clear();
        scratch.queue.clear();
        Ok(out)
    })
}

fn search(
    rules: &MornePlaine,
    state: &State,
    u: UnitId,
    start: usize,
    start_mode: u8,
    scratch: &mut Scratch,
) -> Vec<Reached> {
    let Scratch {
        key,
        parent,
        touched,
        best,
        occ,
        control,
        queue,
    } = scratch;
    rules.occupancy_into(state, occ);
    // MP-MOV-7 forbids occupied hexes; the hex the unit leaves is free once it has left.
    occ[start] = 0;
    let side = rules.counters[u.index()].side;
    rules.control_map_into(state, side, control);
    let mover = rules.mover(state, u);
    // MP-CHG-1, MP-CHG-2, MP-DEM-5: only a mounted, steady unit's step can be a charge.
    let charges = mover.mounted && !mover.demoralised;
    let budget = usize::from(state.units[u.index()].mp);
    let run0 = match state.moving {
        Some((m, d, true)) if m == u => d.index() + 1,
        _ => 0,
    };
    let modes = usize::from(mode::COUNT);
    let node = |hex: usize, m: u8, run: usize| (hex * modes + usize::from(m)) * RUNS + run;
    let total = rules.map.len() * modes * RUNS;
    // A state's key: movement points spent, then bog tests taken on the way (MP-REF-BOG).
    // Of two ways in at one cost the one with fewer dice is listed, so that following the
    // path is as sure as the rules allow (issue 15: the page's walk along the engine's
    // path crossed a marsh when a dry way cost as much, and stopped there stuck).
    if key.len() != total {
        key.clear();
        key.resize(total, (u16::MAX, u16::MAX));
        parent.clear();
        parent.resize(total, NONE);
    }
    let s0 = node(start, start_mode, run0);
    key[s0] = (0, 0);
    touched.push(u32::try_from(s0).unwrap_or(NONE));
    queue.push(Reverse((0u16, 0u16, s0)));
    while let Some(Reverse((c, bogs, n))) = queue.pop() {
        if key[n] != (c, bogs) {
            continue;
        }
        let c = usize::from(c);
        let hi = n / RUNS / modes;
        // MP-ZOC-10, MP-MOV-8: movement ends on entering an enemy zone of control (the
        // start, where the unit stands, is never such an end); MP-MOV-4: a unit whose
        // allowance is used up moves no more, even along a road that costs nothing
        // (MP-REF-4).
        if (n != s0 && control[hi] & CONTROLLED != 0) || c >= budget {
            continue;
        }
        #[expect(clippy::cast_possible_truncation, reason = "below mode::COUNT")]
        let m = (n / RUNS % modes) as u8;
        let run = n % RUNS;
        let left = budget - c;
        for dir in Direction::ALL {
            let Ok(p) = rules.price_at::<false>(mover, hi, m, dir, |j| control[j], |j| occ[j] != 0)
            else {
                continue;
            };
            // MP-MOV-3: the allowance is never exceeded.
            if usize::from(p.cost) > left {
                continue;
            }
            // MP-CHG-7, MP-CHG-10: the step continuing a run on clear terrain toward an
            // enemy in line is a charge, listed in place of the move.
            if charges
                && run == dir.index() + 1
                && rules
                    .charge_from(side, rules.map.hex_at(hi), Some((dir, true)), dir, |h| {
                        rules.occupant_in(occ, h)
                    })
                    .is_ok()
            {
                continue;
            }
            let ti = rules.nbr[hi * 6 + dir.index()];
            if ti == NO_HEX {
                continue;
            }
            let ti = ti as usize;
            // MP-CHG-6: a step onto clear terrain is a run-up toward its direction.
            let next_run = if rules.cell[ti] & cb::CLEAR != 0 {
                dir.index() + 1
            } else {
                0
            };
            // MP-REF-BOG: entering marsh rolls the bog test, unless the step ends the
            // movement anyway (MP-ZOC-10).
            let test = rules.bog_test && rules.cell[ti] & cb::BOG != 0 && !p.stop;
            let t = node(ti, p.mode, next_run);
            // The cost stays within the u8 allowance; the tests only saturate on a map
            // of more than 65,535 marsh steps.
            let tc = key[n].0.saturating_add(u16::from(p.cost));
            let tb = bogs.saturating_add(u16::from(test));
            if (tc, tb) < key[t] {
                if key[t].0 == u16::MAX {
                    touched.push(u32::try_from(t).unwrap_or(NONE));
                }
                key[t] = (tc, tb);
                parent[t] = u32::try_from(n).unwrap_or(NONE);
                queue.push(Reverse((tc, tb, t)));
            }
        }
    }
    // The best state of each hex: the cheapest, then the one with the fewest bog tests,
    // then the first in the table's order.
    best.clear();
    best.resize(rules.map.len(), NONE);
    for &n in touched.iter() {
        let k = key[n as usize];
        let hi = n as usize / RUNS / modes;
        let b = best[hi];
        if hi != start && (b == NONE || (k, n) < (key[b as usize], b)) {
            best[hi] = n;
        }
    }
    let mut out: Vec<Reached> = best
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b != NONE)
        .map(|(hi, &b)| {
            let mut path = Vec::new();
            let mut n = b;
            while n != NONE && n as usize != s0 {
                path.push(rules.map.hex_at(n as usize / RUNS / modes));
                n = parent[n as usize];
            }
            path.reverse();
            Reached {
                hex: rules.map.hex_at(hi),
                cost: u32::from(key[b as usize].0),
                path,
                stop: control[hi] & CONTROLLED != 0,
            }
        })
        .collect();
    out.sort_by_key(|r| (r.cost, rules.idx(r.hex)));
    out
}
