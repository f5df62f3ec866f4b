//! Reading TOML into a [`ScenarioSpec`], recording every shape problem on the way.

use super::problem::Lines;
use super::spec::{
    EntrySpec, GridSpec, HeaderSpec, HexsidesSpec, MapSpec, PathSpec, PlaceSpec, RawEntry, RawSpec,
    ScenarioSpec, SideSpec, UnitSpec,
};
use super::{Problem, Problems};
use std::collections::BTreeMap;
use std::ops::Range;
use toml::de::{DeInteger, DeTable, DeValue};
use toml::Spanned;

type Span = Range<usize>;

/// Reads `text`; `Err` only when it is not TOML.
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
            "hexsides" => spec.hexsides = r.each_table(key, value, "[[hexsides]]", Reader::hexsides),
            "paths" => spec.paths = r.each_table(key, value, "[[paths]]", Reader::path),
            "places" => spec.places = r.each_table(key, value, "[[places]]", Reader::place),
            "sides" => spec.sides = r.each_table(key, value, "[[sides]]", Reader::side),
            "units" => spec.units = r.each_table(key, value, "[[units]]", Reader::unit),
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

/// A table being read field by field: where it starts and how messages name it.
struct Fields<'t, 'i> {
    table: &'t Table<'i>,
    at: usize,
    what: &'static str,
}
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

    /// Reads each table of the array of tables `key` with `read`.
    fn each_table<'i, T>(
        &mut self,
        key: &Spanned<std::borrow::Cow<'i, str>>,
        value: &Val<'i>,
        what: &str,
        read: fn(&mut Self, &Table<'i>, Span) -> T,
    ) -> Vec<T> {
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
        let tables = self.items(items, key.get_ref(), "entry", "a table", DeValue::as_table);
        tables.into_iter().map(|(t, s)| read(self, t, s)).collect()
    }

    /// The items of an array that `pick` accepts, each with its span; every other item is
    /// reported as not being `expected`.
    fn items<'t, 'i, T>(
        &mut self,
        items: &'t [Val<'i>],
        key: &str,
        noun: &str,
        expected: &str,
        pick: impl Fn(&'t DeValue<'i>) -> Option<T>,
    ) -> Vec<(T, Span)> {
        let mut out = Vec::new();
        for item in items {
            if let Some(x) = pick(item.get_ref()) {
                out.push((x, item.span()));
            } else {
                self.at(
                    item.span().start,
                    format!(
                        "each {noun} of `{key}` must be {expected}, not {}",
                        a(item.get_ref().type_str())
                    ),
                );
            }
        }
        out
    }

    /// The string items of an array; every other item is reported.
    fn string_items(&mut self, items: &[Val<'_>], key: &str, noun: &str) -> Vec<Spanned<String>> {
        self.items(items, key, noun, "a string", DeValue::as_str)
            .into_iter()
            .map(|(s, span)| Spanned::new(span, s.to_owned()))
            .collect()
    }

    /// Starts reading `table` field by field, reporting every key not in `allowed`.
    fn fields<'t, 'i>(
        &mut self,
        table: &'t Table<'i>,
        span: &Span,
        what: &'static str,
        allowed: &[&str],
    ) -> Fields<'t, 'i> {
        for (k, _) in table {
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
        Fields {
            table,
            at: span.start,
            what,
        }
    }

    /// The value of `key`, reported missing when it is `required` and absent.
    fn get<'t, 'i>(
        &mut self,
        f: &Fields<'t, 'i>,
        key: &str,
        required: bool,
    ) -> Option<&'t Val<'i>> {
        let v = f.table.get(key);
        if v.is_none() && required {
            self.at(f.at, format!("missing `{key}` in {}", f.what));
        }
        v
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

    /// What `pick` reads from `v`, reported as not being `expected` when it reads nothing.
    fn typed<'t, 'i, T>(
        &mut self,
        key: &str,
        v: &'t Val<'i>,
        expected: &str,
        pick: impl FnOnce(&'t DeValue<'i>) -> Option<T>,
    ) -> Option<T> {
        let x = pick(v.get_ref());
        if x.is_none() {
            self.wrong_type(key, v, expected);
        }
        x
    }

    /// The whole number `i` (the parsed form of `v`), reported when it does not fit.
    fn integer(&mut self, v: &Val<'_>, i: &DeInteger<'_>, key: &str) -> Option<i64> {
        let n = i64::from_str_radix(i.as_str(), i.radix()).ok();
        if n.is_none() {
            self.at(v.span().start, format!("`{key}` is too large"));
        }
        n
    }

    fn string(&mut self, f: &Fields<'_, '_>, key: &str, required: bool) -> Option<Spanned<String>> {
        let v = self.get(f, key, required)?;
        let s = self.typed(key, v, "a string", DeValue::as_str)?;
        Some(Spanned::new(v.span(), s.to_owned()))
    }

    fn int(&mut self, f: &Fields<'_, '_>, key: &str, required: bool) -> Option<Spanned<i64>> {
        let v = self.get(f, key, required)?;
        let i = self.typed(key, v, "a whole number", DeValue::as_integer)?;
        Some(Spanned::new(v.span(), self.integer(v, i, key)?))
    }

    fn boolean(&mut self, f: &Fields<'_, '_>, key: &str) -> Option<Spanned<bool>> {
        let v = self.get(f, key, false)?;
        let b = self.typed(key, v, "true or false", DeValue::as_bool)?;
        Some(Spanned::new(v.span(), b))
    }

    fn strings(&mut self, f: &Fields<'_, '_>, key: &str) -> Vec<Spanned<String>> {
        self.get(f, key, true)
            .and_then(|v| self.typed(key, v, "an array of strings", DeValue::as_array))
            .map(|items| self.string_items(items, key, "entry"))
            .unwrap_or_default()
    }

    fn header(&mut self, t: &Table<'_>, span: Span) -> HeaderSpec {
        let f = self.fields(
            t,
            &span,
            "[scenario]",
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
            id: self.string(&f, "id", true),
            title: self.string(&f, "title", true),
            description: self.string(&f, "description", false),
            ruleset: self.string(&f, "ruleset", true),
            seed: self.int(&f, "seed", false),
            turns: self.int(&f, "turns", false),
            first_side: self.string(&f, "first_side", false),
            span,
        }
    }

    fn map(&mut self, t: &Table<'_>, span: Span) -> MapSpec {
        let f = self.fields(
            t,
            &span,
            "[map]",
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
        let table = self.get(&f, "legend", true).and_then(|v| {
            self.typed(
                "legend",
                v,
                "a table of code = \"terrain\"",
                DeValue::as_table,
            )
        });
        for (code, name) in table.into_iter().flatten() {
            if let Some(s) = self.typed(
                code.get_ref(),
                name,
                "a terrain name (a string)",
                DeValue::as_str,
            ) {
                legend.push((
                    Spanned::new(code.span(), code.get_ref().to_string()),
                    Spanned::new(name.span(), s.to_owned()),
                ));
            }
        }
        MapSpec {
            cols: self.int(&f, "cols", true),
            rows: self.int(&f, "rows", true),
            orientation: self.string(&f, "orientation", false),
            shove: self.string(&f, "shove", false),
            legend,
            terrain: self.grid(&f, "terrain", true),
            elevation: self.grid(&f, "elevation", false),
            span,
        }
    }

    fn grid(&mut self, f: &Fields<'_, '_>, key: &str, required: bool) -> Option<GridSpec> {
        let v = self.get(f, key, required)?;
        match v.get_ref() {
            DeValue::String(s) => Some(GridSpec {
                span: v.span(),
                pieces: vec![Spanned::new(v.span(), s.to_string())],
            }),
            DeValue::Array(items) => Some(GridSpec {
                span: v.span(),
                pieces: self.string_items(items, key, "row"),
            }),
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
        let f = self.fields(t, &span, "[[hexsides]]", &["feature", "sides"]);
        HexsidesSpec {
            feature: self.string(&f, "feature", true),
            sides: self.strings(&f, "sides"),
            span,
        }
    }

    fn path(&mut self, t: &Table<'_>, span: Span) -> PathSpec {
        let f = self.fields(t, &span, "[[paths]]", &["kind", "name", "hexes"]);
        PathSpec {
            kind: self.string(&f, "kind", true),
            name: self.string(&f, "name", false),
            hexes: self.strings(&f, "hexes"),
            span,
        }
    }

    fn place(&mut self, t: &Table<'_>, span: Span) -> PlaceSpec {
        let f = self.fields(
            t,
            &span,
            "[[places]]",
            &["name", "hex", "objective", "value", "owner"],
        );
        PlaceSpec {
            name: self.string(&f, "name", true),
            hex: self.string(&f, "hex", true),
            objective: self.boolean(&f, "objective"),
            value: self.int(&f, "value", false),
            owner: self.string(&f, "owner", false),
            span,
        }
    }

    fn side(&mut self, t: &Table<'_>, span: Span) -> SideSpec {
        let f = self.fields(
            t,
            &span,
            "[[sides]]",
            &["id", "name", "home_edge", "values"],
        );
        SideSpec {
            id: self.string(&f, "id", true),
            name: self.string(&f, "name", false),
            home_edge: self.string(&f, "home_edge", false),
            values: self.values(&f),
            span,
        }
    }

    fn unit(&mut self, t: &Table<'_>, span: Span) -> UnitSpec {
        let f = self.fields(
            t,
            &span,
            "[[units]]",
            &[
                "id", "side", "type", "name", "at", "enters", "facing", "values",
            ],
        );
        let enters = t.get("enters").and_then(|v| {
            let e = self.typed(
                "enters",
                v,
                "a table { turn = N, hex = \"CCRR\" }",
                DeValue::as_table,
            )?;
            let es = v.span();
            let f = self.fields(e, &es, "`enters`", &["turn", "hex"]);
            Some(EntrySpec {
                turn: self.int(&f, "turn", true),
                hex: self.string(&f, "hex", true),
                span: es,
            })
        });
        UnitSpec {
            id: self.string(&f, "id", true),
            side: self.string(&f, "side", true),
            kind: self.string(&f, "type", true),
            name: self.string(&f, "name", false),
            at: self.string(&f, "at", false),
            enters,
            facing: self.string(&f, "facing", false),
            values: self.values(&f),
            span,
        }
    }

    fn values(&mut self, f: &Fields<'_, '_>) -> Option<Spanned<Vec<RawEntry>>> {
        let v = self.get(f, "values", false)?;
        let vt = self.typed("values", v, "a table such as { cs = 5 }", DeValue::as_table)?;
        Some(Spanned::new(v.span(), self.raw_entries(vt)))
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
            DeValue::Integer(i) => toml::Value::Integer(self.integer(v, i, path)?),
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
