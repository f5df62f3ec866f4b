//! Writing a validated scenario back as a scenario file: the text a position is
//! handed out as (issue 19, item 4).

use super::{Scenario, Value, POSITION};
use grognard_hex::{Direction, Orientation, Shove};
use toml::{Table, Value as T};

/// The scenario as a scenario file that validates to the same scenario, with
/// `position` as its `[position]` part. With a position the file leaves out the seed:
/// a position never holds the game's seed, and loading it draws fresh dice.
#[must_use]
pub fn write(scenario: &Scenario, position: Option<&Table>) -> String {
    let mut parts = vec![format!(
        "# {} ({}): written by grognard. The format is described in docs/SCENARIO-FORMAT.md.\n",
        scenario.title, scenario.ruleset
    )];
    let mut header = Table::new();
    header.insert("id".into(), T::String(scenario.id.clone()));
    header.insert("title".into(), T::String(scenario.title.clone()));
    if !scenario.description.is_empty() {
        header.insert(
            "description".into(),
            T::String(scenario.description.clone()),
        );
    }
    header.insert("ruleset".into(), T::String(scenario.ruleset.clone()));
    if position.is_none() {
        header.insert(
            "seed".into(),
            T::Integer(i64::try_from(scenario.seed).unwrap_or(i64::MAX)),
        );
    }
    if let Some(t) = scenario.turns {
        header.insert("turns".into(), T::Integer(i64::from(t)));
    }
    header.insert("first_side".into(), T::String(scenario.first_side.clone()));
    parts.push(section("scenario", T::Table(header)));
    if !scenario.options.is_empty() {
        let options = scenario
            .options
            .iter()
            .map(|(k, v)| (k.clone(), value(v)))
            .collect();
        parts.push(section("options", T::Table(options)));
    }
    parts.push(map(scenario));
    parts.extend(hexsides(scenario));
    let paths: Vec<T> = scenario
        .paths
        .iter()
        .map(|p| {
            let mut t = Table::new();
            let kind = scenario
                .path_kinds
                .get(usize::from(p.kind))
                .cloned()
                .unwrap_or_default();
            t.insert("kind".into(), T::String(kind));
            if let Some(n) = &p.name {
                t.insert("name".into(), T::String(n.clone()));
            }
            t.insert("hexes".into(), labels(scenario, &p.hexes));
            T::Table(t)
        })
        .collect();
    parts.extend(array("paths", paths));
    let places: Vec<T> = scenario
        .places
        .iter()
        .map(|p| {
            let mut t = Table::new();
            t.insert("name".into(), T::String(p.name.clone()));
            t.insert("hex".into(), T::String(scenario.label(p.hex)));
            if p.objective {
                t.insert("objective".into(), T::Boolean(true));
            }
            if let Some(v) = p.value {
                t.insert("value".into(), T::Integer(v));
            }
            if let Some(o) = &p.owner {
                t.insert("owner".into(), T::String(o.clone()));
            }
            T::Table(t)
        })
        .collect();
    parts.extend(array("places", places));
    let sides: Vec<T> = scenario
        .sides
        .iter()
        .map(|s| {
            let mut t = Table::new();
            t.insert("id".into(), T::String(s.id.clone()));
            t.insert("name".into(), T::String(s.name.clone()));
            if let Some(e) = s.home_edge {
                t.insert("home_edge".into(), T::String(e.name().into()));
            }
            insert_values(&mut t, &s.values);
            T::Table(t)
        })
        .collect();
    parts.extend(array("sides", sides));
    let units: Vec<T> = scenario
        .units
        .iter()
        .map(|u| {
            let mut t = Table::new();
            t.insert("id".into(), T::String(u.id.clone()));
            t.insert("side".into(), T::String(u.side.clone()));
            t.insert("type".into(), T::String(u.kind.clone()));
            if let Some(n) = &u.name {
                t.insert("name".into(), T::String(n.clone()));
            }
            if let Some(h) = u.hex {
                t.insert("at".into(), T::String(scenario.label(h)));
            }
            if let Some(e) = u.enters {
                let mut entry = Table::new();
                entry.insert("turn".into(), T::Integer(i64::from(e.turn)));
                entry.insert("hex".into(), T::String(scenario.label(e.hex)));
                t.insert("enters".into(), T::Table(entry));
            }
            if let Some(f) = u.facing {
                t.insert(
                    "facing".into(),
                    T::String(scenario.direction_name(f).into()),
                );
            }
            insert_values(&mut t, &u.values);
            T::Table(t)
        })
        .collect();
    parts.extend(array("units", units));
    if !scenario.victory.table.is_empty() {
        parts.push(section("victory", T::Table(scenario.victory.table.clone())));
    }
    for (name, raw) in &scenario.sections {
        if name != POSITION {
            parts.push(section(name, T::Table(raw.table.clone())));
        }
    }
    if let Some(p) = position {
        parts.push(position_part(scenario, p));
    }
    parts.join("\n")
}

/// A side's or unit's `values` table, when it has any.
fn insert_values(t: &mut Table, values: &std::collections::BTreeMap<String, Value>) {
    if !values.is_empty() {
        let values = values.iter().map(|(k, v)| (k.clone(), value(v))).collect();
        t.insert("values".into(), T::Table(values));
    }
}

fn value(v: &Value) -> T {
    match v {
        Value::Bool(b) => T::Boolean(*b),
        Value::Int(i) => T::Integer(*i),
        Value::Text(s) => T::String(s.clone()),
    }
}

fn labels(scenario: &Scenario, hexes: &[grognard_hex::Hex]) -> T {
    T::Array(
        hexes
            .iter()
            .map(|h| T::String(scenario.label(*h)))
            .collect(),
    )
}

/// One top-level table as TOML text.
fn section(name: &str, value: T) -> String {
    let mut doc = Table::new();
    doc.insert(name.to_owned(), value);
    toml::to_string(&doc).unwrap_or_default()
}

/// An array of tables as TOML text; nothing when it is empty.
fn array(name: &str, items: Vec<T>) -> Option<String> {
    (!items.is_empty()).then(|| section(name, T::Array(items)))
}

/// `[map]`: its shape, legend, terrain grid and elevation grid (when not flat).
fn map(scenario: &Scenario) -> String {
    let shape = scenario.map;
    let used: Vec<usize> = {
        let mut seen = vec![false; scenario.terrain_names.len()];
        for &i in scenario.terrain.cells() {
            if let Some(s) = seen.get_mut(usize::from(i)) {
                *s = true;
            }
        }
        seen.iter()
            .enumerate()
            .filter(|(_, s)| **s)
            .map(|(i, _)| i)
            .collect()
    };
    let mut codes: Vec<(usize, String)> = Vec::new();
    for &i in &used {
        let name = scenario.terrain_names.get(i).map_or("", String::as_str);
        let first: String = name.chars().take(1).collect();
        let two: String = name.chars().take(2).collect();
        let code = [first.clone(), first.to_uppercase(), two, format!("t{i}")]
            .into_iter()
            .find(|c| !c.is_empty() && !c.contains(' ') && !codes.iter().any(|(_, x)| x == c))
            .unwrap_or_else(|| format!("t{i}"));
        codes.push((i, code));
    }
    let code_of = |i: u8| {
        codes
            .iter()
            .find(|(j, _)| *j == usize::from(i))
            .map_or("?", |(_, c)| c.as_str())
    };
    let mut terrain = String::new();
    let mut elevation = String::new();
    let mut hilly = false;
    for row in 0..shape.rows() {
        let mut t = Vec::new();
        let mut e = Vec::new();
        for col in 0..shape.cols() {
            let (c, r) = (
                i32::try_from(col).unwrap_or(0),
                i32::try_from(row).unwrap_or(0),
            );
            let hex = shape.from_offset(c, r);
            t.push(code_of(scenario.terrain.get(hex).copied().unwrap_or(0)).to_owned());
            let h = scenario.elevation.get(hex).copied().unwrap_or(0);
            hilly |= h != 0;
            e.push(h.to_string());
        }
        terrain.push_str(&t.join(" "));
        terrain.push('\n');
        elevation.push_str(&e.join(" "));
        elevation.push('\n');
    }
    let legend: Vec<String> = codes
        .iter()
        .map(|(i, c)| {
            let name = scenario.terrain_names.get(*i).map_or("", String::as_str);
            format!("{} = {}", T::String(c.clone()), T::String(name.to_owned()))
        })
        .collect();
    let mut out = format!(
        "[map]\ncols = {}\nrows = {}\norientation = \"{}\"\nshove = \"{}\"\nlegend = {{ {} }}\nterrain = '''\n{terrain}'''\n",
        shape.cols(),
        shape.rows(),
        match shape.orientation() {
            Orientation::FlatTop => "flat",
            Orientation::PointyTop => "pointy",
        },
        match shape.shove() {
            Shove::Even => "even",
            Shove::Odd => "odd",
        },
        legend.join(", ")
    );
    if hilly {
        out.push_str(&format!("elevation = '''\n{elevation}'''\n"));
    }
    out
}

/// `[[hexsides]]`: each feature with its hexsides, each hexside once.
fn hexsides(scenario: &Scenario) -> Vec<String> {
    let shape = scenario.map;
    let mut out = Vec::new();
    for (bit, feature) in scenario.hexside_features.iter().enumerate() {
        let mut sides = Vec::new();
        for hex in shape.hexes() {
            for dir in Direction::ALL {
                if scenario.hexsides.get(hex, dir) & (1 << bit) == 0 {
                    continue;
                }
                let next = hex.neighbor(dir);
                match shape.index(next) {
                    Some(j) if shape.index(hex).is_some_and(|i| j < i) => {}
                    Some(_) => sides.push(T::String(format!(
                        "{}/{}",
                        scenario.label(hex),
                        scenario.label(next)
                    ))),
                    None => sides.push(T::String(format!(
                        "{}/{}",
                        scenario.label(hex),
                        scenario.direction_name(dir)
                    ))),
                }
            }
        }
        if !sides.is_empty() {
            let mut t = Table::new();
            t.insert("feature".into(), T::String(feature.clone()));
            t.insert("sides".into(), T::Array(sides));
            out.push(section("hexsides", T::Array(vec![T::Table(t)])));
        }
    }
    out
}

/// `[position]`, its units one a line in scenario order: `id = { hex = "0305", ... }`.
fn position_part(scenario: &Scenario, part: &Table) -> String {
    let mut rest = part.clone();
    let units = rest.remove("units");
    let mut out = section(POSITION, T::Table(rest));
    if let Some(T::Table(units)) = units {
        out.push_str(&format!("\n[{POSITION}.units]\n"));
        for u in &scenario.units {
            if let Some(entry) = units.get(&u.id) {
                out.push_str(&format!("{} = {entry}\n", key(&u.id)));
            }
        }
    }
    out
}

/// A key as TOML writes it: bare when it can be.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_owned()
    } else {
        T::String(k.to_owned()).to_string()
    }
}
