//! The computer's evaluation of a Morne Plaine position (not a rule: `Ruleset::evaluate`).

use crate::common::{builtin, Table};
use grognard_engine::Ruleset;
use grognard_rules::morne_plaine::MornePlaine;

fn table() -> Table<MornePlaine> {
    let s = builtin("bridge-at-morne");
    Table::with_rules(MornePlaine::new(&s).unwrap_or_else(|p| panic!("{p}")), 1)
}

fn eval(t: &Table<MornePlaine>, side: &str) -> f64 {
    t.rules.evaluate(&t.state, side)
}

#[test]
fn holding_more_objectives_scores_higher() {
    let mut t = table();
    let before = eval(&t, "blue");
    let theirs = eval(&t, "orange");
    // Blue plays first (index 0): every place goes to blue.
    for h in &mut t.state.held {
        *h = Some(0);
    }
    assert!(eval(&t, "blue") > before);
    assert!(eval(&t, "orange") < theirs);
}

#[test]
fn a_worn_unit_scores_below_the_same_at_full() {
    let mut t = table();
    let u = t
        .state
        .units
        .iter()
        .position(|u| u.hex.is_some() && u.cs > 1)
        .expect("a unit on the map");
    let (a, b) = (eval(&t, "blue"), eval(&t, "orange"));
    t.state.units[u].cs = 1;
    let (c, d) = (eval(&t, "blue"), eval(&t, "orange"));
    assert!((c < a && d > b) || (c > a && d < b), "{a} {b} -> {c} {d}");
}

/// The score's change when blue takes Aulne (a neutral objective of value 1) on the
/// last turn, with blue holding the places given first.
fn gain_of_aulne_on_the_last_turn(blue_holds: &[usize]) -> f64 {
    let mut t = table();
    t.state.turn = 12;
    for &i in blue_holds {
        t.state.held[i] = Some(0);
    }
    let before = eval(&t, "blue");
    t.state.held[3] = Some(0);
    eval(&t, "blue") - before
}

#[test]
fn on_the_last_turn_a_point_toward_the_winning_margin_weighs_more_than_one_beyond_it() {
    // Places: Morne 0, the bridge 1, the redoubt 2, Aulne 3, Vaux 4. As it stands blue
    // has 4 points (Vaux) and orange 5: a draw (margin 2, MP-VIC-1). With the bridge
    // too, blue leads 6 to 3 and wins already.
    let toward = gain_of_aulne_on_the_last_turn(&[]);
    let beyond = gain_of_aulne_on_the_last_turn(&[1]);
    assert!(
        beyond > 0.0,
        "an objective is still worth holding: {beyond}"
    );
    assert!(toward > beyond + 1.0, "{toward} against {beyond}");
}

#[test]
fn a_worn_unit_is_not_drawn_toward_the_objectives_and_a_fresh_one_is() {
    let mut t = table();
    let foot = t.id("b-1-foot").index();
    // 0812 is two hexes further than 0810 from the bridge (0809), across open ground.
    let step_back = |t: &mut Table<MornePlaine>| {
        let near = eval(t, "blue");
        t.state.units[foot].hex = Some(t.hex("0812"));
        let far = eval(t, "blue");
        t.state.units[foot].hex = Some(t.hex("0810"));
        near - far
    };
    assert!(step_back(&mut t) > 0.0, "a fresh unit is drawn forward");
    t.state.units[foot].cs = 2;
    assert!(
        step_back(&mut t).abs() < 1e-9,
        "a unit worn to 2 of 6 is not drawn forward"
    );
}
