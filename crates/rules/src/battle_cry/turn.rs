//! The sequencer: what to do on a turn: play a command card, announce orders, move,
//! battle, draw a new card (BC-TURN-1, BC-TURN-2); whose decision it is, the legal
//! actions, the checks and the dispatch to the chapters; the end of the game when a
//! chapter's result decides it (BC-VIC-1, BC-VIC-2, in [`super::victory`]).

use super::{
    battle, cards, fight_back, generals, movement, odds, orders, retreat, victory, Action,
    BattleCry, Event, Pending, Phase, State,
};
use grognard_engine::{Acting, Ctx, Outcome, Preview, Reason, Refusal};
use std::borrow::Cow;

/// Whose decision it is. A retreat is decided by the retreating piece's side, inside the
/// attacker's turn (BC-RET-3), and so is ignoring a flag (BC-GEN-5, BC-GEN-6); a Fight
/// Back window belongs to the attacked side.
pub(crate) fn acting<'a>(rules: &'a BattleCry, state: &State) -> Option<Acting<'a>> {
    if state.outcome.is_some() {
        return None;
    }
    let (side, kind) = match state.pending {
        Some(Pending::Retreat { unit, .. }) => (rules.side_of(unit), "retreat"),
        Some(Pending::Embolden { unit, .. }) => (rules.side_of(unit), "embolden"),
        Some(Pending::TakeGround { .. }) => (state.active, "take_ground"),
        Some(Pending::FightBack { unit, .. }) => (rules.side_of(unit), "fight_back"),
        None => (state.active, state.phase.name()),
    };
    Some(Acting {
        side: Cow::Borrowed(rules.side_name(side)),
        kind: Cow::Borrowed(kind),
        reaction: side != state.active,
    })
}

/// Every legal action now, in a fixed order.
pub(crate) fn legal_actions(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    if state.outcome.is_some() {
        return;
    }
    match state.pending {
        Some(Pending::Retreat { .. }) => retreat::legal_retreats(rules, state, out),
        Some(Pending::Embolden { .. }) => out.extend([Action::IgnoreFlag, Action::Decline]),
        Some(Pending::TakeGround { .. }) => out.extend([Action::TakeGround, Action::Decline]),
        Some(Pending::FightBack { .. }) => {
            fight_back::legal_fight_back(rules, state, out);
            out.push(Action::Decline);
        }
        None => match state.phase {
            Phase::Deal => out.push(Action::Deal),
            Phase::Command => cards::legal_cards(rules, state, out),
            Phase::Orders => {
                orders::legal_orders(rules, state, out);
                out.push(Action::DoneOrdering);
            }
            Phase::Movement => {
                movement::legal_moves(rules, state, out);
                out.push(Action::DoneMoving);
            }
            Phase::Battle => {
                battle::legal_battles(rules, state, out);
                out.push(Action::EndTurn);
            }
        },
    }
}

fn pending_first(rules: &BattleCry, p: &Pending) -> Refusal {
    match *p {
        Pending::Retreat { unit, .. } => Refusal::new(
            "BC-RET-3",
            format!(
                "{} must retreat first; its side chooses the hexes",
                rules.who(unit)
            ),
        ),
        Pending::Embolden { unit, alone, .. } => Refusal::new(
            if alone { "BC-GEN-6" } else { "BC-GEN-5" },
            format!(
                "{} decides first whether {} ignores a retreat flag",
                rules.side_title(rules.side_of(unit)),
                rules.who(unit)
            ),
        ),
        Pending::TakeGround { unit, .. } => Refusal::new(
            "BC-GEN-7",
            format!("take ground with {} or decline first", rules.who(unit)),
        ),
        Pending::FightBack { unit, .. } => Refusal::new(
            "BC-CARD-8",
            format!(
                "{} decides first whether to fight back",
                rules.side_title(rules.side_of(unit))
            ),
        ),
    }
}

/// Why an action is legal, or the rules that forbid it.
pub(crate) fn check(
    rules: &BattleCry,
    state: &State,
    action: &Action,
) -> Result<Vec<Reason>, Refusal> {
    if state.outcome.is_some() {
        return Err(Refusal::new("BC-VIC-1", "the game is over"));
    }
    let known = |u: grognard_engine::UnitId| {
        if u.index() < rules.pieces.len() {
            Ok(())
        } else {
            Err(Refusal::new(
                "BC-ORD-1",
                format!("there is no unit number {}", u.0),
            ))
        }
    };
    match action {
        Action::Order { unit } | Action::Move { unit, .. } | Action::Retreat { unit, .. } => {
            known(*unit)?
        }
        Action::Battle { unit, target } => {
            known(*unit)?;
            known(*target)?;
        }
        _ => {}
    }
    if let Some(p) = &state.pending {
        return match action {
            Action::Retreat { unit, to } => retreat::check_retreat(rules, state, *unit, *to),
            Action::IgnoreFlag if matches!(p, Pending::Embolden { .. }) => {
                battle::check_ignore_flag(rules, state)
            }
            Action::TakeGround if matches!(p, Pending::TakeGround { .. }) => {
                generals::check_take_ground(rules, state)
            }
            Action::FightBack if matches!(p, Pending::FightBack { .. }) => {
                fight_back::check_fight_back(rules, state)
            }
            Action::Decline if !matches!(p, Pending::Retreat { .. }) => {
                generals::check_decline(state)
            }
            _ => Err(pending_first(rules, p)),
        };
    }
    if state.phase == Phase::Deal {
        return match action {
            Action::Deal => Ok(vec![Reason::new(
                "BC-TURN-4",
                "the deck is shuffled and each side dealt its hand, the first side first",
            )]),
            _ => Err(Refusal::new(
                "BC-TURN-4",
                "the hands are dealt before the first turn",
            )),
        };
    }
    match action {
        Action::Deal => Err(Refusal::new("BC-TURN-4", "the hands have been dealt")),
        Action::PlayCard { card } => cards::check_play(rules, state, *card, false),
        Action::Discard { card } => cards::check_play(rules, state, *card, true),
        Action::Order { unit } => orders::check_order(rules, state, *unit),
        Action::DoneOrdering => orders::check_done(state),
        Action::Move { unit, to } => movement::check_move(rules, state, *unit, *to),
        Action::DoneMoving => movement::check_done(state),
        Action::Battle { unit, target } => battle::check_battle(rules, state, *unit, *target),
        Action::EndTurn => battle::check_end_turn(state),
        Action::Retreat { .. } => Err(Refusal::new("BC-RET-3", "no retreat is owed now")),
        Action::IgnoreFlag => battle::check_ignore_flag(rules, state),
        Action::TakeGround => generals::check_take_ground(rules, state),
        Action::FightBack => fight_back::check_fight_back(rules, state),
        Action::Decline => generals::check_decline(state),
    }
}

/// Applies an action known to be legal: the chapter resolves it, then the sequencer
/// ends the game if a side has collected its flags (BC-VIC-1).
pub(crate) fn apply(
    rules: &BattleCry,
    state: &mut State,
    action: &Action,
    ctx: &mut Ctx<'_, Event>,
) {
    // Every change of a state is a new stamp, naming the pieces that changed hex, so that
    // the next board follows them without comparing every piece (`board::Stamp`). Given
    // after the action, which may read the board of the state before it.
    let before = state.stamp.begin();
    dispatch(rules, state, action, ctx);
    if state.outcome.is_none() {
        if let Some(outcome) = victory::flags_won(rules, state) {
            game_over(state, outcome, ctx);
            state.pending = None;
        }
    }
    state.stamp.end(before);
}

/// The chapter that resolves each action.
fn dispatch(rules: &BattleCry, state: &mut State, action: &Action, ctx: &mut Ctx<'_, Event>) {
    match action {
        Action::Deal => cards::deal(rules, state, ctx),
        Action::PlayCard { card } => cards::play(rules, state, *card, ctx),
        Action::Discard { card } => {
            cards::discard_unplayed(rules, state, *card, ctx);
            next_turn(rules, state, ctx);
        }
        Action::Order { unit } => orders::apply_order(state, *unit, ctx),
        Action::DoneOrdering => orders::done(state),
        Action::Move { unit, to } => movement::apply_move(rules, state, *unit, *to, ctx),
        Action::DoneMoving => movement::done(state),
        Action::Battle { unit, target } => battle::battle(rules, state, *unit, *target, ctx),
        Action::EndTurn => {
            cards::end_of_turn(rules, state, ctx);
            next_turn(rules, state, ctx);
        }
        Action::Retreat { to, .. } => retreat::apply_retreat(rules, state, *to, ctx),
        Action::IgnoreFlag => battle::settle_flags(rules, state, true, ctx),
        Action::TakeGround => generals::take_ground(rules, state, ctx),
        Action::FightBack => fight_back::fight_back(rules, state, ctx),
        Action::Decline if matches!(state.pending, Some(Pending::Embolden { .. })) => {
            battle::settle_flags(rules, state, false, ctx);
        }
        Action::Decline => state.pending = None,
    }
}

/// The game ends.
fn game_over(state: &mut State, outcome: Outcome, ctx: &mut Ctx<'_, Event>) {
    ctx.emit_with(|| Event::GameOver {
        outcome: outcome.clone(),
    });
    state.outcome = Some(outcome);
}

/// BC-TURN-1: the other side's turn begins (after the turn limit, if any, the game ends:
/// BC-VIC-2).
fn next_turn(rules: &BattleCry, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if let Some(outcome) = victory::at_turn_limit(rules, state) {
        game_over(state, outcome, ctx);
        return;
    }
    state.active = 1 - state.active;
    state.turn += 1;
    state.phase = Phase::Command;
    state.played = None;
    state.fight_back = None;
    super::order_sets::clear(state);
    for p in &mut state.pieces {
        p.moved = false;
        p.battled = false;
        p.waded = false;
    }
    ctx.emit_with(|| Event::TurnBegan {
        turn: state.turn,
        side: rules.side_text(state.active),
    });
}

/// The odds of a battle or a Fight Back before it is rolled; a battle is checked whole
/// first, pending decisions included.
pub(crate) fn preview(
    rules: &BattleCry,
    state: &State,
    action: &Action,
) -> Result<Preview, Refusal> {
    if matches!(action, Action::Battle { .. }) {
        check(rules, state, action)?;
    }
    odds::preview(rules, state, action)
}
