//! The turn, victory and the table (a test per rule ID).

use super::harness::{Pos, ART, U};
use grognard_engine::Ruleset;
use grognard_rules::jomini::victory::points;
use grognard_rules::jomini::{Action, Phase};

const GEN: U<'static> = ("b-gen", "blue", "officer", "0707", "weight = \"light\"");

#[test]
fn jo_turn_1_command_movement_combat_in_that_order() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
        ],
        "",
    );
    assert_eq!(p.rules.to_act(&p.state).unwrap().kind, "command");
    p.refused_first(&p.mv("b-a", "0705"), "JO-TURN-1");
    p.refused_first(&Action::EndTurn, "JO-TURN-1");
    p.refused_first(&Action::EndMovement, "JO-MOV-8");
    p.activate(&["b-gen", "b-a"]);
    p.allows(&Action::EndCommand, "JO-TURN-1");
    p.ok(&Action::EndCommand);
    assert_eq!(p.state.phase, Phase::Movement);
    p.refused_first(&Action::Activate { unit: p.id("b-a") }, "JO-TURN-1");
    p.refused_first(&Action::EndCommand, "JO-TURN-1");
    p.ok(&Action::EndMovement);
    assert_eq!(p.state.phase, Phase::Combat);
}

#[test]
fn jo_turn_2_the_sides_alternate() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&p.mv("b-a", "0705"));
    p.ok(&Action::EndMovement);
    p.allows(&Action::EndTurn, "JO-TURN-2");
    p.ok(&Action::EndTurn);
    assert_eq!(
        (p.state.turn, p.state.active, p.state.phase),
        (2, 1, Phase::Command)
    );
    assert!(p.state.pieces.iter().all(|x| x.group.is_none() && !x.moved));
    assert_eq!(p.rules.to_act(&p.state).unwrap().side, "red");
}

#[test]
fn jo_vic_1_a_third_of_the_enemys_units() {
    // Blue: 2 reserves + 1 unit; red: 2 reserves + 2 units = 4 -> blue needs 2 points.
    let units = [
        GEN,
        ("b-a", "blue", "infantry", "0606", "weight = \"light\""),
        ("r-g", "red", "foot_artillery", "0605", "weight = \"light\""),
        ("r-h", "red", "foot_artillery", "0104", "weight = \"light\""),
    ];
    let mut p = Pos::new(&[], &units, "");
    assert_eq!(p.rules.target(), [2, 1]);
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p.apply(&p.attack("b-a", "r-g"), &[ART, ART, ART]);
    assert!(p.state.outcome.is_none());
    p.state.eliminated[0] = 1;
    let _ = p.rules.outcome(&p.state);
    let s = crate::common::scenario(&super::harness::scenario_text(
        &[],
        &units,
        "[victory]\npoints = { blue = 1, red = 3 }\n",
    ));
    let q = Pos::at_start(&s);
    assert_eq!(q.rules.target(), [1, 3]);
    // Eliminating the first unit wins at 1 point.
    let mut q = q;
    q.activate(&["b-gen", "b-a"]);
    q.ok(&Action::EndCommand);
    q.ok(&Action::EndMovement);
    q.apply(&q.attack("b-a", "r-g"), &[ART, ART, ART]);
    let o = q.state.outcome.clone().unwrap();
    assert_eq!(
        (o.winner.as_deref(), o.rule.as_deref()),
        (Some("blue"), Some("JO-VIC-1"))
    );
}

#[test]
fn jo_vic_2_objectives_count_for_the_side_holding_them() {
    let extra = "[[places]]\nname = \"Mill\"\nhex = \"0705\"\nobjective = true\nvalue = 2\n";
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
        ],
        extra,
    );
    assert_eq!(points(&p.rules, &p.state, 0), 0);
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&p.mv("b-a", "0705"));
    assert_eq!(points(&p.rules, &p.state, 0), 2);
    assert_eq!(p.view()["objectives"][0]["held"], "blue");
}

#[test]
fn jo_vic_3_at_the_turn_limit_more_points_win() {
    let mut s = crate::common::scenario(&super::harness::scenario_text(&[], &[GEN], ""));
    s.turns = Some(1);
    let mut p = Pos::at_start(&s);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p.ok(&Action::EndTurn);
    p.state.eliminated[1] = 1;
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p.ok(&Action::EndTurn);
    let o = p.state.outcome.clone().unwrap();
    assert_eq!(
        (o.winner.as_deref(), o.rule.as_deref()),
        (Some("red"), Some("JO-VIC-3"))
    );
}

#[test]
fn jo_map_1_the_table_is_at_least_12_by_9() {
    let text = super::harness::scenario_text(&[], &[GEN], "").replace("cols = 13", "cols = 10");
    let text = text
        .lines()
        .map(|l| {
            if l.split(' ').count() == 13 && !l.contains('=') {
                l.split(' ').take(10).collect::<Vec<_>>().join(" ")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        .replace("\"1309\"", "\"1009\"")
        .replace("\"1209\"", "\"0909\"")
        .replace("\"1301\"", "\"1001\"")
        .replace("\"1201\"", "\"0901\"");
    let err = grognard_rules::registry()
        .load_scenario("t.toml", &text)
        .unwrap_err();
    assert!(err.to_string().contains("JO-MAP-1"), "{err}");
}

/// The view envelope every ruleset shares (docs/ENGINE-PROTOCOL.md): `turn`, `turns`,
/// `phase`, `active`, and `units` each with `id`, `side` and `hex`; `pieces` stays.
#[test]
fn the_view_has_the_shared_envelope() {
    let g = grognard_engine::Game::<grognard_rules::jomini::Jomini>::new(
        super::harness::builtin(),
        Some(3),
    )
    .unwrap();
    let v = g
        .rules()
        .view(g.state(), &grognard_engine::Seat::Omniscient);
    for key in ["turn", "turns", "phase", "active", "units", "pieces"] {
        assert!(v.get(key).is_some(), "the view lacks `{key}`");
    }
    let units = v["units"].as_array().unwrap();
    assert_eq!(units.len(), g.state().pieces.len());
    for (u, p) in units.iter().zip(v["pieces"].as_array().unwrap()) {
        assert_eq!(
            (&u["id"], &u["side"], &u["hex"]),
            (&p["id"], &p["side"], &p["hex"])
        );
    }
}
