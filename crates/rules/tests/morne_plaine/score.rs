//! The score the view carries (issue 19): who holds each objective and the points each
//! side would score now by MP-VIC-1, with the scenario's margin and sudden death.

use super::harness::{clear, has, T};
use grognard_engine::{Ruleset, Seat};
use grognard_rules::morne_plaine::Event;
use serde_json::json;

fn view(t: &T) -> serde_json::Value {
    t.rules.view(t.state(), &Seat::Side("orange".into()))
}

#[test]
fn morne_plaine_view_says_who_holds_each_objective_and_the_score_now() {
    // The usual charge on the south edge (MP-CHG-21): the target cannot retreat, is
    // eliminated, and the charger advances into its hex, the Mill.
    let places = "[[places]]\nname = \"Mill\"\nhex = \"0305\"\nobjective = true\nvalue = 2\nowner = \"blue\"\n\n\
                  [[places]]\nname = \"Ford\"\nhex = \"0101\"\nobjective = true\n\n\
                  [victory]\npoints_per_eliminated_unit = 2\nmargin = 3\nsudden_death = { side = \"blue\", all_objectives = true }\n";
    let mut t = clear(5, 5)
        .raw(places)
        .cav("o-c", "0302", 4, 5)
        .inf("b-t", "0305", 4, 4)
        .inf("b-1", "0405", 3, 4)
        .inf("b-2", "0205", 3, 4)
        .inf("b-3", "0404", 3, 4)
        .inf("b-4", "0204", 3, 4)
        .turns(3)
        .game();
    let v = view(&t);
    assert_eq!(
        v["objectives"],
        json!([
            {"hex": "0305", "name": "Mill", "holder": "blue", "value": 2},
            {"hex": "0101", "name": "Ford", "holder": null, "value": 1},
        ])
    );
    assert_eq!(
        v["score"],
        json!({
            "orange": {"have": 0, "need": null, "margin": 3},
            "blue": {"have": 2, "need": null, "margin": 3, "sudden_death": true},
        })
    );
    assert_eq!(v["turns_left"], 3);
    t.go("o-c", "0303").unwrap();
    t.force(&[9]);
    let ev = t.charge("o-c", "b-t").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Eliminated { .. })),
        "{ev:?}"
    );
    assert_eq!(t.at("o-c").as_deref(), Some("0305"));
    let v = view(&t);
    assert_eq!(
        v["objectives"][0]["holder"], "orange",
        "{}",
        v["objectives"]
    );
    assert_eq!(v["objectives"][1]["holder"], json!(null));
    // The Mill's 2 and 2 for the unit eliminated; blue has nothing left to count.
    assert_eq!(v["score"]["orange"]["have"], 4);
    assert_eq!(v["score"]["blue"]["have"], 0);
    // Every seat sees the same score.
    let spectator = t.rules.view(t.state(), &Seat::Spectator);
    assert_eq!(spectator["score"], v["score"]);
}

#[test]
fn morne_plaine_turns_left_counts_down_to_zero_once_over() {
    let mut t = clear(8, 8)
        .inf("o-a", "0101", 5, 4)
        .inf("b-a", "0808", 5, 4)
        .turns(2)
        .game();
    assert_eq!(view(&t)["turns_left"], 2);
    assert_eq!(view(&t)["objectives"], json!([]));
    t.end();
    t.end();
    assert_eq!(view(&t)["turns_left"], 1);
    t.end();
    t.end();
    assert!(t.state().outcome.is_some());
    assert_eq!(view(&t)["turns_left"], 0);
}
