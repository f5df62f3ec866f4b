//! The unchecked scenario: what the file said, with where it said it.

use super::Problem;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

/// A key with its raw TOML value, both with their byte spans.
pub type RawEntry = (Spanned<String>, Spanned<toml::Value>);

/// An unchecked scenario: the file read as TOML into plain fields, nothing yet
/// checked against a map or a ruleset. [`validate`](super::validate) turns it into a
/// [`Scenario`](super::Scenario).
///
/// Spans are byte ranges into [`ScenarioSpec::source`]; table spans point at the
/// table's header (or its opening brace). A field is `None` when the file leaves it
/// out or gives it a value of the wrong type; either is recorded in
/// [`ScenarioSpec::problems`].
#[derive(Clone, Debug, Default)]
pub struct ScenarioSpec {
    /// The file name used in problems.
    pub file: String,
    /// The whole file text, for positions.
    pub source: String,
    /// Problems with the file's shape found while reading it: unknown keys, values of
    /// the wrong type, missing keys. [`validate`](super::validate) reports them with
    /// its own, so one run lists everything.
    pub problems: Vec<Problem>,
    /// `[scenario]`.
    pub scenario: HeaderSpec,
    /// `[options]`, as written.
    pub options: Vec<RawEntry>,
    /// `[map]`.
    pub map: MapSpec,
    /// `[[hexsides]]`.
    pub hexsides: Vec<HexsidesSpec>,
    /// `[[paths]]`.
    pub paths: Vec<PathSpec>,
    /// `[[places]]`.
    pub places: Vec<PlaceSpec>,
    /// `[[sides]]`.
    pub sides: Vec<SideSpec>,
    /// `[[units]]`.
    pub units: Vec<UnitSpec>,
    /// `[victory]`, raw.
    pub victory: Option<RawSpec>,
    /// Every other top-level table, raw, by name.
    pub sections: Vec<(Spanned<String>, RawSpec)>,
}

/// `[scenario]`: what the scenario is.
#[derive(Clone, Debug, Default)]
pub struct HeaderSpec {
    /// The table's header.
    pub span: Range<usize>,
    /// Short identifier.
    pub id: Option<Spanned<String>>,
    /// Title for players.
    pub title: Option<Spanned<String>>,
    /// Longer description.
    pub description: Option<Spanned<String>>,
    /// The ruleset's name.
    pub ruleset: Option<Spanned<String>>,
    /// Default seed.
    pub seed: Option<Spanned<i64>>,
    /// Turn limit.
    pub turns: Option<Spanned<i64>>,
    /// The side that plays first.
    pub first_side: Option<Spanned<String>>,
}

/// `[map]`: size, layout and what is in each hex.
#[derive(Clone, Debug, Default)]
pub struct MapSpec {
    /// The table's header.
    pub span: Range<usize>,
    /// Number of printed columns.
    pub cols: Option<Spanned<i64>>,
    /// Number of printed rows.
    pub rows: Option<Spanned<i64>>,
    /// `"flat"` or `"pointy"`.
    pub orientation: Option<Spanned<String>>,
    /// `"even"` or `"odd"`.
    pub shove: Option<Spanned<String>>,
    /// Terrain code -> terrain name.
    pub legend: Vec<(Spanned<String>, Spanned<String>)>,
    /// The terrain text grid.
    pub terrain: Option<GridSpec>,
    /// The elevation text grid.
    pub elevation: Option<GridSpec>,
}

/// A text grid, one printed row a line: either one multi-line string or an array of
/// strings (one or more rows each).
#[derive(Clone, Debug, Default)]
pub struct GridSpec {
    /// The whole value.
    pub span: Range<usize>,
    /// The strings, in order.
    pub pieces: Vec<Spanned<String>>,
}

/// One `[[hexsides]]` entry: a feature on a list of hexsides.
#[derive(Clone, Debug, Default)]
pub struct HexsidesSpec {
    /// The entry's header.
    pub span: Range<usize>,
    /// The feature's name.
    pub feature: Option<Spanned<String>>,
    /// `"0304/0305"` or `"0304/n"` each.
    pub sides: Vec<Spanned<String>>,
}

/// One `[[paths]]` entry: a road, track or other path through hexes.
#[derive(Clone, Debug, Default)]
pub struct PathSpec {
    /// The entry's header.
    pub span: Range<usize>,
    /// The path kind.
    pub kind: Option<Spanned<String>>,
    /// Optional name.
    pub name: Option<Spanned<String>>,
    /// Hex labels in order.
    pub hexes: Vec<Spanned<String>>,
}

/// One `[[places]]` entry: a named hex.
#[derive(Clone, Debug, Default)]
pub struct PlaceSpec {
    /// The entry's header.
    pub span: Range<usize>,
    /// Its name.
    pub name: Option<Spanned<String>>,
    /// Its hex label.
    pub hex: Option<Spanned<String>>,
    /// Whether it is an objective.
    pub objective: Option<Spanned<bool>>,
    /// Victory points or other worth.
    pub value: Option<Spanned<i64>>,
    /// The side holding it at the start.
    pub owner: Option<Spanned<String>>,
}

/// One `[[sides]]` entry.
#[derive(Clone, Debug, Default)]
pub struct SideSpec {
    /// The entry's header.
    pub span: Range<usize>,
    /// Side id.
    pub id: Option<Spanned<String>>,
    /// Name for players.
    pub name: Option<Spanned<String>>,
    /// `"north"`, `"south"`, `"east"` or `"west"`.
    pub home_edge: Option<Spanned<String>>,
    /// The `values` table.
    pub values: Option<Spanned<Vec<RawEntry>>>,
}

/// One `[[units]]` entry.
#[derive(Clone, Debug, Default)]
pub struct UnitSpec {
    /// The entry's header.
    pub span: Range<usize>,
    /// Unique id.
    pub id: Option<Spanned<String>>,
    /// Side id.
    pub side: Option<Spanned<String>>,
    /// Unit type (the `type` key).
    pub kind: Option<Spanned<String>>,
    /// Name for players.
    pub name: Option<Spanned<String>>,
    /// Starting hex label.
    pub at: Option<Spanned<String>>,
    /// Reinforcement entry.
    pub enters: Option<EntrySpec>,
    /// Facing direction name.
    pub facing: Option<Spanned<String>>,
    /// The `values` table.
    pub values: Option<Spanned<Vec<RawEntry>>>,
}

/// `enters = { turn = N, hex = "0105" }`.
#[derive(Clone, Debug, Default)]
pub struct EntrySpec {
    /// The table.
    pub span: Range<usize>,
    /// The turn of entry.
    pub turn: Option<Spanned<i64>>,
    /// The hex of entry.
    pub hex: Option<Spanned<String>>,
}

/// A table kept raw for the ruleset, with the span of every key path inside it.
#[derive(Clone, Debug, Default)]
pub struct RawSpec {
    /// The table's header.
    pub span: Range<usize>,
    /// Its content.
    pub table: toml::Table,
    /// Span of each value by path: `points`, `objectives[0].hex`.
    pub spans: BTreeMap<String, Range<usize>>,
}
