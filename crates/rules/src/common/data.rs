//! The data plumbing of a ruleset's `data.toml`: every table says where its values come
//! from, the shipped text is parsed once, and a scenario's terrains find their rows.

use grognard_engine::scenario::{Loc, Problems, Scenario, Side};
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
/// # Errors
/// A terrain the table has no row for, named, at the top of the scenario's file: a
/// validated scenario names only its vocabulary's terrains, but a saved or stored one is
/// read from outside, and other tables than the shipped ones may lack a row.
pub fn terrain_rows<R: Clone>(
    s: &Scenario,
    table: &BTreeMap<String, R>,
) -> Result<Vec<R>, Problems> {
    let mut rows = Vec::with_capacity(s.terrain_names.len());
    let mut problems = Vec::new();
    for name in &s.terrain_names {
        match table.get(name) {
            Some(row) => rows.push(row.clone()),
            None => problems.push(s.problem(
                TOP,
                format!(
                    "unknown terrain `{name}`: the terrain table has: {}",
                    table.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )),
        }
    }
    if problems.is_empty() {
        Ok(rows)
    } else {
        Err(Problems(problems))
    }
}

/// The top of a scenario's file, where a problem of the whole scenario is reported.
pub const TOP: Loc = Loc { line: 1, column: 1 };

/// The side called `id`, or a problem naming it.
///
/// # Errors
/// When the scenario has no such side (a saved scenario is read from outside).
pub fn side<'s>(s: &'s Scenario, id: &str) -> Result<&'s Side, Problems> {
    s.side(id)
        .ok_or_else(|| Problems(vec![s.problem(TOP, format!("there is no side `{id}`"))]))
}
