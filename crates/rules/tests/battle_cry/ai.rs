//! The computer's evaluation of a Battle Cry position (not a rule: `Ruleset::evaluate`).

use super::harness::{self, Pos};
use grognard_engine::Ruleset;

fn builtin() -> Pos {
    Pos::at_command(&harness::builtin())
}

fn eval(p: &Pos, side: &str) -> f64 {
    p.rules.evaluate(&p.state, side)
}

#[test]
fn more_flags_won_scores_higher() {
    let mut p = builtin();
    let before = eval(&p, "blue");
    p.state.flags[usize::from(p.side("blue"))] += 1;
    let after = eval(&p, "blue");
    assert!(after > before + 3.0, "{before} -> {after}");
    // The other side sees the same flag as a loss.
    let grey = eval(&p, "grey");
    p.state.flags[usize::from(p.side("blue"))] -= 1;
    assert!(grey < eval(&p, "grey") - 3.0);
}

#[test]
fn a_unit_at_one_figure_scores_below_the_same_at_full() {
    let mut p = builtin();
    let u = "b-1-inf";
    let start = p.figures(u);
    assert!(start > 1);
    let full = eval(&p, "blue");
    p.set_figures(u, 1);
    let weak = eval(&p, "blue");
    assert!(weak < full, "{full} -> {weak}");
    // And grey likes it.
    p.set_figures(u, start);
    let grey_full = eval(&p, "grey");
    p.set_figures(u, 1);
    assert!(eval(&p, "grey") > grey_full);
}

#[test]
fn the_other_hand_is_never_read() {
    let mut p = builtin();
    p.hand("blue", &["attack_centre", "probe_left"]);
    p.hand("grey", &["scout_right"]);
    let a = eval(&p, "blue");
    // Grey's hand changes (cards swapped with the deck): blue's evaluation does not.
    let grey = usize::from(p.side("grey"));
    let old = std::mem::take(&mut p.state.hands[grey]);
    p.state.deck.extend(old);
    p.hand("grey", &["leadership", "assault_left", "grand_battery"]);
    assert_eq!(a, eval(&p, "blue"));
    // Its own hand does count: a hand that orders nothing is worth less than one that does.
    let blue = usize::from(p.side("blue"));
    let mine = std::mem::take(&mut p.state.hands[blue]);
    p.state.deck.extend(mine);
    p.state.deck.sort();
    assert!(eval(&p, "blue") < a);
}

/// BC-VIC-1: the evaluation is the sum of its named terms, each weight × value, for both
/// sides, through random games of the built-in scenario; a finished game has no terms
/// (its score is the result).
#[test]
fn bc_vic_1_the_evaluation_is_the_sum_of_its_named_terms() {
    let checked = crate::common::terms::sum_to_the_evaluation::<
        grognard_rules::battle_cry::BattleCry,
    >(&harness::builtin(), ["blue", "grey"], 1..=3, 7, 7);
    assert!(checked > 100, "{checked}");
}
