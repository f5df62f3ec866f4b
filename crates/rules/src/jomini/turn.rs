//! The turn: command, movement, combat, end of turn (JO-TURN-1, JO-TURN-2); whose decision
//! it is, the legal actions, and each seat's view.

use super::{
    combat, command, movement, orders, retreat, victory, Action, Event, Jomini, OrderKind, Pending,
    Phase, State,
};
use grognard_engine::{Ctx, Decision, Reason, Refusal, Seat};
use serde_json::{json, Value};

/// Whose decision it is.
pub(crate) fn to_act(rules: &Jomini, state: &State) -> Option<Decision> {
    if state.outcome.is_some() {
        return None;
    }
    if let Some(Pending::Retreat { unit, .. }) = state.pending {
        let side = rules.side_of(unit);
        return Some(Decision {
            side: rules.side_name(side).to_owned(),
            kind: "retreat".into(),
            reaction: side != state.active,
        });
    }
    Some(Decision {
        side: rules.side_name(state.active).to_owned(),
        kind: state.phase.name().into(),
        reaction: false,
    })
}

/// Every legal action, in a fixed order.
pub(crate) fn legal_actions(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    if state.outcome.is_some() {
        return;
    }
    if state.pending.is_some() {
        retreat::legal(rules, state, out);
        return;
    }
    match state.phase {
        Phase::Command => {
            command::legal(rules, state, out);
            orders::legal(rules, state, out);
            out.push(Action::EndCommand);
        }
        Phase::Movement => {
            movement::legal(rules, state, out);
            out.push(Action::EndMovement);
        }
        Phase::Combat => {
            combat::legal(rules, state, out);
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
    ctx.emit(Event::TurnBegan {
        turn: state.turn,
        side: rules.side_name(state.active).to_owned(),
    });
}

/// Everything is open in JOMINI: every seat sees the same view.
pub(crate) fn view(rules: &Jomini, state: &State, _seat: &Seat) -> Value {
    let label = |h| rules.label(h);
    let by_side =
        |f: &dyn Fn(u8) -> u32| json!({ rules.side_name(0): f(0), rules.side_name(1): f(1) });
    let pieces: Vec<Value> = rules
        .piece_ids()
        .map(|u| {
            let piece = rules.piece(u);
            let p = &state.pieces[u.index()];
            json!({
                "id": piece.id,
                "side": rules.side_name(piece.side),
                "type": piece.kind,
                "weight": piece.weight,
                "officer": piece.officer,
                "hex": p.hex.map(label),
                "strength": p.strength,
                "full": piece.strength,
                "waiting": p.waiting,
                "enters": piece.enters.map(|(turn, hex)| json!({"turn": turn, "hex": label(hex)})),
                "available": command::available(rules, state, u),
                "mounts": piece.mounts,
                "mounted": p.mounted,
                "group": p.group,
                "moved": p.moved,
                "attacked": p.attacked,
                "no_combat": p.no_combat,
                "forced": p.forced,
                "woods": p.woods,
                "scout": p.scout,
                "allowance": {
                    "fight": piece.allowance.fight,
                    "max": piece.allowance.max,
                    "never_more": piece.allowance.never_more,
                    "loses_die": piece.allowance.loses_die,
                },
                "dice": piece.row.dice,
            })
        })
        .collect();
    let (count, size) = command::activations(rules, state, state.active);
    let groups: Vec<Value> = state
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let g8 = u8::try_from(i).unwrap_or(u8::MAX);
            json!({
                "officer": g.officer.map(|o| rules.piece(o).id.clone()),
                "units": command::members(rules, state, g8).iter().map(|&u| rules.piece(u).id.clone()).collect::<Vec<_>>(),
                "combined": g.combined,
                "anywhere": g.anywhere,
                "forward": g.forward,
                "this_phase": g8 >= state.first_group,
            })
        })
        .collect();
    let moves: serde_json::Map<String, Value> =
        if state.phase == Phase::Movement && state.pending.is_none() {
            movement::all_routes(rules, state)
                .into_iter()
                .map(|(u, routes)| {
                    let list: Vec<Value> = routes
                        .iter()
                        .map(|r| {
                            json!({
                                "hex": label(r.hex),
                                "path": r.path.iter().map(|&h| label(h)).collect::<Vec<_>>(),
                                "hexes": r.hexes,
                                "road_march": r.road_march,
                                "through": r.through,
                                "combat": r.combat,
                            })
                        })
                        .collect();
                    (rules.piece(u).id.clone(), Value::Array(list))
                })
                .collect()
        } else {
            serde_json::Map::new()
        };
    let c = &rules.data.orders;
    let objectives: Vec<Value> = rules
        .objectives
        .iter()
        .zip(&state.held)
        .map(|(o, h)| json!({"name": o.name, "hex": label(o.hex), "value": o.value, "held": h.map(|s| rules.side_name(s))}))
        .collect();
    let pending = match state.pending {
        Some(Pending::Retreat { unit, hexes }) => {
            json!({"kind": "retreat", "unit": rules.piece(unit).id, "hexes": hexes})
        }
        None => Value::Null,
    };
    json!({
        "ruleset": super::NAME,
        "turn": state.turn,
        "game_turn": Jomini::game_turn(state),
        "turns": rules.turns,
        "active": rules.side_name(state.active),
        "phase": state.phase.name(),
        "decision": to_act(rules, state),
        "tokens": by_side(&|s| state.tokens[usize::from(s)]),
        "points": by_side(&|s| victory::points(rules, state, s)),
        "target": by_side(&|s| rules.target[usize::from(s)]),
        "activations": {"count": count, "units": size, "radius": rules.data.command.radius},
        "ordered": state.ordered,
        "assault": state.assault,
        "order_costs": {
            OrderKind::Mount.name(): c.mount,
            OrderKind::Reconnaissance.name(): c.reconnaissance,
            OrderKind::ForcedMarch.name(): c.forced_march,
            OrderKind::WoodsRunner.name(): c.woods_runner,
            OrderKind::Courier.name(): c.courier,
            OrderKind::CombinedAttack.name(): c.combined_attack,
            OrderKind::Manoeuvre.name(): c.manoeuvre,
            OrderKind::ForwardMarch.name(): c.forward_march,
            OrderKind::GeneralAssault.name(): c.general_assault,
        },
        "groups": groups,
        "pieces": pieces,
        "moves": moves,
        "objectives": objectives,
        "pending": pending,
        "outcome": state.outcome,
    })
}
