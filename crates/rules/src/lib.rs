//! The rulesets grognard plays, each in a folder named after its game, with files
//! named after the rulebook's chapters and its tables in a data file.
//!
//! ```
//! let registry = grognard_rules::registry();
//! let b = grognard_rules::builtin::find("bridge-at-morne").unwrap();
//! let scenario = registry.load_scenario(b.path, b.text).unwrap();
//! let game = registry.new_game(scenario, None).unwrap();
//! assert_eq!(game.to_act().unwrap().side, "blue");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod battle_cry;
pub mod builtin;
pub mod commands_colors;
pub mod common;
pub mod jomini;
pub mod morne_plaine;
pub mod skirmish;

use grognard_engine::scenario::Scenario;
use grognard_engine::{Registry, RulesetVisitor};

/// Shows `visitor` every ruleset's type, in the registry's order: the one list of
/// rulesets, from which [`registry`] and the computer opponent's table are built.
pub fn visit_all(visitor: &mut impl RulesetVisitor) {
    visitor.visit::<morne_plaine::MornePlaine>();
    visitor.visit::<battle_cry::BattleCry>();
    visitor.visit::<skirmish::Skirmish>();
    visitor.visit::<jomini::Jomini>();
}

/// Every ruleset, by name.
#[must_use]
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    visit_all(&mut registry);
    registry
}

/// A one-line summary of a valid scenario.
#[must_use]
pub fn summary(s: &Scenario) -> String {
    let sides: Vec<String> = s
        .sides
        .iter()
        .map(|side| {
            let n = s.units.iter().filter(|u| u.side == side.id).count();
            format!("{} {n} units", side.id)
        })
        .collect();
    format!(
        "{}: ok: \"{}\" ({}), {}x{} hexes, {}, {}",
        s.file,
        s.title,
        s.ruleset,
        s.map.cols(),
        s.map.rows(),
        sides.join(", "),
        s.turns
            .map_or_else(|| "no turn limit".to_owned(), |t| format!("{t} turns"))
    )
}
