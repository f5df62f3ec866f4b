//! The test kit, written once over [`Ruleset`](grognard_engine::Ruleset): a table to set
//! positions up and act on them ([`table`]), golden legal-action counts in one format
//! ([`golden`]), and random playouts with the legal == explain-accepted check
//! ([`playout`]). Each ruleset's `harness.rs` keeps only its own builders and shortcuts.

pub mod golden;
pub mod map;
pub mod playout;
pub mod reach;
pub mod table;
pub mod terms;

use grognard_engine::scenario::Scenario;
use grognard_engine::{AnyGame, Dice, Refusal, Ruleset};
use serde_json::Value;

pub use table::Table;

/// A built-in scenario, validated.
pub fn builtin(id: &str) -> Scenario {
    let b = grognard_rules::builtin::find(id).expect("built-in scenario");
    grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .unwrap_or_else(|p| panic!("{p}"))
}

/// A scenario from TOML text.
///
/// # Panics
/// On any scenario problem, showing the text.
pub fn scenario(text: &str) -> Scenario {
    grognard_rules::registry()
        .load_scenario("test.toml", text)
        .unwrap_or_else(|p| panic!("{p}\n{text}"))
}

/// A ruleset's shipped tables (`shipped`, the text of its data.toml) with each
/// `(from, to)` edit made to their text, as a player who owns the printed tables would
/// make it, then read by `parse`; kept for the life of the test run.
///
/// # Panics
/// When an edit finds nothing to replace or the tables do not parse.
pub fn edited_tables<D>(
    shipped: &str,
    edits: &[(&str, &str)],
    parse: impl FnOnce(&str) -> Result<D, String>,
) -> &'static D {
    let mut text = shipped.to_owned();
    for (from, to) in edits {
        assert!(text.contains(from), "data.toml has no `{from}`");
        text = text.replacen(from, to, 1);
    }
    Box::leak(Box::new(parse(&text).unwrap_or_else(|e| panic!("{e}"))))
}

/// A new game.
pub fn game(s: Scenario) -> Box<dyn AnyGame> {
    grognard_rules::registry().new_game(s, None).expect("game")
}

/// The legal actions of a state, through the trait.
pub fn legal<R: Ruleset>(rules: &R, state: &R::State) -> Vec<R::Action> {
    let mut out = Vec::new();
    rules.legal_actions(state, &mut out);
    out
}

/// Plays random legal actions until the game ends or `max` actions; returns how many.
pub fn random_playout(game: &mut dyn AnyGame, seed: u64, max: usize) -> usize {
    let mut dice = Dice::new(seed);
    for n in 0..max {
        if game.outcome().is_some() {
            return n;
        }
        let legal = game.legal();
        assert!(!legal.is_empty(), "dead end: no legal action at step {n}");
        let pick = (dice.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        let action = &legal[pick];
        if let Err(e) = game.apply(action) {
            panic!("legal action {action} refused: {e}");
        }
    }
    max
}

/// What an action did: its events, or the refusal.
pub type Done<R> = Result<Vec<<R as Ruleset>::Event>, Refusal>;

/// Whether an event list holds an event matching `f`.
pub fn has<E>(events: &[E], f: impl Fn(&E) -> bool) -> bool {
    events.iter().any(f)
}

/// The action objects of a given type.
pub fn of_type<'a>(actions: &'a [Value], ty: &str) -> Vec<&'a Value> {
    actions.iter().filter(|a| a["type"] == ty).collect()
}

/// The `(turn, side, phase)` of each phase-began event in a list, for the rulesets whose
/// event of that name carries those three: `phases_began!(events, Event::PhaseBegan)`.
macro_rules! phases_began {
    ($events:expr, $began:path) => {
        $events
            .iter()
            .filter_map(|e| match e {
                $began { turn, side, phase } => Some((*turn, side.to_string(), *phase)),
                _ => None,
            })
            .collect()
    };
}
pub(crate) use phases_began;
