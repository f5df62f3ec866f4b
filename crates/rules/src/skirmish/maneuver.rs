//! Short moves "as the result of a Maneuver" (SK-SHM-4). The rule text never says what
//! a Maneuver is. Reading (provisional): a Maneuver
//! is a melee option of the recovered actions: in its melee phase an Engaged character
//! may spend its Melee Action on a short move instead of an attack, to step out of
//! contact, round a flank or into reach. A short move "works like regular Movement", so
//! the enemies whose zone it leaves strike at once (SK-MOV-19) and it passes friends as a
//! walk does (SK-MOV-11, SK-MOV-12).

use super::short_move::{self, ShortEnd, ShortPlan};
use super::{Action, Event, Phase, Skirmish, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// Why a character may not maneuver now, wherever it would go (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoManeuver {
    WrongPhase,
    Passive,
    Out,
    Dazed,
    Spent,
    Berserk,
    Panicked,
    NotEngaged,
}

/// SK-SHM-4: what keeps `u` from maneuvering now, wherever it would go; a reason code,
/// worded by [`may_maneuver`].
pub(crate) fn can_maneuver(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), NoManeuver> {
    if state.phase != Phase::Melee {
        return Err(NoManeuver::WrongPhase);
    }
    if rules.side_of(u) != state.active {
        return Err(NoManeuver::Passive);
    }
    let c = Skirmish::ch(state, u);
    Err(if !c.in_play() {
        NoManeuver::Out
    } else if c.dazed {
        NoManeuver::Dazed
    } else if !c.melee {
        NoManeuver::Spent
    } else if c.berserk {
        NoManeuver::Berserk
    } else if c.panicked {
        NoManeuver::Panicked
    } else if !rules.engaged(state, u) {
        NoManeuver::NotEngaged
    } else {
        return Ok(());
    })
}

/// [`can_maneuver`] with its refusal worded.
pub(crate) fn may_maneuver(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), Refusal> {
    let name = rules.name(u);
    can_maneuver(rules, state, u).map_err(|e| match e {
        NoManeuver::WrongPhase => Refusal::new(
            "SK-SHM-4",
            format!(
                "a Maneuver is made in the melee phase; this is the {} phase",
                state.phase.name()
            ),
        ),
        NoManeuver::Passive => Refusal::new(
            "SK-SHM-4",
            format!(
                "{name} is on the passive side: in {}'s melee phase only its characters maneuver",
                rules.side_title(state.active)
            ),
        ),
        NoManeuver::Out => Refusal::new("SK-STA-7", format!("{name} is no longer in the fight")),
        NoManeuver::Dazed => Refusal::new("SK-ACT-1", format!("{name} is Dazed: no Melee Action")),
        NoManeuver::Spent => Refusal::new(
            "SK-ACT-1",
            format!("{name} has used its Melee Action this turn"),
        ),
        NoManeuver::Berserk => Refusal::new(
            "SK-STA-3",
            format!("{name} is Berserk: it attacks the nearest enemy, it does not maneuver"),
        ),
        NoManeuver::Panicked => Refusal::new(
            "SK-STA-2",
            format!("{name} is Panicked: it flees, it does not maneuver"),
        ),
        NoManeuver::NotEngaged => Refusal::new(
            "SK-SHM-4",
            format!("{name} is not Engaged: a Maneuver is a melee option of a character in an enemy's zone of control"),
        ),
    })
}

/// SK-SHM-4: checks a Maneuver ending on `to`. It names no facing: turning is a Free
/// action in one's own melee phase (SK-ACT-4), before or after.
pub(crate) fn check_maneuver(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    to: Hex,
) -> Result<ShortPlan, Refusal> {
    may_maneuver(rules, state, u)?;
    if Skirmish::ch(state, u).hex == Some(to) {
        return Err(Refusal::new(
            "SK-ACT-4",
            "turning is a Free action in one's own melee phase: a Maneuver moves",
        ));
    }
    let facing = Skirmish::ch(state, u).facing;
    let mut plan = short_move::plan_short_move(rules, state, u, ShortEnd { to, facing })?;
    plan.reasons.insert(
        0,
        Reason::new(
            "SK-SHM-4",
            format!(
                "{} spends its Melee Action on a Maneuver: a short move instead of an attack",
                rules.name(u)
            ),
        ),
    );
    Ok(plan)
}

/// The path of the Maneuver of `u` to `to` when [`check_maneuver`] accepts it, without
/// its words: `None` where it refuses.
pub(crate) fn maneuver_path(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    to: Hex,
) -> Option<short_move::ShortPath> {
    can_maneuver(rules, state, u).ok()?;
    let c = Skirmish::ch(state, u);
    if c.hex == Some(to) {
        return None;
    }
    short_move::short_path(
        rules,
        state,
        u,
        ShortEnd {
            to,
            facing: c.facing,
        },
    )
}

/// SK-SHM-4: the Maneuver: the Melee Action is spent, then the short move.
pub(crate) fn maneuver(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    to: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(path) = maneuver_path(rules, state, u, to) else {
        return;
    };
    let facing = Skirmish::ch(state, u).facing;
    state.chars[u.index()].melee = false;
    ctx.emit_with(|| Event::Spent {
        unit: u,
        action: "melee_action".into(),
        rule: "SK-SHM-4".into(),
    });
    short_move::run_short_move(rules, state, u, path.hexes(), facing, ctx);
}

/// Every Maneuver that might be legal: each maneuvering character's reach searched once.
pub(crate) fn legal_maneuvers(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    for u in rules.side_ids(state.active) {
        legal_maneuvers_of(rules, state, u, out);
    }
}

/// The Maneuvers of `u` that [`legal_maneuvers`] lists.
pub(crate) fn legal_maneuvers_of(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    out: &mut Vec<Action>,
) {
    if can_maneuver(rules, state, u).is_err() {
        return;
    }
    let here = Skirmish::ch(state, u).hex;
    for to in short_move::short_ends(rules, state, u) {
        if Some(to) == here {
            continue;
        }
        out.push(Action::Maneuver { unit: u, to });
    }
}

/// Whether anyone of the active side may maneuver (the melee phase does not pass by
/// itself then, SK-TURN-2).
pub(crate) fn any(rules: &Skirmish, state: &State) -> bool {
    rules.side_ids(state.active).any(|u| {
        can_maneuver(rules, state, u).is_ok()
            && short_move::short_ends(rules, state, u)
                .any(|h| Skirmish::ch(state, u).hex != Some(h))
    })
}
