//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts. The candidates are every action of every shape the ruleset knows, written
//! out here from the state alone (not from the ruleset's own lists), on the golden
//! positions (the start, its perft-1 children and the fixed random game of
//! `golden.txt`) and on the states of random playouts.

use super::golden::{golden_game, play};
use crate::common::{self, legal, playout};
use grognard_engine::{Dice, Ruleset, Seat, UnitId};
use grognard_hex::Direction;
use grognard_rules::skirmish::{Action, Skirmish, State};

/// Every action of every shape for this state: steps and flights, turns, Defend,
/// charges, attacks, attacks of opportunity, shots, and short moves and Maneuvers to
/// every hex within a character's short-move points (plus one), Pass and EndPhase.
fn candidates(rules: &Skirmish, state: &State) -> Vec<Action> {
    let view = rules.view(state, &Seat::Omniscient);
    let map = rules.names().map();
    let ids: Vec<UnitId> = (0..state.chars.len())
        .map(|i| UnitId(u16::try_from(i).unwrap()))
        .collect();
    let mut out = vec![Action::Pass, Action::EndPhase];
    for &u in &ids {
        out.push(Action::Defend { unit: u });
        out.push(Action::Flee { unit: u });
        for facing in Direction::ALL {
            out.push(Action::Face { unit: u, facing });
        }
        for &t in &ids {
            out.push(Action::Attack { unit: u, target: t });
            out.push(Action::Opportunity { unit: u, target: t });
            out.push(Action::Shoot { unit: u, target: t });
            for together in [false, true] {
                out.push(Action::Charge {
                    unit: u,
                    target: t,
                    together,
                });
            }
        }
        let Some(h) = state.chars[u.index()].hex else {
            continue;
        };
        for to in h.neighbors() {
            if map.contains(to) {
                for evasive in [false, true] {
                    out.push(Action::Move {
                        unit: u,
                        to,
                        evasive,
                    });
                }
            }
        }
        let short = u32::try_from(view["units"][u.index()]["short_mp"].as_u64().unwrap()).unwrap();
        for to in h.range(short + 1) {
            if !map.contains(to) {
                continue;
            }
            out.push(Action::Maneuver { unit: u, to });
            for facing in Direction::ALL {
                out.push(Action::ShortMove {
                    unit: u,
                    to,
                    facing,
                });
            }
        }
    }
    out
}

/// Asserts that the legal list is exactly the candidates `explain` accepts; returns how
/// many candidates were judged.
fn legal_is_explained(rules: &Skirmish, state: &State, at: &str) -> usize {
    playout::assert_gates(rules, state, &candidates(rules, state), at)
}

#[test]
fn legal_actions_are_the_candidates_explain_accepts() {
    let rules = Skirmish::new(&common::builtin("broken-cairn")).unwrap();
    let start = rules.initial_state();
    let mut judged = 0;
    let mut states = 0;
    // States with a charge under way: its steps have a gate of their own.
    let mut charging = 0;
    // The golden positions: the start and its perft-1 children (golden.rs plays them
    // with the same seeds)...
    judged += legal_is_explained(&rules, &start, "start");
    for (i, a) in legal(&rules, &start).iter().enumerate() {
        let s = play(&rules, &start, a, i as u64);
        judged += legal_is_explained(&rules, &s, &format!("perft 1, {a:?}"));
        states += 1;
    }
    // ... and the fixed random game of golden.txt.
    for (n, state) in golden_game(&rules).iter().enumerate() {
        if state.outcome.is_some() {
            break;
        }
        judged += legal_is_explained(&rules, state, &format!("golden game, step {n}"));
        states += 1;
        charging += usize::from(state.charge.is_some());
    }
    // Random playouts with other seeds.
    for seed in 10..12u64 {
        let mut state = start.clone();
        let mut pick = Dice::new(seed);
        for n in 0..150 {
            if state.outcome.is_some() {
                break;
            }
            judged += legal_is_explained(&rules, &state, &format!("seed {seed}, step {n}"));
            states += 1;
            charging += usize::from(state.charge.is_some());
            let l = legal(&rules, &state);
            let i = (pick.next(u32::try_from(l.len()).unwrap()).0 - 1) as usize;
            state = play(&rules, &state, &l[i], seed * 1000 + n);
        }
    }
    assert!(states > 300, "{states} states");
    assert!(charging > 0, "no state with a charge under way");
    assert!(judged > 100_000, "{judged} candidates");
}
