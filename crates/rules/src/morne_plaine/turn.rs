//! The sequence of play (docs/rules/morne-plaine.md, MP-TURN-1 to MP-TURN-3:
//! bombardment, movement, combat, rally; then victory is checked): the phases, who acts,
//! and what each action does, dispatched to the chapters.

use super::units::UnitState;
use super::{Action, Event, MornePlaine, State, Unattackable};
use grognard_engine::{Acting, Ctx, Explanation, Reason, Refusal, UnitId};
use grognard_hex::Direction;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A phase of a player turn (MP-TURN-1: bombardment, movement, combat, rally; the
/// sides alternate, the scenario's first side first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Batteries fire.
    Bombardment,
    /// Units move and charge.
    Movement,
    /// Units attack.
    Combat,
    /// Units recover.
    Rally,
}

impl Phase {
    /// The phase's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Phase::Bombardment => "bombardment",
            Phase::Movement => "movement",
            Phase::Combat => "combat",
            Phase::Rally => "rally",
        }
    }

    fn next(self) -> Option<Phase> {
        match self {
            Phase::Bombardment => Some(Phase::Movement),
            Phase::Movement => Some(Phase::Combat),
            Phase::Combat => Some(Phase::Rally),
            Phase::Rally => None,
        }
    }
}

pub(super) fn initial_state(rules: &MornePlaine) -> State {
    let mut state = State {
        turn: 1,
        active: 0,
        phase: Phase::Bombardment,
        units: rules
            .counters
            .iter()
            .map(|c| UnitState {
                hex: c.start,
                waiting: c.enters.is_some(),
                cs: c.cs,
                mv: c.mv,
                mp: c.ma,
                moved: false,
                stopped: false,
                road_penalty: false,
                fired: false,
                attacked: false,
                defended: false,
                victorious: false,
                charged: None,
            })
            .collect(),
        moving: None,
        stamp: super::board::Stamp::default(),
        forts: rules.forts.iter().map(|f| f.1).collect(),
        held: rules
            .scenario
            .places
            .iter()
            .map(|p| p.owner.as_deref().map(|o| u8::from(rules.sides[1] == o)))
            .collect(),
        outcome: None,
    };
    begin_phase(rules, &mut state, None);
    // MP-TURN-2: an opening bombardment phase with nothing to fire passes by itself,
    // as every later one does.
    if !super::bombardment::any_fire(rules, &state) {
        state.phase = Phase::Movement;
        begin_phase(rules, &mut state, None);
    }
    state
}

/// Starts `state.phase` for `state.active`.
fn begin_phase(rules: &MornePlaine, state: &mut State, ctx: Option<&mut Ctx<'_, Event>>) {
    state.moving = None;
    let active = state.active;
    for (c, u) in rules.counters.iter().zip(state.units.iter_mut()) {
        match state.phase {
            Phase::Bombardment if c.side == active => {
                // MP-BMB-1: each battery fires once per bombardment phase.
                u.fired = false;
            }
            Phase::Movement => {
                // Reading of MP-VICU-1 and MP-CMB-10: a unit is victorious from the
                // charge or attack that made it so to the end of that player turn's
                // combat phase ("earlier in the same combat phase"; a charge's victor
                // counts in the combat that follows); MP-CHG-17's bonus lasts as long.
                u.victorious = false;
                u.charged = None;
                if c.side == active {
                    u.mp = c.ma;
                    u.moved = false;
                    // MP-BMB-4: a battery that fired does not move in the following
                    // movement phase.
                    u.stopped = u.fired;
                    u.road_penalty = false;
                }
            }
            Phase::Combat => {
                // MP-CMB-2: once per combat phase.
                u.attacked = false;
                u.defended = false;
            }
            _ => {}
        }
    }
    if state.phase.name() == rules.data.reinforcements.phase {
        arrive(rules, state, ctx);
    }
}

/// MP-REIN-1 (provisional): a reinforcement comes on at its entry hex at the start of
/// its side's movement phase of its turn (the phase is `data.toml` [reinforcements]),
/// or the first later one when the hex is free; it moves with its full allowance.
fn arrive(rules: &MornePlaine, state: &mut State, mut ctx: Option<&mut Ctx<'_, Event>>) {
    for (i, c) in rules.counters.iter().enumerate() {
        let Some((turn, hex)) = c.enters else {
            continue;
        };
        if c.side != state.active || !state.units[i].waiting || turn > state.turn {
            continue;
        }
        if MornePlaine::occupant(state, hex).is_some() {
            continue;
        }
        let u = &mut state.units[i];
        u.waiting = false;
        u.hex = Some(hex);
        let unit = grognard_engine::UnitId(u16::try_from(i).expect("unit count fits u16"));
        rules.take_place(state, unit, hex);
        if let Some(ctx) = ctx.as_deref_mut() {
            ctx.emit_with(|| Event::Arrived {
                unit,
                at: hex,
                rule: "MP-REIN-1".into(),
            });
        }
    }
}

/// MP-TURN-1: ends the phase; the rally phase follows combat at once (it asks nothing
/// of the player); after Rally the other side's player turn begins; after both, the game
/// turn ends and victory is checked (MP-VIC-1, MP-VIC-2). A bombardment or combat phase
/// in which nothing can fire or attack passes by itself (MP-TURN-2).
pub(super) fn end_phase(rules: &MornePlaine, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    loop {
        advance_phase(rules, state, ctx);
        if state.outcome.is_some() {
            return;
        }
        if state.phase == Phase::Rally {
            super::rally::rally(rules, state, ctx);
            continue;
        }
        let idle = match state.phase {
            Phase::Bombardment => !super::bombardment::any_fire(rules, state),
            Phase::Combat => !super::combat::any_attack(rules, state),
            Phase::Movement | Phase::Rally => false,
        };
        if !idle {
            return;
        }
        ctx.emit_with(|| passed(rules, state));
    }
}

/// What a phase that passes by itself tells the players (MP-TURN-2): why nothing is done
/// and, in a combat phase, why each enemy next to a unit of the side is not attacked, so
/// that a phase without an attack never passes without a word (issue 15).
fn passed(rules: &MornePlaine, state: &State) -> Event {
    let side = rules.side_name(state.active).to_owned();
    let title = rules.names.side_title(&side).to_owned();
    let mut refused = Vec::new();
    let reason = if state.phase == Phase::Combat {
        let occ = rules.occupancy(state);
        for &i in &rules.side_units[usize::from(state.active)] {
            let u = UnitId(i);
            let Some(at) = state.units[usize::from(i)].hex else {
                continue;
            };
            for d in Direction::ALL {
                let Some(t) = rules.occupant_in(&occ, at.neighbor(d)) else {
                    continue;
                };
                if rules.counters[t.index()].side == state.active {
                    continue;
                }
                if let Err(no) = rules.can_attack(state, u, t) {
                    refused.push(Unattackable {
                        unit: u,
                        target: t,
                        reasons: no.refusal(rules, state, u, t).reasons,
                    });
                }
            }
        }
        if refused.is_empty() {
            format!("no unit of {title} is next to an enemy: there is nothing to attack")
        } else {
            format!("no unit of {title} may attack an enemy next to it")
        }
    } else {
        format!("no battery of {title} has a target it may fire at")
    };
    Event::PhasePassed {
        turn: state.turn,
        side,
        phase: state.phase,
        rule: "MP-TURN-2".into(),
        reason,
        refused,
    }
}

fn advance_phase(rules: &MornePlaine, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    match state.phase.next() {
        Some(p) => state.phase = p,
        None => {
            state.phase = Phase::Bombardment;
            if state.active == 0 {
                state.active = 1;
            } else {
                // MP-TURN-3: after both player turns the game turn ends; after the
                // scenario's last turn the game ends and victory is checked.
                state.active = 0;
                let over = super::victory::sudden_death(rules, state).or_else(|| {
                    (state.turn >= rules.turns).then(|| super::victory::victory(rules, state))
                });
                if let Some(outcome) = over {
                    ctx.emit_with(|| Event::GameOver {
                        outcome: outcome.clone(),
                    });
                    state.outcome = Some(outcome);
                    return;
                }
                state.turn += 1;
            }
        }
    }
    ctx.emit_with(|| Event::PhaseBegan {
        turn: state.turn,
        side: rules.side_name(state.active).to_owned(),
        phase: state.phase,
    });
    begin_phase(rules, state, Some(ctx));
}

/// Who decides now: the active side, in its current phase (MP-TURN-1); nobody once the
/// game is over (MP-VIC-3).
#[inline]
pub(super) fn acting<'a>(rules: &'a MornePlaine, state: &State) -> Option<Acting<'a>> {
    // MP-VIC-3: nothing is decided once the game is over.
    if state.outcome.is_some() {
        return None;
    }
    Some(Acting {
        side: Cow::Borrowed(rules.side_name(state.active)),
        kind: Cow::Borrowed(state.phase.name()),
        reaction: false,
    })
}

/// The legal actions of the phase, from each chapter's `legal_<action>` list, and
/// ending the phase (MP-TURN-1).
#[inline]
pub(super) fn legal_actions(rules: &MornePlaine, state: &State, out: &mut Vec<Action>) {
    // MP-VIC-3: nothing is legal once the game is over.
    if state.outcome.is_some() {
        return;
    }
    match state.phase {
        Phase::Bombardment => super::bombardment::legal_bombards(rules, state, out),
        Phase::Movement => super::movement::legal_moves(rules, state, out),
        Phase::Combat => super::combat::legal_attacks(rules, state, out),
        Phase::Rally => {}
    }
    out.push(Action::EndPhase);
}

/// Whether an action is legal and why, from the chapter's check of that action.
pub(super) fn explain(rules: &MornePlaine, state: &State, action: &Action) -> Explanation {
    let result = match action {
        _ if state.outcome.is_some() => Err(Refusal::new("MP-VIC-3", "the game is over")),
        Action::EndPhase => Ok(vec![Reason::new(
            "MP-TURN-1",
            format!("ends the {} phase", state.phase.name()),
        )]),
        Action::Move { unit, to } => rules
            .check_move(state, *unit, *to)
            .map(super::movement::Priced::reasons),
        Action::Charge { unit, target } => {
            rules.check_charge(state, *unit, *target).map(|c| c.reasons)
        }
        Action::Bombard { unit, target } => {
            rules.check_bombard(state, *unit, *target).map(|(v, d)| {
                vec![Reason::new(
                    "MP-BMB-1",
                    format!(
                        "{} fires at {} {d} hexes away",
                        rules.unit_name(*unit),
                        rules.unit_name(v)
                    ),
                )]
            })
        }
        Action::Attack { unit, target } => {
            rules.check_attack(state, *unit, *target).map(|b| b.reasons)
        }
    };
    Explanation::from(result)
}

/// Whether an action is legal, as [`explain`] says, without writing the reasons of a
/// legal move or end of phase (the searches ask it at every step).
pub(super) fn allows(rules: &MornePlaine, state: &State, action: &Action) -> bool {
    match action {
        _ if state.outcome.is_some() => false,
        Action::EndPhase => true,
        Action::Move { unit, to } => rules.allows_move(state, *unit, *to),
        _ => explain(rules, state, action).legal,
    }
}

/// Carries out a checked action: ending the phase here, the rest in its chapter.
#[inline]
pub(super) fn apply(
    rules: &MornePlaine,
    state: &mut State,
    action: &Action,
    ctx: &mut Ctx<'_, Event>,
) {
    // Every change of a state is a new stamp; a step's names the one unit it moved, so
    // that the movement board follows it without comparing every unit (`board::Stamp`).
    // Given after the action, which may read the board of the state before it.
    let stamp = match action {
        Action::Move { unit, .. } => state.stamp.step(*unit),
        _ => super::board::Stamp::fresh(),
    };
    match action {
        Action::EndPhase => end_phase(rules, state, ctx),
        Action::Move { unit, to } => super::movement::apply_move(rules, state, *unit, *to, ctx),
        Action::Charge { unit, target } => {
            super::charge::apply_charge(rules, state, *unit, *target, ctx);
        }
        Action::Bombard { unit, target } => {
            super::bombardment::apply_bombard(rules, state, *unit, *target, ctx);
        }
        Action::Attack { unit, target } => {
            super::combat::apply_attack(rules, state, *unit, *target, ctx);
        }
    }
    state.stamp = stamp;
}
