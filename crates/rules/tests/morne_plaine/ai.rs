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
