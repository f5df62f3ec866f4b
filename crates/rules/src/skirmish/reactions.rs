//! The passive side's windows inside the active side's movement: attacks of
//! opportunity on a character leaving its zone (SK-MOV-9, SK-MEL-5), and reactions after
//! every hex moved (SK-MOV-2): a short move (SK-SHM-1 to SK-SHM-3) or reaction fire
//! (SK-MIS-4, in [`super::missile`]) for a Quick Action. The short move's path and its
//! making serve a Maneuver too (SK-SHM-4, in [`super::maneuver`]).

use super::melee::{self, band, Band};
use super::movement::{self, Gait};
use super::{Action, AttackKind, Event, Skirmish, State, Window};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::search::{Search, Step};
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;

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
    let passive = rules.side_name(Skirmish::passive(state));
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

/// The characters of `side` who may strike `mover` leaving `from`: in whose zone it is,
/// with a riposte left (SK-CHG-12), reaching it, not yet provoked in this movement
/// (SK-MOV-9) and not the charge's target (SK-CHG-7).
pub(crate) fn opportunists(
    rules: &Skirmish,
    state: &State,
    mover: UnitId,
    from: Hex,
    side: u8,
    provoked: &[UnitId],
    exclude: Option<UnitId>,
) -> Vec<UnitId> {
    rules
        .side_ids(side)
        .filter(|&e| {
            Some(e) != exclude
                && !provoked.contains(&e)
                && Skirmish::can_riposte(state, e)
                && rules.controls(state, e, from)
                && Skirmish::ch(state, e)
                    .hex
                    .is_some_and(|h| band(&rules.weapons[e.index()], h.distance(from)) != Band::Out)
        })
        .filter(|&e| e != mover)
        .collect()
}

/// SK-MOV-9, SK-CHG-7: opens the opportunity window for the step of `u` about to leave
/// its hex, if any passive character may strike. True when it opened.
pub(crate) fn open_opportunity(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    to: Option<Hex>,
    evasive: bool,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    let Some(from) = Skirmish::ch(state, u).hex else {
        return false;
    };
    let exclude = state.charge.as_ref().map(|c| c.legs[c.current].target);
    let provoked = Skirmish::current_run(state)
        .map(|r| r.provoked.clone())
        .unwrap_or_default();
    let eligible = opportunists(
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
        to,
        evasive,
        eligible,
    });
    ctx.emit(Event::WindowOpened {
        kind: "opportunity".into(),
        side: rules.side_name(Skirmish::passive(state)).to_owned(),
        unit: u,
    });
    true
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
    let side = rules.side_name(Skirmish::passive(state)).to_owned();
    match &mut state.window {
        Some(Window::Opportunity { eligible, .. }) => {
            eligible.clear();
            ctx.emit(Event::Passed {
                side,
                kind: "opportunity".into(),
            });
        }
        Some(Window::Reaction { .. }) => {
            state.window = None;
            ctx.emit(Event::Passed {
                side,
                kind: "reaction".into(),
            });
        }
        None => {}
    }
}

/// Keeps the window honest after anything changed: an attack of opportunity that
/// dazed the mover aborts its step (SK-MOV-9) or breaks its charge (SK-CHG-8); with no
/// one left to strike, the step is made; with no one left to react, the reaction
/// window closes. True when something changed.
pub(crate) fn settle_window(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) -> bool {
    match state.window.clone() {
        None => false,
        Some(Window::Reaction { .. }) => {
            if rules
                .side_ids(Skirmish::passive(state))
                .any(|u| may_react(rules, state, u).is_ok())
            {
                return false;
            }
            state.window = None;
            true
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
                if state.charge.is_some() {
                    super::charge::end_leg(
                        rules,
                        state,
                        "SK-CHG-8",
                        "the charge is broken: the charger was Dazed by an attack of opportunity",
                        ctx,
                    );
                } else if c.in_play() {
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
                return true;
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
                movement::execute_step(rules, state, unit, to, evasive, ctx);
                return true;
            }
            if still != eligible {
                state.window = Some(Window::Opportunity {
                    unit,
                    to,
                    evasive,
                    eligible: still,
                });
                return true;
            }
            false
        }
    }
}

/// SK-MOV-2, SK-SHM-3: whether a passive character may react now.
pub(crate) fn may_react(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), Refusal> {
    let name = rules.name(u);
    if !matches!(state.window, Some(Window::Reaction { .. })) {
        return Err(Refusal::new(
            "SK-MOV-2",
            "reactions come after a hex moved by the active side",
        ));
    }
    if rules.side_of(u) == state.active {
        return Err(Refusal::new(
            "SK-MOV-2",
            format!("{name} is on the active side: only the passive side reacts"),
        ));
    }
    let c = Skirmish::ch(state, u);
    if !c.in_play() {
        return Err(Refusal::new(
            "SK-STA-7",
            format!("{name} is no longer in the fight"),
        ));
    }
    if !c.quick {
        return Err(Refusal::new(
            "SK-ACT-2",
            format!("{name} has no Quick Action left this turn to react with"),
        ));
    }
    if c.dazed {
        return Err(Refusal::new(
            "SK-STA-1",
            format!("{name} is Dazed and cannot react"),
        ));
    }
    if c.panicked {
        return Err(Refusal::new(
            "SK-SHM-3",
            format!("{name} is Panicked and cannot react"),
        ));
    }
    Ok(())
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
        .any(|p| may_react(rules, state, p).is_ok())
    {
        ctx.emit(Event::WindowOpened {
            kind: "reaction".into(),
            side: rules.side_name(Skirmish::passive(state)).to_owned(),
            unit: u,
        });
    } else {
        state.window = None;
    }
}

thread_local! {
    static SHORT: RefCell<Option<Search>> = const { RefCell::new(None) };
}

/// The hexes a short move may end in, each with its cost and path (SK-SHM-2,
/// SK-SHM-3): within Finesse // 2 points for the facing held, through friends but never
/// ending in their hex (SK-MOV-11), stopping on entering an enemy's zone (SK-MOV-8).
pub(crate) fn short_reach(rules: &Skirmish, state: &State, u: UnitId) -> Vec<(Hex, u32, Vec<Hex>)> {
    let c = Skirmish::ch(state, u);
    let Some(from) = c.hex else { return Vec::new() };
    let budget = u32::from(rules.short_allowance(state, u));
    SHORT.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|s| s.shape() != &rules.map) {
            *slot = Some(Search::new(rules.map, 1));
        }
        let search = slot.as_mut().expect("just set");
        let reach = search.run(from, 0, budget, |h, _, to, _| {
            match rules.price(state, u, h, to, c.facing, Gait::Short, false) {
                Ok(p) => Step::Enter {
                    cost: u32::from(p.cost),
                    stop: p.stop,
                    mode: 0,
                },
                Err(_) => Step::Blocked,
            }
        });
        reach
            .hexes()
            .filter(|&(h, _)| Skirmish::occupants(state, h).into_iter().all(|o| o == u))
            .map(|(h, cost)| {
                let mut path = reach.path(h).unwrap_or_default();
                if path.first() == Some(&from) {
                    path.remove(0);
                }
                (h, cost, path)
            })
            .collect()
    })
}

/// Every legal reaction: the short moves `check_short_move` accepts, each reacting
/// character's reach searched once, and reaction fire (SK-MIS-4).
pub(crate) fn legal_reactions(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    for u in rules.side_ids(Skirmish::passive(state)) {
        if may_react(rules, state, u).is_err() {
            continue;
        }
        let c = Skirmish::ch(state, u);
        let here = c.hex.expect("in play");
        for (to, _, _) in short_reach(rules, state, u) {
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
    super::missile::legal_reaction_fire(rules, state, out);
}

/// A checked short move.
pub(crate) struct ShortPlan {
    pub path: Vec<Hex>,
    pub reasons: Vec<Reason>,
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
    let mut plan = plan_short_move(rules, state, u, to, facing)?;
    plan.reasons.insert(
        0,
        Reason::new(
            "SK-MOV-2",
            "spends its Quick Action to react to the hex just moved",
        ),
    );
    Ok(plan)
}

/// SK-SHM-2, SK-SHM-3: the path of a short move of `u` ending on `to` facing `facing`,
/// whatever called for it (a reaction, SK-SHM-1, or a Maneuver, SK-SHM-4).
pub(crate) fn plan_short_move(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    to: Hex,
    facing: Direction,
) -> Result<ShortPlan, Refusal> {
    let c = Skirmish::ch(state, u);
    let here = c.hex.expect("in play");
    let mp = rules.short_allowance(state, u);
    let mut reasons = vec![Reason::new(
        "SK-SHM-2",
        format!("a short move: Finesse // 2 = {mp} point(s)"),
    )];
    if to == here {
        if facing == c.facing {
            return Err(Refusal::new(
                "SK-SHM-2",
                "a short move that neither moves nor turns does nothing: pass instead",
            ));
        }
        reasons.push(Reason::new(
            "SK-SHM-2",
            "stays and changes facing (with no points a short move may at least do that)",
        ));
        return Ok(ShortPlan {
            path: Vec::new(),
            reasons,
        });
    }
    if let Some(&o) = Skirmish::occupants(state, to).first() {
        return Err(if rules.side_of(o) == rules.side_of(u) {
            Refusal::new(
                "SK-MOV-11",
                format!(
                    "{} holds {}, a friend: a short move may pass through it but not end there",
                    rules.label(to),
                    rules.name(o)
                ),
            )
        } else {
            Refusal::new("SK-MOV-10", format!("{} is occupied", rules.label(to)))
        });
    }
    let Some((_, cost, path)) = short_reach(rules, state, u)
        .into_iter()
        .find(|(h, _, _)| *h == to)
    else {
        // Say why, from the first step if it is next door.
        if here.direction_to(to).is_some() {
            rules.price(state, u, here, to, c.facing, Gait::Short, false)?;
        }
        return Err(Refusal::new(
            "SK-SHM-2",
            format!(
                "{} is beyond {}'s short move of {mp} point(s) for its facing (sideways and backward steps cost double), or no path leads there",
                rules.label(to),
                rules.name(u)
            ),
        ));
    };
    reasons.push(Reason::new(
        "SK-MOV-3",
        format!("moves to {} for {cost} point(s)", rules.label(to)),
    ));
    let mut from = here;
    for &h in &path {
        if let Ok(p) = rules.price(state, u, from, h, c.facing, Gait::Short, false) {
            for r in p.reasons {
                if !reasons.contains(&r) {
                    reasons.push(r);
                }
            }
        }
        from = h;
    }
    if path
        .iter()
        .scan(here, |prev, &h| {
            let left = *prev;
            *prev = h;
            Some(left)
        })
        .any(|h| rules.enemy_zone(state, rules.side_of(u), h))
    {
        reasons.push(Reason::new(
            "SK-MOV-19",
            "leaves an enemy's zone: the enemies strike at once, without a window",
        ));
    }
    Ok(ShortPlan { path, reasons })
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
    let Ok(plan) = check_short_move(rules, state, u, to, facing) else {
        return;
    };
    state.chars[u.index()].quick = false;
    ctx.emit(Event::Spent {
        unit: u,
        action: "quick_action".into(),
        rule: "SK-MOV-2".into(),
    });
    run_short_move(rules, state, u, plan.path, facing, ctx);
}

/// SK-SHM-2, SK-SHM-3: makes a short move along its path, then turns: the enemies'
/// attacks of opportunity on it are made at once (SK-MOV-19); an Engaged friend passed
/// spends its Quick Action or is Dazed (SK-MOV-12); a daze stops it where it is, or
/// back on the last hex it may stand in when that is a friend's (SK-MOV-18).
pub(crate) fn run_short_move(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    path: Vec<Hex>,
    facing: Direction,
    ctx: &mut Ctx<'_, Event>,
) {
    let mut provoked: Vec<UnitId> = Vec::new();
    let held = Skirmish::ch(state, u).facing;
    let mut left = rules.short_allowance(state, u);
    let enemies = 1 - rules.side_of(u);
    let mut walked: Vec<Hex> = Skirmish::ch(state, u).hex.into_iter().collect();
    let stopped =
        |rules: &Skirmish, state: &mut State, walked: &[Hex], ctx: &mut Ctx<'_, Event>| {
            if Skirmish::ch(state, u).in_play() && rules.on_friend(state, u) {
                movement::put_back(rules, state, u, walked, ctx);
            }
        };
    for h in path {
        let Some(from) = Skirmish::ch(state, u).hex else {
            return;
        };
        let strikers = opportunists(rules, state, u, from, enemies, &provoked, None);
        for e in strikers {
            provoked.push(e);
            state.chars[e.index()].ripostes += 1;
            if let Some(blow) = melee::resolve(rules, state, e, u, AttackKind::Opportunity, 0, ctx)
            {
                melee::land(rules, state, &blow, ctx);
            }
            if !Skirmish::ch(state, u).in_play() || Skirmish::ch(state, u).dazed {
                ctx.emit(Event::Halted {
                    unit: u,
                    rule: "SK-MOV-9".into(),
                    reason: "its short move is aborted: Dazed by an attack of opportunity".into(),
                });
                stopped(rules, state, &walked, ctx);
                return;
            }
        }
        let Ok(p) = rules.price(state, u, from, h, held, Gait::Short, false) else {
            stopped(rules, state, &walked, ctx);
            return;
        };
        state.chars[u.index()].hex = Some(h);
        walked.push(h);
        left = left.saturating_sub(p.cost);
        ctx.emit(Event::Moved {
            unit: u,
            from,
            to: h,
            cost: p.cost,
            left,
            rules: p.rule_ids(),
        });
        if let Some(f) = p.friend {
            movement::pass_friend(rules, state, u, f, ctx);
        }
        if p.difficult {
            movement::difficult_check(rules, state, u, h, ctx);
            if Skirmish::ch(state, u).dazed {
                stopped(rules, state, &walked, ctx);
                return;
            }
        }
    }
    if Skirmish::ch(state, u).in_play() && facing != Skirmish::ch(state, u).facing {
        state.chars[u.index()].facing = facing;
        ctx.emit(Event::Faced {
            unit: u,
            facing,
            rule: "SK-SHM-2".into(),
        });
    }
}
