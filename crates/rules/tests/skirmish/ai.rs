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
