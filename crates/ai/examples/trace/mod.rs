//! What the trace examples share (`cairn_trace`, `morne_trace`, `saale_trace`): a
//! decision made, its line and best candidates printed, and its plan played.

use grognard_ai::player::{Choice, Memory, Options};
use grognard_ai::Player;
use grognard_engine::{Game, Ruleset};
use std::fmt::{Debug, Display};

/// The choice of `player` for the side to act in `state`, the game's `k`-th decision on
/// `seed` (its search seeded from both, so that a trace repeats).
pub fn decide<R: Ruleset>(
    rules: &R,
    state: &R::State,
    player: Player,
    (seed, k): (u64, u64),
    memory: &mut Memory,
) -> Choice<R::Action> {
    grognard_ai::player::decide(
        rules,
        state,
        player,
        seed.wrapping_mul(1000) + k,
        Options::default(),
        memory,
    )
    .expect("a choice")
}

/// Prints a searched decision of kind `kind`: `note` (may be empty), its simulations,
/// plans and the plan chosen, then its `top` best candidates.
pub fn searched<A: Debug>(kind: impl Display, note: &str, choice: &Choice<A>, top: usize) {
    println!(
        "  [{kind}] {note}{} sims, {} plans; chose {:?}",
        choice.simulations,
        choice.weighed.len(),
        choice.plan.steps
    );
    candidates(choice, top);
}

/// Prints the `top` best of the plans `choice` weighed: visits, value, evaluation and
/// steps, a line each.
pub fn candidates<A: Debug>(choice: &Choice<A>, top: usize) {
    for w in choice.weighed.iter().take(top) {
        println!(
            "      {:>4} v{:.3} e{:+.2} {:?}",
            w.visits, w.value, w.eval, w.plan.steps
        );
    }
}

/// Plays the steps of `choice`'s plan until the game refuses one (a plan cut short by
/// what the dice did, as a player's would be).
pub fn play<R: Ruleset>(game: &mut Game<R>, choice: Choice<R::Action>) {
    for step in choice.plan.steps {
        if game.apply(step).is_err() {
            break;
        }
    }
}
