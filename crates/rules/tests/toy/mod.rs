//! The Duel, a toy fifth ruleset added by following docs/ADDING-A-RULESET.md: its rules
//! in `duel/`, a test per rule ID through the kit's table, golden counts and a playout
//! with the legal == explain check.

mod duel;
mod golden;
mod playouts;
mod rules;

use crate::common::Table;
use duel::Duel;
use grognard_engine::scenario::Scenario;
use grognard_engine::Registry;

/// A registry with the toy in it (the shipped one lives in `grognard_rules::registry`).
pub fn registry() -> Registry {
    Registry::new().with::<Duel>()
}

/// The toy's scenario file, validated.
pub fn scenario() -> Scenario {
    registry()
        .load_scenario("duel.toml", include_str!("duel.toml"))
        .unwrap_or_else(|p| panic!("{p}"))
}

/// The kit's table at the start of a duel (fresh dice seeded 1 for each `apply`).
pub fn table() -> Table<Duel> {
    Table::of_scenario(&scenario(), 1)
}
