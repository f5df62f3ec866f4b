//! Building positions for the rule tests.

use grognard_engine::scenario::Scenario;
use grognard_engine::{Ctx, Dice, Ruleset};
use grognard_rules::battle_cry::{Action, BattleCry, Event, State};

/// The built-in scenario.
pub fn builtin() -> Scenario {
    crate::common::builtin("crossing-at-hollins-ford")
}

/// Applies an action with checks, forcing the given die results first.
pub fn apply(rules: &BattleCry, state: &mut State, action: &Action, forced: &[u32]) -> Vec<Event> {
    let mut dice = Dice::new(1);
    dice.force(forced.iter().copied());
    let mut events = Vec::new();
    let mut ctx = Ctx::new(&mut dice, &mut events);
    if let Err(e) = rules.apply(state, action, &mut ctx) {
        panic!("{action:?} refused: {e}");
    }
    assert!(
        dice.forced().is_empty(),
        "forced dice left over: {:?}",
        dice.forced()
    );
    events
}
