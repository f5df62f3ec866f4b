//! The hexes a unit can reach this movement phase (`Ruleset::reachable`): a least-cost
//! search whose every step is one the legal list would offer, so that following a
//! listed path step by step lands where it says, at its cost (issue 15).
//!
//! A search state is the hex, the road mode ([`mode`]: MP-ROAD-3 to MP-ROAD-5) and the
//! direction of a run-up onto clear terrain (MP-CHG-6), since a step continuing a run
//! toward an enemy in line is a charge and not a move (MP-CHG-10).

use super::cell_bits as cb;
use super::movement::mode;
use super::zones_of_control::CONTROLLED;
use super::{MornePlaine, State, NO_HEX};
use grognard_engine::{Reached, Refusal, UnitId};
use grognard_hex::Direction;

/// Run states: none (or not over clear terrain), or a run-up toward each direction.
const RUNS: usize = 7;
/// No state: the parent of the start.
const NONE: u32 = u32::MAX;

/// The hexes `u` can reach this phase, with costs in movement points and paths
/// (MP-MOV-3 to MP-MOV-8, roads, zones of control). Bog tests are assumed passed
/// (MP-REF-BOG); a charge is not a move.
pub(crate) fn reachable(
    rules: &MornePlaine,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reached>, Refusal> {
    let (from, start_mode) = rules.may_move(state, u)?;
    let Some(start) = rules.idx(from) else {
        return Err(Refusal::new("MP-MOV-5", "the unit is off the map"));
    };
    let mut occ = rules.occupancy(state);
    // MP-MOV-7 forbids occupied hexes; the hex the unit leaves is free once it has left.
    occ[start] = 0;
    let side = rules.counters[u.index()].side;
    let control = rules.control_map(state, side);
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
    let mut cost = vec![u16::MAX; total];
    let mut parent = vec![NONE; total];
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); budget + 1];
    let s0 = node(start, start_mode, run0);
    cost[s0] = 0;
    buckets[0].push(s0);
    for c in 0..=budget {
        while let Some(n) = buckets[c].pop() {
            if usize::from(cost[n]) != c {
                continue;
            }
            let hi = n / RUNS / modes;
            // MP-ZOC-10, MP-MOV-8: movement ends on entering an enemy zone of control
            // (the start, where the unit stands, is never such an end); MP-MOV-4: a unit
            // whose allowance is used up moves no more, even along a road that costs
            // nothing (MP-REF-4).
            if (n != s0 && control[hi] & CONTROLLED != 0) || c == budget {
                continue;
            }
            #[expect(clippy::cast_possible_truncation, reason = "below mode::COUNT")]
            let m = (n / RUNS % modes) as u8;
            let run = n % RUNS;
            let left = budget - c;
            for dir in Direction::ALL {
                let Ok(p) =
                    rules.price_at::<false>(mover, hi, m, dir, |j| control[j], |j| occ[j] != 0)
                else {
                    continue;
                };
                // MP-MOV-3: the allowance is never exceeded.
                if usize::from(p.cost) > left {
                    continue;
                }
                // MP-CHG-7, MP-CHG-10: the step continuing a run on clear terrain toward
                // an enemy in line is a charge, listed in place of the move.
                if charges
                    && run == dir.index() + 1
                    && rules
                        .charge_from(side, rules.map.hex_at(hi), Some((dir, true)), dir, &occ)
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
                let t = node(ti, p.mode, next_run);
                let tc = c + usize::from(p.cost);
                if tc < usize::from(cost[t]) {
                    cost[t] = u16::try_from(tc).expect("at most a u8 allowance");
                    parent[t] = u32::try_from(n).expect("a few states per hex");
                    buckets[tc].push(t);
                }
            }
        }
    }
    // The cheapest state of each hex.
    let mut best = vec![NONE; rules.map.len()];
    for (n, &c) in cost.iter().enumerate() {
        if c == u16::MAX {
            continue;
        }
        let hi = n / RUNS / modes;
        let b = best[hi];
        if hi != start && (b == NONE || c < cost[b as usize]) {
            best[hi] = u32::try_from(n).expect("a few states per hex");
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
                cost: u32::from(cost[b as usize]),
                path,
                stop: control[hi] & CONTROLLED != 0,
            }
        })
        .collect();
    out.sort_by_key(|r| (r.cost, rules.idx(r.hex)));
    Ok(out)
}
