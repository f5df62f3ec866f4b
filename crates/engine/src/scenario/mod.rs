//! Scenario files: a human-writable TOML format, read into an unchecked
//! [`ScenarioSpec`], then validated against a ruleset's [`Vocabulary`] into a
//! [`Scenario`].
//!
//! The format is documented in `docs/SCENARIO-FORMAT.md`. Validation reports every
//! problem at once, each with the file, line and column and what is wrong:
//!
//! ```
//! use grognard_engine::scenario::{self, UnitType, ValueSpec, Vocabulary};
//!
//! let vocab = Vocabulary::new("demo")
//!     .terrains(["clear", "woods"])
//!     .path_kinds(["road"])
//!     .unit_type(UnitType::new("infantry").value(ValueSpec::int("cs", 1, 9)));
//! let text = r#"
//! [scenario]
//! id = "demo"
//! title = "Demo"
//! ruleset = "demo"
//!
//! [map]
//! cols = 3
//! rows = 2
//! legend = { c = "clear", w = "woods" }
//! terrain = '''
//! c c w
//! c x c
//! '''
//!
//! [[sides]]
//! id = "red"
//!
//! [[units]]
//! id = "a"
//! side = "red"
//! type = "infantry"
//! at = "0405"
//! values = { cs = 3 }
//! "#;
//! let problems = scenario::load("demo.toml", text, |name| {
//!     (name == "demo").then(|| vocab.clone())
//! })
//! .unwrap_err();
//! let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
//! assert_eq!(lines, [
//!     "demo.toml:13:3: unknown terrain code `x` in hex 0202; the legend has: c, w",
//!     "demo.toml:23:6: hex `0405` is off the map (3 columns by 2 rows)",
//! ]);
//! ```

mod model;
mod problem;
mod read;
mod saved;
mod spec;
mod validate;
mod vocabulary;
mod write;

pub use model::{Edge, Entry, Path, Place, RawTable, Scenario, Side, Unit};
pub use problem::{Loc, Problem, Problems};
pub use saved::{check_saved, on_map, SaveProblem, SaveProblems};
pub use spec::{
    EntrySpec, GridSpec, HeaderSpec, HexsidesSpec, MapSpec, PathSpec, PlaceSpec, RawEntry, RawSpec,
    ScenarioSpec, SideSpec, UnitSpec,
};
pub use vocabulary::{OptionSpec, UnitType, Value, ValueKind, ValueSpec, Vocabulary};
pub use write::write;

/// The name of the table that holds a position (issue 19, item 4): a scenario with
/// it starts where a game stood, not at its order of battle. It is kept in
/// [`Scenario::sections`] and read by [`crate::Ruleset::read_position`].
pub const POSITION: &str = "position";

/// Reads a scenario file into an unchecked [`ScenarioSpec`].
///
/// `file` is the name used in problems. Problems with the file's shape (unknown keys,
/// values of the wrong type, missing keys) do not stop reading: they are kept in
/// [`ScenarioSpec::problems`] and reported by [`validate`] with its own.
///
/// # Errors
/// Every TOML syntax error, located, when `text` is not TOML.
pub fn parse(file: &str, text: &str) -> Result<ScenarioSpec, Problems> {
    read::read(file, text)
}

/// Checks a spec against its map and `vocab` and builds the [`Scenario`].
///
/// # Errors
/// Every problem at once, in file order: the spec's own reading problems, then
/// bad labels, units off the map or sharing a hex, unknown terrain codes (at their
/// line and column inside the grid), grid rows of the wrong length, paths that
/// jump, unknown sides, types and values, duplicate ids, values out of range.
pub fn validate(spec: &ScenarioSpec, vocab: &Vocabulary) -> Result<Scenario, Problems> {
    validate::validate(spec, vocab)
}

/// Reads and validates a scenario file, asking `vocab_for` for the vocabulary of the
/// ruleset it names.
///
/// # Errors
/// TOML syntax errors; an unknown ruleset (at the `ruleset` key) with the reading
/// problems; otherwise everything [`validate`] reports.
pub fn load(
    file: &str,
    text: &str,
    vocab_for: impl Fn(&str) -> Option<Vocabulary>,
) -> Result<Scenario, Problems> {
    let spec = parse(file, text)?;
    let Some(ruleset) = &spec.scenario.ruleset else {
        return Err(unchecked(&spec, None));
    };
    if let Some(vocab) = vocab_for(ruleset.get_ref()) {
        validate(&spec, &vocab)
    } else {
        let lines = problem::Lines::new(&spec.source);
        let p = lines
            .loc(ruleset.span().start)
            .problem(file, format!("unknown ruleset `{}`", ruleset.get_ref()));
        Err(unchecked(&spec, Some(p)))
    }
}

/// The reading problems of a spec that cannot be validated, with `extra`.
fn unchecked(spec: &ScenarioSpec, extra: Option<Problem>) -> Problems {
    let mut problems = Problems(spec.problems.clone());
    problems.0.extend(extra);
    problems.sort();
    problems
}
