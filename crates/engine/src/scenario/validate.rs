//! Checking a [`ScenarioSpec`] against its map and its ruleset's [`Vocabulary`].

mod forces;
mod map;

use super::model::{Edge, Entry, Path, Place, RawTable, Scenario, Side, Unit};
use super::problem::Lines;
use super::spec::{GridSpec, RawEntry, RawSpec, ScenarioSpec};
use super::{Loc, Problem, Problems, Value, ValueKind, ValueSpec, Vocabulary};
use grognard_hex::{Direction, Grid, Hex, Hexside, MapShape, Orientation, Shove, SideGrid};
use std::collections::{BTreeMap, BTreeSet};
use toml::Spanned;

/// The most terrains, hexside features and path kinds a scenario can hold: the
/// widths of the grids that store them.
const MAX_TERRAINS: usize = 256;
const MAX_FEATURES: usize = 16;
const MAX_PATH_KINDS: usize = 8;
/// The most columns or rows a map may have (three-digit labels).
const MAX_SIDE: u32 = 999;

pub(crate) fn validate(spec: &ScenarioSpec, vocab: &Vocabulary) -> Result<Scenario, Problems> {
    let mut c = Check {
        spec,
        vocab,
        lines: Lines::new(&spec.source),
        problems: spec.problems.clone(),
        report_missing: spec.problems.is_empty(),
    };
    let scenario = c.scenario();
    let mut problems = Problems(c.problems);
    problems.sort();
    match scenario {
        Some(s) if problems.is_empty() => Ok(s),
        _ => {
            if problems.is_empty() {
                problems.0.push(
                    Loc { line: 1, column: 1 }.problem(&spec.file, "the scenario is incomplete"),
                );
            }
            Err(problems)
        }
    }
}

struct Check<'a> {
    spec: &'a ScenarioSpec,
    vocab: &'a Vocabulary,
    lines: Lines<'a>,
    problems: Vec<Problem>,
    /// Whether a missing required key still needs reporting: reading reports every
    /// missing key itself, so only a spec built by hand, with no reading problems,
    /// needs it here.
    report_missing: bool,
}

/// One row of a text grid: its tokens with their byte offsets.
struct Row<'s> {
    at: usize,
    tokens: Vec<(&'s str, usize)>,
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "(none)".to_owned()
    } else {
        names.join(", ")
    }
}

fn direction_named(orientation: Orientation, name: &str) -> Option<Direction> {
    let name = name.to_ascii_lowercase();
    Direction::ALL.into_iter().find(|d| match orientation {
        Orientation::FlatTop => d.name() == name,
        Orientation::PointyTop => d.pointy_name() == name,
    })
}

fn direction_names(orientation: Orientation) -> String {
    Direction::ALL
        .map(|d| match orientation {
            Orientation::FlatTop => d.name(),
            Orientation::PointyTop => d.pointy_name(),
        })
        .join(", ")
}

/// FNV-1a, 64 bits: the default seed is a stable hash of the scenario id.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn describe(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("\"{s}\""),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(_) => "an array".to_owned(),
        toml::Value::Table(_) => "a table".to_owned(),
    }
}

impl<'a> Check<'a> {
    fn at(&mut self, offset: usize, message: impl Into<String>) {
        let p = self.lines.loc(offset).problem(&self.spec.file, message);
        self.problems.push(p);
    }

    fn at_span<T>(&mut self, s: &Spanned<T>, message: impl Into<String>) {
        self.at(s.span().start, message);
    }

    fn loc(&self, offset: usize) -> Loc {
        self.lines.loc(offset)
    }

    fn missing(&mut self, offset: usize, message: impl Into<String>) {
        if self.report_missing {
            self.at(offset, message);
        }
    }

    /// Where a string's content is written in the source, and that text, when it is
    /// written there character for character (a literal string, or a basic string
    /// without escapes; line ends may be CRLF); `None` otherwise.
    fn content(&self, s: &Spanned<String>) -> Option<(usize, &'a str)> {
        let span = s.span();
        let raw = self.lines.text().get(span.clone())?;
        let delim = if raw.starts_with("'''") || raw.starts_with("\"\"\"") {
            3
        } else if raw.starts_with('\'') || raw.starts_with('"') {
            1
        } else {
            return None;
        };
        if raw.len() < 2 * delim {
            return None;
        }
        let mut body = &raw[delim..raw.len() - delim];
        let mut start = delim;
        if delim == 3 {
            // TOML trims a newline right after the opening delimiter.
            if let Some(rest) = body.strip_prefix("\r\n") {
                body = rest;
                start += 2;
            } else if let Some(rest) = body.strip_prefix('\n') {
                body = rest;
                start += 1;
            }
        }
        let same = body == s.get_ref()
            || (body.contains('\r') && body.replace("\r\n", "\n") == *s.get_ref());
        same.then_some((span.start + start, body))
    }

    /// The offset of byte `byte` of a one-line string's content, or of the string
    /// itself when its content is not written as is.
    fn inside(&self, s: &Spanned<String>, byte: usize) -> usize {
        self.content(s)
            .map_or(s.span().start, |(start, _)| start + byte)
    }

    /// A hex label, reporting a bad one.
    fn label(&mut self, map: &MapShape, s: &Spanned<String>) -> Option<Hex> {
        match map.parse_label(s.get_ref().trim()) {
            Ok(h) => Some(h),
            Err(e) => {
                self.at_span(s, e.to_string());
                None
            }
        }
    }

    #[expect(clippy::too_many_lines, reason = "the file's tables, in order")]
    fn scenario(&mut self) -> Option<Scenario> {
        let spec = self.spec;
        let vocab = self.vocab;
        let h = &spec.scenario;
        let header_at = h.span.start;
        if vocab.terrains.len() > MAX_TERRAINS
            || vocab.hexside_features.len() > MAX_FEATURES
            || vocab.path_kinds.len() > MAX_PATH_KINDS
        {
            self.at(
                h.ruleset.as_ref().map_or(header_at, |r| r.span().start),
                format!(
                    "ruleset `{}` declares {} terrains, {} hexside features and {} path kinds; \
                     a scenario holds at most {MAX_TERRAINS}, {MAX_FEATURES} and {MAX_PATH_KINDS}",
                    vocab.ruleset,
                    vocab.terrains.len(),
                    vocab.hexside_features.len(),
                    vocab.path_kinds.len()
                ),
            );
            return None;
        }

        // [scenario]
        let id = self.id(h.id.as_ref(), header_at, "[scenario] `id`");
        let title = if let Some(t) = &h.title {
            t.get_ref().clone()
        } else {
            self.missing(header_at, "missing `title` in [scenario]");
            String::new()
        };
        match &h.ruleset {
            Some(r) if *r.get_ref() != vocab.ruleset => self.at_span(
                r,
                format!(
                    "this scenario is for ruleset `{}` but is being checked against `{}`",
                    r.get_ref(),
                    vocab.ruleset
                ),
            ),
            Some(_) => {}
            None => self.missing(header_at, "missing `ruleset` in [scenario]"),
        }
        let seed = match &h.seed {
            Some(s) => u64::try_from(*s.get_ref()).unwrap_or_else(|_| {
                self.at_span(s, "`seed` must not be negative");
                0
            }),
            None => fnv1a(id.as_deref().unwrap_or_default()),
        };
        let turns = h
            .turns
            .as_ref()
            .and_then(|t| match u32::try_from(*t.get_ref()) {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    self.at_span(
                        t,
                        format!("`turns` must be at least 1, not {}", t.get_ref()),
                    );
                    None
                }
            });

        let map = self.map_shape();
        let options = self.options(map.map(|m| m.orientation()));
        let sides = self.sides(map.map(|m| m.orientation()));
        let side_ids: Vec<String> = sides.iter().map(|s| s.id.clone()).collect();
        let first_side = match &h.first_side {
            Some(f) => {
                if !side_ids.contains(f.get_ref()) {
                    self.at_span(
                        f,
                        format!(
                            "`first_side` is `{}`, which is not a side; the sides are: {}",
                            f.get_ref(),
                            list(&side_ids)
                        ),
                    );
                }
                f.get_ref().clone()
            }
            None => side_ids.first().cloned().unwrap_or_default(),
        };

        let (terrain, elevation) = match map {
            Some(m) => (self.terrain(m), self.elevation(m)),
            None => (None, None),
        };
        let hexsides = map.and_then(|m| self.hexsides(m));
        let paths = map.and_then(|m| self.paths(m));
        let places = map.and_then(|m| self.places(m, &side_ids));
        let units = self.units(map, &side_ids, turns);
        let victory = match &spec.victory {
            Some(v) => self.raw(v),
            None => RawTable {
                loc: self.loc(header_at),
                ..RawTable::default()
            },
        };
        let sections = self.sections();

        let map = map?;
        let (paths, path_links, path_hexes) = paths?;
        Some(Scenario {
            file: spec.file.clone(),
            id: id?,
            title,
            description: h
                .description
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            ruleset: vocab.ruleset.clone(),
            seed,
            turns,
            first_side,
            options,
            map,
            terrain_names: vocab.terrains.clone(),
            terrain: terrain?,
            elevation: elevation.unwrap_or_else(|| Grid::new(map, 0)),
            hexside_features: vocab.hexside_features.clone(),
            hexsides: hexsides?,
            path_kinds: vocab.path_kinds.clone(),
            paths,
            path_links,
            path_hexes,
            places: places?,
            sides,
            units,
            victory,
            sections,
        })
    }

    /// An id: present, not empty, no spaces.
    fn id(&mut self, id: Option<&Spanned<String>>, at: usize, what: &str) -> Option<String> {
        let Some(id) = id else {
            self.missing(at, format!("missing {what}"));
            return None;
        };
        let text = id.get_ref();
        if text.is_empty() || text.chars().any(char::is_whitespace) {
            self.at_span(id, format!("{what} `{text}` must be a word without spaces"));
        }
        Some(text.clone())
    }

    /// A value checked against what it may hold.
    fn value(
        &mut self,
        key: &str,
        v: &Spanned<toml::Value>,
        kind: &ValueKind,
        orientation: Option<Orientation>,
    ) -> Option<Value> {
        let wrong = |c: &mut Check<'_>| {
            c.at_span(
                v,
                format!("`{key}` must be {kind}, not {}", describe(v.get_ref())),
            );
            None
        };
        match (kind, v.get_ref()) {
            (ValueKind::Int { min, max }, toml::Value::Integer(i)) => {
                if (*min..=*max).contains(i) {
                    Some(Value::Int(*i))
                } else {
                    self.at_span(
                        v,
                        format!("`{key}` = {i} is out of range: must be from {min} to {max}"),
                    );
                    None
                }
            }
            (ValueKind::Text, toml::Value::String(s)) => Some(Value::Text(s.clone())),
            (ValueKind::OneOf(choices), toml::Value::String(s)) => {
                if choices.contains(s) {
                    Some(Value::Text(s.clone()))
                } else {
                    wrong(self)
                }
            }
            (ValueKind::Direction, toml::Value::String(s)) => {
                match orientation.map(|o| (o, direction_named(o, s))) {
                    Some((_, Some(d))) => Some(Value::Text(
                        match orientation {
                            Some(Orientation::PointyTop) => d.pointy_name(),
                            _ => d.name(),
                        }
                        .to_owned(),
                    )),
                    Some((o, None)) => {
                        self.at_span(
                            v,
                            format!(
                                "`{key}` = \"{s}\" is not a direction; use one of {}",
                                direction_names(o)
                            ),
                        );
                        None
                    }
                    None => None,
                }
            }
            (ValueKind::Bool, toml::Value::Boolean(b)) => Some(Value::Bool(*b)),
            _ => wrong(self),
        }
    }

    /// A `values` table checked against its specs; `what` names the owner and
    /// `at` is where to report missing values.
    fn values(
        &mut self,
        given: &[RawEntry],
        specs: &[ValueSpec],
        what: &str,
        at: usize,
        orientation: Option<Orientation>,
    ) -> BTreeMap<String, Value> {
        let mut out = BTreeMap::new();
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        for (k, v) in given {
            match specs.iter().find(|s| s.name == *k.get_ref()) {
                Some(spec) => {
                    if let Some(value) = self.value(k.get_ref(), v, &spec.kind, orientation) {
                        out.insert(k.get_ref().clone(), value);
                    }
                }
                None => self.at_span(
                    k,
                    format!(
                        "unknown value `{}` for {what}; expected: {}",
                        k.get_ref(),
                        list(&names)
                    ),
                ),
            }
        }
        for spec in specs {
            if spec.required && !given.iter().any(|(k, _)| *k.get_ref() == spec.name) {
                self.at(at, format!("{what} lacks the value `{}`", spec.name));
            }
        }
        out
    }

    fn options(&mut self, orientation: Option<Orientation>) -> BTreeMap<String, Value> {
        let vocab = self.vocab;
        let mut out: BTreeMap<String, Value> = vocab
            .options
            .iter()
            .map(|o| (o.name.clone(), o.default.clone()))
            .collect();
        let names: Vec<String> = vocab.options.iter().map(|o| o.name.clone()).collect();
        for (k, v) in &self.spec.options {
            match vocab.options.iter().find(|o| o.name == *k.get_ref()) {
                Some(o) => {
                    if let Some(value) = self.value(k.get_ref(), v, &o.kind, orientation) {
                        out.insert(o.name.clone(), value);
                    }
                }
                None => self.at_span(
                    k,
                    format!(
                        "unknown option `{}`; ruleset `{}` has: {}",
                        k.get_ref(),
                        vocab.ruleset,
                        list(&names)
                    ),
                ),
            }
        }
        out
    }

    fn raw(&self, raw: &RawSpec) -> RawTable {
        RawTable {
            table: raw.table.clone(),
            loc: self.loc(raw.span.start),
            locs: raw
                .spans
                .iter()
                .map(|(k, s)| (k.clone(), self.loc(s.start)))
                .collect(),
        }
    }

    fn sections(&mut self) -> BTreeMap<String, RawTable> {
        let vocab = self.vocab;
        let mut out = BTreeMap::new();
        for (name, raw) in &self.spec.sections {
            if vocab.sections.contains(name.get_ref()) || name.get_ref() == super::POSITION {
                out.insert(name.get_ref().clone(), self.raw(raw));
            } else {
                let known: BTreeSet<&str> = [
                    "scenario",
                    "options",
                    "map",
                    "hexsides",
                    "paths",
                    "places",
                    "sides",
                    "units",
                    "victory",
                    super::POSITION,
                ]
                .into_iter()
                .chain(vocab.sections.iter().map(String::as_str))
                .collect();
                self.at_span(
                    name,
                    format!(
                        "unknown table [{}]; the tables are: {}",
                        name.get_ref(),
                        known.into_iter().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        out
    }
}
