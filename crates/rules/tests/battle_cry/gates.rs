//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts. The candidates are every action of every kind over every piece, hex, target
//! and card, so that a condition the legal list restates differently from the check
//! (or forgets) shows up here; checked on the golden positions and on states of random
//! playouts.

use super::golden::{position, POSITIONS};
use super::harness;
use crate::common::playout;
use grognard_engine::{Game, Ruleset, UnitId};
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

#[test]
fn legal_list_is_explain_accepted_candidates_on_golden_positions() {
    for (name, seed, n, _) in POSITIONS {
        let g = position(seed, n);
        let (rules, state) = (g.rules(), g.state());
        playout::assert_gates(rules, state, &candidates(rules, state), name);
    }
}

#[test]
fn legal_list_is_explain_accepted_candidates_on_random_playout_states() {
    let start = |seed| Game::<BattleCry>::new(harness::builtin(), Some(seed)).unwrap();
    let states = playout::assert_gates_in_play(0..4, start, (0x6A7E, 9), candidates);
    assert!(states >= 200, "only {states} states checked");
}
