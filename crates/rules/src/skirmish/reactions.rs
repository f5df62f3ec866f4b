//! The passive side's windows inside the active side's movement: attacks of
//! opportunity on a character leaving its zone (SK-MOV-9, SK-MEL-5), and reactions after
//! every hex moved (SK-MOV-2): a short move (SK-SHM-1 to SK-SHM-3) or reaction fire
//! (SK-MIS-4, in [`super::missile`]) for a Quick Action; the short move itself is in
//! [`super::short_move`]. What follows a window (the step, a broken charge) is the
//! sequencer's: [`settle_window`] says what happened.

use super::melee::{self, band, Band};
use super::short_move::{self, ShortEnd, ShortPlan};
use super::step::StepTo;
use super::{Action, AttackKind, Event, Skirmish, State, Window};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// The decision kind a window shows in `to_act`.
#[must_use]
pub fn window_kind(w: &Window) -> &'static str {
    match w {
        Window::Opportunity { .. } => "opportunity",
        Window::Reaction { .. } => "reaction",
    }
}

/// Why the active side may not act while a window is open.
pub(crate) fn window_refusal(rules: &Skirmish, state: &State) -> Refusal {
    let passive = rules.side_title(Skirmish::passive(state));
    match &state.window {
        Some(Window::Opportunity { unit, .. }) => Refusal::new(
            "SK-MOV-9",
            format!(
                "{} is leaving a hex in {passive}'s zone of control: {passive} decides its attacks of opportunity first",
                rules.name(*unit)
            ),
        ),
        _ => Refusal::new(
            "SK-MOV-2",
            format!("after each hex moved, {passive} may react: {passive} decides first"),
        ),
    }
}

/// SK-MOV-9, SK-CHG-7: opens the opportunity window for the step of `u` about to leave
/// its hex, if any passive character may strike. True when it opened.
pub(crate) fn open_opportunity(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    step: StepTo,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    let Some(from) = Skirmish::ch(state, u).hex else {
        return false;
    };
    let exclude = state.charge.as_ref().map(|c| c.legs[c.current].target);
    let provoked = Skirmish::current_run(state)
        .map(|r| r.provoked.clone())
        .unwrap_or_default();
    let eligible = melee::opportunists(
        rules,
        state,
        u,
        from,
        Skirmish::passive(state),
        &provoked,
        exclude,
    );
    if eligible.is_empty() {
        return false;
    }
    if let Some(run) = Skirmish::current_run_mut(state) {
        run.provoked.extend(eligible.iter().copied());
    }
    state.window = Some(Window::Opportunity {
        unit: u,
        to: step.to,
        evasive: step.evasive,
        eligible,
    });
    ctx.emit_with(|| Event::WindowOpened {
        kind: "opportunity".into(),
        side: rules.sides[usize::from(Skirmish::passive(state))].clone(),
        unit: u,
    });
    true
}

/// SK-MOV-9: the attacks of opportunity open in the window: the window keeps only those
/// who may strike ([`settle_window`]), which is what [`check_opportunity`] accepts.
pub(crate) fn legal_opportunities(state: &State, out: &mut Vec<Action>) {
    if let Some(Window::Opportunity { unit, eligible, .. }) = &state.window {
        out.extend(eligible.iter().map(|&e| Action::Opportunity {
            unit: e,
            target: *unit,
        }));
    }
}

/// Checks an attack of opportunity in the window.
pub(crate) fn check_opportunity(
    rules: &Skirmish,
    state: &State,
    unit: UnitId,
    target: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    let Some(Window::Opportunity {
        unit: mover,
        eligible,
        ..
    }) = &state.window
    else {
        return Err(Refusal::new(
            "SK-MOV-9",
            "an attack of opportunity is made only when an active character leaves a hex in the attacker's zone of control",
        ));
    };
    if target != *mover {
        return Err(Refusal::new(
            "SK-MOV-9",
            format!(
                "the character leaving the zone is {}, not {}",
                rules.name(*mover),
                rules.name(target)
            ),
        ));
    }
    if !eligible.contains(&unit) {
        return Err(Refusal::new(
            "SK-MOV-9",
            format!(
                "{} may not strike {} now: not in its zone, no riposte left this phase (SK-CHG-12), out of reach, already provoked in this movement, or the charge's target",
                rules.name(unit),
                rules.name(target)
            ),
        ));
    }
    let rule = if state.charge.is_some() {
        "SK-CHG-7"
    } else {
        "SK-MOV-9"
    };
    let mut reasons = vec![
        Reason::new(
            rule,
            format!(
                "{} leaves a hex in {}'s zone of control: one attack of opportunity",
                rules.name(target),
                rules.name(unit)
            ),
        ),
        Reason::new("SK-MEL-5", "a normal attack the target cannot counter"),
        Reason::new(
            "SK-CHG-12",
            "uses the attacker's one riposte of this phase (not its Melee Action)",
        ),
    ];
    if let Some(c) = melee::calc(rules, state, unit, target, AttackKind::Opportunity) {
        reasons.extend(c.reasons);
    }
    Ok(reasons)
}

/// An attack of opportunity (SK-MEL-5): no counter; the riposte is used (SK-CHG-12).
pub(crate) fn opportunity(
    rules: &Skirmish,
    state: &mut State,
    unit: UnitId,
    target: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    if let Some(Window::Opportunity { eligible, .. }) = &mut state.window {
        eligible.retain(|&e| e != unit);
    }
    state.chars[unit.index()].ripostes += 1;
    if let Some(blow) = melee::resolve(rules, state, unit, target, AttackKind::Opportunity, 0, ctx)
    {
        melee::land(rules, state, &blow, ctx);
    }
}

/// Checks closing a window.
pub(crate) fn check_pass(rules: &Skirmish, state: &State) -> Result<Vec<Reason>, Refusal> {
    match &state.window {
        Some(Window::Opportunity { unit, .. }) => Ok(vec![Reason::new(
            "SK-MOV-9",
            format!("lets {} go without (more) attacks of opportunity", rules.name(*unit)),
        )]),
        Some(Window::Reaction { .. }) => Ok(vec![Reason::new(
            "SK-MOV-2",
            "no (more) reactions to this hex: the active side goes on",
        )]),
        None => Err(Refusal::new(
            "SK-MOV-2",
            "no window is open: passing is for the passive side's reactions and attacks of opportunity",
        )),
    }
}

/// Closes the window.
pub(crate) fn pass(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let side = rules.sides[usize::from(Skirmish::passive(state))].clone();
    match &mut state.window {
        Some(Window::Opportunity { eligible, .. }) => {
            eligible.clear();
            ctx.emit_with(|| Event::Passed {
                side,
                kind: "opportunity".into(),
            });
        }
        Some(Window::Reaction { .. }) => {
            state.window = None;
            ctx.emit_with(|| Event::Passed {
                side,
                kind: "reaction".into(),
            });
        }
        None => {}
    }
}

/// What settling a window came to, for the sequencer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Settled {
    /// The window stays open: the passive side decides.
    Open,
    /// Nothing is open, or nothing changed.
    Nothing,
    /// The window changed or closed; nothing else follows from it.
    Changed,
    /// The opportunity window closed with the mover Dazed or out of the fight: its step
    /// is aborted (SK-MOV-9), its charge broken (SK-CHG-8).
    Broken {
        /// The mover.
        unit: UnitId,
    },
    /// The opportunity window closed with nobody left to strike: the step is made.
    Step {
        /// The mover.
        unit: UnitId,
        /// Where it steps; `None` off the map.
        to: Option<Hex>,
        /// The step is evasive.
        evasive: bool,
    },
}

/// Keeps the window honest after anything changed: an attack of opportunity that
/// dazed the mover aborts its step (SK-MOV-9) or breaks its charge (SK-CHG-8); with no
/// one left to strike, the step is made; with no one left to react, the reaction
/// window closes. The window is closed here; what follows is the sequencer's.
pub(crate) fn settle_window(rules: &Skirmish, state: &mut State) -> Settled {
    match state.window.clone() {
        None => Settled::Nothing,
        Some(Window::Reaction { .. }) => {
            if rules
                .side_ids(Skirmish::passive(state))
                .any(|u| can_react(rules, state, u).is_ok())
            {
                return Settled::Open;
            }
            state.window = None;
            Settled::Changed
        }
        Some(Window::Opportunity {
            unit,
            to,
            evasive,
            eligible,
        }) => {
            let c = Skirmish::ch(state, unit).clone();
            let postponed = state.charge.as_ref().is_some_and(|ch| ch.legs.len() > 1);
            if !c.in_play() || (c.dazed && !postponed) {
                state.window = None;
                return Settled::Broken { unit };
            }
            let still: Vec<UnitId> = eligible
                .iter()
                .copied()
                .filter(|&e| {
                    Skirmish::can_riposte(state, e)
                        && Skirmish::ch(state, e).hex.is_some_and(|h| {
                            c.hex.is_some_and(|m| {
                                band(&rules.weapons[e.index()], h.distance(m)) != Band::Out
                            })
                        })
                })
                .collect();
            if still.is_empty() {
                state.window = None;
                return Settled::Step { unit, to, evasive };
            }
            if still != eligible {
                state.window = Some(Window::Opportunity {
                    unit,
                    to,
                    evasive,
                    eligible: still,
                });
                return Settled::Changed;
            }
            Settled::Open
        }
    }
}

/// SK-MOV-2, SK-SHM-3: whether a passive character may react now.
pub(crate) fn may_react(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), Refusal> {
    can_react(rules, state, u).map_err(|e| {
        let name = rules.name(u);
        match e {
            NoReaction::NoWindow => Refusal::new(
                "SK-MOV-2",
                "reactions come after a hex moved by the active side",
            ),
            NoReaction::Active => Refusal::new(
                "SK-MOV-2",
                format!("{name} is on the active side: only the passive side reacts"),
            ),
            NoReaction::Out => {
                Refusal::new("SK-STA-7", format!("{name} is no longer in the fight"))
            }
            NoReaction::NoQuick => Refusal::new(
                "SK-ACT-2",
                format!("{name} has no Quick Action left this turn to react with"),
            ),
            NoReaction::Dazed => {
                Refusal::new("SK-STA-1", format!("{name} is Dazed and cannot react"))
            }
            NoReaction::Panicked => {
                Refusal::new("SK-SHM-3", format!("{name} is Panicked and cannot react"))
            }
        }
    })
}

/// Why a passive character may not react now (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoReaction {
    NoWindow,
    Active,
    Out,
    NoQuick,
    Dazed,
    Panicked,
}

/// SK-MOV-2, SK-ACT-2, SK-SHM-3: whether `u` may react now; a reason code, worded by
/// [`may_react`].
pub(crate) fn can_react(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), NoReaction> {
    if !matches!(state.window, Some(Window::Reaction { .. })) {
        return Err(NoReaction::NoWindow);
    }
    if rules.side_of(u) == state.active {
        return Err(NoReaction::Active);
    }
    let c = Skirmish::ch(state, u);
    Err(if !c.in_play() {
        NoReaction::Out
    } else if !c.quick {
        NoReaction::NoQuick
    } else if c.dazed {
        NoReaction::Dazed
    } else if c.panicked {
        NoReaction::Panicked
    } else {
        return Ok(());
    })
}

/// SK-MOV-2: opens the reaction window after `u` moved a hex, if a passive character
/// may react.
pub(crate) fn open_reaction(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    if state.outcome.is_some() {
        return;
    }
    state.window = Some(Window::Reaction { unit: u });
    if rules
        .side_ids(Skirmish::passive(state))
        .any(|p| can_react(rules, state, p).is_ok())
    {
        ctx.emit_with(|| Event::WindowOpened {
            kind: "reaction".into(),
            side: rules.sides[usize::from(Skirmish::passive(state))].clone(),
            unit: u,
        });
    } else {
        state.window = None;
    }
}

/// Every legal short move as a reaction: what `check_short_move` accepts, each reacting
/// character's reach searched once.
pub(crate) fn legal_short_moves(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    for u in rules.side_ids(Skirmish::passive(state)) {
        if can_react(rules, state, u).is_err() {
            continue;
        }
        let c = Skirmish::ch(state, u);
        let here = c.hex.expect("in play");
        for to in short_move::short_ends(rules, state, u) {
            for facing in Direction::ALL {
                if to != here || facing != c.facing {
                    out.push(Action::ShortMove {
                        unit: u,
                        to,
                        facing,
                    });
                }
            }
        }
    }
}

/// Checks a short move as a reaction (SK-MOV-2, SK-SHM-1).
pub(crate) fn check_short_move(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    to: Hex,
    facing: Direction,
) -> Result<ShortPlan, Refusal> {
    may_react(rules, state, u)?;
    let mut plan = short_move::plan_short_move(rules, state, u, ShortEnd { to, facing })?;
    plan.reasons.insert(
        0,
        Reason::new(
            "SK-MOV-2",
            "spends its Quick Action to react to the hex just moved",
        ),
    );
    Ok(plan)
}

/// Whether [`check_short_move`] accepts the short move, without its words.
pub(crate) fn allows_short_move(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    to: Hex,
    facing: Direction,
) -> bool {
    can_react(rules, state, u).is_ok()
        && short_move::has_short_path(rules, state, u, ShortEnd { to, facing })
}

/// SK-SHM-2: the short move as a reaction: the Quick Action is spent, then the move.
pub(crate) fn short_move(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    to: Hex,
    facing: Direction,
    ctx: &mut Ctx<'_, Event>,
) {
    // The path `check_short_move` plans, without writing its reasons.
    if can_react(rules, state, u).is_err() {
        return;
    }
    let Some(path) = short_move::short_path(rules, state, u, ShortEnd { to, facing }) else {
        return;
    };
    state.chars[u.index()].quick = false;
    ctx.emit_with(|| Event::Spent {
        unit: u,
        action: "quick_action".into(),
        rule: "SK-MOV-2".into(),
    });
    short_move::run_short_move(rules, state, u, path.hexes(), facing, ctx);
}
