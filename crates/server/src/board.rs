//! A scenario's static board as JSON, for clients to draw: every hex with its terrain
//! and elevation, every hexside feature, the paths, places and sides.
//!
//! Each terrain of the scenario comes with its fill from the engine's palette
//! ([`grognard_engine::palette`]), the one `grognard show --svg` draws with.
//!
//! Hex centres for drawing, hexes of circumradius `s`: flat-top `x = 1.5 s q`,
//! `y = sqrt(3) s (r + q/2)`; pointy-top `x = sqrt(3) s (q + r/2)`, `y = 1.5 s r`.

use grognard_engine::palette::terrain_colour;
use grognard_engine::scenario::Scenario;
use grognard_hex::{Direction, Hex, Orientation, Shove};
use serde_json::{json, Value};

/// The board of a scenario.
#[must_use]
pub fn board(id: &str, s: &Scenario) -> Value {
    let map = &s.map;
    let label = |h: Hex| map.label(h);
    let hexes: Vec<Value> = map
        .hexes()
        .map(|h| {
            let (col, row) = map.to_offset(h);
            json!({
                "label": label(h),
                "q": h.q,
                "r": h.r,
                "col": col + 1,
                "row": row + 1,
                "terrain": s.terrain_at(h),
                "elevation": s.elevation_at(h).unwrap_or(0),
            })
        })
        .collect();
    let mut hexsides = Vec::new();
    for h in map.hexes() {
        for dir in Direction::ALL {
            let across = h.neighbor(dir);
            // Each hexside once: from the hex on its first three sides, or from the
            // map's hex at the edge (then `b` is null).
            if dir.index() >= 3 && map.contains(across) {
                continue;
            }
            let features = s.features(h, dir);
            if features.is_empty() {
                continue;
            }
            hexsides.push(json!({
                "a": label(h),
                "b": label(across),
                "direction": dir.index(),
                "features": features,
            }));
        }
    }
    let paths: Vec<Value> = s
        .paths
        .iter()
        .map(|p| {
            json!({
                "kind": s.path_kinds.get(usize::from(p.kind)),
                "name": p.name,
                "hexes": p.hexes.iter().map(|&h| s.label(h)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let places: Vec<Value> = s
        .places
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "hex": s.label(p.hex),
                "objective": p.objective,
                "value": p.value,
                "owner": p.owner,
            })
        })
        .collect();
    let sides: Vec<Value> = s
        .sides
        .iter()
        .map(|side| {
            json!({
                "id": side.id,
                "name": side.name,
                "home_edge": side.home_edge.map(|e| e.name()),
            })
        })
        .collect();
    let terrain: serde_json::Map<String, Value> = s
        .terrain_names
        .iter()
        .map(|name| (name.clone(), Value::from(terrain_colour(name))))
        .collect();
    json!({
        "id": id,
        "title": s.title,
        "ruleset": s.ruleset,
        "cols": map.cols(),
        "rows": map.rows(),
        "orientation": match map.orientation() {
            Orientation::FlatTop => "flat_top",
            Orientation::PointyTop => "pointy_top",
        },
        "shove": match map.shove() {
            Shove::Even => "even",
            Shove::Odd => "odd",
        },
        "hexes": hexes,
        "hexsides": hexsides,
        "paths": paths,
        "places": places,
        "sides": sides,
        "palette": {"terrain": terrain},
    })
}

/// A scenario's line in the list of scenarios.
#[must_use]
pub fn summary(id: &str, s: &Scenario) -> Value {
    json!({
        "id": id,
        "title": s.title,
        "description": s.description,
        "ruleset": s.ruleset,
        "sides": s.sides.iter().map(|side| json!({"id": side.id, "name": side.name})).collect::<Vec<_>>(),
        "map": {"cols": s.map.cols(), "rows": s.map.rows()},
        "turns": s.turns,
    })
}
