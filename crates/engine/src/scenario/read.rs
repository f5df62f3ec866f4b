//! Reading TOML into a [`ScenarioSpec`], recording every shape problem on the way.

use super::problem::Lines;
use super::spec::{
    EntrySpec, GridSpec, HeaderSpec, HexsidesSpec, MapSpec, PathSpec, PlaceSpec, RawEntry, RawSpec,
    ScenarioSpec, SideSpec, UnitSpec,
};
use super::{Problem, Problems};
use std::collections::BTreeMap;
use std::ops::Range;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

type Span = Range<usize>;

/// Reads `text`; `Err` only when it is not TOML.
#[expect(clippy::too_many_lines, reason = "one arm per top-level table")]
pub(crate) fn read(file: &str, text: &str) -> Result<ScenarioSpec, Problems> {
    let lines = Lines::new(text);
    let (root, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        let mut problems = Problems(
            errors
                .iter()
                .map(|e| {
                    let at = e.span().map_or(0, |s| s.start);
                    lines
                        .loc(at)
                        .problem(file, format!("TOML syntax: {}", e.message()))
                })
                .collect(),
        );
        problems.sort();
        return Err(problems);
    }
    let mut r = Reader {
        file,
        lines: &lines,
        problems: Vec::new(),
    };
    let mut spec = ScenarioSpec {
        file: file.to_owned(),
        source: text.to_owned(),
        ..ScenarioSpec::default()
    };
    let root = root.into_inner();
    let mut seen_scenario = false;
    let mut seen_map = false;
    for (key, value) in &root {
        let name = key.get_ref().as_ref();
        match name {
            "scenario" => {
                seen_scenario = true;
                if let Some((t, span)) = r.as_table(key, value, "[scenario]") {
                    spec.scenario = r.header(t, span);
                }
            }
            "options" => {
                if let Some((t, _)) = r.as_table(key, value, "[options]") {
                    spec.options = r.raw_entries(t);
                }
            }
            "map" => {
                seen_map = true;
                if let Some((t, span)) = r.as_table(key, value, "[map]") {
                    spec.map = r.map(t, span);
                }
            }
            "hexsides" => {
                spec.hexsides = r
                    .as_tables(key, value, "[[hexsides]]")
                    .into_iter()
                    .map(|(t, s)| r.hexsides(t, s))
                    .collect();
            }
            "paths" => {
                spec.paths = r
                    .as_tables(key, value, "[[paths]]")
                    .into_iter()
                    .map(|(t, s)| r.path(t, s))
                    .collect();
            }
            "places" => {
                spec.places = r
                    .as_tables(key, value, "[[places]]")
                    .into_iter()
                    .map(|(t, s)| r.place(t, s))
                    .collect();
            }
            "sides" => {
                spec.sides = r
                    .as_tables(key, value, "[[sides]]")
                    .into_iter()
                    .map(|(t, s)| r.side(t, s))
                    .collect();
            }
            "units" => {
                spec.units = r
                    .as_tables(key, value, "[[units]]")
                    .into_iter()
                    .map(|(t, s)| r.unit(t, s))
                    .collect();
            }
            "victory" => {
                if let Some((t, span)) = r.as_table(key, value, "[victory]") {
                    spec.victory = Some(r.raw_table(t, span));
                }
            }
            _ => match value.get_ref() {
                DeValue::Table(t) => {
                    let raw = r.raw_table(t, value.span());
                    spec.sections
                        .push((Spanned::new(key.span(), name.to_owned()), raw));
                }
                _ => r.at(
                    key.span().start,
                    format!(
                        "unknown key `{name}` at the top level: keys belong in a table such as [scenario]"
                    ),
                ),
            },
        }
    }
    if !seen_scenario {
        r.at(0, "missing [scenario] table");
    }
    if !seen_map {
        r.at(0, "missing [map] table");
    }
    spec.problems = r.problems;
    Ok(spec)
}

struct Reader<'a> {
    file: &'a str,
    lines: &'a Lines<'a>,
    problems: Vec<Problem>,
}

type Table<'i> = DeTable<'i>;
type Val<'i> = Spanned<DeValue<'i>>;

fn article(type_str: &str) -> &'static str {
    if type_str.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn a(type_str: &str) -> String {
    format!("{} {type_str}", article(type_str))
}

impl Reader<'_> {
    fn at(&mut self, offset: usize, message: impl Into<String>) {
        self.problems
            .push(self.lines.loc(offset).problem(self.file, message));
    }

    fn as_table<'t, 'i>(
        &mut self,
        key: &Spanned<std::borrow::Cow<'i, str>>,
        value: &'t Val<'i>,
        what: &str,
    ) -> Option<(&'t Table<'i>, Span)> {
        if let DeValue::Table(t) = value.get_ref() {
            Some((t, value.span()))
        } else {
            self.at(
                key.span().start,
                format!(
                    "`{}` must be a table {what}, not {}",
                    key.get_ref(),
                    a(value.get_ref().type_str())
                ),
            );
            None
        }
    }

    fn as_tables<'t, 'i>(
        &mut self,
        key: &Spanned<std::borrow::Cow<'i, str>>,
        value: &'t Val<'i>,
        what: &str,
    ) -> Vec<(&'t Table<'i>, Span)> {
        let DeValue::Array(items) = value.get_ref() else {
            self.at(
                key.span().start,
                format!(
                    "`{}` must be an array of tables {what}, not {}",
                    key.get_ref(),
                    a(value.get_ref().type_str())
                ),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            if let DeValue::Table(t) = item.get_ref() {
                out.push((t, item.span()));
            } else {
                self.at(
                    item.span().start,
                    format!(
                        "each entry of `{}` must be a table, not {}",
                        key.get_ref(),
                        a(item.get_ref().type_str())
                    ),
                );
            }
        }
        out
    }

    /// Reports every key of `t` not in `allowed`.
    fn keys(&mut self, t: &Table<'_>, what: &str, allowed: &[&str]) {
        for (k, _) in t {
            if !allowed.contains(&k.get_ref().as_ref()) {
                self.at(
                    k.span().start,
                    format!(
                        "unknown key `{}` in {what}; expected one of: {}",
                        k.get_ref(),
                        allowed.join(", ")
                    ),
                );
            }
        }
    }

    fn missing(&mut self, span: &Span, key: &str, what: &str, required: bool) {
        if required {
            self.at(span.start, format!("missing `{key}` in {what}"));
        }
    }

    fn wrong_type(&mut self, key: &str, value: &Val<'_>, expected: &str) {
        self.at(
            value.span().start,
            format!(
                "`{key}` must be {expected}, not {}",
                a(value.get_ref().type_str())
            ),
        );
    }

    fn string(
        &mut self,
        t: &Table<'_>,
        span: &Span,
        key: &str,
        what: &str,
        required: bool,
    ) -> Option<Spanned<String>> {
        let Some(v) = t.get(key) else {
            self.missing(span, key, what, required);
            return None;
        };
        if let DeValue::String(s) = v.get_ref() {
            Some(Spanned::new(v.span(), s.to_string()))
        } else {
            self.wrong_type(key, v, "a string");
            None
        }
    }

    fn int(
        &mut self,
        t: &Table<'_>,
        span: &Span,
        key: &str,
        what: &str,
        required: bool,
    ) -> Option<Spanned<i64>> {
        let Some(v) = t.get(key) else {
            self.missing(span, key, what, required);
            return None;
        };
        if let DeValue::Integer(i) = v.get_ref() {
            if let Ok(n) = i64::from_str_radix(i.as_str(), i.radix()) {
                return Some(Spanned::new(v.span(), n));
            }
            self.at(v.span().start, format!("`{key}` is too large"));
            None
        } else {
            self.wrong_type(key, v, "a whole number");
            None
        }
    }

    fn boolean(&mut self, t: &Table<'_>, key: &str) -> Option<Spanned<bool>> {
        let v = t.get(key)?;
        if let DeValue::Boolean(b) = v.get_ref() {
            Some(Spanned::new(v.span(), *b))
        } else {
            self.wrong_type(key, v, "true or false");
            None
        }
    }

    fn strings(
        &mut self,
        t: &Table<'_>,
        span: &Span,
        key: &str,
        what: &str,
    ) -> Vec<Spanned<String>> {
        let Some(v) = t.get(key) else {
            self.missing(span, key, what, true);
            return Vec::new();
        };
        let DeValue::Array(items) = v.get_ref() else {
            self.wrong_type(key, v, "an array of strings");
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            if let DeValue::String(s) = item.get_ref() {
                out.push(Spanned::new(item.span(), s.to_string()));
            } else {
                self.at(
                    item.span().start,
                    format!(
                        "each entry of `{key}` must be a string, not {}",
                        a(item.get_ref().type_str())
                    ),
                );
            }
        }
        out
    }

    fn header(&mut self, t: &Table<'_>, span: Span) -> HeaderSpec {
        const W: &str = "[scenario]";
        self.keys(
            t,
            W,
            &[
                "id",
                "title",
                "description",
                "ruleset",
                "seed",
                "turns",
                "first_side",
            ],
        );
        HeaderSpec {
            id: self.string(t, &span, "id", W, true),
            title: self.string(t, &span, "title", W, true),
            description: self.string(t, &span, "description", W, false),
            ruleset: self.string(t, &span, "ruleset", W, true),
            seed: self.int(t, &span, "seed", W, false),
            turns: self.int(t, &span, "turns", W, false),
            first_side: self.string(t, &span, "first_side", W, false),
            span,
        }
    }

    fn map(&mut self, t: &Table<'_>, span: Span) -> MapSpec {
        const W: &str = "[map]";
        self.keys(
            t,
            W,
            &[
                "cols",
                "rows",
                "orientation",
                "shove",
                "legend",
                "terrain",
                "elevation",
            ],
        );
        let mut legend = Vec::new();
        match t.get("legend") {
            None => self.missing(&span, "legend", W, true),
            Some(v) => match v.get_ref() {
                DeValue::Table(l) => {
                    for (code, name) in l {
                        if let DeValue::String(s) = name.get_ref() {
                            legend.push((
                                Spanned::new(code.span(), code.get_ref().to_string()),
                                Spanned::new(name.span(), s.to_string()),
                            ));
                        } else {
                            self.wrong_type(code.get_ref(), name, "a terrain name (a string)");
                        }
                    }
                }
                _ => self.wrong_type("legend", v, "a table of code = \"terrain\""),
            },
        }
        MapSpec {
            cols: self.int(t, &span, "cols", W, true),
            rows: self.int(t, &span, "rows", W, true),
            orientation: self.string(t, &span, "orientation", W, false),
            shove: self.string(t, &span, "shove", W, false),
            legend,
            terrain: self.grid(t, &span, "terrain", true),
            elevation: self.grid(t, &span, "elevation", false),
            span,
        }
    }

    fn grid(&mut self, t: &Table<'_>, span: &Span, key: &str, required: bool) -> Option<GridSpec> {
        let Some(v) = t.get(key) else {
            self.missing(span, key, "[map]", required);
            return None;
        };
        match v.get_ref() {
            DeValue::String(s) => Some(GridSpec {
                span: v.span(),
                pieces: vec![Spanned::new(v.span(), s.to_string())],
            }),
            DeValue::Array(items) => {
                let mut pieces = Vec::new();
                for item in items {
                    if let DeValue::String(s) = item.get_ref() {
                        pieces.push(Spanned::new(item.span(), s.to_string()));
                    } else {
                        self.at(
                            item.span().start,
                            format!(
                                "each row of `{key}` must be a string, not {}",
                                a(item.get_ref().type_str())
                            ),
                        );
                    }
                }
                Some(GridSpec {
                    span: v.span(),
                    pieces,
                })
            }
            _ => {
                self.wrong_type(
                    key,
                    v,
                    "a multi-line string ('''...''') or an array of row strings",
                );
                None
            }
        }
    }

    fn hexsides(&mut self, t: &Table<'_>, span: Span) -> HexsidesSpec {
        const W: &str = "[[hexsides]]";
        self.keys(t, W, &["feature", "sides"]);
        HexsidesSpec {
            feature: self.string(t, &span, "feature", W, true),
            sides: self.strings(t, &span, "sides", W),
            span,
        }
    }

    fn path(&mut self, t: &Table<'_>, span: Span) -> PathSpec {
        const W: &str = "[[paths]]";
        self.keys(t, W, &["kind", "name", "hexes"]);
        PathSpec {
            kind: self.string(t, &span, "kind", W, true),
            name: self.string(t, &span, "name", W, false),
            hexes: self.strings(t, &span, "hexes", W),
            span,
        }
    }

    fn place(&mut self, t: &Table<'_>, span: Span) -> PlaceSpec {
        const W: &str = "[[places]]";
        self.keys(t, W, &["name", "hex", "objective", "value", "owner"]);
        PlaceSpec {
            name: self.string(t, &span, "name", W, true),
            hex: self.string(t, &span, "hex", W, true),
            objective: self.boolean(t, "objective"),
            value: self.int(t, &span, "value", W, false),
            owner: self.string(t, &span, "owner", W, false),
            span,
        }
    }

    fn side(&mut self, t: &Table<'_>, span: Span) -> SideSpec {
        const W: &str = "[[sides]]";
        self.keys(t, W, &["id", "name", "home_edge", "values"]);
        SideSpec {
            id: self.string(t, &span, "id", W, true),
            name: self.string(t, &span, "name", W, false),
            home_edge: self.string(t, &span, "home_edge", W, false),
            values: self.values(t),
            span,
        }
    }

    fn unit(&mut self, t: &Table<'_>, span: Span) -> UnitSpec {
        const W: &str = "[[units]]";
        self.keys(
            t,
            W,
            &[
                "id", "side", "type", "name", "at", "enters", "facing", "values",
            ],
        );
        let enters = match t.get("enters") {
            None => None,
            Some(v) => {
                if let DeValue::Table(e) = v.get_ref() {
                    const E: &str = "`enters`";
                    let es = v.span();
                    self.keys(e, E, &["turn", "hex"]);
                    Some(EntrySpec {
                        turn: self.int(e, &es, "turn", E, true),
                        hex: self.string(e, &es, "hex", E, true),
                        span: es,
                    })
                } else {
                    self.wrong_type("enters", v, "a table { turn = N, hex = \"CCRR\" }");
                    None
                }
            }
        };
        UnitSpec {
            id: self.string(t, &span, "id", W, true),
            side: self.string(t, &span, "side", W, true),
            kind: self.string(t, &span, "type", W, true),
            name: self.string(t, &span, "name", W, false),
            at: self.string(t, &span, "at", W, false),
            enters,
            facing: self.string(t, &span, "facing", W, false),
            values: self.values(t),
            span,
        }
    }

    fn values(&mut self, t: &Table<'_>) -> Option<Spanned<Vec<RawEntry>>> {
        let v = t.get("values")?;
        if let DeValue::Table(vt) = v.get_ref() {
            Some(Spanned::new(v.span(), self.raw_entries(vt)))
        } else {
            self.wrong_type("values", v, "a table such as { cs = 5 }");
            None
        }
    }

    fn raw_entries(&mut self, t: &Table<'_>) -> Vec<RawEntry> {
        let mut out = Vec::new();
        let mut spans = BTreeMap::new();
        for (k, v) in t {
            if let Some(value) = self.raw_value(v, k.get_ref(), &mut spans) {
                out.push((
                    Spanned::new(k.span(), k.get_ref().to_string()),
                    Spanned::new(v.span(), value),
                ));
            }
        }
        out
    }

    fn raw_table(&mut self, t: &Table<'_>, span: Span) -> RawSpec {
        let mut spans = BTreeMap::new();
        let mut table = toml::Table::new();
        for (k, v) in t {
            let key = k.get_ref().to_string();
            if let Some(value) = self.raw_value(v, &key, &mut spans) {
                table.insert(key, value);
            }
        }
        RawSpec { span, table, spans }
    }

    /// Converts a parsed value to a plain one, recording the span of `path` and of
    /// everything inside it.
    fn raw_value(
        &mut self,
        v: &Val<'_>,
        path: &str,
        spans: &mut BTreeMap<String, Span>,
    ) -> Option<toml::Value> {
        spans.insert(path.to_owned(), v.span());
        Some(match v.get_ref() {
            DeValue::String(s) => toml::Value::String(s.to_string()),
            DeValue::Integer(i) => {
                if let Ok(n) = i64::from_str_radix(i.as_str(), i.radix()) {
                    toml::Value::Integer(n)
                } else {
                    self.at(v.span().start, format!("`{path}` is too large"));
                    return None;
                }
            }
            DeValue::Float(f) => {
                if let Ok(x) = f.as_str().parse::<f64>() {
                    toml::Value::Float(x)
                } else {
                    self.at(v.span().start, format!("`{path}` is not a number"));
                    return None;
                }
            }
            DeValue::Boolean(b) => toml::Value::Boolean(*b),
            DeValue::Datetime(d) => toml::Value::Datetime(*d),
            DeValue::Array(items) => toml::Value::Array(
                items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, item)| self.raw_value(item, &format!("{path}[{i}]"), spans))
                    .collect(),
            ),
            DeValue::Table(t) => {
                let mut table = toml::Table::new();
                for (k, item) in t {
                    let key = k.get_ref().to_string();
                    if let Some(value) = self.raw_value(item, &format!("{path}.{key}"), spans) {
                        table.insert(key, value);
                    }
                }
                toml::Value::Table(table)
            }
        })
    }
}
