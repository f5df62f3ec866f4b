//! How actions and events name things on the wire: units by their scenario id,
//! hexes by their printed `CCRR` label.
//!
//! Inside the engine a unit is a small index ([`UnitId`]) and a hex an axial
//! [`Hex`]. Serialising needs the scenario's names, so the engine sets them for the
//! current thread with [`Names::scope`] around every JSON conversion; outside a scope,
//! units serialise as their index and hexes as `{"q":..,"r":..}`-free labels fail.
//!
//! ```
//! use grognard_engine::wire::Names;
//! use grognard_engine::UnitId;
//! use grognard_hex::{Hex, MapShape, Orientation, Shove};
//!
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Move {
//!     unit: UnitId,
//!     #[serde(with = "grognard_engine::wire::label")]
//!     to: Hex,
//! }
//! let map = MapShape::new(Orientation::FlatTop, Shove::Even, 10, 10).unwrap();
//! let names = Names::new(vec!["guard".into(), "hussars".into()], map);
//! let m = Move { unit: UnitId(1), to: Hex::new(2, 1) };
//! let json = names.scope(|| serde_json::to_string(&m)).unwrap();
//! assert_eq!(json, r#"{"unit":"hussars","to":"0303"}"#);
//! let back: Move = names.scope(|| serde_json::from_str(&json)).unwrap();
//! assert_eq!(back, m);
//! ```

use grognard_hex::{Hex, MapShape};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// A unit, as its index in the scenario's unit list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId(pub u16);

impl UnitId {
    /// The index as a `usize`.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The scenario's unit ids and map, for writing and reading JSON.
#[derive(Clone, Debug)]
pub struct Names {
    inner: Arc<NamesInner>,
}

#[derive(Debug)]
struct NamesInner {
    units: Vec<String>,
    by_id: HashMap<String, u16>,
    map: MapShape,
    /// What a sentence calls each unit (index = [`UnitId`]): its scenario name.
    titles: Vec<String>,
    /// Each side's id and what a sentence calls it.
    sides: Vec<(String, String)>,
    /// The scenario's id and its ruleset's (empty for names made with [`Names::new`]).
    scenario: (String, String),
    /// The scenario's turn limit.
    turns: Option<u32>,
}

thread_local! {
    static CURRENT: RefCell<Vec<Names>> = const { RefCell::new(Vec::new()) };
}

impl Names {
    /// Names for these unit ids (index = [`UnitId`]) on this map.
    ///
    /// # Panics
    /// With more than 65,535 units.
    #[must_use]
    pub fn new(units: Vec<String>, map: MapShape) -> Names {
        let by_id = index_of(&units);
        Names {
            inner: Arc::new(NamesInner {
                titles: units.clone(),
                units,
                by_id,
                map,
                sides: Vec::new(),
                scenario: (String::new(), String::new()),
                turns: None,
            }),
        }
    }

    /// Names for a scenario's units (in its order) on its map, with the names its
    /// sentences use: each unit's and side's `name`. A unit without one is called
    /// after its side and its place in the list ("unit 3 of Blue corps"), never by
    /// its id, which is for machines.
    ///
    /// # Panics
    /// With more than 65,535 units.
    #[must_use]
    pub fn of_scenario(scenario: &crate::scenario::Scenario) -> Names {
        let sides: Vec<(String, String)> = scenario
            .sides
            .iter()
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect();
        let titles = scenario
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| match &u.name {
                Some(name) if !name.trim().is_empty() => name.clone(),
                _ => {
                    let side = sides
                        .iter()
                        .find(|(id, _)| *id == u.side)
                        .map_or("its side", |(_, name)| name.as_str());
                    format!("unit {} of {side}", i + 1)
                }
            })
            .collect();
        let units: Vec<String> = scenario.units.iter().map(|u| u.id.clone()).collect();
        let by_id = index_of(&units);
        Names {
            inner: Arc::new(NamesInner {
                units,
                by_id,
                map: scenario.map,
                titles,
                sides,
                scenario: (scenario.id.clone(), scenario.ruleset.clone()),
                turns: scenario.turns,
            }),
        }
    }

    /// What a sentence calls a unit: its scenario name (its id for names made with
    /// [`Names::new`] alone), or `"a unit"` for an index outside the scenario.
    #[must_use]
    pub fn unit_title(&self, id: UnitId) -> &str {
        self.inner
            .titles
            .get(id.index())
            .map_or("a unit", String::as_str)
    }

    /// What a sentence calls a side: its scenario name, or the id itself when the
    /// scenario has no such side (names made with [`Names::new`] alone).
    #[must_use]
    pub fn side_title<'a>(&'a self, side: &'a str) -> &'a str {
        self.inner
            .sides
            .iter()
            .find(|(id, _)| id == side)
            .map_or(side, |(_, name)| name.as_str())
    }

    /// A side's place in the scenario's list of sides (0 for the first).
    #[must_use]
    pub fn side_index(&self, side: &str) -> Option<usize> {
        self.inner.sides.iter().position(|(id, _)| id == side)
    }

    /// The id of the scenario these names come from (empty for names made with
    /// [`Names::new`]).
    #[must_use]
    pub fn scenario(&self) -> &str {
        &self.inner.scenario.0
    }

    /// The scenario's turn limit, where it has one.
    #[must_use]
    pub fn turns(&self) -> Option<u32> {
        self.inner.turns
    }

    /// The id of the scenario's ruleset (empty for names made with [`Names::new`]).
    #[must_use]
    pub fn ruleset(&self) -> &str {
        &self.inner.scenario.1
    }

    /// The map.
    #[must_use]
    pub fn map(&self) -> &MapShape {
        &self.inner.map
    }

    /// A unit's scenario id.
    #[must_use]
    pub fn unit_name(&self, id: UnitId) -> Option<&str> {
        self.inner.units.get(id.index()).map(String::as_str)
    }

    /// The unit with this scenario id.
    #[must_use]
    pub fn unit(&self, name: &str) -> Option<UnitId> {
        self.inner.by_id.get(name).copied().map(UnitId)
    }

    /// The number of units.
    #[must_use]
    pub fn unit_count(&self) -> usize {
        self.inner.units.len()
    }

    /// A hex's label, or its axial coordinates when it is off the map.
    #[must_use]
    pub fn label(&self, hex: Hex) -> String {
        self.inner
            .map
            .label(hex)
            .unwrap_or_else(|| format!("({},{})", hex.q, hex.r))
    }

    /// Runs `f` with these names current on this thread.
    pub fn scope<T>(&self, f: impl FnOnce() -> T) -> T {
        struct Pop;
        impl Drop for Pop {
            fn drop(&mut self) {
                CURRENT.with(|c| c.borrow_mut().pop());
            }
        }
        CURRENT.with(|c| c.borrow_mut().push(self.clone()));
        let _pop = Pop;
        f()
    }

    fn current() -> Option<Names> {
        CURRENT.with(|c| c.borrow().last().cloned())
    }
}

impl Serialize for UnitId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match Names::current()
            .as_ref()
            .and_then(|n| n.unit_name(*self).map(str::to_owned))
        {
            Some(name) => s.serialize_str(&name),
            None => s.serialize_u16(self.0),
        }
    }
}

impl<'de> Deserialize<'de> for UnitId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UnitId, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Name(String),
            Index(u64),
        }
        match Raw::deserialize(d)? {
            // A number is an index into the unit list: with names in scope it must name
            // one of them, or a ruleset would index past its units and panic.
            Raw::Index(i) => match (u16::try_from(i), Names::current()) {
                (Ok(u), None) => Ok(UnitId(u)),
                (Ok(u), Some(names)) if usize::from(u) < names.unit_count() => Ok(UnitId(u)),
                (_, names) => Err(serde::de::Error::custom(match names {
                    Some(n) => format!(
                        "no unit number {i} in this scenario (it has {} units)",
                        n.unit_count()
                    ),
                    None => format!("no unit number {i}: unit numbers go up to {}", u16::MAX),
                })),
            },
            Raw::Name(name) => {
                let names = Names::current().ok_or_else(|| {
                    serde::de::Error::custom(
                        "unit names need a scenario (engine bug: no Names scope)",
                    )
                })?;
                names.unit(&name).ok_or_else(|| {
                    serde::de::Error::custom(format!("no unit `{name}` in this scenario"))
                })
            }
        }
    }
}

/// `#[serde(with = "grognard_engine::wire::label")]` for a [`Hex`] written as its label.
pub mod label {
    use super::{Hex, Names};
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the hex's label.
    ///
    /// # Errors
    /// Outside a [`Names::scope`].
    pub fn serialize<S: Serializer>(hex: &Hex, s: S) -> Result<S::Ok, S::Error> {
        let names = Names::current().ok_or_else(|| {
            serde::ser::Error::custom("hex labels need a scenario (no Names scope)")
        })?;
        s.serialize_str(&names.label(*hex))
    }

    /// Reads a label; off-map and malformed labels are errors naming the label.
    ///
    /// # Errors
    /// A malformed or off-map label, or outside a [`Names::scope`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let text = String::deserialize(d)?;
        let names = Names::current().ok_or_else(|| {
            serde::de::Error::custom("hex labels need a scenario (no Names scope)")
        })?;
        names
            .map()
            .parse_label(&text)
            .map_err(serde::de::Error::custom)
    }
}

/// `#[serde(with = "grognard_engine::wire::labels")]` for a `Vec<Hex>` written as labels.
pub mod labels {
    use super::Hex;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct L(#[serde(with = "super::label")] Hex);

    /// Writes the labels.
    ///
    /// # Errors
    /// Outside a [`super::Names::scope`].
    pub fn serialize<S: Serializer>(hexes: &[Hex], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(hexes.iter().map(|&h| L(h)))
    }

    /// Reads the labels.
    ///
    /// # Errors
    /// Any malformed or off-map label.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Hex>, D::Error> {
        Ok(Vec::<L>::deserialize(d)?.into_iter().map(|l| l.0).collect())
    }
}

/// `#[serde(with = "grognard_engine::wire::opt_label")]` for an `Option<Hex>`.
pub mod opt_label {
    use super::Hex;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct L(#[serde(with = "super::label")] Hex);

    /// Writes the label or null.
    ///
    /// # Errors
    /// Outside a [`super::Names::scope`].
    pub fn serialize<S: Serializer>(hex: &Option<Hex>, s: S) -> Result<S::Ok, S::Error> {
        hex.map(L).serialize(s)
    }

    /// Reads a label or null.
    ///
    /// # Errors
    /// A malformed or off-map label.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Hex>, D::Error> {
        Ok(Option::<L>::deserialize(d)?.map(|l| l.0))
    }
}

/// Each unit id with its number.
///
/// # Panics
/// With more than 65,535 units (validation refuses such scenarios and saves).
fn index_of(units: &[String]) -> HashMap<String, u16> {
    units
        .iter()
        .enumerate()
        .map(|(i, u)| (u.clone(), u16::try_from(i).expect("at most 65535 units")))
        .collect()
}
