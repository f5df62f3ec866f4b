//! Saves and stored games are JSON from outside: one whose scenario names an unknown
//! terrain, an unknown unit type, a hex off the map or an id that points nowhere is
//! refused with an error naming the field, never a panic (issue 14, item 6). The same
//! holds of the rules bound to such a scenario directly, without the engine's check.

use grognard_engine::scenario::Scenario;
use grognard_engine::{EngineError, SavedGame};
use serde_json::{json, Value};

/// A save of a built-in scenario after a few actions.
fn save_of(id: &str) -> Value {
    let registry = grognard_rules::registry();
    let b = grognard_rules::builtin::find(id).unwrap();
    let scenario = registry.load_scenario(b.path, b.text).unwrap();
    let mut game = registry.new_game(scenario, Some(7)).unwrap();
    for _ in 0..6 {
        let legal = game.legal();
        let Some(action) = legal.get(legal.len() / 2) else {
            break;
        };
        game.apply(action).unwrap();
    }
    serde_json::to_value(game.save()).unwrap()
}

/// Loads a save as `grognard engine` and the server do: JSON, then the registry.
fn load(save: &Value) -> Result<usize, EngineError> {
    let saved: SavedGame = serde_json::from_value(save.clone()).unwrap();
    grognard_rules::registry()
        .load_game(&saved)
        .map(|g| g.len())
}

type Tamper = (&'static str, &'static str, fn(&mut Value));

/// Each tampering of the save's scenario, the field the refusal must name and a word
/// of its message.
const TAMPERINGS: &[Tamper] = &[
    (
        "scenario.terrain_names[0]",
        "unknown terrain `swamp-of-doom`",
        |s| {
            s["terrain_names"][0] = json!("swamp-of-doom");
        },
    ),
    ("scenario.terrain.cells[0]", "has no terrain name", |s| {
        s["terrain"]["cells"][0] = json!(255);
    }),
    ("scenario.units[0].kind", "unknown type `dragon`", |s| {
        s["units"][0]["kind"] = json!("dragon");
    }),
    ("scenario.units[0].side", "has no side `green`", |s| {
        s["units"][0]["side"] = json!("green");
    }),
    ("scenario.units[0].hex", "neither on the map", |s| {
        s["units"][0]["hex"] = json!({"q": i32::MIN, "r": i32::MIN});
    }),
    ("scenario.units[1].id", "duplicate unit id", |s| {
        s["units"][1]["id"] = s["units"][0]["id"].clone();
    }),
    ("scenario.units[0].values.", "unknown value `luck`", |s| {
        s["units"][0]["values"]["luck"] = json!(3);
    }),
    ("scenario.first_side", "not a side", |s| {
        s["first_side"] = json!("green");
    }),
    ("scenario.places[0].hex", "off the map", |s| {
        s["places"] = json!([{"name": "Nowhere", "hex": {"q": 900, "r": -900}, "objective": true,
            "value": 1, "owner": null, "loc": {"line": 1, "column": 1}}]);
    }),
    ("scenario.places[0].owner", "not a side", |s| {
        s["places"] = json!([{"name": "Somewhere", "hex": {"q": 0, "r": 0}, "objective": true,
            "value": 1, "owner": "green", "loc": {"line": 1, "column": 1}}]);
    }),
    ("scenario.paths[0]", "path kind number 7", |s| {
        s["paths"] = json!([{"kind": 7, "name": null, "hexes": [{"q": 0, "r": 0}, {"q": 0, "r": 1}],
            "loc": {"line": 1, "column": 1}}]);
    }),
    ("scenario.map", "each must be from 1 to 999", |s| {
        s["map"]["cols"] = json!(4_000_000_000u32);
    }),
    ("scenario.sections.dragons", "unknown table", |s| {
        s["sections"]["dragons"] =
            json!({"table": {}, "loc": {"line": 1, "column": 1}, "locs": {}});
    }),
    ("scenario.hexsides.cells", "names no hexside feature", |s| {
        s["hexsides"]["cells"][0] = json!(0x8000);
    }),
];

/// Every tampering of a save of `id` is refused, naming its field.
fn every_tampered_save_of_is_refused(id: &str) {
    let save = save_of(id);
    assert!(load(&save).is_ok(), "{id}: the save as it was loads");
    for (field, says, tamper) in TAMPERINGS {
        let mut bad = save.clone();
        tamper(&mut bad["scenario"]);
        let e = load(&bad).expect_err(field);
        let message = e.to_string();
        assert_eq!(e.rule(), "game", "{id}: {field}: {message}");
        assert!(
            message.contains(field) && message.contains(says),
            "{id}: expected `{field}` and `{says}` in: {message}"
        );
    }
}

/// A validated scenario with its first terrain renamed: what a stored game of a
/// version with another vocabulary would hold.
fn with_unknown_terrain(id: &str) -> Scenario {
    let b = grognard_rules::builtin::find(id).unwrap();
    let mut s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .unwrap();
    s.terrain_names[0] = "swamp-of-doom".into();
    s
}

/// The rules bound directly to a scenario with an unknown terrain refuse it with a
/// problem naming the terrain (the engine's check of saves stands before them; this is
/// the second line).
fn the_rules_refuse_an_unknown_terrain(id: &str) {
    let registry = grognard_rules::registry();
    let s = with_unknown_terrain(id);
    let entry = registry.get(&s.ruleset).unwrap();
    let problems = (entry.check)(&s).expect_err(id);
    assert!(
        problems.to_string().contains("swamp-of-doom"),
        "{id}: {problems}"
    );
    let e = registry.new_game(s, None).err().expect(id);
    assert!(e.to_string().contains("swamp-of-doom"), "{id}: {e}");
}

#[test]
fn a_morne_plaine_save_with_an_unknown_terrain_or_a_dangling_id_is_refused_not_a_panic() {
    every_tampered_save_of_is_refused("bridge-at-morne");
    every_tampered_save_of_is_refused("heights-of-aubrac");
    the_rules_refuse_an_unknown_terrain("bridge-at-morne");
}

#[test]
fn a_battle_cry_save_with_an_unknown_terrain_or_a_dangling_id_is_refused_not_a_panic() {
    every_tampered_save_of_is_refused("crossing-at-hollins-ford");
    the_rules_refuse_an_unknown_terrain("crossing-at-hollins-ford");
}

#[test]
fn a_skirmish_save_with_an_unknown_terrain_or_a_dangling_id_is_refused_not_a_panic() {
    every_tampered_save_of_is_refused("broken-cairn");
    the_rules_refuse_an_unknown_terrain("broken-cairn");
}

#[test]
fn a_jomini_save_with_an_unknown_terrain_or_a_dangling_id_is_refused_not_a_panic() {
    every_tampered_save_of_is_refused("passage-of-the-saale");
    the_rules_refuse_an_unknown_terrain("passage-of-the-saale");
}

/// Regression: JOMINI read a path's kind by indexing the scenario's path kinds, and a
/// stored scenario with a kind number past them (or none) panicked in `Jomini::new`.
#[test]
fn regression_a_jomini_path_kind_past_the_kinds_no_longer_panics_the_rules() {
    let b = grognard_rules::builtin::find("passage-of-the-saale").unwrap();
    let registry = grognard_rules::registry();
    let mut s = registry.load_scenario(b.path, b.text).unwrap();
    s.path_kinds.clear();
    assert!(registry.new_game(s, None).is_ok());
}

/// Regression: Morne Plaine computed the climb between two hexes in `i8`, and a scenario
/// file with elevations 127 and -128 side by side (both allowed) overflowed.
#[test]
fn regression_elevations_255_apart_no_longer_overflow_in_morne_plaine() {
    let b = grognard_rules::builtin::find("bridge-at-morne").unwrap();
    let text = b
        .text
        .replacen("elevation = '''\n0 0 0", "elevation = '''\n127 -128 127", 1);
    assert_ne!(text, b.text);
    let registry = grognard_rules::registry();
    let s = registry.load_scenario(b.path, &text).unwrap();
    let game = registry.new_game(s, None).unwrap();
    assert!(!game.legal().is_empty());
}

/// Regression: a problem of the whole scenario (JOMINI's table too small, its tables
/// lacking a terrain) was reported at line 0, column 0, outside the file.
#[test]
fn regression_jomini_problems_of_the_whole_scenario_are_at_line_1() {
    let s = with_unknown_terrain("passage-of-the-saale");
    let entry = grognard_rules::registry();
    let problems = (entry.get("jomini").unwrap().check)(&s).unwrap_err();
    for p in &problems.0 {
        assert!(p.line >= 1 && p.column >= 1, "{p}");
    }
}
