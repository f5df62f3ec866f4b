//! The engine's integration tests: dice, games (replay, saves, undo, refusals, hidden
//! information), the wire names, the engine protocol and the fuzz bodies, all played
//! with The Race, a little ruleset written for them (`engine/race.rs`).

#[path = "engine/dice.rs"]
mod dice;
#[path = "engine/ending.rs"]
mod ending;
#[path = "engine/fuzz_corpus.rs"]
mod fuzz_corpus;
#[path = "engine/games.rs"]
mod games;
#[path = "engine/generators.rs"]
mod generators;
#[path = "engine/lines.rs"]
mod lines;
#[path = "engine/properties.rs"]
mod properties;
#[path = "engine/protocol.rs"]
mod protocol;
#[path = "engine/race.rs"]
mod race;
#[path = "engine/seat.rs"]
mod seat;
#[path = "engine/wire.rs"]
mod wire;

use grognard_engine::scenario::{self, Scenario};
use grognard_engine::{Game, Registry, Ruleset};
use grognard_hex::Hex;
use race::{Race, RACE_TOML};

/// The Race scenario, validated.
fn race_scenario() -> Scenario {
    scenario_of(RACE_TOML)
}

/// A Race scenario from its text.
fn scenario_of(text: &str) -> Scenario {
    scenario::load("race.toml", text, |name| {
        (name == Race::NAME).then(Race::vocabulary)
    })
    .unwrap_or_else(|p| panic!("the race scenario is invalid:\n{p}"))
}

/// A new race with the given seed.
fn race(seed: u64) -> Game<Race> {
    Game::new(race_scenario(), Some(seed)).expect("the race binds")
}

/// A registry that knows only The Race.
fn registry() -> Registry {
    Registry::new().with::<Race>()
}

/// The hex with this label on the race map.
fn hex(label: &str) -> Hex {
    race_scenario()
        .hex(label)
        .unwrap_or_else(|| panic!("{label} is not on the race map"))
}

/// Everything a game holds that may change, as JSON text: state, dice and log.
fn snapshot(g: &Game<Race>) -> String {
    let names = g.rules().names().clone();
    names.scope(|| {
        serde_json::to_string(&(g.state(), g.dice(), g.log())).expect("a race serialises")
    })
}
