//! The sequencer: the sequence of play (SK-TURN-1: the sides alternate active turns of
//! missile, movement, melee and morale phases), who decides now, which chapter answers
//! an action (its check, its legal list, its making), what follows a step or a window,
//! and the end of the game (SK-TURN-3). The chapters return what happened; this file
//! decides what comes next.

use super::charge::Declaration;
use super::movement::{Gate, Stepped};
use super::reactions::Settled;
use super::stamp::Stamp;
use super::step::StepTo;
use super::{
    actions, charge, kept_list, maneuver, melee, missile, morale, movement, reactions, Action,
    Event, Phase, Skirmish, State, Window,
};
use grognard_engine::{Acting, Ctx, Outcome, Reason, Refusal, UnitId};
use std::borrow::Cow;

pub(crate) use super::half;

/// Who decides now: the passive side in its window, else the active side (SK-TURN-1);
/// nobody once the game is over (SK-TURN-3).
pub(crate) fn acting<'a>(rules: &'a Skirmish, state: &State) -> Option<Acting<'a>> {
    if state.outcome.is_some() {
        return None;
    }
    Some(match &state.window {
        Some(w) => Acting {
            side: Cow::Borrowed(rules.side_name(Skirmish::passive(state))),
            kind: Cow::Borrowed(reactions::window_kind(w)),
            reaction: true,
        },
        None => Acting {
            side: Cow::Borrowed(rules.side_name(state.active)),
            kind: Cow::Borrowed(state.phase.name()),
            reaction: false,
        },
    })
}

/// Checks an action: which chapter answers it, and what no chapter allows (the game
/// over, an unknown character, the active side acting in the passive side's window).
pub(crate) fn check(
    rules: &Skirmish,
    state: &State,
    action: &Action,
) -> Result<Vec<Reason>, Refusal> {
    if state.outcome.is_some() {
        return Err(Refusal::new("SK-TURN-3", "the game is over"));
    }
    let unit = match action {
        Action::Move { unit, .. }
        | Action::Face { unit, .. }
        | Action::Charge { unit, .. }
        | Action::Defend { unit }
        | Action::Flee { unit }
        | Action::Attack { unit, .. }
        | Action::Opportunity { unit, .. }
        | Action::Shoot { unit, .. }
        | Action::Maneuver { unit, .. }
        | Action::ShortMove { unit, .. } => Some(*unit),
        Action::Pass | Action::EndPhase => None,
    };
    if unit.is_some_and(|u| !rules.exists(u)) {
        return Err(Refusal::new("request", "no such character"));
    }
    if let Action::Charge { target, .. }
    | Action::Attack { target, .. }
    | Action::Shoot { target, .. }
    | Action::Opportunity { target, .. } = action
    {
        if !rules.exists(*target) {
            return Err(Refusal::new("request", "no such target"));
        }
    }
    match action {
        Action::Opportunity { unit, target } => {
            reactions::check_opportunity(rules, state, *unit, *target)
        }
        Action::ShortMove { unit, to, facing } => {
            reactions::check_short_move(rules, state, *unit, *to, *facing).map(|s| s.reasons)
        }
        Action::Pass => reactions::check_pass(rules, state),
        Action::Shoot { unit, target } => missile::check_shot(rules, state, *unit, *target),
        _ if state.window.is_some() => Err(reactions::window_refusal(rules, state)),
        Action::Maneuver { unit, to } => {
            maneuver::check_maneuver(rules, state, *unit, *to).map(|p| p.reasons)
        }
        Action::EndPhase => check_end_phase(rules, state),
        // A charger's run (SK-CHG-5), else a walk or a flight (SK-MOV-3, SK-STA-2).
        Action::Move { unit, to, evasive } if state.charge.is_some() => {
            charge::check_step(rules, state, *unit, StepTo::hex(*to, *evasive)).map(|p| p.reasons)
        }
        Action::Flee { unit } if state.charge.is_some() => {
            charge::check_step(rules, state, *unit, StepTo::OFF_MAP).map(|p| p.reasons)
        }
        Action::Move { unit, to, evasive } => {
            movement::check_move(rules, state, *unit, StepTo::hex(*to, *evasive)).map(|p| p.reasons)
        }
        Action::Flee { unit } => {
            movement::check_move(rules, state, *unit, StepTo::OFF_MAP).map(|p| p.reasons)
        }
        Action::Face { unit, facing } => actions::check_face(rules, state, *unit, *facing),
        Action::Defend { unit } => actions::check_defend(rules, state, *unit),
        Action::Charge {
            unit,
            target,
            together,
        } => charge::check_declare(rules, state, Declaration::new(*unit, *target, *together))
            .map(|d| d.reasons),
        Action::Attack { unit, target } => melee::check_attack(rules, state, *unit, *target),
    }
}

/// Whether [`check`] accepts an action, without writing its reasons or refusal where
/// that costs a search or words: the moves and short moves the searches' plans are made
/// of, turns, attacks and charges; every other action asks [`check`].
pub(crate) fn allows(rules: &Skirmish, state: &State, action: &Action) -> bool {
    let open = state.outcome.is_none();
    let calm = open && state.window.is_none();
    match *action {
        Action::ShortMove { unit, to, facing } if open && rules.exists(unit) => {
            reactions::allows_short_move(rules, state, unit, to, facing)
        }
        Action::Move { unit, to, evasive }
            if calm && state.charge.is_some() && rules.exists(unit) =>
        {
            charge::allows_step(rules, state, unit, StepTo::hex(to, evasive))
        }
        Action::Flee { unit } if calm && state.charge.is_some() && rules.exists(unit) => {
            charge::allows_step(rules, state, unit, StepTo::OFF_MAP)
        }
        Action::Move { unit, to, evasive }
            if calm && state.charge.is_none() && rules.exists(unit) =>
        {
            allows_move(rules, state, unit, StepTo::hex(to, evasive))
        }
        Action::Flee { unit } if calm && state.charge.is_none() && rules.exists(unit) => {
            allows_move(rules, state, unit, StepTo::OFF_MAP)
        }
        Action::Maneuver { unit, to } if calm && rules.exists(unit) => {
            maneuver::maneuver_path(rules, state, unit, to).is_some()
        }
        Action::Face { unit, facing } if calm && rules.exists(unit) => {
            let open = actions::can_act_free(rules, state, unit).is_ok()
                && Skirmish::ch(state, unit).facing != facing;
            debug_assert_eq!(open, check(rules, state, action).is_ok(), "{action:?}");
            open
        }
        Action::Attack { unit, target } if calm && rules.exists(unit) && rules.exists(target) => {
            let open = melee::attack_open(rules, state, unit, target);
            debug_assert_eq!(open, check(rules, state, action).is_ok(), "{action:?}");
            open
        }
        Action::Charge {
            unit,
            target,
            together,
        } if calm && rules.exists(unit) && rules.exists(target) => {
            let decl = Declaration::new(unit, target, together);
            let open = charge::allows_declare(rules, state, decl);
            debug_assert_eq!(open, check(rules, state, action).is_ok(), "{action:?}");
            open
        }
        Action::Pass if open => state.window.is_some(),
        Action::EndPhase if calm => {
            let gate = if state.phase == Phase::Movement && state.charge.is_none() {
                rules.gate(state)
            } else {
                Gate::default()
            };
            may_end_phase(rules, state, &gate)
        }
        _ => check(rules, state, action).is_ok(),
    }
}

/// Whether [`movement::check_move`] accepts the step, without its words.
fn allows_move(rules: &Skirmish, state: &State, u: UnitId, step: StepTo) -> bool {
    rules.can_move(state, u).is_ok()
        && rules.gate(state).bars(state, u).is_none()
        && rules.step_ok_in(state, u, step, None, false).is_ok()
}

/// Every legal action, in a fixed order, each chapter listing what its checks accept
/// (the two never disagree: see the ruleset's tests).
pub(crate) fn legal_actions(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    if state.outcome.is_some() {
        return;
    }
    match (&state.window, state.phase) {
        (Some(Window::Opportunity { .. }), _) => {
            reactions::legal_opportunities(state, out);
            out.push(Action::Pass);
        }
        (Some(Window::Reaction { .. }), _) => {
            reactions::legal_short_moves(rules, state, out);
            missile::legal_reaction_fire(rules, state, out);
            out.push(Action::Pass);
        }
        (None, Phase::Missile) => {
            missile::legal_shots(rules, state, out);
            legal_end_phase(rules, state, &Gate::default(), out);
        }
        (None, Phase::Movement) if state.charge.is_some() => {
            charge::legal_charge_steps(rules, state, out);
        }
        (None, Phase::Movement) => {
            // The phase's gate (and each flight's field) computed once for the list.
            let gate = kept_list::characters(rules, state, out);
            actions::legal_faces(rules, state, out);
            legal_end_phase(rules, state, &gate, out);
        }
        (None, Phase::Melee) => {
            kept_list::melee(rules, state, out, || {
                may_end_phase(rules, state, &Gate::default())
            });
        }
    }
}

/// SK-TURN-1: ending the phase, when [`check_end_phase_in`] accepts it.
fn legal_end_phase(rules: &Skirmish, state: &State, gate: &Gate, out: &mut Vec<Action>) {
    if may_end_phase(rules, state, gate) {
        out.push(Action::EndPhase);
    }
}

/// Whether [`check_end_phase_in`] accepts ending the phase: its checks, without words.
fn may_end_phase(rules: &Skirmish, state: &State, gate: &Gate) -> bool {
    match state.phase {
        Phase::Missile => true,
        Phase::Movement => state.charge.is_none() && gate.go_on.is_none() && gate.flight.is_none(),
        Phase::Melee => berserk_due(rules, state).is_none(),
    }
}

/// Makes an action, then keeps the game moving until someone must decide.
pub(crate) fn apply(
    rules: &Skirmish,
    state: &mut State,
    action: &Action,
    ctx: &mut Ctx<'_, Event>,
) {
    // Of unknown number while it is made (`stamp.rs`).
    let before = std::mem::take(&mut state.stamp).id;
    let mut wrapped = false;
    let mut turned = None;
    match action {
        Action::Move { unit, to, evasive } => {
            wrapped = declare_step(rules, state, *unit, StepTo::hex(*to, *evasive), ctx);
        }
        Action::Flee { unit } => {
            wrapped = declare_step(rules, state, *unit, StepTo::OFF_MAP, ctx);
        }
        Action::Face { unit, facing } => {
            actions::face(rules, state, *unit, *facing, ctx);
            turned = Some(*unit);
            // The state before was settled (it is stamped): the wrap-up of another
            // character's movement reads nothing a turn changes, so it has nothing to
            // do again (debug builds ask it of a copy, in `settle`).
            wrapped = before != 0 && state.moving.as_ref().is_some_and(|m| m.unit != *unit);
        }
        Action::Defend { unit } => actions::defend(rules, state, *unit, ctx),
        Action::Charge {
            unit,
            target,
            together,
        } => charge::declare(
            rules,
            state,
            Declaration::new(*unit, *target, *together),
            ctx,
        ),
        Action::Attack { unit, target } => melee::attack(rules, state, *unit, *target, ctx),
        Action::Opportunity { unit, target } => {
            reactions::opportunity(rules, state, *unit, *target, ctx);
        }
        Action::ShortMove { unit, to, facing } => {
            reactions::short_move(rules, state, *unit, *to, *facing, ctx);
        }
        Action::Shoot { unit, target } => missile::shoot(rules, state, *unit, *target, ctx),
        Action::Maneuver { unit, to } => maneuver::maneuver(rules, state, *unit, *to, ctx),
        Action::Pass => reactions::pass(rules, state, ctx),
        Action::EndPhase => end_phase(rules, state, ctx),
    }
    let changed = settle(rules, state, wrapped, ctx);
    state.stamp = Stamp::after(before, turned.filter(|_| !changed));
    // The runner's steps found as the charge was advanced are this state's.
    charge::stamped(state.stamp.id);
}

/// A step declared: the movement starts (SK-MOV-7), then the attacks of opportunity on
/// leaving the hex (SK-MOV-9) open their window, or the step is made at once. True
/// when [`step`] says so.
fn declare_step(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    to: StepTo,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    movement::start_step(rules, state, u, ctx);
    if reactions::open_opportunity(rules, state, u, to, ctx) {
        return false;
    }
    step(rules, state, u, to, ctx)
}

/// A step made, and what follows it: a charger in reach attacks (SK-CHG-10); a movement
/// that cannot go on ends before the passive side reacts, so that it reacts to where
/// the character stands (SK-MOV-18); then the reaction window (SK-MOV-2). True when
/// the movement's wrap-up found nothing to do and no window opened: the state is the
/// one the wrap-up was asked about, and [`settle`] need not ask again.
fn step(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    to: StepTo,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    let charging = state.charge.is_some();
    if movement::execute_step(rules, state, u, to, ctx) == Stepped::Not {
        return false;
    }
    let wrapped = if charging {
        charge::stepped(rules, state, ctx);
        false
    } else {
        !movement::wrap_up(rules, state, ctx)
    };
    reactions::open_reaction(rules, state, u, ctx);
    wrapped && state.window.is_none()
}

/// A window settled: an aborted step ends the movement (SK-MOV-9) or breaks the charge
/// (SK-CHG-8); a step no longer held up is made. True when something changed.
fn after_window(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) -> bool {
    match reactions::settle_window(rules, state) {
        Settled::Open | Settled::Nothing => false,
        Settled::Changed => true,
        Settled::Broken { unit } => {
            if state.charge.is_some() {
                charge::end_leg(
                    rules,
                    state,
                    "SK-CHG-8",
                    "the charge is broken: the charger was Dazed by an attack of opportunity",
                    ctx,
                );
            } else if Skirmish::ch(state, unit).in_play() {
                movement::halt(
                    state,
                    unit,
                    "SK-MOV-9",
                    "its movement is aborted: Dazed by an attack of opportunity",
                    ctx,
                );
                movement::finish(rules, state, "SK-MOV-9", "aborted", ctx);
            } else {
                state.moving = None;
            }
            true
        }
        Settled::Step { unit, to, evasive } => {
            step(rules, state, unit, StepTo { to, evasive }, ctx);
            true
        }
    }
}

/// Keeps the game moving until someone must decide: windows with nobody left to decide
/// close, steps whose attacks of opportunity are over are made, charges and movements
/// that cannot go on end. `wrapped`: the movement's wrap-up was asked about this very
/// state and had nothing to do (see [`step`]), so it is not asked again. Returns whether
/// it may have changed the state (a window or a charge under way counts as a change).
pub(crate) fn settle(
    rules: &Skirmish,
    state: &mut State,
    mut wrapped: bool,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    // Whether anything may have changed (a window or a charge under way: always).
    let mut changed = false;
    for _ in 0..10_000 {
        if state.outcome.is_some() {
            return state.window.take().is_some() || changed;
        }
        if state.window.is_some() {
            if after_window(rules, state, ctx) {
                wrapped = false;
                changed = true;
                continue;
            }
            return true;
        }
        if state.phase == Phase::Movement {
            if state.charge.is_some() {
                if charge::advance(rules, state, ctx) {
                    wrapped = false;
                    changed = true;
                    continue;
                }
                return true;
            }
            if wrapped {
                if cfg!(debug_assertions) {
                    wrapped_again(rules, state);
                }
                return changed;
            }
            if movement::wrap_up(rules, state, ctx) {
                changed = true;
                continue;
            }
        }
        return changed;
    }
    unreachable!("the sequence of play settles");
}

/// Debug builds: the wrap-up [`settle`] skips, asked again of a copy, has nothing to do.
fn wrapped_again(rules: &Skirmish, state: &State) {
    let mut again = state.clone();
    let (mut dice, mut events) = (grognard_engine::Dice::new(0), Vec::new());
    let halted = movement::wrap_up(rules, &mut again, &mut Ctx::quiet(&mut dice, &mut events));
    assert!(!halted && again == *state, "a step's wrap-up asked again");
}

/// SK-TURN-1: checks ending the phase.
pub(crate) fn check_end_phase(rules: &Skirmish, state: &State) -> Result<Vec<Reason>, Refusal> {
    let gate = if state.phase == Phase::Movement && state.charge.is_none() {
        rules.gate(state)
    } else {
        movement::Gate::default()
    };
    check_end_phase_in(rules, state, &gate)
}

/// [`check_end_phase`] with the movement phase's gate computed once by the caller.
pub(crate) fn check_end_phase_in(
    rules: &Skirmish,
    state: &State,
    gate: &movement::Gate,
) -> Result<Vec<Reason>, Refusal> {
    match state.phase {
        Phase::Missile => Ok(vec![Reason::new(
            "SK-MIS-1",
            "ends the missile phase: the movement phase follows",
        )]),
        Phase::Movement => {
            if state.charge.is_some() {
                return Err(Refusal::new(
                    "SK-CHG-5",
                    "a charge is under way: its chargers spend their whole movement running",
                ));
            }
            if let Some(g) = gate.go_on {
                return Err(g.refusal(rules));
            }
            if let Some(p) = gate.flight {
                return Err(Refusal::new(
                    "SK-STA-2",
                    format!(
                        "{} is Panicked and must flee by the shortest route before the phase ends",
                        rules.name(p)
                    ),
                ));
            }
            Ok(vec![Reason::new(
                "SK-TURN-1",
                "ends the movement phase: the melee phase follows",
            )])
        }
        Phase::Melee => {
            if let Some(b) = berserk_due(rules, state) {
                return Err(Refusal::new(
                    "SK-STA-3",
                    format!(
                        "{} is Berserk and must attack the nearest enemy first",
                        rules.name(b)
                    ),
                ));
            }
            Ok(vec![Reason::new(
                "SK-TURN-1",
                "ends the melee phase: the morale phase follows, then the other side's turn",
            )])
        }
    }
}

/// A Berserk character of the active side that can still attack.
fn berserk_due(rules: &Skirmish, state: &State) -> Option<UnitId> {
    rules.side_ids(state.active).find(|&u| {
        Skirmish::ch(state, u).berserk
            && rules
                .side_ids(Skirmish::passive(state))
                .any(|t| melee::attack_open(rules, state, u, t))
    })
}

/// SK-TURN-2: whether anyone of the active side can attack, or maneuver (SK-SHM-4).
fn any_attack(rules: &Skirmish, state: &State) -> bool {
    rules.side_ids(state.active).any(|u| {
        rules
            .side_ids(Skirmish::passive(state))
            .any(|t| melee::attack_open(rules, state, u, t))
    }) || maneuver::any(rules, state)
}

fn begin(rules: &Skirmish, state: &mut State, phase: Phase, ctx: &mut Ctx<'_, Event>) {
    state.phase = phase;
    state.turned = 0;
    for c in &mut state.chars {
        // SK-CHG-12: ripostes are counted per phase; SK-MEL-1: attacks on a target per
        // melee phase.
        c.ripostes = 0;
        c.attacked = 0;
    }
    ctx.emit_with(|| Event::PhaseBegan {
        turn: state.turn,
        side: rules.sides[usize::from(state.active)].clone(),
        phase,
    });
}

/// SK-TURN-1: ends the phase. After the missile phase (SK-MIS-1) comes movement; after
/// movement comes melee (passed by itself when nobody
/// can attack, SK-TURN-2); after melee the morale phase (SK-MOR-1), then the other
/// side's active turn; after both, the game turn ends and, after the last, the game
/// (SK-TURN-3).
pub(crate) fn end_phase(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if state.phase == Phase::Missile {
        begin(rules, state, Phase::Movement, ctx);
        return;
    }
    if state.phase == Phase::Movement {
        movement::finish(rules, state, "SK-TURN-1", "the movement phase ends", ctx);
        begin(rules, state, Phase::Melee, ctx);
        if any_attack(rules, state) {
            return;
        }
    }
    morale::morale_phase(rules, state, ctx);
    if state.outcome.is_some() {
        return;
    }
    if state.active == 0 {
        state.active = 1;
    } else {
        if state.turn >= rules.turns {
            let outcome = final_outcome(rules, state);
            ctx.emit_with(|| Event::GameOver {
                outcome: outcome.clone(),
            });
            state.outcome = Some(outcome);
            return;
        }
        state.active = 0;
        state.turn += 1;
    }
    actions::refresh(rules, state, state.active, ctx);
    // SK-MIS-1: the missile phase opens the active turn when anyone can shoot; else it
    // passes by itself, unannounced.
    if missile::any_shot(rules, state) {
        begin(rules, state, Phase::Missile, ctx);
    } else {
        begin(rules, state, Phase::Movement, ctx);
    }
}

/// Enemies each side has put out of action or made flee.
pub(crate) fn points(rules: &Skirmish, state: &State) -> [usize; 2] {
    [0u8, 1].map(|s| {
        rules
            .side_ids(1 - s)
            .filter(|&u| !Skirmish::ch(state, u).in_play())
            .count()
    })
}

/// SK-TURN-3 (provisional): after the last turn, the side that put more enemies out of
/// the fight wins; as many is a draw.
fn final_outcome(rules: &Skirmish, state: &State) -> Outcome {
    let p = points(rules, state);
    let winner = match p[0].cmp(&p[1]) {
        std::cmp::Ordering::Greater => Some(rules.side_name(0).to_owned()),
        std::cmp::Ordering::Less => Some(rules.side_name(1).to_owned()),
        std::cmp::Ordering::Equal => None,
    };
    Outcome {
        reason: format!(
            "after {} turns, {} has put {} enemies out of the fight and {} {}",
            rules.turns,
            rules.side_title(0),
            p[0],
            rules.side_title(1),
            p[1]
        ),
        winner,
        rule: Some("SK-TURN-3".into()),
    }
}
