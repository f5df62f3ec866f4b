//! Arbitrary bytes as a Morne Plaine scenario file: reading and validation never
//! panic, problems are located, valid scenarios start games whose saves load back.
#![no_main]

use grognard_engine::Registry;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(grognard_rules::registry)
}

fuzz_target!(|data: &[u8]| {
    grognard_engine::fuzzing::scenario_parser(registry(), data);
});
