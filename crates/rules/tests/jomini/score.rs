//! The score the view carries (issue 19): each objective's holder (JO-VIC-2), each
//! side's points against its target (JO-VIC-1) and the turns left (JO-VIC-3).

use super::harness::{Pos, ART, U};
use grognard_rules::jomini::Action;
use serde_json::json;

const GEN: U<'static> = ("b-gen", "blue", "officer", "0707", "weight = \"light\"");

#[test]
fn jomini_view_says_who_holds_each_objective_and_the_points_against_the_target() {
    let mill = "[[places]]\nname = \"Mill\"\nhex = \"0705\"\nobjective = true\nvalue = 2\n";
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
        ],
        mill,
    );
    let target = p.rules.target();
    let v = p.view();
    assert_eq!(
        v["objectives"],
        json!([{"name": "Mill", "hex": "0705", "value": 2, "held": null, "holder": null}])
    );
    assert_eq!(v["score"]["blue"], json!({"have": 0, "need": target[0]}));
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&p.mv("b-a", "0705"));
    let v = p.view();
    assert_eq!(v["objectives"][0]["holder"], "blue");
    assert_eq!(v["objectives"][0]["held"], "blue", "the old key stays");
    assert_eq!(v["score"]["blue"], json!({"have": 2, "need": target[0]}));
    assert_eq!(v["score"]["red"], json!({"have": 0, "need": target[1]}));
}

#[test]
fn jomini_view_counts_a_unit_eliminated_as_a_point() {
    let units = [
        GEN,
        ("b-a", "blue", "infantry", "0606", "weight = \"light\""),
        ("r-g", "red", "foot_artillery", "0605", "weight = \"light\""),
        ("r-h", "red", "foot_artillery", "0104", "weight = \"light\""),
    ];
    let s = crate::common::scenario(&super::harness::scenario_text(
        &[],
        &units,
        "[victory]\npoints = { blue = 5, red = 3 }\n",
    ));
    let mut p = Pos::at_start(&s);
    assert_eq!(p.view()["turns_left"], p.view()["turns"]);
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p.apply(&p.attack("b-a", "r-g"), &[ART, ART, ART]);
    assert!(p.state.outcome.is_none());
    let v = p.view();
    assert_eq!(v["score"]["blue"], json!({"have": 1, "need": 5}));
    assert_eq!(v["score"]["red"], json!({"have": 0, "need": 3}));
    assert_eq!(v["points"]["blue"], 1, "the old key stays");
}
