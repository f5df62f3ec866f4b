//! What the trace examples share (`cairn_trace`, `morne_trace`, `saale_trace`): a
//! decision's best candidates printed, and its plan played.

use grognard_ai::player::Choice;
use grognard_engine::{Game, Ruleset};

/// Prints the `top` best of the plans `choice` weighed: visits, value, evaluation and
/// steps, a line each.
pub fn candidates<A: std::fmt::Debug>(choice: &Choice<A>, top: usize) {
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
