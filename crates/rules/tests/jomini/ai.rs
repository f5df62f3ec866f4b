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

/// An officer's activation with the units joining him scores above the position before
/// it, one plan ahead, so that the search's simulations give orders (JO-CMD-1 to
/// JO-CMD-3); the orders given count only for the side to act.
#[test]
fn an_activation_with_units_joining_scores_above_standing_still() {
    let p = builtin();
    let before = eval(&p, "french");
    let mut plans = Vec::new();
    p.rules.plans(&p.state, &mut plans);
    let plan = plans
        .iter()
        .filter(|plan| plan.steps.len() >= 2)
        .max_by_key(|plan| plan.steps.len())
        .expect("the French may activate an officer with units joining him at the start");
    let mut state = p.state.clone();
    let (mut dice, mut events) = (grognard_engine::Dice::new(1), Vec::new());
    for step in &plan.steps {
        p.rules
            .apply(
                &mut state,
                step,
                &mut grognard_engine::Ctx::new(&mut dice, &mut events),
            )
            .expect("each step of a plan is legal");
    }
    assert!(p.rules.evaluate(&state, "french") > before);
    let theirs = p.rules.evaluate(&p.state, "prussian");
    let after = p.rules.evaluate(&state, "prussian");
    assert!((after - theirs).abs() < 1e-9, "{after} against {theirs}");
}
