//! Checking a [`Scenario`] that was not validated here: the one inside a save or a stored
//! game is JSON from outside, and rulesets rely on what validation guarantees (every name
//! in the vocabulary, every hex on the map, every id pointing somewhere).

use super::{Scenario, Value, ValueKind, ValueSpec, Vocabulary};
use grognard_hex::{Direction, Hex, MapShape, Orientation};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The widths of the grids that store terrains, hexside features and path kinds, and the
/// longest side of a map (three-digit labels): as validation has them.
const MAX_TERRAINS: usize = 256;
const MAX_FEATURES: usize = 16;
const MAX_PATH_KINDS: usize = 8;
const MAX_SIDE: u32 = 999;
/// Coordinates beyond this are off every map; checked before any arithmetic on them,
/// which would overflow near `i32::MAX`.
const MAX_COORD: u32 = 4 * MAX_SIDE;

/// One thing wrong with a saved scenario: the field, as a path into the save's JSON
/// (`scenario.units[3].kind`), and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveProblem {
    /// Where, as a path into the save: `scenario.terrain_names[2]`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SaveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Every problem of a saved scenario, in field order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the save's scenario is not a valid one: {}", join(.0))]
pub struct SaveProblems(pub Vec<SaveProblem>);

fn join(problems: &[SaveProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Checks what validation guarantees of a scenario and what rulesets rely on, for a
/// scenario that comes from a save or a stored game rather than from a file.
///
/// # Errors
/// Every problem found, each naming its field; the checks of a part that does not fit
/// (a grid the wrong size, a map too big) stop there, since what follows would read it.
pub fn check_saved(s: &Scenario, vocab: &Vocabulary) -> Result<(), SaveProblems> {
    let mut c = Checker::default();
    if s.ruleset != vocab.ruleset {
        c.at(
            "scenario.ruleset",
            format!(
                "the scenario is for ruleset `{}`, not `{}`",
                s.ruleset, vocab.ruleset
            ),
        );
    }
    if s.turns == Some(0) {
        c.at("scenario.turns", "`turns` must be at least 1");
    }
    if c.map(s) {
        c.names(s, vocab);
        if c.problems.is_empty() {
            c.grids(s);
            c.paths_and_places(s);
        }
        c.sides(s, vocab);
        c.units(s, vocab);
    }
    c.options(s, vocab);
    for name in s.sections.keys() {
        if !vocab.sections.contains(name) {
            c.at(
                format!("scenario.sections.{name}"),
                format!(
                    "unknown table [{name}]; ruleset `{}` reads: {}",
                    vocab.ruleset,
                    list(&vocab.sections)
                ),
            );
        }
    }
    if c.problems.is_empty() {
        Ok(())
    } else {
        Err(SaveProblems(c.problems))
    }
}

/// Whether a hex is on the map, for a hex read from outside: its coordinates may be
/// anything, and the map's arithmetic on them would overflow.
#[must_use]
pub fn on_map(map: &MapShape, hex: Hex) -> bool {
    hex.q.unsigned_abs() <= MAX_COORD && hex.r.unsigned_abs() <= MAX_COORD && map.contains(hex)
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

#[derive(Default)]
struct Checker {
    problems: Vec<SaveProblem>,
}

impl Checker {
    fn at(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.problems.push(SaveProblem {
            field: field.into(),
            message: message.into(),
        });
    }

    /// The map's size; false when it is out of bounds (nothing else can be checked).
    fn map(&mut self, s: &Scenario) -> bool {
        let (cols, rows) = (s.map.cols(), s.map.rows());
        let ok = (1..=MAX_SIDE).contains(&cols) && (1..=MAX_SIDE).contains(&rows);
        if !ok {
            self.at(
                "scenario.map",
                format!(
                    "a map of {cols} columns by {rows} rows: each must be from 1 to {MAX_SIDE}"
                ),
            );
        }
        ok
    }

    /// Terrain names, hexside features and path kinds: the vocabulary's words.
    fn names(&mut self, s: &Scenario, vocab: &Vocabulary) {
        for (field, names, known, max) in [
            (
                "terrain_names",
                &s.terrain_names,
                &vocab.terrains,
                MAX_TERRAINS,
            ),
            (
                "hexside_features",
                &s.hexside_features,
                &vocab.hexside_features,
                MAX_FEATURES,
            ),
            (
                "path_kinds",
                &s.path_kinds,
                &vocab.path_kinds,
                MAX_PATH_KINDS,
            ),
        ] {
            if names.len() > max {
                self.at(
                    format!("scenario.{field}"),
                    format!("{} names: at most {max}", names.len()),
                );
            }
            let word = match field {
                "terrain_names" => "terrain",
                "hexside_features" => "hexside feature",
                _ => "path kind",
            };
            let mut seen = BTreeSet::new();
            for (i, name) in names.iter().enumerate() {
                if !known.contains(name) {
                    self.at(
                        format!("scenario.{field}[{i}]"),
                        format!(
                            "unknown {word} `{name}`; ruleset `{}` has: {}",
                            vocab.ruleset,
                            list(known)
                        ),
                    );
                } else if !seen.insert(name) {
                    self.at(
                        format!("scenario.{field}[{i}]"),
                        format!("{word} `{name}` is named twice"),
                    );
                }
            }
        }
    }

    /// The grids: each the map's size, each number naming something.
    fn grids(&mut self, s: &Scenario) {
        let n = s.map.len();
        let cells = |grid: serde_json::Result<serde_json::Value>| {
            grid.ok()
                .and_then(|g| g["cells"].as_array().map(Vec::len))
                .unwrap_or(0)
        };
        let mut fits = true;
        for (name, shape, len, per_hex) in [
            ("terrain", *s.terrain.shape(), s.terrain.cells().len(), 1),
            (
                "elevation",
                *s.elevation.shape(),
                s.elevation.cells().len(),
                1,
            ),
            (
                "path_hexes",
                *s.path_hexes.shape(),
                s.path_hexes.cells().len(),
                1,
            ),
            (
                "hexsides",
                *s.hexsides.shape(),
                cells(serde_json::to_value(&s.hexsides)),
                6,
            ),
            (
                "path_links",
                *s.path_links.shape(),
                cells(serde_json::to_value(&s.path_links)),
                6,
            ),
        ] {
            if shape != s.map || len != n * per_hex {
                self.at(
                    format!("scenario.{name}"),
                    format!(
                        "its {name} grid does not fit the map: {len} cells for {n} hexes of {}",
                        if per_hex == 1 { "one" } else { "six sides" }
                    ),
                );
                fits = false;
            }
        }
        if !fits {
            return;
        }
        if let Some((i, &t)) = s
            .terrain
            .cells()
            .iter()
            .enumerate()
            .find(|(_, &t)| usize::from(t) >= s.terrain_names.len())
        {
            self.at(
                format!("scenario.terrain.cells[{i}]"),
                format!(
                    "a terrain number has no terrain name: {t}, and there are {} names",
                    s.terrain_names.len()
                ),
            );
        }
        let features = bits_below(s.hexside_features.len());
        let kinds = bits_below(s.path_kinds.len());
        if let Some(i) = s
            .path_hexes
            .cells()
            .iter()
            .position(|&b| u32::from(b) & !kinds != 0)
        {
            self.at(
                format!("scenario.path_hexes.cells[{i}]"),
                "a path bit names no path kind",
            );
        }
        'hexsides: for (i, h) in s.map.hexes().enumerate() {
            for d in Direction::ALL {
                if u32::from(s.hexsides.get(h, d)) & !features != 0 {
                    self.at(
                        format!("scenario.hexsides.cells[{}]", i * 6 + d.index()),
                        "a hexside bit names no hexside feature",
                    );
                    break 'hexsides;
                }
            }
        }
        'links: for (i, h) in s.map.hexes().enumerate() {
            for d in Direction::ALL {
                if u32::from(s.path_links.get(h, d)) & !kinds != 0 {
                    self.at(
                        format!("scenario.path_links.cells[{}]", i * 6 + d.index()),
                        "a path bit names no path kind",
                    );
                    break 'links;
                }
            }
        }
    }

    fn paths_and_places(&mut self, s: &Scenario) {
        for (i, p) in s.paths.iter().enumerate() {
            if usize::from(p.kind) >= s.path_kinds.len() {
                self.at(
                    format!("scenario.paths[{i}].kind"),
                    format!(
                        "path kind number {} names no path kind ({} kinds)",
                        p.kind,
                        s.path_kinds.len()
                    ),
                );
            }
            if p.hexes.len() < 2 {
                self.at(
                    format!("scenario.paths[{i}].hexes"),
                    "a path needs at least two hexes",
                );
            }
            let mut prev: Option<Hex> = None;
            for (j, &h) in p.hexes.iter().enumerate() {
                if !on_map(&s.map, h) {
                    self.at(
                        format!("scenario.paths[{i}].hexes[{j}]"),
                        format!("hex ({}, {}) is off the map", h.q, h.r),
                    );
                    prev = None;
                    continue;
                }
                if prev.is_some_and(|p| p.distance(h) != 1) {
                    self.at(
                        format!("scenario.paths[{i}].hexes[{j}]"),
                        "the path jumps: the hexes are not adjacent",
                    );
                }
                prev = Some(h);
            }
        }
        for (i, p) in s.places.iter().enumerate() {
            if !on_map(&s.map, p.hex) {
                self.at(
                    format!("scenario.places[{i}].hex"),
                    format!("place `{}` is off the map", p.name),
                );
            }
            if let Some(owner) = &p.owner {
                if s.side(owner).is_none() {
                    self.at(
                        format!("scenario.places[{i}].owner"),
                        format!(
                            "place `{}` is held by `{owner}`, which is not a side",
                            p.name
                        ),
                    );
                }
            }
        }
    }

    fn sides(&mut self, s: &Scenario, vocab: &Vocabulary) {
        if s.sides.is_empty() {
            self.at("scenario.sides", "no sides: a scenario needs at least one");
        }
        let mut seen = BTreeSet::new();
        for (i, side) in s.sides.iter().enumerate() {
            if !seen.insert(side.id.as_str()) {
                self.at(
                    format!("scenario.sides[{i}].id"),
                    format!("duplicate side id `{}`", side.id),
                );
            }
            if let Some(fixed) = &vocab.sides {
                if !fixed.contains(&side.id) {
                    self.at(
                        format!("scenario.sides[{i}].id"),
                        format!(
                            "ruleset `{}` has no side `{}`; its sides are: {}",
                            vocab.ruleset,
                            side.id,
                            list(fixed)
                        ),
                    );
                }
            }
            self.values(
                &format!("scenario.sides[{i}].values"),
                &side.values,
                &vocab.side_values,
                s.map.orientation(),
            );
        }
        if let Some(fixed) = &vocab.sides {
            for id in fixed {
                if s.side(id).is_none() {
                    self.at(
                        "scenario.sides",
                        format!("side `{id}` of ruleset `{}` is missing", vocab.ruleset),
                    );
                }
            }
        }
        if !s.sides.iter().any(|x| x.id == s.first_side) {
            self.at(
                "scenario.first_side",
                format!("first side `{}` is not a side", s.first_side),
            );
        }
    }

    fn units(&mut self, s: &Scenario, vocab: &Vocabulary) {
        if s.units.len() > usize::from(u16::MAX) {
            self.at(
                "scenario.units",
                format!("{} units: at most {}", s.units.len(), u16::MAX),
            );
            return;
        }
        let mut ids = BTreeSet::new();
        let mut occupants: BTreeMap<Hex, Vec<&str>> = BTreeMap::new();
        for (i, u) in s.units.iter().enumerate() {
            let field = format!("scenario.units[{i}]");
            if !ids.insert(u.id.as_str()) {
                self.at(
                    format!("{field}.id"),
                    format!("duplicate unit id `{}`", u.id),
                );
            }
            if s.side(&u.side).is_none() {
                self.at(
                    format!("{field}.side"),
                    format!("unit `{}` has no side `{}`", u.id, u.side),
                );
            }
            match (u.hex, u.enters) {
                (Some(h), None) if on_map(&s.map, h) => {
                    let here = occupants.entry(h).or_default();
                    if let Some(other) = here.iter().find(|k| !vocab.may_share(k, &u.kind)) {
                        self.at(
                            format!("{field}.hex"),
                            format!(
                                "unit `{}` shares its hex with a unit of type `{other}`",
                                u.id
                            ),
                        );
                    }
                    here.push(&u.kind);
                }
                (None, Some(e)) if on_map(&s.map, e.hex) => {
                    if e.turn == 0 || s.turns.is_some_and(|t| e.turn > t) {
                        self.at(
                            format!("{field}.enters.turn"),
                            format!(
                                "unit `{}` enters on turn {}, not a turn of the game",
                                u.id, e.turn
                            ),
                        );
                    }
                }
                _ => self.at(
                    format!("{field}.hex"),
                    format!("unit `{}` is neither on the map nor entering it", u.id),
                ),
            }
            let Some(kind) = vocab.unit_type_named(&u.kind) else {
                let types: Vec<String> = vocab.unit_types.iter().map(|t| t.name.clone()).collect();
                self.at(
                    format!("{field}.kind"),
                    format!(
                        "unit `{}` is of unknown type `{}`; ruleset `{}` has: {}",
                        u.id,
                        u.kind,
                        vocab.ruleset,
                        list(&types)
                    ),
                );
                continue;
            };
            self.values(
                &format!("{field}.values"),
                &u.values,
                &kind.values,
                s.map.orientation(),
            );
        }
    }

    /// A `values` table against its specs: nothing unknown, nothing required missing,
    /// everything in range.
    fn values(
        &mut self,
        field: &str,
        given: &BTreeMap<String, Value>,
        specs: &[ValueSpec],
        orientation: Orientation,
    ) {
        for (name, value) in given {
            match specs.iter().find(|s| s.name == *name) {
                Some(spec) if !fits(value, &spec.kind, orientation) => self.at(
                    format!("{field}.{name}"),
                    format!("`{name}` must be {}", spec.kind),
                ),
                Some(_) => {}
                None => self.at(format!("{field}.{name}"), format!("unknown value `{name}`")),
            }
        }
        for spec in specs {
            if spec.required && !given.contains_key(&spec.name) {
                self.at(
                    format!("{field}.{}", spec.name),
                    format!("lacks a good `{}`: it is required", spec.name),
                );
            }
        }
    }

    /// Every option of the ruleset, each with a value it may hold.
    fn options(&mut self, s: &Scenario, vocab: &Vocabulary) {
        for (name, value) in &s.options {
            match vocab.options.iter().find(|o| o.name == *name) {
                Some(o) if !fits(value, &o.kind, s.map.orientation()) => self.at(
                    format!("scenario.options.{name}"),
                    format!("option `{name}` must be {}", o.kind),
                ),
                Some(_) => {}
                None => self.at(
                    format!("scenario.options.{name}"),
                    format!("unknown option `{name}` for ruleset `{}`", vocab.ruleset),
                ),
            }
        }
        for o in &vocab.options {
            if !s.options.contains_key(&o.name) {
                self.at(
                    format!("scenario.options.{}", o.name),
                    format!("option `{}` is missing", o.name),
                );
            }
        }
    }
}

/// The bits below `n`, as a mask.
fn bits_below(n: usize) -> u32 {
    u32::try_from(n)
        .ok()
        .and_then(|n| 1u32.checked_shl(n))
        .map_or(u32::MAX, |b| b - 1)
}

fn fits(value: &Value, kind: &ValueKind, orientation: Orientation) -> bool {
    match (value, kind) {
        (Value::Int(i), ValueKind::Int { min, max }) => (min..=max).contains(&i),
        (Value::Text(t), ValueKind::OneOf(choices)) => choices.contains(t),
        (Value::Text(t), ValueKind::Direction) => {
            Direction::ALL.iter().any(|d| match orientation {
                Orientation::FlatTop => d.name() == t,
                Orientation::PointyTop => d.pointy_name() == t,
            })
        }
        (Value::Text(_), ValueKind::Text) | (Value::Bool(_), ValueKind::Bool) => true,
        _ => false,
    }
}
