//! Checking a [`ScenarioSpec`] against its map and its ruleset's [`Vocabulary`].

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

    fn map_shape(&mut self) -> Option<MapShape> {
        let m = &self.spec.map;
        let size = |c: &mut Check<'_>, v: Option<&Spanned<i64>>, key: &str| -> Option<u32> {
            let Some(v) = v else {
                c.missing(m.span.start, format!("missing `{key}` in [map]"));
                return None;
            };
            match u32::try_from(*v.get_ref()) {
                Ok(n) if (1..=MAX_SIDE).contains(&n) => Some(n),
                _ => {
                    c.at_span(
                        v,
                        format!(
                            "`{key}` must be from 1 to {}, not {}",
                            MAX_SIDE,
                            v.get_ref()
                        ),
                    );
                    None
                }
            }
        };
        let cols = size(self, m.cols.as_ref(), "cols");
        let rows = size(self, m.rows.as_ref(), "rows");
        let orientation = match &m.orientation {
            None => Some(Orientation::FlatTop),
            Some(o) => match o.get_ref().as_str() {
                "flat" => Some(Orientation::FlatTop),
                "pointy" => Some(Orientation::PointyTop),
                other => {
                    self.at_span(
                        o,
                        format!("`orientation` must be \"flat\" or \"pointy\", not \"{other}\""),
                    );
                    None
                }
            },
        };
        let shove = match &m.shove {
            None => Some(Shove::Even),
            Some(s) => match s.get_ref().as_str() {
                "even" => Some(Shove::Even),
                "odd" => Some(Shove::Odd),
                other => {
                    self.at_span(
                        s,
                        format!("`shove` must be \"even\" or \"odd\", not \"{other}\""),
                    );
                    None
                }
            },
        };
        MapShape::new(orientation?, shove?, cols?, rows?)
    }

    /// The rows of a text grid with the byte offset of each token. Tokens are read
    /// from the source itself when the string is written as is, so every offset is
    /// exact; otherwise from the decoded string, all placed at the string's start.
    fn rows(&self, grid: &'a GridSpec) -> Vec<Row<'a>> {
        let mut rows = Vec::new();
        for piece in &grid.pieces {
            let (base, text) = match self.content(piece) {
                Some((start, body)) => (Some(start), body),
                None => (None, piece.get_ref().as_str()),
            };
            let place = |off: usize| base.map_or(piece.span().start, |b| b + off);
            let mut line_start = 0;
            for line in text.split('\n') {
                let mut tokens = Vec::new();
                let mut start = None;
                for (i, ch) in line
                    .char_indices()
                    .chain(std::iter::once((line.len(), ' ')))
                {
                    match (ch.is_whitespace(), start) {
                        (true, Some(s)) => {
                            tokens.push((&line[s..i], place(line_start + s)));
                            start = None;
                        }
                        (false, None) => start = Some(i),
                        _ => {}
                    }
                }
                line_start += line.len() + 1;
                if let Some(&(_, at)) = tokens.first() {
                    rows.push(Row { at, tokens });
                }
            }
        }
        rows
    }

    /// Checks a grid's shape and calls `cell` for each token that names a hex.
    fn grid_cells(
        &mut self,
        map: MapShape,
        grid: &'a GridSpec,
        key: &str,
        mut cell: impl FnMut(&mut Self, Hex, &'a str, usize),
    ) {
        let rows = self.rows(grid);
        let (cols, nrows) = (map.cols() as usize, map.rows() as usize);
        let w = map.label_digits();
        if rows.len() < nrows {
            self.at(
                grid.span.start,
                format!("`{key}` has {} rows but the map has {nrows}", rows.len()),
            );
        } else if rows.len() > nrows {
            self.at(
                rows[nrows].at,
                format!(
                    "`{key}` has {} rows but the map has {nrows}: this row is extra",
                    rows.len()
                ),
            );
        }
        for (r, row) in rows.iter().enumerate().take(nrows) {
            if row.tokens.len() < cols {
                self.at(
                    row.at,
                    format!(
                        "row {:0w$} of `{key}` has {} hexes but the map has {cols} columns",
                        r + 1,
                        row.tokens.len()
                    ),
                );
            } else if row.tokens.len() > cols {
                self.at(
                    row.tokens[cols].1,
                    format!(
                        "row {:0w$} of `{key}` has {} hexes but the map has {cols} columns: \
                         this one is extra",
                        r + 1,
                        row.tokens.len()
                    ),
                );
            }
            for (c, &(token, at)) in row.tokens.iter().enumerate().take(cols) {
                #[expect(
                    clippy::cast_possible_wrap,
                    clippy::cast_possible_truncation,
                    reason = "sides are at most 999"
                )]
                let hex = map.from_offset(c as i32, r as i32);
                cell(self, hex, token, at);
            }
        }
    }

    fn terrain(&mut self, map: MapShape) -> Option<Grid<u8>> {
        let m = &self.spec.map;
        let vocab = self.vocab;
        let mut legend: BTreeMap<&str, u8> = BTreeMap::new();
        let mut ok = true;
        for (code, name) in &m.legend {
            let c = code.get_ref().as_str();
            if c.chars().count() > 2 || c.is_empty() || c.chars().any(char::is_whitespace) {
                self.at_span(
                    code,
                    format!("legend code `{c}` must be one or two characters without spaces"),
                );
                ok = false;
            }
            if let Some(i) = vocab.terrains.iter().position(|t| t == name.get_ref()) {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "at most 256 terrains, checked"
                )]
                legend.insert(c, i as u8);
            } else {
                self.at_span(
                    name,
                    format!(
                        "unknown terrain `{}` in the legend; ruleset `{}` has: {}",
                        name.get_ref(),
                        vocab.ruleset,
                        list(&vocab.terrains)
                    ),
                );
                ok = false;
            }
        }
        let Some(grid) = &m.terrain else {
            self.missing(m.span.start, "missing `terrain` in [map]");
            return None;
        };
        let codes: Vec<String> = m.legend.iter().map(|(c, _)| c.get_ref().clone()).collect();
        let mut out = Grid::new(map, 0u8);
        let mut bad_codes = false;
        self.grid_cells(map, grid, "terrain", |c, hex, token, at| {
            match legend.get(token) {
                Some(&t) => {
                    out.set(hex, t);
                }
                // A legend entry with a bad terrain name is reported once, at the legend.
                None if codes.iter().any(|k| k == token) => {}
                None => {
                    bad_codes = true;
                    c.at(
                        at,
                        format!(
                            "unknown terrain code `{token}` in hex {}; the legend has: {}",
                            map.label(hex).unwrap_or_default(),
                            list(&codes)
                        ),
                    );
                }
            }
        });
        (ok && !bad_codes).then_some(out)
    }

    fn elevation(&mut self, map: MapShape) -> Option<Grid<i8>> {
        let grid = self.spec.map.elevation.as_ref()?;
        let mut out = Grid::new(map, 0i8);
        self.grid_cells(map, grid, "elevation", |c, hex, token, at| {
            if let Ok(e) = token.parse::<i8>() {
                out.set(hex, e);
            } else {
                c.at(
                    at,
                    format!(
                        "elevation `{token}` in hex {} is not a whole number from -128 to 127",
                        map.label(hex).unwrap_or_default()
                    ),
                );
            }
        });
        Some(out)
    }

    /// One hexside entry: `"0304/0305"` or `"0304/n"`.
    fn hexside(&mut self, map: MapShape, s: &Spanned<String>) -> Option<Hexside> {
        let text = s.get_ref();
        let Some((a, b)) = text.split_once('/') else {
            self.at_span(
                s,
                format!(
                    "`{text}` is not a hexside: write two adjacent hexes (\"0304/0305\") \
                     or a hex and a direction (\"0304/n\")"
                ),
            );
            return None;
        };
        let at_a = self.inside(s, 0);
        let at_b = self.inside(s, a.len() + 1);
        let ha = match map.parse_label(a.trim()) {
            Ok(h) => Some(h),
            Err(e) => {
                self.at(at_a, e.to_string());
                None
            }
        };
        if let Some(dir) = direction_named(map.orientation(), b.trim()) {
            return ha.map(|h| Hexside::new(h, dir));
        }
        let hb = match map.parse_label(b.trim()) {
            Ok(h) => Some(h),
            Err(e) => {
                self.at(
                    at_b,
                    format!(
                        "{e}; after the `/` give the hex across or a direction ({})",
                        direction_names(map.orientation())
                    ),
                );
                None
            }
        };
        let (ha, hb) = (ha?, hb?);
        let side = Hexside::between(ha, hb);
        if side.is_none() {
            self.at_span(
                s,
                format!("hexes `{}` and `{}` are not adjacent", a.trim(), b.trim()),
            );
        }
        side
    }

    fn hexsides(&mut self, map: MapShape) -> Option<SideGrid<u16>> {
        let vocab = self.vocab;
        let mut out = SideGrid::new(map, 0u16);
        let mut ok = true;
        for entry in &self.spec.hexsides {
            let Some(feature) = &entry.feature else {
                self.missing(entry.span.start, "missing `feature` in [[hexsides]]");
                ok = false;
                continue;
            };
            let Some(i) = vocab
                .hexside_features
                .iter()
                .position(|f| f == feature.get_ref())
            else {
                self.at_span(
                    feature,
                    format!(
                        "unknown hexside feature `{}`; ruleset `{}` has: {}",
                        feature.get_ref(),
                        vocab.ruleset,
                        list(&vocab.hexside_features)
                    ),
                );
                ok = false;
                continue;
            };
            let bit = 1u16 << i;
            for s in &entry.sides {
                let Some(side) = self.hexside(map, s) else {
                    ok = false;
                    continue;
                };
                let (a, b) = side.hexes();
                if out.side(side) & bit != 0 {
                    self.at_span(
                        s,
                        format!(
                            "hexside {}/{} already has `{}`",
                            map.label(a).unwrap_or_default(),
                            map.label(b)
                                .unwrap_or_else(|| Self::direction_word(map, side)),
                            feature.get_ref()
                        ),
                    );
                }
                out.update(side, |v| *v |= bit);
            }
        }
        ok.then_some(out)
    }

    fn direction_word(map: MapShape, side: Hexside) -> String {
        match map.orientation() {
            Orientation::FlatTop => side.direction().name(),
            Orientation::PointyTop => side.direction().pointy_name(),
        }
        .to_owned()
    }

    fn paths(&mut self, map: MapShape) -> Option<(Vec<Path>, SideGrid<u8>, Grid<u8>)> {
        let vocab = self.vocab;
        let mut paths = Vec::new();
        let mut links = SideGrid::new(map, 0u8);
        let mut through = Grid::new(map, 0u8);
        let mut ok = true;
        for p in &self.spec.paths {
            let kind = match &p.kind {
                None => {
                    self.missing(p.span.start, "missing `kind` in [[paths]]");
                    None
                }
                Some(k) => {
                    let i = vocab.path_kinds.iter().position(|x| x == k.get_ref());
                    if i.is_none() {
                        self.at_span(
                            k,
                            format!(
                                "unknown path kind `{}`; ruleset `{}` has: {}",
                                k.get_ref(),
                                vocab.ruleset,
                                list(&vocab.path_kinds)
                            ),
                        );
                    }
                    i
                }
            };
            let word = p.kind.as_ref().map_or("path", |k| k.get_ref().as_str());
            if p.hexes.len() < 2 {
                self.at(
                    p.span.start,
                    format!("a {word} needs at least two hexes in `hexes`"),
                );
            }
            let mut hexes = Vec::new();
            let mut prev: Option<(Hex, &Spanned<String>)> = None;
            let mut whole = true;
            for s in &p.hexes {
                let Some(h) = self.label(&map, s) else {
                    whole = false;
                    prev = None;
                    continue;
                };
                if let Some((ph, ps)) = prev {
                    if ph.distance(h) != 1 {
                        self.at_span(
                            s,
                            format!(
                                "the {word} jumps from `{}` to `{}`: the hexes are not adjacent",
                                ps.get_ref().trim(),
                                s.get_ref().trim()
                            ),
                        );
                        whole = false;
                    }
                }
                prev = Some((h, s));
                hexes.push(h);
            }
            let Some(kind) = kind else {
                ok = false;
                continue;
            };
            if !whole || hexes.len() < 2 {
                ok = false;
                continue;
            }
            let bit = 1u8 << kind;
            for pair in hexes.windows(2) {
                if let Some(side) = Hexside::between(pair[0], pair[1]) {
                    links.update(side, |v| *v |= bit);
                }
            }
            for &h in &hexes {
                if let Some(v) = through.get_mut(h) {
                    *v |= bit;
                }
            }
            #[expect(
                clippy::cast_possible_truncation,
                reason = "at most 8 path kinds, checked"
            )]
            paths.push(Path {
                kind: kind as u8,
                name: p.name.as_ref().map(|n| n.get_ref().clone()),
                hexes,
                loc: self.loc(p.span.start),
            });
        }
        ok.then_some((paths, links, through))
    }

    fn places(&mut self, map: MapShape, side_ids: &[String]) -> Option<Vec<Place>> {
        let mut out = Vec::new();
        let mut ok = true;
        let mut names: BTreeMap<&str, Loc> = BTreeMap::new();
        for p in &self.spec.places {
            let loc = self.loc(p.span.start);
            let name = if let Some(n) = &p.name {
                if let Some(first) = names.get(n.get_ref().as_str()) {
                    self.at_span(
                        n,
                        format!(
                            "there is already a place called `{}` (line {})",
                            n.get_ref(),
                            first.line
                        ),
                    );
                } else {
                    names.insert(n.get_ref(), loc);
                }
                Some(n.get_ref().clone())
            } else {
                self.missing(p.span.start, "missing `name` in [[places]]");
                None
            };
            let hex = if let Some(h) = &p.hex {
                self.label(&map, h)
            } else {
                self.missing(p.span.start, "missing `hex` in [[places]]");
                None
            };
            if let Some(o) = &p.owner {
                if !side_ids.contains(o.get_ref()) {
                    self.at_span(
                        o,
                        format!(
                            "unknown side `{}`; the sides are: {}",
                            o.get_ref(),
                            list(side_ids)
                        ),
                    );
                }
            }
            match (name, hex) {
                (Some(name), Some(hex)) => out.push(Place {
                    name,
                    hex,
                    objective: p.objective.as_ref().is_some_and(|o| *o.get_ref()),
                    value: p.value.as_ref().map(|v| *v.get_ref()),
                    owner: p.owner.as_ref().map(|o| o.get_ref().clone()),
                    loc,
                }),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn sides(&mut self, orientation: Option<Orientation>) -> Vec<Side> {
        let vocab = self.vocab;
        let mut out: Vec<Side> = Vec::new();
        for s in &self.spec.sides {
            let loc = self.loc(s.span.start);
            let Some(id) = self.id(s.id.as_ref(), s.span.start, "side `id`") else {
                continue;
            };
            let id_span = s.id.as_ref().map_or(s.span.start, |i| i.span().start);
            if let Some(first) = out.iter().find(|o| o.id == id) {
                let line = first.loc.line;
                self.at(
                    id_span,
                    format!("duplicate side id `{id}` (first at line {line})"),
                );
                continue;
            }
            if let Some(fixed) = &vocab.sides {
                if !fixed.contains(&id) {
                    self.at(
                        id_span,
                        format!(
                            "ruleset `{}` has no side `{id}`; its sides are: {}",
                            vocab.ruleset,
                            list(fixed)
                        ),
                    );
                }
            }
            let home_edge = s.home_edge.as_ref().and_then(|e| {
                let edge = Edge::from_name(e.get_ref());
                if edge.is_none() {
                    self.at_span(
                        e,
                        format!(
                            "`home_edge` must be \"north\", \"south\", \"east\" or \"west\", not \"{}\"",
                            e.get_ref()
                        ),
                    );
                }
                edge
            });
            let values_at = s.values.as_ref().map_or(s.span.start, |v| v.span().start);
            let given = s
                .values
                .as_ref()
                .map_or(&[][..], |v| v.get_ref().as_slice());
            let values = self.values(
                given,
                &vocab.side_values,
                &format!("side `{id}`"),
                values_at,
                orientation,
            );
            out.push(Side {
                name: s
                    .name
                    .as_ref()
                    .map_or_else(|| id.clone(), |n| n.get_ref().clone()),
                id,
                home_edge,
                values,
                loc,
            });
        }
        if let Some(fixed) = &vocab.sides {
            for id in fixed {
                if !out.iter().any(|s| s.id == *id) {
                    self.at(
                        self.spec.scenario.span.start,
                        format!(
                            "side `{id}` of ruleset `{}` is not declared in [[sides]]",
                            vocab.ruleset
                        ),
                    );
                }
            }
        }
        if out.is_empty() && vocab.sides.is_none() && self.spec.problems.is_empty() {
            self.at(
                self.spec.scenario.span.start,
                "no [[sides]]: a scenario needs at least one side",
            );
        }
        out
    }

    #[expect(
        clippy::too_many_lines,
        reason = "one check after another, in file order"
    )]
    fn units(
        &mut self,
        map: Option<MapShape>,
        side_ids: &[String],
        turns: Option<u32>,
    ) -> Vec<Unit> {
        let vocab = self.vocab;
        let orientation = map.map(|m| m.orientation());
        let mut out: Vec<Unit> = Vec::new();
        let mut ids: BTreeMap<&str, Loc> = BTreeMap::new();
        let mut occupants: BTreeMap<Hex, Vec<usize>> = BTreeMap::new();
        for u in &self.spec.units {
            let loc = self.loc(u.span.start);
            let id = self.id(u.id.as_ref(), u.span.start, "unit `id`");
            if let (Some(id), Some(s)) = (&id, &u.id) {
                if let Some(first) = ids.get(id.as_str()) {
                    self.at_span(
                        s,
                        format!("duplicate unit id `{id}` (first at line {})", first.line),
                    );
                } else {
                    ids.insert(s.get_ref(), loc);
                }
            }
            let name = id.clone().unwrap_or_else(|| "?".to_owned());
            match &u.side {
                Some(s) if !side_ids.contains(s.get_ref()) => self.at_span(
                    s,
                    format!(
                        "unit `{name}` belongs to unknown side `{}`; the sides are: {}",
                        s.get_ref(),
                        list(side_ids)
                    ),
                ),
                Some(_) => {}
                None => self.missing(u.span.start, "missing `side` in [[units]]"),
            }
            let unit_type = if let Some(k) = &u.kind {
                let t = vocab.unit_type_named(k.get_ref());
                if t.is_none() {
                    let types: Vec<String> =
                        vocab.unit_types.iter().map(|t| t.name.clone()).collect();
                    self.at_span(
                        k,
                        format!(
                            "unknown unit type `{}`; ruleset `{}` has: {}",
                            k.get_ref(),
                            vocab.ruleset,
                            list(&types)
                        ),
                    );
                }
                t
            } else {
                self.missing(u.span.start, "missing `type` in [[units]]");
                None
            };
            let hex = match (map, &u.at) {
                (Some(m), Some(at)) => self.label(&m, at),
                _ => None,
            };
            let enters = match (&u.enters, map) {
                (Some(e), Some(m)) => {
                    let turn = e.turn.as_ref().and_then(|t| {
                        let n = *t.get_ref();
                        match u32::try_from(n) {
                            Ok(n) if n >= 1 && turns.is_none_or(|max| n <= max) => Some(n),
                            _ => {
                                let upto = turns
                                    .map_or(String::new(), |max| format!(" and at most {max}"));
                                self.at_span(
                                    t,
                                    format!("`turn` must be at least 1{upto}, not {n}"),
                                );
                                None
                            }
                        }
                    });
                    let h = e.hex.as_ref().and_then(|h| self.label(&m, h));
                    turn.zip(h).map(|(turn, hex)| Entry { turn, hex })
                }
                _ => None,
            };
            match (&u.at, &u.enters) {
                (Some(_), Some(e)) => self.at(
                    e.span.start,
                    format!("unit `{name}` has both `at` and `enters`: give one"),
                ),
                (None, None) => self.missing(
                    u.span.start,
                    format!("unit `{name}` has neither `at` nor `enters`: give one"),
                ),
                _ => {}
            }
            let facing = match (&u.facing, orientation) {
                (Some(f), Some(o)) => {
                    let d = direction_named(o, f.get_ref());
                    if d.is_none() {
                        self.at_span(
                            f,
                            format!(
                                "`facing` = \"{}\" is not a direction; use one of {}",
                                f.get_ref(),
                                direction_names(o)
                            ),
                        );
                    }
                    d
                }
                _ => None,
            };
            let values = match unit_type {
                Some(t) => {
                    let at = u.values.as_ref().map_or(u.span.start, |v| v.span().start);
                    let given = u
                        .values
                        .as_ref()
                        .map_or(&[][..], |v| v.get_ref().as_slice());
                    self.values(
                        given,
                        &t.values,
                        &format!("unit `{name}` ({})", t.name),
                        at,
                        orientation,
                    )
                }
                None => BTreeMap::new(),
            };
            let index = out.len();
            if let (Some(h), Some(at), Some(kind)) = (hex, &u.at, &u.kind) {
                let here = occupants.entry(h).or_default();
                let clash = here
                    .iter()
                    .map(|&i| &out[i])
                    .find(|other| !vocab.may_share(&other.kind, kind.get_ref()));
                if let Some(other) = clash {
                    let (other_id, line) = (other.id.clone(), other.loc.line);
                    self.at_span(
                        at,
                        format!(
                            "two units in hex {}: `{name}` and `{other_id}` (line {line})",
                            at.get_ref().trim()
                        ),
                    );
                }
                occupants.entry(h).or_default().push(index);
            }
            out.push(Unit {
                id: name,
                side: u
                    .side
                    .as_ref()
                    .map(|s| s.get_ref().clone())
                    .unwrap_or_default(),
                kind: u
                    .kind
                    .as_ref()
                    .map(|k| k.get_ref().clone())
                    .unwrap_or_default(),
                name: u.name.as_ref().map(|n| n.get_ref().clone()),
                hex,
                enters,
                facing,
                values,
                loc,
            });
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
            if vocab.sections.contains(name.get_ref()) {
                out.insert(name.get_ref().clone(), self.raw(raw));
            } else {
                let known: BTreeSet<&str> = [
                    "scenario", "options", "map", "hexsides", "paths", "places", "sides", "units",
                    "victory",
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
