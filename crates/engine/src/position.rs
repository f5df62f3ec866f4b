//! Positions as scenario files (issue 19, item 4): the `[position]` part of a scenario,
//! written from a game's state and read back over the scenario's start.
//!
//! The engine knows no ruleset's state: it moves values between the state as the
//! ruleset serialises it and the table a player reads and writes, by a [`Shape`] the
//! ruleset gives. The shape names the list of units (written as a table keyed by unit
//! id), the fields holding a side (written as the side's id), the fields holding one
//! value per side (a table keyed by side id) and the lists of holders (side ids, or
//! `"none"`). Everything else goes through as the state writes it; a value the state
//! writes as nothing (JSON `null`) is written `"none"`, since TOML has no null.
//!
//! Reading starts from the scenario's start: a key the part leaves out keeps the
//! start's value, and so does a unit it leaves out. A unit it gives is given whole
//! (a field left out takes its default: `false`, `0`, none).

use crate::ruleset::Ruleset;
use crate::scenario::{Problem, Problems, RawTable, Scenario};
use serde_json::{Map, Value};

/// How a ruleset's state is written as a position part.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shape {
    /// The state's list of units, in scenario order, written as the table `units`
    /// keyed by unit id.
    pub units: Option<&'static str>,
    /// The keys a unit's entry may have (empty: any).
    pub unit_keys: &'static [&'static str],
    /// The keys the part may have besides `units` (empty: any).
    pub keys: &'static [&'static str],
    /// Fields holding a side's index, written as its id.
    pub sides: &'static [&'static str],
    /// Fields holding one value per side (an array in side order), written as a
    /// table keyed by side id.
    pub per_side: &'static [&'static str],
    /// Fields holding a list of side indexes or none (who holds each objective),
    /// written as side ids or `"none"`.
    pub holders: &'static [&'static str],
}

/// The sides in play order, as states number them: the first side, then the others in
/// file order.
#[must_use]
pub fn play_order(scenario: &Scenario) -> Vec<&str> {
    let first = scenario.first_side.as_str();
    std::iter::once(first)
        .chain(
            scenario
                .sides
                .iter()
                .map(|s| s.id.as_str())
                .filter(|id| *id != first),
        )
        .collect()
}

/// What the part writes for a value the state holds as nothing.
pub const NONE: &str = "none";

/// The state as a position part.
#[must_use]
pub fn write<R: Ruleset>(
    rules: &R,
    scenario: &Scenario,
    state: &R::State,
    shape: &Shape,
) -> toml::Table {
    let value = rules
        .names()
        .scope(|| serde_json::to_value(state))
        .unwrap_or(Value::Null);
    let Value::Object(fields) = value else {
        return toml::Table::new();
    };
    let order = play_order(scenario);
    let side_id = |v: &Value| -> Value {
        v.as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| order.get(i))
            .map_or(Value::String(NONE.into()), |s| {
                Value::String((*s).to_owned())
            })
    };
    let mut out = toml::Table::new();
    let mut units = None;
    for (key, v) in fields {
        let k = key.as_str();
        let v = if shape.units == Some(k) {
            let mut table = Map::new();
            if let Value::Array(items) = v {
                for (u, item) in scenario.units.iter().zip(items) {
                    table.insert(u.id.clone(), item);
                }
            }
            units = Some(Value::Object(table));
            continue;
        } else if shape.sides.contains(&k) {
            side_id(&v)
        } else if shape.per_side.contains(&k) {
            let mut table = Map::new();
            if let Value::Array(items) = v {
                for (s, item) in order.iter().zip(items) {
                    table.insert((*s).to_owned(), item);
                }
            }
            Value::Object(table)
        } else if shape.holders.contains(&k) {
            match v {
                Value::Array(items) => Value::Array(items.iter().map(side_id).collect()),
                other => other,
            }
        } else {
            v
        };
        if let Some(t) = to_toml(v) {
            out.insert(key, t);
        }
    }
    if let Some(t) = units.and_then(to_toml) {
        out.insert("units".into(), t);
    }
    out
}

/// A JSON value as TOML: `null` as `"none"`, numbers as integers where they are.
fn to_toml(v: Value) -> Option<toml::Value> {
    Some(match v {
        Value::Null => toml::Value::String(NONE.into()),
        Value::Bool(b) => toml::Value::Boolean(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64()?),
        },
        Value::String(s) => toml::Value::String(s),
        Value::Array(items) => toml::Value::Array(items.into_iter().filter_map(to_toml).collect()),
        Value::Object(fields) => toml::Value::Table(
            fields
                .into_iter()
                .filter_map(|(k, v)| to_toml(v).map(|t| (k, t)))
                .collect(),
        ),
    })
}

/// A TOML value as JSON: `"none"` as `null`.
fn to_json(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) if s == NONE => Value::Null,
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.clone(), to_json(v))).collect())
        }
    }
}

/// Reads a position part over the scenario's start, located problems for anything
/// it cannot take; the ruleset checks the state's sense afterwards ([`Position`]).
///
/// # Errors
/// Every problem with the part's shape: unknown keys, units and sides, values of the
/// wrong type (located at the value).
pub fn read<R: Ruleset>(
    rules: &R,
    scenario: &Scenario,
    raw: &RawTable,
    shape: &Shape,
) -> Result<R::State, Problems> {
    let mut start = rules
        .names()
        .scope(|| serde_json::to_value(rules.initial_state()))
        .unwrap_or(Value::Null);
    let mut p = Position {
        scenario,
        raw,
        problems: Vec::new(),
    };
    let side_ids = play_order(scenario);
    if let Value::Object(fields) = &mut start {
        for (key, value) in &raw.table {
            let k = key.as_str();
            if key == "units" && shape.units.is_some() {
                p.units(value, shape, fields);
                continue;
            }
            if !shape.keys.is_empty() && !shape.keys.contains(&k) {
                let mut expected: Vec<&str> = shape.keys.to_vec();
                if shape.units.is_some() {
                    expected.push("units");
                }
                p.at(
                    k,
                    format!(
                        "unknown key `{k}` in [position]; expected one of: {}",
                        expected.join(", ")
                    ),
                );
                continue;
            }
            let v = if shape.sides.contains(&k) {
                match p.side(k, value) {
                    Some(i) => Value::from(i),
                    None => continue,
                }
            } else if shape.per_side.contains(&k) {
                let Some(t) = value.as_table() else {
                    p.at(
                        k,
                        format!(
                            "`{k}` must be a table keyed by side id ({})",
                            side_ids.join(", ")
                        ),
                    );
                    continue;
                };
                let mut items = fields
                    .get(k)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                for (side, item) in t {
                    match side_ids.iter().position(|s| s == side) {
                        Some(i) if i < items.len() => {
                            if let Some(slot) = items.get_mut(i) {
                                *slot = to_json(item);
                            }
                        }
                        _ => p.at(
                            &format!("{k}.{side}"),
                            format!(
                                "unknown side `{side}` in `{k}`; the sides are: {}",
                                side_ids.join(", ")
                            ),
                        ),
                    }
                }
                Value::Array(items)
            } else if shape.holders.contains(&k) {
                let Some(items) = value.as_array() else {
                    p.at(k, format!("`{k}` must be a list of side ids or \"none\""));
                    continue;
                };
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let path = format!("{k}[{i}]");
                    match item.as_str() {
                        Some(NONE) => out.push(Value::Null),
                        Some(s) if side_ids.contains(&s) => {
                            out.push(Value::from(
                                side_ids.iter().position(|x| *x == s).unwrap_or(0),
                            ));
                        }
                        _ => p.at(
                            &path,
                            format!(
                                "`{}` is not a side; the sides are: {}, or \"none\"",
                                show(item),
                                side_ids.join(", ")
                            ),
                        ),
                    }
                }
                Value::Array(out)
            } else {
                to_json(value)
            };
            fields.insert(key.clone(), v);
        }
    }
    let read = rules
        .names()
        .scope(|| serde_path_to_error::deserialize::<_, R::State>(&start));
    match read {
        Ok(_) if !p.problems.is_empty() => Err(p.done()),
        Ok(state) => Ok(state),
        Err(e) => {
            let path = p.position_path(&e.path().to_string(), shape);
            let message = e.inner().to_string();
            let what = if path.is_empty() {
                "[position]".to_owned()
            } else {
                format!("`{path}`")
            };
            p.at(&path, format!("{what}: {message}"));
            Err(p.done())
        }
    }
}

fn show(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A position part being read: where its values are, and the problems found.
pub struct Position<'a> {
    /// The scenario it is read over.
    pub scenario: &'a Scenario,
    /// The part, raw, with where each value is.
    pub raw: &'a RawTable,
    /// The problems found so far.
    pub problems: Vec<Problem>,
}

impl Position<'_> {
    /// A position part of `scenario` to check.
    #[must_use]
    pub fn new<'a>(scenario: &'a Scenario, raw: &'a RawTable) -> Position<'a> {
        Position {
            scenario,
            raw,
            problems: Vec::new(),
        }
    }

    /// A problem at the value `path` of the part (`turn`, `units.a.morale`,
    /// `hands.union[2]`), or at the nearest enclosing value the file gives.
    pub fn at(&mut self, path: &str, message: impl Into<String>) {
        let mut path = path.to_owned();
        let loc = loop {
            if let Some(l) = self.raw.locs.get(&path) {
                break *l;
            }
            match path.rfind(['.', '[']) {
                Some(i) => path.truncate(i),
                None => break self.raw.loc,
            }
        };
        self.problems.push(self.scenario.problem(loc, message));
    }

    /// A problem at the entry of unit `index` (scenario order), or at its `field`.
    pub fn at_unit(&mut self, index: usize, field: &str, message: impl Into<String>) {
        let id = self.scenario.units.get(index).map_or("", |u| u.id.as_str());
        let path = if field.is_empty() {
            format!("units.{id}")
        } else {
            format!("units.{id}.{field}")
        };
        self.at(&path, message);
    }

    /// The problems, sorted; `Ok` when there are none.
    ///
    /// # Errors
    /// The problems found.
    pub fn finish(self) -> Result<(), Problems> {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(self.done())
        }
    }

    fn done(self) -> Problems {
        let mut problems = Problems(self.problems);
        problems.sort();
        problems
    }

    fn side(&mut self, key: &str, value: &toml::Value) -> Option<usize> {
        let ids = play_order(self.scenario);
        let found = value
            .as_str()
            .and_then(|s| ids.iter().position(|x| *x == s));
        if found.is_none() {
            self.at(
                key,
                format!(
                    "`{}` is not a side; the sides are: {}",
                    show(value),
                    ids.join(", ")
                ),
            );
        }
        found
    }

    fn units(&mut self, value: &toml::Value, shape: &Shape, fields: &mut Map<String, Value>) {
        let Some(field) = shape.units else { return };
        let Some(t) = value.as_table() else {
            self.at("units", "`units` must be a table keyed by unit id");
            return;
        };
        let Some(Value::Array(items)) = fields.get_mut(field) else {
            return;
        };
        for (id, entry) in t {
            let path = format!("units.{id}");
            let Some(i) = self.scenario.units.iter().position(|u| &u.id == id) else {
                self.at(
                    &path,
                    format!("unknown unit `{id}`: the scenario has no such unit"),
                );
                continue;
            };
            let Some(e) = entry.as_table() else {
                self.at(&path, format!("unit `{id}` must be a table of its values"));
                continue;
            };
            if !shape.unit_keys.is_empty() {
                for k in e.keys() {
                    if !shape.unit_keys.contains(&k.as_str()) {
                        self.at(
                            &format!("{path}.{k}"),
                            format!(
                                "unknown key `{k}` for unit `{id}`; expected one of: {}",
                                shape.unit_keys.join(", ")
                            ),
                        );
                    }
                }
            }
            if let Some(slot) = items.get_mut(i) {
                *slot = to_json(entry);
            }
        }
    }

    /// The part's path of a value the state's serialisation names by `path`
    /// (`pieces[3].figures` -> `units.a.figures`, `flags[1]` -> `flags.red`).
    fn position_path(&self, path: &str, shape: &Shape) -> String {
        let path = if path == "." { "" } else { path };
        let index = |rest: &str| -> Option<(usize, String)> {
            let rest = rest.strip_prefix('[')?;
            let end = rest.find(']')?;
            let i = rest.get(..end)?.parse().ok()?;
            Some((i, rest.get(end + 1..).unwrap_or("").to_owned()))
        };
        if let Some(f) = shape.units {
            if let Some((i, rest)) = path.strip_prefix(f).and_then(index) {
                let id = self.scenario.units.get(i).map_or("?", |u| u.id.as_str());
                return format!("units.{id}{rest}");
            }
        }
        for f in shape.per_side {
            if let Some((i, rest)) = path.strip_prefix(f).and_then(index) {
                let id = play_order(self.scenario).get(i).copied().unwrap_or("?");
                return format!("{f}.{id}{rest}");
            }
        }
        path.to_owned()
    }
}
