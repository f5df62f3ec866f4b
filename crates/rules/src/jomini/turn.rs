//! The sequencer: command, movement, combat, end of turn (JO-TURN-1, JO-TURN-2); whose
//! decision it is, the legal actions, the checks and the dispatch to the chapters.

use super::{
    combat, command, movement, orders, retreat, victory, Action, Event, Jomini, Pending, Phase,
    State,
};
use grognard_engine::{Acting, Ctx, Reason, Refusal};
use std::borrow::Cow;

/// Whose decision it is.
pub(crate) fn acting<'a>(rules: &'a Jomini, state: &State) -> Option<Acting<'a>> {
    if state.outcome.is_some() {
        return None;
    }
    if let Some(Pending::Retreat { unit, .. }) = state.pending {
        let side = rules.side_of(unit);
        return Some(Acting {
            side: Cow::Borrowed(rules.side_name(side)),
            kind: Cow::Borrowed("retreat"),
            reaction: side != state.active,
        });
    }
    Some(Acting {
        side: Cow::Borrowed(rules.side_name(state.active)),
        kind: Cow::Borrowed(state.phase.name()),
        reaction: false,
    })
}

/// Every legal action, in a fixed order.
pub(crate) fn legal_actions(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    if state.outcome.is_some() {
        return;
    }
    if state.pending.is_some() {
        retreat::legal_retreats(rules, state, out);
        return;
    }
    match state.phase {
        Phase::Command => {
            command::legal_activations(rules, state, out);
            orders::legal_orders(rules, state, out);
            out.push(Action::EndCommand);
        }
        Phase::Movement => {
            movement::legal_moves(rules, state, out);
            out.push(Action::EndMovement);
        }
        Phase::Combat => {
            combat::legal_attacks(rules, state, out);
            out.push(Action::EndTurn);
        }
    }
}

/// JO-TURN-1: checks ending the combat phase, and with it the turn.
fn check_end_turn(state: &State) -> Result<Vec<Reason>, Refusal> {
    if state.outcome.is_some() {
        return Err(Refusal::new("JO-TURN-1", "the game is over"));
    }
    if state.pending.is_some() || state.phase != Phase::Combat {
        return Err(Refusal::new(
            "JO-TURN-1",
            format!(
                "the turn ends after combat, not in the {} phase",
                state.phase.name()
            ),
        ));
    }
    Ok(vec![if state.assault == 1 {
        Reason::new("JO-ORD-12", "general assault: a second command phase")
    } else {
        Reason::new("JO-TURN-2", "the other side's turn")
    }])
}

/// Why an action is legal, or the rules it breaks.
pub(crate) fn check(
    rules: &Jomini,
    state: &State,
    action: &Action,
) -> Result<Vec<Reason>, Refusal> {
    if state.outcome.is_some() {
        return Err(Refusal::new("JO-TURN-1", "the game is over"));
    }
    if state.pending.is_some() && !matches!(action, Action::Retreat { .. }) {
        return Err(Refusal::new("JO-RET-2", "a retreat must be made first"));
    }
    match *action {
        Action::Activate { unit } => command::check_activate(rules, state, unit),
        Action::Order { order, unit, hexes } => {
            orders::check_order(rules, state, order, unit, hexes)
        }
        Action::EndCommand => command::check_end_command(state),
        Action::Move { unit, to } => movement::check_move(rules, state, unit, to),
        Action::Exit { unit } => movement::check_exit(rules, state, unit),
        Action::EndMovement => movement::check_end_movement(state),
        Action::Attack { unit, target } => combat::check_attack(rules, state, unit, target),
        Action::EndTurn => check_end_turn(state),
        Action::Retreat { unit, to } => retreat::check_retreat(rules, state, unit, to),
    }
}

/// [`check`]'s verdict without its reasons: a move asks for the one route it takes,
/// not for every route of the unit (the computer opponent checks every step it plays).
pub(crate) fn allows(rules: &Jomini, state: &State, action: &Action) -> bool {
    match *action {
        Action::Move { unit, to } if state.outcome.is_none() && state.pending.is_none() => {
            movement::allows_move(rules, state, unit, to)
        }
        _ => check(rules, state, action).is_ok(),
    }
}

/// Applies a legal action.
pub(crate) fn apply(rules: &Jomini, state: &mut State, action: &Action, ctx: &mut Ctx<'_, Event>) {
    match *action {
        Action::Activate { unit } => command::activate(rules, state, unit, ctx),
        Action::Order { order, unit, hexes } => {
            orders::apply_order(rules, state, order, unit, hexes, ctx);
        }
        Action::EndCommand => state.phase = Phase::Movement,
        Action::Move { unit, to } => movement::apply_move(rules, state, unit, to, ctx),
        Action::Exit { unit } => movement::apply_exit(state, unit, ctx),
        Action::EndMovement => movement::end_movement(rules, state),
        Action::Attack { unit, target } => combat::attack(rules, state, unit, target, ctx),
        Action::EndTurn => end_turn(rules, state, ctx),
        Action::Retreat { to, .. } => retreat::apply_retreat(rules, state, to, ctx),
    }
}

/// JO-TURN-2: ends the turn: a general assault's second command phase, or the other side's
/// turn, or the end of the game at the turn limit.
fn end_turn(rules: &Jomini, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if state.assault == 1 {
        state.assault = 2;
        state.phase = Phase::Command;
        state.first_group = u8::try_from(state.groups.len()).unwrap_or(u8::MAX);
        return;
    }
    if rules.turns.is_some_and(|t| state.turn >= 2 * t) {
        victory::at_time(rules, state, ctx);
        return;
    }
    state.turn += 1;
    state.active = 1 - state.active;
    state.phase = Phase::Command;
    state.groups.clear();
    state.first_group = 0;
    state.ordered = false;
    state.assault = 0;
    for p in &mut state.pieces {
        p.group = None;
        p.moved = false;
        p.hexes = 0;
        p.no_combat = false;
        p.attacked = false;
        p.forced = false;
        p.woods = 0;
        p.scout = false;
    }
    ctx.emit_with(|| Event::TurnBegan {
        turn: state.turn,
        side: rules.side_name(state.active).to_owned(),
    });
}
