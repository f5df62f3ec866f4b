//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts. The candidates are every action of every kind over every piece, hex, target
//! and card, so that a condition the legal list restates differently from the check
//! (or forgets) shows up here; checked on the golden positions and on states of random
//! playouts.

use super::golden::{position, POSITIONS};
use super::harness;
use crate::common::playout;
use grognard_engine::{Dice, Game, Ruleset, UnitId};
use grognard_rules::battle_cry::{Action, BattleCry, State};

/// Every action of every kind, legal or not.
fn candidates(rules: &BattleCry, s: &State) -> Vec<Action> {
    let units: Vec<UnitId> = (0..s.pieces.len())
        .map(|i| UnitId(u16::try_from(i).unwrap()))
        .collect();
    let map = *rules.names().map();
    let hexes: Vec<_> = (0..map.len()).map(|i| map.hex_at(i)).collect();
    let mut cards = rules.whole_deck().to_vec();
    cards.dedup();
    let mut v = vec![
        Action::Deal,
        Action::DoneOrdering,
        Action::DoneMoving,
        Action::EndTurn,
        Action::IgnoreFlag,
        Action::TakeGround,
        Action::FightBack,
        Action::Decline,
    ];
    for &card in &cards {
        v.push(Action::PlayCard { card });
        v.push(Action::Discard { card });
    }
    for &unit in &units {
        v.push(Action::Order { unit });
        for &target in &units {
            v.push(Action::Battle { unit, target });
        }
        for &to in &hexes {
            v.push(Action::Move { unit, to });
            v.push(Action::Retreat { unit, to });
        }
    }
    v
}

/// Asserts that the legal list is the candidates `explain` accepts, in `state`.
fn assert_gates(rules: &BattleCry, s: &State, ctx: &str) {
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
    for seed in 0..4u64 {
        let mut g = Game::<BattleCry>::new(harness::builtin(), Some(seed)).unwrap();
        let mut pick = Dice::new(seed ^ 0x6A7E);
        let check = |g: &Game<BattleCry>, legal: &[Action], n: usize, _: &mut Dice| {
            if legal.is_empty() {
                assert_gates(g.rules(), g.state(), &format!("seed {seed}, the end"));
            } else if n % 9 == 0 {
                assert_gates(g.rules(), g.state(), &format!("seed {seed}, action {n}"));
                states += 1;
            }
        };
        playout::play(&mut g, &mut pick, usize::MAX, check, |_, _| {});
    }
    assert!(states >= 200, "only {states} states checked");
}
