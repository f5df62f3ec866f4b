//! Actions (`docs/rules/skirmish.md`, recovered): each character's Free actions,
//! one Quick Action, one Complex Action and one Melee Action a turn (SK-ACT-1); the
//! Quick Action's uses (SK-ACT-2); Defend, the Complex Action (SK-ACT-3); turning, the
//! Free action (SK-ACT-4).

use super::movement::Gate;
use super::{statuses, Action, Event, Phase, Skirmish, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::Direction;

/// SK-ACT-1 (provisional reading): a side's characters get their actions back at the
/// start of its active turn; a Quick Action lasts through the enemy's turn that follows
/// (SK-ACT-2). A character recovered from Dazed "with CA and QA spent" gets neither
/// back this time (SK-MOR-2).
pub(crate) fn refresh(rules: &Skirmish, state: &mut State, side: u8, ctx: &mut Ctx<'_, Event>) {
    for u in rules.side_ids(side) {
        let allowance = rules.allowance(state, u);
        let c = &mut state.chars[u.index()];
        if c.spent {
            c.quick = false;
            c.complex = false;
            c.spent = false;
        } else {
            c.quick = true;
            c.complex = true;
        }
        c.melee = true;
        c.took_complex = false;
        c.moved = false;
        c.done = false;
        c.mp = allowance;
        if c.evasive {
            statuses::lose_evasive(state, u, ctx);
        }
    }
}

/// Why a character may take no Free action now (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoFree {
    Passive,
    Out,
    Dazed,
    Charging,
    MissilePhase,
}

/// SK-ACT-4: whether `u` may take a Free action (turn) now.
pub(crate) fn can_act_free(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), NoFree> {
    if rules.side_of(u) != state.active {
        return Err(NoFree::Passive);
    }
    let c = Skirmish::ch(state, u);
    Err(if !c.in_play() {
        NoFree::Out
    } else if c.dazed {
        NoFree::Dazed
    } else if state.charge.is_some() {
        NoFree::Charging
    } else if state.phase == Phase::Missile {
        NoFree::MissilePhase
    } else {
        return Ok(());
    })
}

/// [`can_act_free`] with its refusal worded.
fn free_action(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), Refusal> {
    let name = rules.name(u);
    can_act_free(rules, state, u).map_err(|e| match e {
        NoFree::Passive => Refusal::new(
            "SK-ACT-4",
            format!("{name} is on the passive side: it turns only in its own turn, or at the end of a short move"),
        ),
        NoFree::Out => Refusal::new("SK-STA-7", format!("{name} is no longer in the fight")),
        NoFree::Dazed => Refusal::new("SK-STA-1", format!("{name} is Dazed")),
        NoFree::Charging => Refusal::new(
            "SK-CHG-5",
            "a charge is under way: chargers run facing their route, and nobody else acts meanwhile",
        ),
        NoFree::MissilePhase => Refusal::new(
            "SK-ACT-4",
            "characters turn in their movement and melee phases, not in the missile phase",
        ),
    })
}

/// SK-ACT-4: checks a change of facing.
pub(crate) fn check_face(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    facing: Direction,
) -> Result<Vec<Reason>, Refusal> {
    free_action(rules, state, u)?;
    if Skirmish::ch(state, u).facing == facing {
        return Err(Refusal::new(
            "SK-ACT-4",
            format!("{} already faces that way", rules.name(u)),
        ));
    }
    Ok(vec![Reason::new(
        "SK-ACT-4",
        format!(
            "{} turns to face {}: a Free action, at no cost",
            rules.name(u),
            rules.dir_name(facing)
        ),
    )])
}

/// Turns a character.
pub(crate) fn face(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    facing: Direction,
    ctx: &mut Ctx<'_, Event>,
) {
    let _ = rules;
    state.chars[u.index()].facing = facing;
    state.turned = state.turned.saturating_add(1);
    ctx.emit_with(|| Event::Faced {
        unit: u,
        facing,
        rule: "SK-ACT-4".into(),
    });
}

/// SK-ACT-4: every change of facing of the active side: what [`check_face`] accepts.
pub(crate) fn legal_faces(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    for u in rules.side_ids(state.active) {
        if can_act_free(rules, state, u).is_err() {
            continue;
        }
        // The five other facings in `Direction::ALL`'s order, pushed as one array of
        // known length (a list asks this for every character).
        let held = Skirmish::ch(state, u).facing.index();
        let five: [usize; 5] = std::array::from_fn(|k| if k < held { k } else { k + 1 });
        out.extend(five.map(|k| Action::Face {
            unit: u,
            facing: Direction::from_index(k),
        }));
    }
}

/// SK-ACT-3: Defend for `u`, when [`check_defend_in`] accepts it.
pub(crate) fn legal_defend(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    u: UnitId,
    out: &mut Vec<Action>,
) {
    if may_defend(rules, state, gate, u) {
        out.push(Action::Defend { unit: u });
    }
}

/// Whether [`check_defend_in`] accepts Defend for `u`: the same checks (SK-ACT-3,
/// SK-ACT-4, SK-STA-2, SK-ACT-1, SK-MOV-7), without wording them.
fn may_defend(rules: &Skirmish, state: &State, gate: &Gate, u: UnitId) -> bool {
    if state.phase != Phase::Movement || can_act_free(rules, state, u).is_err() {
        return false;
    }
    let c = Skirmish::ch(state, u);
    !c.panicked && c.complex && !c.moved && !c.done && gate.bars(state, u).is_none()
}

/// SK-ACT-3: checks Defend, the Complex Action.
pub(crate) fn check_defend(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    if state.phase != Phase::Movement || state.charge.is_some() {
        return check_defend_in(rules, state, &Gate::default(), u);
    }
    check_defend_in(rules, state, &rules.gate(state), u)
}

/// [`check_defend`] with the movement phase's gate computed once by the caller.
pub(crate) fn check_defend_in(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    u: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    let name = rules.name(u);
    if state.phase != Phase::Movement {
        return Err(Refusal::new(
            "SK-ACT-3",
            format!(
                "a character Defends in its movement phase; this is the {} phase",
                state.phase.name()
            ),
        ));
    }
    free_action(rules, state, u)?;
    let c = Skirmish::ch(state, u);
    if c.panicked {
        return Err(Refusal::new(
            "SK-STA-2",
            format!("{name} is Panicked and must flee"),
        ));
    }
    if !c.complex {
        return Err(Refusal::new(
            "SK-ACT-1",
            format!("{name} has no Complex Action left this turn"),
        ));
    }
    if c.moved || c.done {
        return Err(Refusal::new(
            "SK-ACT-3",
            format!("{name} has moved this phase: it Defends instead of moving, not after"),
        ));
    }
    gate.admits(rules, state, u)?;
    Ok(vec![
        Reason::new(
            "SK-ACT-3",
            format!("{name} Defends: +2 Melee Defense until the end of the enemy's next turn"),
        ),
        Reason::new(
            "SK-MOV-5",
            "having taken a Complex Action, it cannot move this turn",
        ),
    ])
}

/// Defend: the Complex Action is spent, the character moves no more this turn, and
/// Defends until the morale phase of the next active turn (SK-MOR-6).
pub(crate) fn defend(rules: &Skirmish, state: &mut State, u: UnitId, ctx: &mut Ctx<'_, Event>) {
    super::movement::finish(
        rules,
        state,
        "SK-MOV-7",
        "another character acts: its movement is over",
        ctx,
    );
    let half = super::half(state);
    let c = &mut state.chars[u.index()];
    c.complex = false;
    c.took_complex = true;
    c.done = true;
    c.defending = Some(half + 1);
    statuses::status(
        ctx,
        u,
        "defending",
        true,
        "SK-ACT-3",
        "Defending: +2 Melee Defense",
    );
}
