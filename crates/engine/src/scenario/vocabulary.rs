//! What a ruleset lets a scenario say: the words a scenario file may use.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The words a ruleset lets a scenario use: terrain names, hexside features, path
/// kinds, unit types and their values, sides, options and extra tables.
///
/// The engine knows no ruleset; each ruleset supplies its vocabulary and the
/// scenario is checked against it. Index order matters: a terrain's position in
/// [`Vocabulary::terrains`] is its number in [`Scenario::terrain`](super::Scenario::terrain),
/// a feature's position is its bit in [`Scenario::hexsides`](super::Scenario::hexsides),
/// a path kind's position is its bit in [`Scenario::path_links`](super::Scenario::path_links).
///
/// ```
/// use grognard_engine::scenario::{UnitType, ValueSpec, Vocabulary};
/// let vocab = Vocabulary::new("skirmish")
///     .terrains(["open", "brush"])
///     .hexside_features(["wall"])
///     .unit_type(UnitType::new("fighter").value(ValueSpec::int("vigor", 0, 5)));
/// assert_eq!(vocab.terrains[1], "brush");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vocabulary {
    /// The ruleset's name, as written in `[scenario] ruleset`.
    pub ruleset: String,
    /// Terrain names (at most 256); the legend maps codes to these.
    pub terrains: Vec<String>,
    /// Hexside feature names (at most 16); a hexside may hold several.
    pub hexside_features: Vec<String>,
    /// Path kinds such as `road` and `track` (at most 8).
    pub path_kinds: Vec<String>,
    /// Unit types and the values each needs.
    pub unit_types: Vec<UnitType>,
    /// The side ids the ruleset fixes (Morne Plaine's `orange` and `blue`), or `None`
    /// when a scenario names its own sides.
    pub sides: Option<Vec<String>>,
    /// Values a side may (or must) carry in its `values` table.
    pub side_values: Vec<ValueSpec>,
    /// House-rule variants a scenario may set in `[options]`.
    pub options: Vec<OptionSpec>,
    /// Pairs of unit types that may share a hex (in either order), such as a
    /// Battle Cry general with a unit. All other pairs may not.
    pub may_share_hex: Vec<(String, String)>,
    /// Extra top-level tables the ruleset reads itself; they are kept raw.
    pub sections: Vec<String>,
}

impl Vocabulary {
    /// An empty vocabulary for the ruleset `ruleset`.
    #[must_use]
    pub fn new(ruleset: impl Into<String>) -> Vocabulary {
        Vocabulary {
            ruleset: ruleset.into(),
            ..Vocabulary::default()
        }
    }

    /// Adds terrain names.
    #[must_use]
    pub fn terrains<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.terrains.extend(names.into_iter().map(Into::into));
        self
    }

    /// Adds hexside feature names.
    #[must_use]
    pub fn hexside_features<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.hexside_features
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// Adds path kinds.
    #[must_use]
    pub fn path_kinds<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.path_kinds.extend(names.into_iter().map(Into::into));
        self
    }

    /// Adds a unit type.
    #[must_use]
    pub fn unit_type(mut self, unit_type: UnitType) -> Self {
        self.unit_types.push(unit_type);
        self
    }

    /// Fixes the side ids.
    #[must_use]
    pub fn sides<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Self {
        self.sides = Some(ids.into_iter().map(Into::into).collect());
        self
    }

    /// Adds a value sides may carry.
    #[must_use]
    pub fn side_value(mut self, spec: ValueSpec) -> Self {
        self.side_values.push(spec);
        self
    }

    /// Adds an option.
    #[must_use]
    pub fn option(mut self, option: OptionSpec) -> Self {
        self.options.push(option);
        self
    }

    /// Lets two unit types share a hex.
    #[must_use]
    pub fn may_share_hex(mut self, a: impl Into<String>, b: impl Into<String>) -> Self {
        self.may_share_hex.push((a.into(), b.into()));
        self
    }

    /// Allows an extra top-level table.
    #[must_use]
    pub fn section(mut self, name: impl Into<String>) -> Self {
        self.sections.push(name.into());
        self
    }

    /// The unit type called `name`.
    #[must_use]
    pub fn unit_type_named(&self, name: &str) -> Option<&UnitType> {
        self.unit_types.iter().find(|t| t.name == name)
    }

    /// Whether units of types `a` and `b` may stand in one hex.
    #[must_use]
    pub fn may_share(&self, a: &str, b: &str) -> bool {
        self.may_share_hex
            .iter()
            .any(|(x, y)| (x == a && y == b) || (x == b && y == a))
    }
}

/// A kind of unit and the values its counters carry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UnitType {
    /// The name written in a unit's `type`.
    pub name: String,
    /// The values a unit of this type carries in its `values` table.
    pub values: Vec<ValueSpec>,
}

impl UnitType {
    /// A unit type with no values yet.
    #[must_use]
    pub fn new(name: impl Into<String>) -> UnitType {
        UnitType {
            name: name.into(),
            values: Vec::new(),
        }
    }

    /// Adds a value.
    #[must_use]
    pub fn value(mut self, spec: ValueSpec) -> Self {
        self.values.push(spec);
        self
    }
}

/// One named value and what it may hold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueSpec {
    /// The key.
    pub name: String,
    /// What it may hold.
    pub kind: ValueKind,
    /// Whether it must be given.
    pub required: bool,
}

impl ValueSpec {
    /// A required value of any kind.
    #[must_use]
    pub fn new(name: impl Into<String>, kind: ValueKind) -> ValueSpec {
        ValueSpec {
            name: name.into(),
            kind,
            required: true,
        }
    }

    /// A required whole number from `min` to `max` inclusive.
    #[must_use]
    pub fn int(name: impl Into<String>, min: i64, max: i64) -> ValueSpec {
        ValueSpec::new(name, ValueKind::Int { min, max })
    }

    /// A required string.
    #[must_use]
    pub fn text(name: impl Into<String>) -> ValueSpec {
        ValueSpec::new(name, ValueKind::Text)
    }

    /// A required string, one of `choices`.
    #[must_use]
    pub fn one_of<S: Into<String>>(
        name: impl Into<String>,
        choices: impl IntoIterator<Item = S>,
    ) -> ValueSpec {
        ValueSpec::new(
            name,
            ValueKind::OneOf(choices.into_iter().map(Into::into).collect()),
        )
    }

    /// A required direction name (`n`, `ne`, ... on flat-top maps).
    #[must_use]
    pub fn direction(name: impl Into<String>) -> ValueSpec {
        ValueSpec::new(name, ValueKind::Direction)
    }

    /// A required boolean.
    #[must_use]
    pub fn bool(name: impl Into<String>) -> ValueSpec {
        ValueSpec::new(name, ValueKind::Bool)
    }

    /// The same value, made optional.
    #[must_use]
    pub fn optional(mut self) -> Self {
        self.required = false;
        self
    }
}

/// What a value may hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// A whole number from `min` to `max` inclusive.
    Int {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// Any string.
    Text,
    /// One of these strings.
    OneOf(Vec<String>),
    /// A direction name of the map's orientation, stored as its lowercase name.
    Direction,
    /// `true` or `false`.
    Bool,
}

impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueKind::Int { min, max } => write!(f, "a whole number from {min} to {max}"),
            ValueKind::Text => f.write_str("a string"),
            ValueKind::OneOf(choices) => {
                let quoted: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
                write!(f, "one of {}", quoted.join(", "))
            }
            ValueKind::Direction => f.write_str("a direction name"),
            ValueKind::Bool => f.write_str("true or false"),
        }
    }
}

/// A house-rule variant a scenario may set in `[options]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionSpec {
    /// The key in `[options]`.
    pub name: String,
    /// What it may hold.
    pub kind: ValueKind,
    /// Its value when the scenario does not set it.
    pub default: Value,
    /// One sentence for players: what the variant changes.
    pub about: String,
}

impl OptionSpec {
    /// An option.
    #[must_use]
    pub fn new(
        name: impl Into<String>,
        kind: ValueKind,
        default: impl Into<Value>,
        about: impl Into<String>,
    ) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind,
            default: default.into(),
            about: about.into(),
        }
    }
}

/// A checked value of a unit, side or option.
///
/// Serialized untagged: `5`, `"heavy"`, `true`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A string (also directions and one-of choices).
    Text(String),
}

impl Value {
    /// The number, if this is one.
    #[must_use]
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The string, if this is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Text(s) => f.write_str(s),
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}

impl From<i32> for Value {
    fn from(i: i32) -> Value {
        Value::Int(i.into())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Text(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Text(s)
    }
}
