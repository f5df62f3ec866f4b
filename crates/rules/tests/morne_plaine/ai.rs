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

/// The threats: a unit left in contact with a much stronger enemy (MP-CMB-8, MP-CMB-16)
/// scores below the same unit out of its reach, for its side, and above for the enemy.
#[test]
fn a_unit_in_contact_with_a_stronger_enemy_scores_below_the_same_unit_alone() {
    let mut t = table();
    let (rifles, line) = (t.id("b-rifles"), t.id("o-1-line"));
    t.state.units[rifles.index()].hex = Some(t.hex("1502"));
    t.state.units[line.index()].hex = Some(t.hex("0102"));
    let (alone_blue, alone_orange) = (eval(&t, "blue"), eval(&t, "orange"));
    t.state.units[line.index()].hex = Some(t.hex("1503"));
    let (near_blue, near_orange) = (eval(&t, "blue"), eval(&t, "orange"));
    assert!(near_blue < alone_blue, "{alone_blue} -> {near_blue}");
    assert!(
        near_orange > alone_orange,
        "{alone_orange} -> {near_orange}"
    );
    // Demoralised, the enemy cannot attack (MP-DEM-3): no threat.
    t.state.units[line.index()].mv = 0;
    let demoralised = eval(&t, "blue");
    t.state.units[line.index()].hex = Some(t.hex("0102"));
    let apart = eval(&t, "blue");
    assert!(
        (demoralised - apart).abs() < 1e-9,
        "{apart} -> {demoralised}"
    );
}
