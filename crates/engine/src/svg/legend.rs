//! The legend beside the map: what each colour, line and mark stands for.

use super::*;
use std::collections::BTreeSet;

/// Draws the legend at `(x, y)`; returns its height.
#[expect(clippy::too_many_lines, reason = "one section after another")]
pub(super) fn draw_legend(s: &Scenario, out: &mut String, x: f64, y: f64) -> f64 {
    let mut row = y;
    let mut line = |out: &mut String, content: &str, class: &str| {
        row += LEGEND_LINE;
        text(out, class, (x + 26.0, row), content);
        row
    };
    out.push_str("<g id=\"legend\" class=\"legend\">\n");
    let hexes: Vec<Hex> = s.map.hexes().collect();

    let used: BTreeSet<u8> = hexes
        .iter()
        .filter_map(|&h| s.terrain.get(h).copied())
        .collect();
    line(out, "Terrain", "heading");
    for t in used {
        let name = &s.terrain_names[usize::from(t)];
        let r = line(out, name, "");
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="18" height="14" fill="{}" stroke="#8a8a7a"/>"##,
            n(x),
            n(r - 11.0),
            terrain_colour(name)
        );
        super::terrain::swatch(out, name, (x + 9.0, r - 4.0));
    }
    let highest = hexes
        .iter()
        .filter_map(|&h| s.elevation_at(h))
        .max()
        .unwrap_or(0);
    let lowest = hexes
        .iter()
        .filter_map(|&h| s.elevation_at(h))
        .min()
        .unwrap_or(0);
    if highest != 0 || lowest != 0 {
        line(
            out,
            &format!("Elevation {lowest} to {highest}: darker is higher"),
            "",
        );
    }

    let mut features = 0u16;
    for &h in &hexes {
        for dir in Direction::ALL {
            features |= s.hexsides.get(h, dir);
        }
    }
    if features != 0 {
        line(out, "Hexsides", "heading");
    }
    for (i, name) in s.hexside_features.iter().enumerate() {
        if features & (1 << i) == 0 {
            continue;
        }
        let r = line(out, name, "");
        let (_, stroke) = feature_style(name);
        let (x1, x2, ym) = (x, x + 18.0, r - 4.0);
        match stroke {
            Stroke::Line {
                colour,
                width,
                dash,
            } => segment(out, (x1, ym), (x2, ym), colour, width, &dash_attr(dash)),
            Stroke::Bar { colour, width } => {
                segment(
                    out,
                    (x1 + 9.0, ym - 8.0),
                    (x1 + 9.0, ym + 6.0),
                    colour,
                    width,
                    "",
                );
            }
            Stroke::Ticks {
                colour,
                width,
                length,
            } => {
                let _ = writeln!(
                    out,
                    r#"<path d="M{},{} L{},{} M{},{} L{},{} M{},{} L{},{}" stroke="{colour}" stroke-width="{width}" fill="none"/>"#,
                    n(x1),
                    n(ym - 4.0),
                    n(x2),
                    n(ym - 4.0),
                    n(x1 + 5.0),
                    n(ym - 4.0),
                    n(x1 + 5.0),
                    n(ym - 4.0 + length),
                    n(x1 + 13.0),
                    n(ym - 4.0),
                    n(x1 + 13.0),
                    n(ym - 4.0 + length)
                );
            }
        }
    }

    let kinds: BTreeSet<u8> = s.paths.iter().map(|p| p.kind).collect();
    if !kinds.is_empty() {
        line(out, "Paths", "heading");
    }
    for k in kinds {
        let name = &s.path_kinds[usize::from(k)];
        let r = line(out, name, "");
        let (colour, width, dash) = path_style(name);
        let (a, b) = ((x, r - 4.0), (x + 18.0, r - 4.0));
        segment(out, a, b, &colour, width, &dash_attr(dash));
    }

    if s.places.iter().any(|p| p.objective) {
        let r = line(out, "objective", "");
        let _ = writeln!(
            out,
            r#"<polygon class="objective" points="{}"/>"#,
            points(&star(x + 9.0, r - 5.0, 8.0))
        );
    }

    line(out, "Sides", "heading");
    for side in &s.sides {
        let units = s.units.iter().filter(|u| u.side == side.id).count();
        let edge = side
            .home_edge
            .map_or(String::new(), |e| format!(", home edge {}", e.name()));
        let first = if side.id == s.first_side {
            ", plays first"
        } else {
            ""
        };
        let plural = if units == 1 { "" } else { "s" };
        let r = line(
            out,
            &format!("{} ({units} unit{plural}{edge}{first})", side.name),
            "",
        );
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="18" height="14" rx="2" fill="{}" stroke="#222"/>"##,
            n(x),
            n(r - 11.0),
            side_colour(&side.id)
        );
    }

    let mut arrivals: Vec<&Unit> = s.units.iter().filter(|u| u.enters.is_some()).collect();
    arrivals.sort_by_key(|u| u.enters.map(|e| e.turn));
    if !arrivals.is_empty() {
        line(out, "Reinforcements", "heading");
    }
    for u in arrivals {
        if let Some(e) = u.enters {
            line(
                out,
                &format!(
                    "turn {}: {} ({}) at {}",
                    e.turn,
                    u.id,
                    u.side,
                    s.label(e.hex)
                ),
                "",
            );
        }
    }
    if let Some(turns) = s.turns {
        line(out, &format!("{turns} turns; seed {}", s.seed), "");
    }
    out.push_str("</g>\n");
    row - y + LEGEND_LINE
}
