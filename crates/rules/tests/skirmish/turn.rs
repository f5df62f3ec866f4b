//! The sequence of play and the end of the game; the built-in scenario; the engine
//! protocol's view of a skirmish (what the web client reads).

use super::harness::{face_to_face, has, open, T};
use crate::common;
use grognard_engine::Seat;
use grognard_rules::skirmish::{Event, Phase};
use serde_json::json;

fn phases(ev: &[Event]) -> Vec<(u32, String, Phase)> {
    crate::common::phases_began!(ev, Event::PhaseBegan)
}

#[test]
fn sk_turn_1_sides_alternate_active_turns_of_movement_melee_and_morale() {
    let mut t = face_to_face(8).game();
    assert_eq!(
        (t.state().turn, t.active(), t.state().phase),
        (1, "red", Phase::Movement)
    );
    let mut ev = t.end();
    t.force(&[1, 1]);
    t.attack("r-a", "b-a").unwrap();
    ev.extend(t.end());
    ev.extend(t.end());
    t.force(&[1, 1]);
    t.attack("b-a", "r-a").unwrap();
    ev.extend(t.end());
    assert_eq!(
        phases(&ev),
        [
            (1, "red".into(), Phase::Melee),
            (1, "blue".into(), Phase::Movement),
            (1, "blue".into(), Phase::Melee),
            (2, "red".into(), Phase::Movement),
        ]
    );
}

#[test]
fn sk_turn_2_a_melee_phase_with_nobody_in_reach_passes() {
    let mut t = open(8, 8)
        .sword("r-a", "0407", "n")
        .sword("b-a", "0402", "s")
        .game();
    let ev = t.end();
    assert_eq!(
        phases(&ev),
        [
            (1, "red".into(), Phase::Melee),
            (1, "blue".into(), Phase::Movement)
        ]
    );
}

#[test]
fn sk_turn_3_a_band_with_nobody_left_loses() {
    let mut t = face_to_face(8).game();
    t.end();
    t.set("b-a", |c| {
        c.damage = 5;
        c.ripostes = 1;
    });
    t.force(&[4]);
    let ev = t.attack("r-a", "b-a").unwrap();
    assert!(has(&ev, |e| matches!(e, Event::GameOver { .. })));
    let o = t.state().outcome.clone().unwrap();
    assert_eq!(
        (o.winner.as_deref(), o.rule.as_deref()),
        (Some("red"), Some("SK-TURN-3"))
    );
    assert!(t.to_act().is_none() && t.legal().is_empty());
    // After the last turn: more enemies out of the fight wins; as many is a draw.
    let mut d = open(8, 8)
        .sword("r-a", "0407", "n")
        .sword("b-a", "0402", "s")
        .turns(1)
        .game();
    d.end();
    let ev = d.end();
    let o = d.state().outcome.clone().expect("over after one turn");
    assert_eq!(o.winner, None, "{ev:?}");
    let mut w = open(8, 8)
        .sword("r-a", "0407", "n")
        .sword("b-a", "0402", "s")
        .sword("b-b", "0802", "s")
        .turns(1)
        .game();
    w.set("b-b", |c| {
        c.hex = None;
        c.out = true;
    });
    w.end();
    w.end();
    assert_eq!(
        w.state().outcome.clone().unwrap().winner.as_deref(),
        Some("red")
    );
}

#[test]
fn the_broken_cairn_is_a_fight_of_five_against_five() {
    let s = common::builtin("broken-cairn");
    assert_eq!(s.ruleset, "skirmish");
    let g = common::game(s);
    let v = g.view(&Seat::Spectator);
    let units = v["units"].as_array().unwrap();
    assert_eq!(units.len(), 10);
    let weapons: std::collections::BTreeSet<&str> = units
        .iter()
        .map(|u| u["weapon"]["name"].as_str().unwrap())
        .collect();
    for w in ["spear", "sword", "two_handed", "dagger"] {
        assert!(weapons.contains(w), "{w}");
    }
    assert!(units.iter().any(|u| u["shield"] == "round"));
    // A shooter on each side (SK-MIS-2).
    for side in ["red", "blue"] {
        assert!(units
            .iter()
            .any(|u| u["side"] == side && u["missile"].is_object()));
    }
    assert_eq!(g.to_act().unwrap().side, "red");
    let svg = grognard_engine::svg::render(&common::builtin("broken-cairn"));
    assert!(svg.starts_with("<svg") || svg.contains("<svg"));
}

/// What the web client reads: the view's fields, the windows' decision kinds, actions as
/// JSON with hexes as labels and facings as direction names.
#[test]
fn the_protocol_speaks_labels_facings_and_windows() {
    let mut g = common::game(common::builtin("broken-cairn"));
    // Red's turn opens with the missile phase: Tam may sling a stone.
    let d = g.to_act().unwrap();
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("red", "missile"));
    let legal = g.legal();
    assert!(legal
        .iter()
        .any(|a| a["type"] == "shoot" && a["unit"] == "r-tam"));
    g.apply(&json!({ "type": "end_phase" })).unwrap();
    let legal = g.legal();
    assert!(legal.contains(&json!({ "type": "face", "unit": "r-aldren", "facing": "ne" })));
    assert!(legal.contains(&json!({ "type": "move", "unit": "r-aldren", "to": "0608" })));
    assert!(legal
        .contains(&json!({ "type": "move", "unit": "r-aldren", "to": "0608", "evasive": true })));
    assert!(legal.contains(&json!({ "type": "defend", "unit": "r-aldren" })));
    assert!(legal.contains(&json!({ "type": "end_phase" })));
    g.apply(&json!({ "type": "move", "unit": "r-aldren", "to": "0608" }))
        .unwrap();
    let d = g.to_act().unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("blue", "reaction", true)
    );
    let legal = g.legal();
    assert!(legal.contains(&json!({ "type": "pass" })));
    assert!(legal.contains(
        &json!({ "type": "short_move", "unit": "b-oswy", "to": "0602", "facing": "se" })
    ));
    let v = g.view(&Seat::Side("blue".into()));
    assert_eq!(v["window"]["kind"], "reaction");
    assert_eq!(v["window"]["unit"], "r-aldren");
    assert!(v["window"]["reactors"].as_array().unwrap().len() == 5);
    let u = &v["units"][0];
    for k in [
        "id",
        "name",
        "side",
        "hex",
        "facing",
        "weapon",
        "missile",
        "shield",
        "health",
        "damage",
        "statuses",
        "mp",
        "allowance",
        "short_mp",
        "actions",
        "ripostes_left",
        "done",
    ] {
        assert!(u.get(k).is_some(), "{k}");
    }
    // The reacting character's short move, through `reachable`.
    let r = g.reachable("b-oswy").unwrap();
    assert!(!r.is_empty());
    let _ = T::clone;
}
