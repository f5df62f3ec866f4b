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

/// Only activated units fight (JO-COM-1), and an officer activates units within his
/// radius (JO-CMD-3): a unit in contact with no officer in reach threatens nothing next
/// turn, and an officer brought to it makes its dice count.
#[test]
fn a_unit_in_contact_threatens_only_with_an_officer_in_reach() {
    let mut p = builtin();
    // The 9e léger across the river beside the IR 12's 2nd battalion (0503).
    let leger = p.id("f-9-leger");
    p.state.pieces[leger.index()].hex = Some(p.hex("0502"));
    let suchet = p.id("f-suchet");
    let far = eval(&p, "french");
    p.state.pieces[suchet.index()].hex = Some(p.hex("0501"));
    let near = eval(&p, "french");
    assert!(near > far + 0.1, "{near} against {far}");
}

/// The evaluation's `objective` term for `side`: the march steps between its units and
/// the objectives it does not hold, as they count (`Ruleset::evaluation_terms`).
fn objective_steps(p: &Pos, side: &str) -> f64 {
    let mut terms = Vec::new();
    p.rules.evaluation_terms(&p.state, side, &mut terms);
    let t = terms
        .iter()
        .find(|t| t.name == "objective")
        .expect("a term");
    assert!(t.weight < 0.0, "steps away count against the side");
    t.value
}

/// The pull toward an objective goes the way a unit can march: round by the bridge,
/// not across the river's water (JO-MOV-13). A unit beside the bridge stands fewer
/// march steps from the objective than one straight across from it, though the
/// straight line is shorter.
#[test]
fn the_pull_toward_an_objective_goes_round_a_river_by_its_bridge() {
    let extra =
        "# no reserves\n[[places]]\nname = \"Mill\"\nhex = \"0301\"\nobjective = true\nvalue = 1\n";
    let units = [
        ("b-line", "blue", "infantry", "0303", "weight = \"medium\""),
        ("r-line", "red", "infantry", "0101", "weight = \"medium\""),
    ];
    let mut p = Pos::new(&["", "rrrrrbrrrrrrr"], &units, extra);
    let line = p.id("b-line");
    let across = objective_steps(&p, "blue");
    p.state.pieces[line.index()].hex = Some(p.hex("0503"));
    let by_the_bridge = objective_steps(&p, "blue");
    assert!(by_the_bridge < across, "{by_the_bridge} against {across}");
}

/// The pull toward an objective counts each march step in full within 4 steps of it
/// and a quarter of one beyond: a turn orders one activation (JO-CMD-1), and a pull
/// that grew with every step of the far units made marching them up worth more than
/// attacking with the units at the objective. A step nearer from 2 steps away moves the
/// term by one step; a step nearer from 8 away by a quarter of one.
#[test]
fn a_march_step_toward_an_objective_counts_in_full_near_it_and_a_quarter_far_from_it() {
    let extra =
        "# no reserves\n[[places]]\nname = \"Mill\"\nhex = \"0101\"\nobjective = true\nvalue = 1\n";
    let units = [
        ("b-near", "blue", "infantry", "0103", "weight = \"medium\""),
        ("b-far", "blue", "infantry", "0109", "weight = \"medium\""),
        ("r-line", "red", "infantry", "1305", "weight = \"medium\""),
    ];
    let mut p = Pos::new(&[""], &units, extra);
    // Whole steps and quarters: the sums are exact.
    let start = objective_steps(&p, "blue");
    assert_eq!(start, 2.0 + 4.0 + 0.25 * 4.0, "2 and 8 steps");
    let near = p.id("b-near");
    p.state.pieces[near.index()].hex = Some(p.hex("0102"));
    let after_near = objective_steps(&p, "blue");
    assert_eq!(start - after_near, 1.0, "a step within 4");
    let far = p.id("b-far");
    p.state.pieces[far.index()].hex = Some(p.hex("0108"));
    let after_far = objective_steps(&p, "blue");
    assert_eq!(after_near - after_far, 0.25, "a step beyond 4");
}

/// JO-VIC-2: an objective belongs to the last side to have a unit in it, so its holder
/// feels an empty one as lost when an enemy unit can walk in next turn. The dragons à
/// pied at 0805, riding their horses (JO-MOV-18) up the road over the bridge (JO-MOV-16,
/// JO-MOV-19) on a forced march (JO-ORD-6), reach Valbonne (0602) in one move, with
/// Lannes beside them to order it: Prussia's grenadiers standing in the village score
/// well above the same grenadiers a hex south of it, the village left empty.
#[test]
fn an_objective_left_empty_within_a_mounted_road_march_counts_as_exposed() {
    let mut p = builtin();
    for (piece, hex) in [("f-dragons-a-pied", "0805"), ("f-lannes", "0806")] {
        let u = p.id(piece);
        p.state.pieces[u.index()].hex = Some(p.hex(hex));
    }
    assert!(p.state.pieces[p.id("f-dragons-a-pied").index()].mounted);
    let grenadiers = p.id("p-grenadiers");
    assert_eq!(p.at("p-grenadiers").as_deref(), Some("0602"));
    let garrisoned = eval(&p, "prussian");
    p.state.pieces[grenadiers.index()].hex = Some(p.hex("0603"));
    let empty = eval(&p, "prussian");
    assert!(garrisoned > empty + 2.0, "{garrisoned} against {empty}");
}

/// At the turn limit the side with more points wins (JO-VIC-3): the side behind (the
/// French at the start, Prussia holding Valbonne's 2 points) scores lower as the turns
/// run out, and the side ahead scores the same.
#[test]
fn the_side_behind_on_points_feels_the_turn_limit_coming() {
    let mut p = builtin();
    let (french, prussian) = (eval(&p, "french"), eval(&p, "prussian"));
    p.state.turn = 19;
    assert!(eval(&p, "french") < french - 1.0);
    assert!((eval(&p, "prussian") - prussian).abs() < 1e-9);
}

/// The evaluation's term `name` for `side`, its value as it counts.
fn term(p: &Pos, side: &str, name: &str) -> f64 {
    let mut terms = Vec::new();
    p.rules.evaluation_terms(&p.state, side, &mut terms);
    terms
        .iter()
        .find(|t| t.name == name)
        .map_or_else(|| panic!("no term {name}"), |t| t.value)
}

/// JO-VIC-3: at the turn limit the side with more points wins, so only a side not ahead
/// is drawn toward the enemy. At the start Prussia holds Valbonne (2 points to none):
/// its units feel no pull toward the French, whose units do. Level (two Prussian units
/// eliminated), both sides close; the French ahead (three), only Prussia does.
#[test]
fn jo_vic_3_only_a_side_not_ahead_on_points_is_drawn_toward_the_enemy() {
    let mut p = builtin();
    assert_eq!(p.state.held, [Some(1), None], "Valbonne is Prussian");
    assert_eq!(term(&p, "prussian", "closing"), 0.0);
    let french = term(&p, "french", "closing");
    assert!(french > 0.0, "{french}");
    p.state.eliminated[0] += 2;
    let prussian = term(&p, "prussian", "closing");
    assert!(prussian > 0.0, "{prussian}");
    assert_eq!(term(&p, "french", "closing"), french);
    p.state.eliminated[0] += 1;
    assert_eq!(term(&p, "prussian", "closing"), prussian);
    assert_eq!(term(&p, "french", "closing"), 0.0);
}

/// JO-VIC-1: the evaluation is the sum of its named terms, each weight × value, for both
/// sides, through random games of the built-in scenario; a finished game has no terms
/// (its score is the result).
#[test]
fn jo_vic_1_the_evaluation_is_the_sum_of_its_named_terms() {
    let checked = crate::common::terms::sum_to_the_evaluation::<grognard_rules::jomini::Jomini>(
        &harness::builtin(),
        ["french", "prussian"],
        1..=4,
        3,
        11,
    );
    assert!(checked > 80, "{checked}");
}
