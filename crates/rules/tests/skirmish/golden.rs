//! Golden legal-action counts of the built-in scenario, in the kit's one format
//! (`common::golden`): the sequences of one and two actions from the start, then the
//! legal actions at each step of a fixed random game. Any change in what is legal
//! changes this file.
//!
//! Regenerate with `GOLDEN_UPDATE=1 cargo test -p grognard-rules skirmish::golden` and
//! review the diff.

use crate::common::golden::{Counts, DiceDown};
use crate::common::{self, legal};
use grognard_engine::{Ctx, Dice, Ruleset};
use grognard_rules::skirmish::{Action, Skirmish, State};

/// Applies a legal action on dice seeded `seed`.
pub(super) fn play(rules: &Skirmish, state: &State, a: &Action, seed: u64) -> State {
    let mut s = state.clone();
    let mut dice = Dice::new(seed);
    let mut events = Vec::new();
    let mut ctx = Ctx::new(&mut dice, &mut events);
    rules.apply(&mut s, a, &mut ctx).expect("legal");
    s
}

/// The states of the fixed random game (seed 2024, 400 actions at most; the dice of
/// action `n` seeded `n`).
pub(super) fn golden_game(rules: &Skirmish) -> Vec<State> {
    let mut state = rules.initial_state();
    let mut pick = Dice::new(2024);
    let mut out = Vec::new();
    for n in 0..400 {
        out.push(state.clone());
        if rules.to_act(&state).is_none() {
            break;
        }
        let l = legal(rules, &state);
        let i = (pick.next(u32::try_from(l.len()).unwrap()).0 - 1) as usize;
        state = play(rules, &state, &l[i], n);
    }
    out
}

#[test]
fn golden_legal_action_counts() {
    let rules = Skirmish::new(&common::builtin("broken-cairn")).unwrap();
    let mut counts = Counts::new(
        "Legal-action counts of the built-in skirmish `broken-cairn`: the start, then each step of a fixed random game (see golden.rs)",
    );
    let start = rules.initial_state();
    counts.position("start", &rules, &start, &DiceDown::Fresh(0), 2);
    for (n, s) in golden_game(&rules).iter().enumerate() {
        counts.position(
            &format!("game 2024, step {n}"),
            &rules,
            s,
            &DiceDown::Fresh(0),
            1,
        );
    }
    counts.check("skirmish/golden.txt");
}
