//! Arbitrary bytes as engine-protocol lines after loading a built-in scenario of one of
//! the four rulesets (the first byte picks it: Morne Plaine, Battle Cry, JOMINI,
//! skirmish): never a panic, every answer one line of JSON with a boolean `ok`, and an
//! action is in `legal` exactly when `apply` takes it. A line `#N` plays the N-th legal
//! action.
#![no_main]

use grognard_engine::Registry;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// One built-in scenario per ruleset, in the order the first byte picks them.
const SCENARIOS: [&str; 4] = [
    "bridge-at-morne",
    "crossing-at-hollins-ford",
    "passage-of-the-saale",
    "broken-cairn",
];

fn setup() -> &'static (Registry, Vec<String>) {
    static SETUP: OnceLock<(Registry, Vec<String>)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let loads = SCENARIOS
            .iter()
            .map(|id| {
                let b = grognard_rules::builtin::find(id).expect("built in");
                serde_json::json!({"cmd": "load", "scenario_toml": b.text}).to_string()
            })
            .collect();
        (grognard_rules::registry(), loads)
    })
}

fuzz_target!(|data: &[u8]| {
    let (registry, loads) = setup();
    grognard_engine::fuzzing::protocol_lines_after_one_of(registry, loads, data);
});
