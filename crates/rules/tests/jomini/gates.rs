//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts. The candidates are every action of every kind over every piece, hex, target
//! and order, so that a condition the legal list restates differently from the check
//! (or forgets) shows up here; checked on the golden positions and on states of random
//! playouts.

use super::golden::{position, POSITIONS};
use super::harness;
use crate::common::playout;
use grognard_engine::{Game, UnitId};
use grognard_hex::Hex;
use grognard_rules::jomini::{Action, Jomini, OrderKind, State};

/// Every action of every kind, legal or not, whatever the state.
fn candidates(rules: &Jomini, _: &State) -> Vec<Action> {
    let (units, hexes) = playout::units_and_hexes(rules);
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
        v.extend(units.iter().map(|&target| Action::Attack { unit, target }));
        let moves = |&to: &Hex| [Action::Move { unit, to }, Action::Retreat { unit, to }];
        v.extend(hexes.iter().flat_map(moves));
    }
    v
}

playout::gate_tests!(Jomini, 0..6, 3);
