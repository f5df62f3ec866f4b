//! Arbitrary bytes as engine-protocol lines after loading The Bridge at Morne: never a
//! panic, every answer one line of JSON with a boolean `ok`, and an action is in
//! `legal` exactly when `apply` takes it. A line `#N` plays the N-th legal action.
#![no_main]

use grognard_engine::Registry;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn setup() -> &'static (Registry, String) {
    static SETUP: OnceLock<(Registry, String)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let b = grognard_rules::builtin::find("bridge-at-morne").expect("built in");
        let load = serde_json::json!({"cmd": "load", "scenario_toml": b.text}).to_string();
        (grognard_rules::registry(), load)
    })
}

fuzz_target!(|data: &[u8]| {
    let (registry, load) = setup();
    grognard_engine::fuzzing::protocol_lines(registry, load, data);
});
