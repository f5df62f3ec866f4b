//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts. The candidates are every action of every kind over every piece, hex, target
//! and card, so that a condition the legal list restates differently from the check
//! (or forgets) shows up here; checked on the golden positions and on states of random
//! playouts.

use super::golden::{position, POSITIONS};
use super::harness;
use crate::common::playout;
use grognard_engine::Game;
use grognard_hex::Hex;
use grognard_rules::battle_cry::{Action, BattleCry, State};

/// Every action of every kind, legal or not, whatever the state.
fn candidates(rules: &BattleCry, _: &State) -> Vec<Action> {
    let (units, hexes) = playout::units_and_hexes(rules);
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
        v.extend(units.iter().map(|&target| Action::Battle { unit, target }));
        let moves = |&to: &Hex| [Action::Move { unit, to }, Action::Retreat { unit, to }];
        v.extend(hexes.iter().flat_map(moves));
    }
    v
}

playout::gate_tests!(BattleCry, 0..4, 9);
