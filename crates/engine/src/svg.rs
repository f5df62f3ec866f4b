//! The map of a [`Scenario`] drawn as a standalone SVG picture, so a designer can see
//! what a scenario file says: terrain, elevation, hexside features, roads and tracks,
//! hex labels, places and objectives, the units' counters, and a legend.
//!
//! ```
//! # fn demo(scenario: &grognard_engine::scenario::Scenario) {
//! let picture = grognard_engine::svg::render(scenario);
//! std::fs::write("map.svg", picture).unwrap();
//! # }
//! ```
//!
//! For people, never for rules: nothing reads the picture back.

mod legend;
mod terrain;

use crate::palette::{hashed, mark, terrain_colour};
use crate::scenario::{Scenario, Unit};
use grognard_hex::{Direction, Hex};
use legend::draw_legend;
use std::fmt::Write;

/// Circumradius of a hex in drawing units.
const SIZE: f64 = 40.0;
/// Space around the map.
const MARGIN: f64 = 20.0;
/// Width of the legend panel.
const LEGEND_WIDTH: f64 = 380.0;
/// Line height in the legend.
const LEGEND_LINE: f64 = 22.0;

/// Draws the scenario's map as a standalone SVG document.
///
/// Hex polygons carry `class="hex"`, `data-hex` (the label) and `data-terrain`; unit
/// counters are `<g class="unit" data-unit="id">`; each layer is a `<g>` with an id
/// (`terrain`, `marks`, `elevation`, `hexsides`, `paths`, `labels`, `places`, `units`,
/// `legend`).
#[must_use]
pub fn render(s: &Scenario) -> String {
    let hexes: Vec<Hex> = s.map.hexes().collect();
    let (mut min_x, mut min_y, mut max_x, mut max_y) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &h in &hexes {
        for (x, y) in s.map.corners(h, SIZE) {
            min_x = min_x.min(x);
            min_y = min_y.min(y);
            max_x = max_x.max(x);
            max_y = max_y.max(y);
        }
    }
    let title_height = 36.0;
    let left = min_x - MARGIN;
    let top = min_y - MARGIN - title_height;
    let legend_x = max_x + MARGIN * 2.0;
    let mut legend = String::new();
    let legend_height = draw_legend(s, &mut legend, legend_x, min_y);
    let width = legend_x + LEGEND_WIDTH - left;
    let height = (max_y + MARGIN).max(min_y + legend_height + MARGIN) - top;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {} {}" width="{}" height="{}" font-family="sans-serif">"#,
        n(left),
        n(top),
        n(width),
        n(height),
        n(width),
        n(height)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&s.title));
    out.push_str(STYLE);
    let _ = writeln!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#fbfaf5"/>"##,
        n(left),
        n(top),
        n(width),
        n(height)
    );
    let title = format!("{} ({}, {})", s.title, s.ruleset, s.id);
    text(&mut out, "title", (min_x, min_y - MARGIN), &title);

    draw_terrain(s, &mut out, &hexes);
    terrain::draw_marks(s, &mut out, &hexes);
    draw_elevation(s, &mut out, &hexes);
    draw_hexsides(s, &mut out, &hexes, "hexsides", 0..=2);
    draw_paths(s, &mut out);
    // Fords and bridges go over the roads that use them.
    draw_hexsides(s, &mut out, &hexes, "crossings", 3..=4);
    draw_labels(s, &mut out, &hexes);
    draw_places(s, &mut out);
    draw_units(s, &mut out);
    out.push_str(&legend);
    out.push_str("</svg>\n");
    out
}

const STYLE: &str = r"<style>
.hex { stroke: #8a8a7a; stroke-width: 0.8; }
.label { font-size: 8px; fill: #555; text-anchor: middle; }
.elev-label { font-size: 8px; fill: #6b4a24; font-weight: bold; }
.title { font-size: 18px; font-weight: bold; fill: #222; }
.place { font-size: 9px; fill: #111; text-anchor: middle; paint-order: stroke; stroke: #fff; stroke-width: 2.5px; }
.objective { fill: #f2c200; stroke: #6b5200; stroke-width: 0.8; }
.unit rect { stroke: #222; stroke-width: 1; }
.unit text { text-anchor: middle; fill: #111; }
.unit .kind { font-size: 7px; font-weight: bold; }
.unit .values { font-size: 10px; font-weight: bold; }
.unit .id { font-size: 5.5px; }
.legend text { font-size: 11px; fill: #222; }
.legend .heading { font-size: 12px; font-weight: bold; }
</style>
";

/// A number for SVG: one decimal, no trailing `.0`.
fn n(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
}

fn points(ps: &[(f64, f64)]) -> String {
    ps.iter()
        .map(|&(x, y)| format!("{},{}", n(x), n(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// ` stroke-dasharray="…"` for a dashed stroke, nothing for a solid one.
fn dash_attr(dash: Option<&str>) -> String {
    dash.map_or(String::new(), |d| format!(r#" stroke-dasharray="{d}""#))
}

/// A straight `<line>` from `a` to `b`; `rest` holds any further attributes, each
/// after a space.
fn segment(out: &mut String, a: (f64, f64), b: (f64, f64), colour: &str, width: f64, rest: &str) {
    let _ = writeln!(
        out,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="{width}"{rest}/>"#,
        n(a.0),
        n(a.1),
        n(b.0),
        n(b.1)
    );
}

/// A `<text>` of `class` at `at`, its content escaped.
fn text(out: &mut String, class: &str, at: (f64, f64), content: &str) {
    let _ = writeln!(
        out,
        r#"<text class="{class}" x="{}" y="{}">{}</text>"#,
        n(at.0),
        n(at.1),
        escape(content)
    );
}

/// Text escaped for XML content and attributes (any SVG or HTML page drawn from
/// names a scenario or a command line gives).
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The colour of a side: the id's own colour when it names one, hashed otherwise.
fn side_colour(id: &str) -> String {
    let fixed = match id {
        "orange" => "#f39c3d",
        "blue" => "#6b93e0",
        "red" => "#e06b6b",
        "green" => "#6bbf6b",
        "grey" | "gray" | "confederate" => "#b8b8b8",
        "union" => "#7d9be0",
        "white" => "#f4f4f4",
        "black" => "#777777",
        "yellow" => "#f0dc5a",
        "purple" => "#b48be0",
        _ => return hashed(id, 60, 65),
    };
    fixed.to_owned()
}

/// How a hexside feature is drawn.
#[derive(Clone, Copy)]
enum Stroke {
    /// A line along the hexside.
    Line {
        colour: &'static str,
        width: f64,
        dash: Option<&'static str>,
    },
    /// A bar across the hexside's middle.
    Bar { colour: &'static str, width: f64 },
    /// A line with ticks toward the lower hex.
    Ticks {
        colour: &'static str,
        width: f64,
        length: f64,
    },
}

/// Drawing order (water first, crossings last) and stroke of a feature.
fn feature_style(name: &str) -> (u8, Stroke) {
    let line = |colour, width, dash| Stroke::Line {
        colour,
        width,
        dash,
    };
    match name {
        "stream" | "brook" | "creek" => (0, line("#3a7bd5", 3.0, None)),
        "river" | "waterway" => (0, line("#1f5fbf", 6.0, None)),
        "major_river" | "large_river" => (0, line("#123f8c", 9.0, None)),
        "slope" => (
            1,
            Stroke::Ticks {
                colour: "#8b5a2b",
                width: 1.6,
                length: 5.0,
            },
        ),
        "double_slope" | "steep_slope" | "cliff" => (
            1,
            Stroke::Ticks {
                colour: "#5c3510",
                width: 2.6,
                length: 9.0,
            },
        ),
        "fence" => (2, line("#5a5a5a", 2.0, Some("3 2"))),
        "wall" | "stone_wall" => (2, line("#707070", 4.0, None)),
        "hedge" | "hedgerow" => (2, line("#3f7a2f", 4.0, Some("2 1"))),
        "ford" => (3, line("#e0c070", 4.0, Some("4 3"))),
        "bridge" => (
            4,
            Stroke::Bar {
                colour: "#7a4a1e",
                width: 6.0,
            },
        ),
        _ => (
            2,
            Stroke::Line {
                colour: "#000",
                width: 3.0,
                dash: Some("6 2 1 2"),
            },
        ),
    }
}

fn draw_terrain(s: &Scenario, out: &mut String, hexes: &[Hex]) {
    out.push_str("<g id=\"terrain\">\n");
    for &h in hexes {
        let terrain = s.terrain_at(h).unwrap_or("");
        let _ = writeln!(
            out,
            r#"<polygon class="hex" data-hex="{}" data-terrain="{}" data-mark="{}" points="{}" fill="{}"/>"#,
            s.label(h),
            escape(terrain),
            mark(terrain).unwrap_or(""),
            points(&s.map.corners(h, SIZE)),
            terrain_colour(terrain)
        );
    }
    out.push_str("</g>\n");
}

fn draw_elevation(s: &Scenario, out: &mut String, hexes: &[Hex]) {
    out.push_str("<g id=\"elevation\">\n");
    for &h in hexes {
        let level = s.elevation_at(h).unwrap_or(0);
        if level == 0 {
            continue;
        }
        let (colour, opacity) = if level > 0 {
            ("#5a3d1e", (0.14 * f64::from(level)).min(0.6))
        } else {
            ("#1e3d5a", (0.14 * f64::from(-level)).min(0.6))
        };
        let (cx, cy) = s.map.center(h, SIZE);
        let _ = writeln!(
            out,
            r#"<polygon class="elev" points="{}" fill="{colour}" fill-opacity="{opacity:.2}"/>"#,
            points(&s.map.corners(h, SIZE)),
        );
        let _ = writeln!(
            out,
            r#"<text class="elev-label" x="{}" y="{}">{level}</text>"#,
            n(cx - 0.62 * SIZE),
            n(cy + 0.12 * SIZE),
        );
    }
    out.push_str("</g>\n");
}

/// Draws the hexside features whose drawing rank is in `ranks`, as the layer `id`.
fn draw_hexsides(
    s: &Scenario,
    out: &mut String,
    hexes: &[Hex],
    id: &str,
    ranks: std::ops::RangeInclusive<u8>,
) {
    let _ = writeln!(out, r#"<g id="{id}">"#);
    let mut order: Vec<(u8, usize)> = s
        .hexside_features
        .iter()
        .enumerate()
        .map(|(i, f)| (feature_style(f).0, i))
        .filter(|(rank, _)| ranks.contains(rank))
        .collect();
    order.sort_unstable();
    for (_, i) in order {
        let bit = 1u16 << i;
        let (_, stroke) = feature_style(&s.hexside_features[i]);
        for &h in hexes {
            for dir in Direction::ALL {
                let across = h.neighbor(dir);
                // Each hexside once: from its owner, or from the map side at the edge.
                if dir.index() >= 3 && s.map.contains(across) {
                    continue;
                }
                if s.hexsides.get(h, dir) & bit != 0 {
                    draw_side(s, out, h, dir, stroke);
                }
            }
        }
    }
    out.push_str("</g>\n");
}

fn draw_side(s: &Scenario, out: &mut String, h: Hex, dir: Direction, stroke: Stroke) {
    let ((x1, y1), (x2, y2)) = s.map.side_corners(h, dir, SIZE);
    let (mx, my) = (f64::midpoint(x1, x2), f64::midpoint(y1, y2));
    // Unit normal from the hexside toward the lower hex (toward `across` on a tie).
    let across = h.neighbor(dir);
    let here = s.elevation_at(h).unwrap_or(0);
    let there = s.elevation_at(across).unwrap_or(here);
    let low = if here < there { h } else { across };
    let (lx, ly) = s.map.center(low, SIZE);
    let len = ((lx - mx).powi(2) + (ly - my).powi(2)).sqrt().max(1e-9);
    let (nx, ny) = ((lx - mx) / len, (ly - my) / len);
    match stroke {
        Stroke::Line {
            colour,
            width,
            dash,
        } => {
            let rest = format!(r#" stroke-linecap="round"{}"#, dash_attr(dash));
            segment(out, (x1, y1), (x2, y2), colour, width, &rest);
        }
        Stroke::Bar { colour, width } => {
            // A deck across the hexside between two rails.
            let (half, gap) = (0.3 * SIZE, 0.13 * SIZE);
            let (ux, uy) = ((x2 - x1) / SIZE, (y2 - y1) / SIZE);
            let corner =
                |along: f64, out: f64| (mx + ux * along + nx * out, my + uy * along + ny * out);
            let _ = writeln!(
                out,
                r##"<polygon class="bridge" points="{}" fill="#d8d0c0" stroke="{colour}" stroke-width="{}"/>"##,
                points(&[
                    corner(-gap, -half),
                    corner(gap, -half),
                    corner(gap, half),
                    corner(-gap, half)
                ]),
                width / 3.0
            );
            for side in [-gap, gap] {
                let rail = (corner(side, -half), corner(side, half));
                segment(out, rail.0, rail.1, colour, width / 2.0, "");
            }
        }
        Stroke::Ticks {
            colour,
            width,
            length,
        } => {
            let mut d = format!("M{},{} L{},{}", n(x1), n(y1), n(x2), n(y2));
            for t in [0.2, 0.4, 0.6, 0.8] {
                let (px, py) = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
                let _ = write!(
                    d,
                    " M{},{} L{},{}",
                    n(px),
                    n(py),
                    n(px + nx * length),
                    n(py + ny * length)
                );
            }
            let _ = writeln!(
                out,
                r#"<path d="{d}" stroke="{colour}" stroke-width="{width}" fill="none"/>"#
            );
        }
    }
}

fn path_style(kind: &str) -> (String, f64, Option<&'static str>) {
    match kind {
        "road" | "highway" | "pike" => ("#7a5230".to_owned(), 5.0, None),
        "track" | "trail" | "path" | "lane" => ("#7a5230".to_owned(), 3.0, Some("7 4")),
        "railway" | "railroad" => ("#333".to_owned(), 3.0, Some("2 2")),
        other => (hashed(other, 50, 40), 3.0, Some("5 2")),
    }
}

fn draw_paths(s: &Scenario, out: &mut String) {
    out.push_str("<g id=\"paths\">\n");
    for p in &s.paths {
        let kind = &s.path_kinds[usize::from(p.kind)];
        let (colour, width, dash) = path_style(kind);
        let centres: Vec<(f64, f64)> = p.hexes.iter().map(|&h| s.map.center(h, SIZE)).collect();
        let dash = dash_attr(dash);
        let name = p
            .name
            .as_ref()
            .map_or(String::new(), |n| format!("<title>{}</title>", escape(n)));
        let _ = writeln!(
            out,
            r#"<polyline class="path {}" points="{}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round"{dash}>{name}</polyline>"#,
            escape(kind),
            points(&centres)
        );
    }
    out.push_str("</g>\n");
}

fn draw_labels(s: &Scenario, out: &mut String, hexes: &[Hex]) {
    out.push_str("<g id=\"labels\">\n");
    for &h in hexes {
        let (cx, cy) = s.map.center(h, SIZE);
        text(out, "label", (cx, cy - 0.6 * SIZE), &s.label(h));
    }
    out.push_str("</g>\n");
}

/// A five-pointed star's points.
fn star(cx: f64, cy: f64, r: f64) -> Vec<(f64, f64)> {
    (0..10)
        .map(|i| {
            let radius = if i % 2 == 0 { r } else { r * 0.45 };
            let a = (-90.0 + 36.0 * f64::from(i)).to_radians();
            (cx + radius * a.cos(), cy + radius * a.sin())
        })
        .collect()
}

fn draw_places(s: &Scenario, out: &mut String) {
    out.push_str("<g id=\"places\">\n");
    for p in &s.places {
        let (cx, cy) = s.map.center(p.hex, SIZE);
        if p.objective {
            let _ = writeln!(
                out,
                r#"<polygon class="objective" points="{}"><title>objective{}</title></polygon>"#,
                points(&star(cx + 0.5 * SIZE, cy - 0.3 * SIZE, 0.2 * SIZE)),
                p.value.map_or(String::new(), |v| format!(", worth {v}"))
            );
        }
        text(out, "place", (cx, cy + 0.62 * SIZE), &p.name);
    }
    out.push_str("</g>\n");
}

/// The values printed on a counter: the usual strength, movement and morale first.
fn counter_values(u: &Unit) -> String {
    const FIRST: [&str; 10] = [
        "cs", "strength", "figures", "ma", "mp", "move", "mv", "morale", "stripes", "command",
    ];
    let mut keys: Vec<&str> = FIRST
        .iter()
        .copied()
        .filter(|k| u.int(k).is_some())
        .collect();
    if keys.is_empty() {
        keys = u
            .values
            .iter()
            .filter(|(_, v)| v.as_int().is_some())
            .map(|(k, _)| k.as_str())
            .collect();
    }
    keys.iter()
        .take(3)
        .filter_map(|k| u.int(k))
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// A short name for a unit type: `INF`, `CAV`, `ART`, `LDR`, or its first letters.
fn abbreviation(kind: &str) -> String {
    match kind {
        "infantry" => "INF".to_owned(),
        "cavalry" => "CAV".to_owned(),
        "artillery" => "ART".to_owned(),
        "leader" => "LDR".to_owned(),
        "general" => "GEN".to_owned(),
        other => other.chars().take(3).collect::<String>().to_uppercase(),
    }
}

fn draw_units(s: &Scenario, out: &mut String) {
    out.push_str("<g id=\"units\">\n");
    let mut seen: Vec<Hex> = Vec::new();
    for u in &s.units {
        let Some(h) = u.hex else { continue };
        // A second counter in a hex (a general with a unit) is drawn offset.
        let stacked = seen.iter().filter(|&&x| x == h).count();
        seen.push(h);
        #[expect(clippy::cast_precision_loss, reason = "a handful of counters")]
        let shift = 0.18 * SIZE * stacked as f64;
        let (cx, cy) = s.map.center(h, SIZE);
        let (cx, cy) = (cx + shift, cy + shift);
        let side = 0.78 * SIZE;
        let mut tip = format!("{} ({}, {})", u.id, u.kind, u.side);
        if let Some(name) = &u.name {
            let _ = write!(tip, " {name}");
        }
        for (k, v) in &u.values {
            let _ = write!(tip, " {k}={v}");
        }
        let _ = writeln!(
            out,
            r#"<g class="unit" data-unit="{}"><title>{}</title>"#,
            escape(&u.id),
            escape(&tip)
        );
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="3" fill="{}"/>"#,
            n(cx - side / 2.0),
            n(cy - side / 2.0),
            n(side),
            n(side),
            side_colour(&u.side)
        );
        if let Some(dir) = u.facing {
            let ((x1, y1), (x2, y2)) = s.map.side_corners(h, dir, SIZE);
            let (mx, my) = (f64::midpoint(x1, x2), f64::midpoint(y1, y2));
            let (dx, dy) = ((mx - cx) * 0.55, (my - cy) * 0.55);
            let tip = (cx + dx, cy + dy);
            let (px, py) = (-dy * 0.3, dx * 0.3);
            let _ = writeln!(
                out,
                r##"<polygon class="facing" points="{}" fill="#222"/>"##,
                points(&[
                    tip,
                    (cx + dx * 0.6 + px, cy + dy * 0.6 + py),
                    (cx + dx * 0.6 - px, cy + dy * 0.6 - py)
                ])
            );
        }
        text(out, "kind", (cx, cy - 0.17 * SIZE), &abbreviation(&u.kind));
        text(out, "values", (cx, cy + 0.09 * SIZE), &counter_values(u));
        text(out, "id", (cx, cy + 0.3 * SIZE), &u.id);
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}
