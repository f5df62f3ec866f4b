//! The `[position]` part of a skirmish scenario (issue 19, item 4): the turn, phase and
//! side to act, each character's hex, facing, damage, movement points and statuses
//! (`dazed`, `panicked`, `berserk`, `encumbered`, `shaken`, `evasive`, `out`,
//! `fled`, ...), and what is under way: a move (`moving`), a charge (`charge`) and the
//! passive side's window (`window`).

use super::{Skirmish, State};
use grognard_engine::position::{self, Position, Shape};
use grognard_engine::scenario::{Problems, RawTable, Scenario};
use grognard_engine::UnitId;

/// How the state is written.
const SHAPE: Shape = Shape {
    units: Some("chars"),
    unit_keys: &[
        "hex",
        "facing",
        "damage",
        "mp",
        "quick",
        "complex",
        "melee",
        "ripostes",
        "attacked",
        "dazed",
        "panicked",
        "berserk",
        "encumbered",
        "out",
        "fled",
        "moved",
        "done",
        "took_complex",
        "evasive",
        "defending",
        "spent",
        "shaken",
    ],
    keys: &[
        "turn", "active", "phase", "moving", "charge", "window", "turned", "outcome",
    ],
    sides: &["active"],
    per_side: &[],
    holders: &[],
};

/// The state as a position part.
pub(super) fn write(rules: &Skirmish, scenario: &Scenario, state: &State) -> toml::Table {
    position::write(rules, scenario, state, &SHAPE)
}

/// A position part read over the start, checked: damage below health for a character
/// in play, at most two characters a hex, statuses that go together, a charge's
/// current leg one of its legs.
pub(super) fn read(
    rules: &Skirmish,
    scenario: &Scenario,
    raw: &RawTable,
) -> Result<State, Problems> {
    let state = position::read(rules, scenario, raw, &SHAPE)?;
    let mut p = Position::new(scenario, raw);
    if state.turn == 0 {
        p.at("turn", "`turn` must be at least 1");
    }
    for (i, c) in state.chars.iter().enumerate() {
        let health = u16::try_from(i).map_or(0, |n| rules.health(UnitId(n)));
        if c.hex.is_some() && c.damage >= health {
            p.at_unit(
                i,
                "damage",
                format!("damage {} reaches the character's health {health}: it would be out of the fight", c.damage),
            );
        }
        if c.hex.is_none() && !c.out && !c.fled {
            p.at_unit(i, "hex", "a character off the map must be `out` or `fled`");
        }
        if c.dazed && c.berserk {
            p.at_unit(i, "dazed", "a Berserk character is never Dazed (SK-STA-3)");
        }
        if c.hex.is_some() && state.chars.iter().filter(|o| o.hex == c.hex).count() > 2 {
            p.at_unit(
                i,
                "hex",
                "three characters in one hex: at most two, in Close Quarters",
            );
        }
    }
    if let Some(c) = &state.charge {
        if c.current >= c.legs.len() {
            p.at(
                "charge.current",
                format!(
                    "`current` names leg {} of a charge of {} legs",
                    c.current,
                    c.legs.len()
                ),
            );
        }
    }
    p.finish()?;
    Ok(state)
}
