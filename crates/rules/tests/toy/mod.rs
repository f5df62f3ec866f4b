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

/// The toy's scenario: a row of five hexes, red at the west end, blue at the east.
pub const DUEL_TOML: &str = r#"
[scenario]
id = "duel"
title = "The Duel"
ruleset = "toy_duel"
turns = 6
first_side = "red"

[map]
cols = 5
rows = 1
legend = { "." = "clear" }
terrain = '''
. . . . .
'''

[[sides]]
id = "red"

[[sides]]
id = "blue"

[[units]]
id = "red-duellist"
side = "red"
type = "duellist"
at = "0101"

[[units]]
id = "blue-duellist"
side = "blue"
type = "duellist"
at = "0501"
"#;

/// A registry with the toy in it (the shipped one lives in `grognard_rules::registry`).
pub fn registry() -> Registry {
    Registry::new().with::<Duel>()
}

/// The toy's scenario, validated.
pub fn scenario() -> Scenario {
    registry()
        .load_scenario("duel.toml", DUEL_TOML)
        .unwrap_or_else(|p| panic!("{p}"))
}

/// The kit's table at the start of a duel (fresh dice seeded 1 for each `apply`).
pub fn table() -> Table<Duel> {
    Table::of_scenario(&scenario(), 1)
}
