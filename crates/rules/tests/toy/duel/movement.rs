//! Movement (TOY-MOV-1): the active duellist steps to an adjacent empty map hex.

use super::{Action, Duel, Event, State};
use grognard_engine::{Ctx, Reached, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// The gate of TOY-MOV-1.
pub(super) fn check_move(
    duel: &Duel,
    state: &State,
    unit: UnitId,
    to: Hex,
) -> Result<Vec<Reason>, Refusal> {
    if unit.index() != usize::from(state.active) {
        return Err(Refusal::new("TOY-MOV-1", "only the active duellist moves"));
    }
    let from = state.at[unit.index()];
    if !duel.names.map().contains(to) || from.direction_to(to).is_none() {
        return Err(Refusal::new(
            "TOY-MOV-1",
            "a step goes to an adjacent map hex",
        ));
    }
    if state.at.contains(&to) {
        return Err(Refusal::new("TOY-MOV-1", "the hex is held"));
    }
    Ok(vec![Reason::new("TOY-MOV-1", "steps")])
}

pub(super) fn legal_move(duel: &Duel, state: &State, out: &mut Vec<Action>) {
    let unit = UnitId(u16::from(state.active));
    for to in state.at[unit.index()].neighbors() {
        if check_move(duel, state, unit, to).is_ok() {
            out.push(Action::Move { unit, to });
        }
    }
}

pub(super) fn step(state: &mut State, unit: UnitId, to: Hex, ctx: &mut Ctx<'_, Event>) {
    state.at[unit.index()] = to;
    ctx.emit(Event::Moved { unit, to });
}

pub(super) fn reachable(duel: &Duel, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
    let mut out = Vec::new();
    if let Some(from) = state.at.get(unit.index()) {
        for to in from.neighbors() {
            if check_move(duel, state, unit, to).is_ok() {
                out.push(Reached {
                    hex: to,
                    cost: 1,
                    path: vec![to],
                    stop: false,
                });
            }
        }
    }
    Ok(out)
}
