//! The `[position]` part of a JOMINI scenario (issue 19, item 4): the turn, phase and
//! side to act, each unit's and officer's hex, strength and what it has done, this
//! turn's activations (`groups`), each side's order tokens and eliminations, who holds
//! each objective, and a decision inside the combat phase (`pending`).

use super::{Jomini, State};
use grognard_engine::position::{self, Position, Shape};
use grognard_engine::scenario::{Problems, RawTable, Scenario};
use grognard_engine::Ruleset;

/// How the state is written.
const SHAPE: Shape = Shape {
    units: Some("pieces"),
    unit_keys: &[
        "hex",
        "strength",
        "waiting",
        "exited",
        "mounted",
        "group",
        "moved",
        "hexes",
        "no_combat",
        "attacked",
        "forced",
        "woods",
        "scout",
        "still",
    ],
    keys: &[
        "turn",
        "active",
        "phase",
        "groups",
        "first_group",
        "tokens",
        "ordered",
        "assault",
        "eliminated",
        "held",
        "pending",
        "outcome",
    ],
    sides: &["active"],
    per_side: &["tokens", "eliminated"],
    holders: &["held"],
};

/// The state as a position part.
pub(super) fn write(rules: &Jomini, scenario: &Scenario, state: &State) -> toml::Table {
    position::write(rules, scenario, state, &SHAPE)
}

/// A position part read over the start, checked: a unit's strength at most its full
/// strength, activations that exist, a holder for each objective.
pub(super) fn read(rules: &Jomini, scenario: &Scenario, raw: &RawTable) -> Result<State, Problems> {
    let state = position::read(rules, scenario, raw, &SHAPE)?;
    let start = rules.initial_state();
    let mut p = Position::new(scenario, raw);
    if state.turn == 0 {
        p.at("turn", "`turn` must be at least 1");
    }
    for (i, (u, full)) in state.pieces.iter().zip(&start.pieces).enumerate() {
        if u.strength > full.strength {
            p.at_unit(
                i,
                "strength",
                format!(
                    "strength {} is above the unit's full strength {}",
                    u.strength, full.strength
                ),
            );
        }
        if let Some(g) = u.group {
            if usize::from(g) >= state.groups.len() {
                p.at_unit(
                    i,
                    "group",
                    format!(
                        "activation {g} does not exist: `groups` lists {}",
                        state.groups.len()
                    ),
                );
            }
        }
    }
    if usize::from(state.first_group) > state.groups.len() {
        p.at(
            "first_group",
            "`first_group` is past the last activation of `groups`",
        );
    }
    if state.held.len() != start.held.len() {
        p.at(
            "held",
            format!(
                "`held` must list {} holders, not {}",
                start.held.len(),
                state.held.len()
            ),
        );
    }
    p.finish()?;
    Ok(state)
}
