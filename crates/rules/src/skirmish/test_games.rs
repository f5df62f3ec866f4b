//! Random games of the built-in scenario, for the unit tests that hold a kept or faster
//! answer against the plain one at every state.

use super::{Skirmish, State};
use std::sync::Arc;

/// The rules of *Broken Cairn* and the states of one game with the dice of `seed`, up to
/// `steps` uniformly drawn legal actions (drawn with `draw`), from the start.
pub(crate) fn random_states(seed: u64, draw: u64, steps: usize) -> (Arc<Skirmish>, Vec<State>) {
    let registry = crate::registry();
    let b = crate::builtin::SCENARIOS
        .iter()
        .find(|b| b.path.contains("broken-cairn"))
        .expect("the built-in skirmish");
    let scenario = registry.load_scenario(b.path, b.text).expect("loads");
    let mut game =
        grognard_engine::Game::<Skirmish>::new(scenario, Some(seed)).expect("the game starts");
    let mut rng = draw;
    let mut states = Vec::new();
    for _ in 0..steps {
        states.push(game.state().clone());
        let legal = game.legal_actions();
        if legal.is_empty() {
            break;
        }
        rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let pick = usize::try_from(rng >> 33).unwrap_or(0) % legal.len();
        let action = legal[pick].clone();
        game.apply(action).expect("a legal action");
    }
    (game.rules_arc(), states)
}
