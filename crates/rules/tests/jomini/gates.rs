//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts. The candidates are every action of every kind over every piece, hex, target
//! and order, so that a condition the legal list restates differently from the check
//! (or forgets) shows up here; checked on the golden positions and on states of random
//! playouts.

use super::golden::{position, POSITIONS};
use super::harness;
use crate::common::playout;
use grognard_engine::{Dice, Game, Ruleset, UnitId};
use grognard_rules::jomini::{Action, Jomini, OrderKind, State};

/// Every action of every kind, legal or not.
fn candidates(rules: &Jomini, s: &State) -> Vec<Action> {
    let units: Vec<UnitId> = (0..s.pieces.len())
        .map(|i| UnitId(u16::try_from(i).unwrap()))
        .collect();
    let map = *rules.names().map();
    let hexes: Vec<_> = (0..map.len()).map(|i| map.hex_at(i)).collect();
    let mut v = vec![Action::EndCommand, Action::EndMovement, Action::EndTurn];
    let named: Vec<Option<UnitId>> = std::iter::once(None)
        .chain(units.iter().copied().map(Some))
        .collect();
    for order in OrderKind::ALL {
        for &unit in &named {
            for hexes in [None, Some(0), Some(1), Some(2), Some(3)] {
                v.push(Action::Order { order, unit, hexes });
            }
        }
    }
    for &unit in &units {
        v.push(Action::Activate { unit });
        v.push(Action::Exit { unit });
        for &target in &units {
            v.push(Action::Attack { unit, target });
        }
        for &to in &hexes {
            v.push(Action::Move { unit, to });
            v.push(Action::Retreat { unit, to });
        }
    }
    v
}

/// Asserts that the legal list is the candidates `explain` accepts, in `state`.
fn assert_gates(rules: &Jomini, s: &State, ctx: &str) {
    playout::assert_gates(rules, s, &candidates(rules, s), ctx);
}

#[test]
fn legal_list_is_explain_accepted_candidates_on_golden_positions() {
    for (name, seed, n, _) in POSITIONS {
        let g = position(seed, n);
        assert_gates(g.rules(), g.state(), name);
    }
}

#[test]
fn legal_list_is_explain_accepted_candidates_on_random_playout_states() {
    let mut states = 0;
    for seed in 0..6u64 {
        let mut g = Game::<Jomini>::new(harness::builtin(), Some(seed)).unwrap();
        let mut pick = Dice::new(seed ^ 0x6A7E);
        let check = |g: &Game<Jomini>, legal: &[Action], n: usize, _: &mut Dice| {
            if legal.is_empty() {
                assert_gates(g.rules(), g.state(), &format!("seed {seed}, the end"));
            } else if n % 3 == 0 {
                assert_gates(g.rules(), g.state(), &format!("seed {seed}, action {n}"));
                states += 1;
            }
        };
        playout::play(&mut g, &mut pick, usize::MAX, check, |_, _| {});
    }
    assert!(states >= 200, "only {states} states checked");
}
