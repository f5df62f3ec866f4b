//! The computer's evaluation of a JOMINI position (not a rule: `Ruleset::evaluate`).

use super::harness::{self, Pos};
use grognard_engine::Ruleset;

fn builtin() -> Pos {
    Pos::at_start(&harness::builtin())
}

fn eval(p: &Pos, side: &str) -> f64 {
    p.rules.evaluate(&p.state, side)
}

#[test]
fn more_points_score_higher() {
    let mut p = builtin();
    let before = eval(&p, "french");
    let grey_before = eval(&p, "prussian");
    p.state.eliminated[0] += 1;
    assert!(eval(&p, "french") > before + 3.0);
    assert!(eval(&p, "prussian") < grey_before - 3.0);
}

#[test]
fn a_unit_at_one_stand_scores_below_the_same_at_full() {
    let mut p = builtin();
    let u = p.id("f-9-leger");
    let full = p.strength("f-9-leger");
    assert!(full > 1);
    let at_full = eval(&p, "french");
    let theirs = eval(&p, "prussian");
    p.state.pieces[u.index()].strength = 1;
    assert!(eval(&p, "french") < at_full);
    assert!(eval(&p, "prussian") > theirs);
}

#[test]
fn order_tokens_count() {
    let mut p = builtin();
    let before = eval(&p, "french");
    p.state.tokens[0] += 1;
    assert!(eval(&p, "french") > before);
}
