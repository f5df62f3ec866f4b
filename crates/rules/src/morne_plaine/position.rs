//! The `[position]` part of a Morne Plaine scenario (issue 19, item 4): the turn, phase
//! and side to act, each unit's hex, combat strength and what it has done this phase,
//! who holds each fort and place, and a move under way (`moving`) that a charge may
//! continue. Everything the rules keep between actions, so that a game loaded from it
//! offers the same actions and shows the same map.

use super::{MornePlaine, State};
use grognard_engine::position::{self, Position, Shape};
use grognard_engine::scenario::{Problems, RawTable, Scenario};
use grognard_engine::Ruleset;

/// How the state is written.
const SHAPE: Shape = Shape {
    units: Some("units"),
    unit_keys: &[
        "hex",
        "waiting",
        "cs",
        "mv",
        "mp",
        "moved",
        "stopped",
        "road_penalty",
        "fired",
        "attacked",
        "defended",
        "victorious",
        "charged",
    ],
    keys: &[
        "turn", "active", "phase", "moving", "forts", "held", "outcome",
    ],
    sides: &["active"],
    per_side: &[],
    holders: &["forts", "held"],
};

/// The state as a position part.
pub(super) fn write(rules: &MornePlaine, scenario: &Scenario, state: &State) -> toml::Table {
    position::write(rules, scenario, state, &SHAPE)
}

/// A position part read over the start, checked: a unit's strength and morale at most
/// their full values, one unit a hex, a holder for each fort and place.
pub(super) fn read(
    rules: &MornePlaine,
    scenario: &Scenario,
    raw: &RawTable,
) -> Result<State, Problems> {
    let state = position::read(rules, scenario, raw, &SHAPE)?;
    let start = rules.initial_state();
    let mut p = Position::new(scenario, raw);
    if state.turn == 0 {
        p.at("turn", "`turn` must be at least 1");
    }
    for (i, (u, full)) in state.units.iter().zip(&start.units).enumerate() {
        if u.cs > full.cs {
            p.at_unit(
                i,
                "cs",
                format!(
                    "combat strength {} is above the unit's full strength {}",
                    u.cs, full.cs
                ),
            );
        }
        if u.mv > full.mv {
            p.at_unit(
                i,
                "mv",
                format!(
                    "morale value {} is above the unit's full morale {} (MP-REF-7)",
                    u.mv, full.mv
                ),
            );
        }
        if u.hex.is_some() && state.units.iter().take(i).any(|o| o.hex == u.hex) {
            p.at_unit(
                i,
                "hex",
                "two units in one hex: Morne Plaine allows no stacking",
            );
        }
    }
    for (key, given, wanted) in [
        ("forts", state.forts.len(), start.forts.len()),
        ("held", state.held.len(), start.held.len()),
    ] {
        if given != wanted {
            p.at(
                key,
                format!("`{key}` must list {wanted} holders, not {given}"),
            );
        }
    }
    p.finish()?;
    Ok(state)
}
