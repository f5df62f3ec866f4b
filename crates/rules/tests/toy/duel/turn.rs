//! The sequence (TOY-TURN-1): the sides alternate, one action each; after the last
//! turn the game is drawn. The chapters return what happened; this file decides what
//! comes next.

use super::{movement, strike, Action, Duel, Event, State};
use grognard_engine::{Ctx, Decision, Explanation, Outcome, Reason, Refusal};

/// The first gate of every action: the game must go on.
pub(super) fn gate(state: &State) -> Result<(), Refusal> {
    if state.outcome.is_some() {
        return Err(Refusal::new("TOY-TURN-1", "the game is over"));
    }
    Ok(())
}

pub(super) fn to_act(duel: &Duel, state: &State) -> Option<Decision> {
    gate(state).ok()?;
    Some(Decision {
        side: duel.sides[usize::from(state.active)].clone(),
        kind: "duel".into(),
        reaction: false,
        text: String::new(),
    })
}

pub(super) fn explain(duel: &Duel, state: &State, action: &Action) -> Explanation {
    let r: Result<Vec<Reason>, Refusal> = gate(state).and_then(|()| match action {
        Action::Move { unit, to } => movement::check_move(duel, state, *unit, *to),
        Action::Strike { unit } => strike::check_strike(duel, state, *unit),
    });
    r.into()
}

pub(super) fn apply(duel: &Duel, state: &mut State, action: &Action, ctx: &mut Ctx<'_, Event>) {
    let won = match action {
        Action::Move { unit, to } => {
            movement::step(state, *unit, *to, ctx);
            false
        }
        Action::Strike { unit } => strike::strike(*unit, ctx),
    };
    let outcome = if won {
        Some(Outcome {
            winner: Some(duel.sides[usize::from(state.active)].clone()),
            reason: "a hit".into(),
            rule: Some("TOY-STR-1".into()),
        })
    } else {
        if state.active == 1 {
            state.turn += 1;
        }
        state.active = 1 - state.active;
        (state.turn > duel.turns).then(|| Outcome {
            winner: None,
            reason: "the last turn passed".into(),
            rule: Some("TOY-TURN-1".into()),
        })
    };
    if let Some(outcome) = outcome {
        state.outcome = Some(outcome.clone());
        ctx.emit(Event::GameOver { outcome });
    }
}
