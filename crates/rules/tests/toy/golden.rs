//! Golden legal-action counts of the toy, in the kit's one format: the start, counted
//! to depth 6 with fresh dice seeded 0 for every action.

use super::{duel::Duel, scenario};
use crate::common::golden::{Counts, DiceDown};
use grognard_engine::Ruleset;

#[test]
fn golden_legal_action_counts() {
    let rules = Duel::new(&scenario()).unwrap();
    let mut counts =
        Counts::new("The Duel (a toy in the tests): legal action sequences from the start");
    counts.position(
        "start",
        &rules,
        &rules.initial_state(),
        &DiceDown::Fresh(0),
        6,
    );
    counts.check("toy/golden.txt");
}
