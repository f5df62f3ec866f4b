//! Arbitrary bytes as a saved game of one of the four rulesets (the first byte picks it:
//! Morne Plaine, Battle Cry, JOMINI, skirmish), loaded as `grognard engine` loads one
//! and as the server resumes a stored game: never a panic, a refused save says what is
//! wrong, an accepted one plays on and saves and loads back to the same state.
#![no_main]

use grognard_engine::Registry;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// The rulesets, in the order the first byte picks them (as `protocol_lines` does).
const RULESETS: [&str; 4] = ["morne_plaine", "battle_cry", "jomini", "skirmish"];

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(grognard_rules::registry)
}

fuzz_target!(|data: &[u8]| {
    grognard_engine::fuzzing::saved_games(registry(), &RULESETS, data);
});
