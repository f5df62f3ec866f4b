//! The validated scenario: a game's starting state, every name checked.

use super::{Loc, Problem, Value};
use grognard_hex::{Direction, Grid, Hex, MapShape, Orientation, SideGrid};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A validated scenario: the map, its features, the sides and units, ready to play.
///
/// Terrain, hexside features and path kinds are stored as numbers into the
/// ruleset's [`Vocabulary`](super::Vocabulary) lists, which are copied here
/// ([`Scenario::terrain_names`], [`Scenario::hexside_features`],
/// [`Scenario::path_kinds`]) so a scenario can be read on its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The file it was read from, for located problems.
    pub file: String,
    /// Short identifier.
    pub id: String,
    /// Title for players.
    pub title: String,
    /// Longer description (may be empty).
    pub description: String,
    /// The ruleset's name.
    pub ruleset: String,
    /// Default seed of the dice.
    pub seed: u64,
    /// Turn limit, if any.
    pub turns: Option<u32>,
    /// The side that plays first.
    pub first_side: String,
    /// Every option of the ruleset, the scenario's setting or the default.
    pub options: BTreeMap<String, Value>,
    /// Size and layout.
    pub map: MapShape,
    /// Terrain names; [`Scenario::terrain`] holds indexes into this.
    pub terrain_names: Vec<String>,
    /// Terrain of each hex, an index into [`Scenario::terrain_names`].
    pub terrain: Grid<u8>,
    /// Elevation of each hex (0 when the file gives none).
    pub elevation: Grid<i8>,
    /// Hexside feature names; bit `i` of [`Scenario::hexsides`] is feature `i`.
    pub hexside_features: Vec<String>,
    /// Features of each hexside, a bit set, readable from either side.
    pub hexsides: SideGrid<u16>,
    /// Path kind names; bit `k` of the path grids is kind `k`.
    pub path_kinds: Vec<String>,
    /// Roads, tracks and other paths, in file order.
    pub paths: Vec<Path>,
    /// Bit `k` set when a path of kind `k` crosses the hexside (its two hexes are
    /// consecutive on the path); readable from either side.
    pub path_links: SideGrid<u8>,
    /// Bit `k` set when a path of kind `k` runs through the hex.
    pub path_hexes: Grid<u8>,
    /// Named places and objectives.
    pub places: Vec<Place>,
    /// The sides, in file order.
    pub sides: Vec<Side>,
    /// The units, in file order.
    pub units: Vec<Unit>,
    /// `[victory]`, raw, for the ruleset.
    pub victory: RawTable,
    /// Extra tables the ruleset allowed, raw, by name.
    pub sections: BTreeMap<String, RawTable>,
}

/// A road, track or other path: hexes in order, each adjacent to the next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Path {
    /// Index into [`Scenario::path_kinds`].
    pub kind: u8,
    /// Optional name.
    pub name: Option<String>,
    /// The hexes in order.
    pub hexes: Vec<Hex>,
    /// Where the file defines it.
    pub loc: Loc,
}

/// A named hex, perhaps an objective.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Name for players.
    pub name: String,
    /// Where it is.
    pub hex: Hex,
    /// Whether it is an objective.
    pub objective: bool,
    /// Its worth (victory points), if the file gives one.
    pub value: Option<i64>,
    /// The side holding it at the start, if any.
    pub owner: Option<String>,
    /// Where the file defines it.
    pub loc: Loc,
}

/// A map edge, for retreats toward one's own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Edge {
    /// The top of the map.
    North,
    /// The bottom.
    South,
    /// The right.
    East,
    /// The left.
    West,
}

impl Edge {
    /// The lowercase name used in files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::South => "south",
            Edge::East => "east",
            Edge::West => "west",
        }
    }

    /// The edge called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Edge> {
        [Edge::North, Edge::South, Edge::East, Edge::West]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// One side of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// Id used by units and places.
    pub id: String,
    /// Name for players (the id when the file gives none).
    pub name: String,
    /// The map edge it retreats toward, if the file gives one.
    pub home_edge: Option<Edge>,
    /// Ruleset values, checked against [`Vocabulary::side_values`](super::Vocabulary::side_values).
    pub values: BTreeMap<String, Value>,
    /// Where the file defines it.
    pub loc: Loc,
}

/// A unit (or leader, general, character) at its start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Unique id.
    pub id: String,
    /// Its side's id.
    pub side: String,
    /// Its unit type's name.
    pub kind: String,
    /// Name for players, if any.
    pub name: Option<String>,
    /// Starting hex; `None` for a reinforcement.
    pub hex: Option<Hex>,
    /// When and where a reinforcement comes on; `None` for a unit on the map.
    pub enters: Option<Entry>,
    /// Facing, if the file gives one.
    pub facing: Option<Direction>,
    /// Its values, checked against its unit type.
    pub values: BTreeMap<String, Value>,
    /// Where the file defines it.
    pub loc: Loc,
}

impl Unit {
    /// A whole-number value.
    #[must_use]
    pub fn int(&self, name: &str) -> Option<i64> {
        self.values.get(name).and_then(Value::as_int)
    }

    /// A string value.
    #[must_use]
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).and_then(Value::as_str)
    }

    /// A boolean value.
    #[must_use]
    pub fn flag(&self, name: &str) -> Option<bool> {
        self.values.get(name).and_then(Value::as_bool)
    }
}

/// A reinforcement's arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The turn it comes on (1-based).
    pub turn: u32,
    /// The map hex it comes on at.
    pub hex: Hex,
}

/// A table kept raw for the ruleset, with positions to report its problems at.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RawTable {
    /// Its content.
    pub table: toml::Table,
    /// Where the table starts (its header).
    pub loc: Loc,
    /// Where each value is, by path: `points`, `objectives[0].hex`.
    pub locs: BTreeMap<String, Loc>,
}

impl RawTable {
    /// Where the value at `path` is, or the table's own position.
    #[must_use]
    pub fn loc_of(&self, path: &str) -> Loc {
        self.locs.get(path).copied().unwrap_or(self.loc)
    }
}

impl Scenario {
    /// The terrain name of a hex; `None` off the map.
    #[must_use]
    pub fn terrain_at(&self, hex: Hex) -> Option<&str> {
        self.terrain
            .get(hex)
            .map(|&i| self.terrain_names[usize::from(i)].as_str())
    }

    /// The elevation of a hex; `None` off the map.
    #[must_use]
    pub fn elevation_at(&self, hex: Hex) -> Option<i8> {
        self.elevation.get(hex).copied()
    }

    /// The bit of a hexside feature in [`Scenario::hexsides`], if the ruleset has it.
    #[must_use]
    pub fn feature_bit(&self, name: &str) -> Option<u16> {
        self.hexside_features
            .iter()
            .position(|f| f == name)
            .map(|i| 1 << i)
    }

    /// Whether the hexside of `hex` toward `dir` has the feature `name`.
    #[must_use]
    pub fn has_feature(&self, hex: Hex, dir: Direction, name: &str) -> bool {
        self.feature_bit(name)
            .is_some_and(|bit| self.hexsides.get(hex, dir) & bit != 0)
    }

    /// The names of the features on the hexside of `hex` toward `dir`.
    #[must_use]
    pub fn features(&self, hex: Hex, dir: Direction) -> Vec<&str> {
        let bits = self.hexsides.get(hex, dir);
        self.hexside_features
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, f)| f.as_str())
            .collect()
    }

    /// The bit of a path kind in [`Scenario::path_links`] and [`Scenario::path_hexes`].
    #[must_use]
    pub fn path_bit(&self, kind: &str) -> Option<u8> {
        self.path_kinds
            .iter()
            .position(|k| k == kind)
            .map(|i| 1 << i)
    }

    /// Whether a path of kind `kind` runs from `hex` across its hexside toward `dir`.
    #[must_use]
    pub fn has_path(&self, hex: Hex, dir: Direction, kind: &str) -> bool {
        self.path_bit(kind)
            .is_some_and(|bit| self.path_links.get(hex, dir) & bit != 0)
    }

    /// The `[position]` part, when the scenario starts where a game stood.
    #[must_use]
    pub fn position(&self) -> Option<&RawTable> {
        self.sections.get(super::POSITION)
    }

    /// The unit with this id.
    #[must_use]
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The side with this id.
    #[must_use]
    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.iter().find(|s| s.id == id)
    }

    /// The places in a hex.
    pub fn places_at(&self, hex: Hex) -> impl Iterator<Item = &Place> {
        self.places.iter().filter(move |p| p.hex == hex)
    }

    /// The printed label of a hex (`"0304"`), or `"(q,r)"` off the map.
    #[must_use]
    pub fn label(&self, hex: Hex) -> String {
        self.map
            .label(hex)
            .unwrap_or_else(|| format!("({},{})", hex.q, hex.r))
    }

    /// The hex a printed label names, if it is on the map.
    #[must_use]
    pub fn hex(&self, label: &str) -> Option<Hex> {
        self.map.parse_label(label).ok()
    }

    /// The compass name of a direction in this map's orientation.
    #[must_use]
    pub fn direction_name(&self, dir: Direction) -> &'static str {
        match self.map.orientation() {
            Orientation::FlatTop => dir.name(),
            Orientation::PointyTop => dir.pointy_name(),
        }
    }

    /// A problem at `loc` of this scenario's file, for rulesets checking what the
    /// engine could not.
    #[must_use]
    pub fn problem(&self, loc: Loc, message: impl Into<String>) -> Problem {
        loc.problem(&self.file, message)
    }
}
