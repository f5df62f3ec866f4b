//! The computer's evaluation of a skirmish position (not a rule: `Ruleset::evaluate`).

use crate::common;
use grognard_rules::skirmish::Skirmish;

/// SK-TURN-3: the evaluation is the sum of its named terms, each weight × value, for
/// both sides, through random games of the built-in scenario; a finished game has no
/// terms (its score is the result).
#[test]
fn sk_turn_3_the_evaluation_is_the_sum_of_its_named_terms() {
    let checked = common::terms::sum_to_the_evaluation::<Skirmish>(
        &common::builtin("broken-cairn"),
        ["red", "blue"],
        1..=3,
        5,
        16,
    );
    assert!(checked > 100, "{checked}");
}

/// SK-ACT-4: turning on the spot is free, so the computer's plans bound it: turns are
/// offered while the phase has had fewer of them than the acting side has characters
/// that may turn. The last character standing is offered one turn a phase, not one for
/// every character on the map (it turned ten times a phase, each a searched decision
/// that changed nothing).
#[test]
fn sk_act_4_the_last_character_standing_is_offered_one_turn_on_the_spot_a_phase() {
    use grognard_engine::Ruleset;
    use grognard_rules::skirmish::{Action, Phase};
    let mut t = super::harness::open(8, 8)
        .sword("r-a", "0207", "n")
        .sword("b-a", "0702", "s")
        .game();
    t.to("red", Phase::Movement);
    let turns = |t: &super::harness::T| {
        let mut plans = Vec::new();
        t.rules.plans(t.state(), &mut plans);
        plans
            .iter()
            .filter(|p| matches!(p.steps[..], [Action::Face { .. }]))
            .count()
    };
    assert_eq!(turns(&t), 5, "r-a's five other facings");
    t.face("r-a", "ne").unwrap();
    assert_eq!(turns(&t), 0, "a second turn offered");
    // The turn itself stays legal: only the computer's plans leave it out.
    assert!(t.legal().iter().any(|a| matches!(a, Action::Face { .. })));
}
