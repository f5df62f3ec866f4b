//! The data plumbing of a ruleset's `data.toml`: every table says where its values come
//! from, the shipped text is parsed once, and a scenario's terrains find their rows.

use grognard_engine::scenario::Scenario;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::sync::OnceLock;

/// Where a value comes from: the Source column of each rules index (`docs/rules/*.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Stated in the rule text the ruleset was written from (its rules index,
    /// `docs/rules/<ruleset>.md`, cites each sentence).
    Seed,
    /// Stated in the game's public rules as recovered (the index says where).
    Recovered,
    /// Chosen here; the table gives the reason.
    Provisional,
}

/// The tables parsed from `text` into `cell` the first time they are asked for.
///
/// # Panics
/// If `text` does not parse: the shipped `data.toml` is pinned by a test, so this names
/// `file` and the parser's message.
pub fn shipped<T, E: Display>(
    cell: &'static OnceLock<T>,
    file: &str,
    text: &str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> &'static T {
    cell.get_or_init(|| parse(text).unwrap_or_else(|e| panic!("{file}: {e}")))
}

/// The row of a terrain table for each terrain the scenario names, in the scenario's
/// order: a hex's terrain index in `Scenario::terrain_names` is its index here.
///
/// # Panics
/// If a terrain has no row: a ruleset's vocabulary admits only the terrains of its table.
#[must_use]
pub fn terrain_rows<R: Clone>(s: &Scenario, table: &BTreeMap<String, R>) -> Vec<R> {
    s.terrain_names
        .iter()
        .map(|n| table.get(n).cloned().expect("vocabulary terrain has a row"))
        .collect()
}
