//! Charges (`docs/rules/skirmish.md`, SK-CHG-1 to SK-CHG-14: preconditions, charge path,
//! charge attack, formations).

use super::movement::{self, Barred, Gate, NoMove};
use super::step::{self, Gait, Priced, Step, StepTo};
use super::{melee, statuses, Charge, Event, Leg, Movement, Skirmish, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};

mod list;
mod steps;
pub(crate) use list::{allows_declare, legal_charges};
pub(crate) use steps::{legal_charge_steps, stamped};

/// A charge as declared (SK-CHG-2, SK-CHG-13): who charges whom, alone or with its
/// formation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Declaration {
    pub unit: UnitId,
    pub target: UnitId,
    pub together: bool,
}

impl Declaration {
    pub(crate) fn new(unit: UnitId, target: UnitId, together: bool) -> Declaration {
        Declaration {
            unit,
            target,
            together,
        }
    }

    /// The same target, for a member of the charger's formation charging with it.
    fn member(self, unit: UnitId) -> Declaration {
        Declaration {
            unit,
            together: false,
            ..self
        }
    }
}

/// A declaration checked.
pub(crate) struct Declared {
    pub reasons: Vec<Reason>,
    pub with: Vec<UnitId>,
}

/// Why a character may declare no charge now, whatever its target (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoCharge {
    /// SK-CHG-1: it cannot move.
    Immobile(NoMove),
    /// SK-CHG-2: it has moved.
    Moved,
    /// SK-CHG-8: it is Panicked.
    Panicked,
    /// SK-MOV-7, SK-STA-2: the rest of the side keeps it from acting.
    Barred(Barred),
}

impl NoCharge {
    /// The words of the refusal.
    fn refusal(self, rules: &Skirmish, state: &State, gate: &Gate, u: UnitId) -> Refusal {
        let name = rules.name(u);
        match self {
            NoCharge::Immobile(e) => {
                let mut reasons = vec![Reason::new(
                    "SK-CHG-1",
                    format!("only a character who can move can charge; {name} cannot:"),
                )];
                reasons.extend(e.refusal(rules, state, u).reasons);
                Refusal { reasons }
            }
            NoCharge::Moved => Refusal::new(
                "SK-CHG-2",
                format!("a charge is declared at the beginning of the movement; {name} has moved"),
            ),
            NoCharge::Panicked => Refusal::new(
                "SK-CHG-8",
                format!(
                    "{name} is Panicked: a Panicked character's charge is broken before it starts"
                ),
            ),
            NoCharge::Barred(b) => gate.refusal(rules, b),
        }
    }
}

/// SK-CHG-1, SK-CHG-2, SK-CHG-8: whether `u` may declare a charge at all now.
fn may_charge(rules: &Skirmish, state: &State, gate: &Gate, u: UnitId) -> Result<(), NoCharge> {
    rules.can_move(state, u).map_err(NoCharge::Immobile)?;
    let c = Skirmish::ch(state, u);
    if c.moved {
        return Err(NoCharge::Moved);
    }
    if c.panicked {
        return Err(NoCharge::Panicked);
    }
    gate.bars(state, u)
        .map_or(Ok(()), |b| Err(NoCharge::Barred(b)))
}

/// SK-CHG-1 to SK-CHG-4, SK-CHG-13: checks a charge's declaration.
pub(crate) fn check_declare(
    rules: &Skirmish,
    state: &State,
    d: Declaration,
) -> Result<Declared, Refusal> {
    if state.charge.is_some() {
        return Err(Refusal::new(
            "SK-CHG-5",
            "a charge is under way: its chargers spend their whole movement running",
        ));
    }
    if state.phase != super::Phase::Movement {
        return check_declare_in(rules, state, &Gate::default(), d);
    }
    check_declare_in(rules, state, &rules.gate(state), d)
}

/// [`check_declare`] outside a charge, with the movement phase's gate computed once by
/// the caller.
pub(crate) fn check_declare_in(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    decl: Declaration,
) -> Result<Declared, Refusal> {
    let (u, target) = (decl.unit, decl.target);
    let name = rules.name(u);
    may_charge(rules, state, gate, u).map_err(|e| e.refusal(rules, state, gate, u))?;
    let c = Skirmish::ch(state, u);
    if rules.side_of(target) == rules.side_of(u) {
        return Err(Refusal::new(
            "SK-CHG-2",
            format!(
                "{} is a friend: a charge's target is an enemy",
                rules.name(target)
            ),
        ));
    }
    let Some(th) = Skirmish::ch(state, target).hex else {
        return Err(Refusal::new(
            "SK-CHG-4",
            format!("{} is no longer in the fight", rules.name(target)),
        ));
    };
    if c.berserk {
        melee::nearest_check(rules, state, u, target)?;
    }
    let here = c.hex.expect("in play");
    let d = here.distance(th);
    if d < 3 {
        return Err(Refusal::new(
            "SK-CHG-4",
            format!(
                "{} is {d} hex(es) away: a charge's target is at least 3 hexes away",
                rules.name(target)
            ),
        ));
    }
    let mp = u32::from(c.mp) + u32::from(rules.chars[u.index()].morale);
    match rules.charge_cost(state, u, target) {
        Some(cost) if cost <= mp => {}
        Some(cost) => {
            return Err(Refusal::new(
                "SK-CHG-4",
                format!(
                    "the shortest route to strike {} costs {cost} point(s); {name} would have {mp}: the target must be reachable",
                    rules.name(target)
                ),
            ))
        }
        None => {
            return Err(Refusal::new(
                "SK-CHG-4",
                format!("no route leads to {} in {name}'s optimal reach: the target must be reachable", rules.name(target)),
            ))
        }
    }
    let mut with = Vec::new();
    if decl.together {
        let Some(f) = &rules.chars[u.index()].formation else {
            return Err(Refusal::new(
                "SK-CHG-13",
                format!("{name} belongs to no formation"),
            ));
        };
        for m in rules.side_ids(state.active) {
            if m != u
                && rules.chars[m.index()].formation.as_ref() == Some(f)
                && check_declare_in(rules, state, gate, decl.member(m)).is_ok()
            {
                with.push(m);
            }
        }
        if with.is_empty() {
            return Err(Refusal::new(
                "SK-CHG-13",
                format!(
                    "no other member of the formation {f} can charge {} with {name}",
                    rules.name(target)
                ),
            ));
        }
    }
    let mut reasons = vec![
        Reason::new("SK-CHG-1", format!("{name} can move, so it can charge")),
        Reason::new("SK-CHG-2", format!("declared at the start of its movement against {}", rules.name(target))),
        Reason::new(
            "SK-CHG-3",
            format!("Morale {} extra point(s): {mp} in all", rules.chars[u.index()].morale),
        ),
        Reason::new("SK-CHG-4", format!("{} is {d} hexes away and reachable", rules.name(target))),
        Reason::new(
            "SK-CHG-5",
            "the whole movement runs by the shortest route until the target is in optimal reach, zones ignored",
        ),
        Reason::new("SK-CHG-6", "no evasive movement"),
        Reason::new(
            "SK-CHG-10",
            "on reaching the target: an immediate attack, +2 damage",
        ),
    ];
    if rules.weapons[u.index()].reaches().any(|r| r == 0) {
        reasons.push(Reason::new(
            "SK-CHG-9",
            "a reach 0 weapon: the charge ends in the target's hex, in Close Quarters",
        ));
    }
    if !with.is_empty() {
        let names: Vec<&str> = with.iter().map(|&m| rules.name(m)).collect();
        reasons.push(Reason::new(
            "SK-CHG-13",
            format!(
                "its formation charges with it ({}); breaks are postponed until after the charge",
                names.join(", ")
            ),
        ));
    }
    Ok(Declared { reasons, with })
}

/// Declares a charge: the chargers gain their Morale in points (SK-CHG-3).
pub(crate) fn declare(
    rules: &Skirmish,
    state: &mut State,
    decl: Declaration,
    ctx: &mut Ctx<'_, Event>,
) {
    let (u, target) = (decl.unit, decl.target);
    // The declaration was listed or checked: only who charges with it is asked again,
    // without words.
    let Some(with) = list::declared_with(rules, state, decl) else {
        return;
    };
    movement::finish(
        rules,
        state,
        "SK-MOV-7",
        "another character charges: its movement is over",
        ctx,
    );
    let mut legs = Vec::new();
    for m in std::iter::once(u).chain(with.iter().copied()) {
        let c = &mut state.chars[m.index()];
        c.mp += rules.chars[m.index()].morale;
        c.moved = true;
        legs.push(Leg {
            run: Movement {
                unit: m,
                path: vec![c.hex.expect("in play")],
                provoked: Vec::new(),
            },
            target,
            done: false,
        });
    }
    ctx.emit_with(|| Event::ChargeDeclared {
        unit: u,
        target,
        mp: Skirmish::ch(state, u).mp,
        with,
    });
    state.charge = Some(Charge {
        legs,
        current: 0,
        stepped: false,
    });
}

/// SK-CHG-5: whether `u` is the charger whose step is next ([`check_runner`] without
/// its words).
fn runs_now(state: &State, u: UnitId) -> bool {
    state
        .charge
        .as_ref()
        .is_some_and(|ch| ch.legs[ch.current].run.unit == u)
}

/// Whether `u` is the charger whose step is next.
pub(crate) fn check_runner(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), Refusal> {
    let ch = state.charge.as_ref().expect("a charge");
    let runner = ch.legs[ch.current].run.unit;
    if u == runner {
        return Ok(());
    }
    Err(Refusal::new(
        "SK-CHG-5",
        format!(
            "the charge is under way and {} runs now: a charger spends its whole movement running, and nobody else moves meanwhile",
            rules.name(runner)
        ),
    ))
}

/// SK-CHG-5, SK-CHG-6: checks a charger's step along a shortest route.
pub(crate) fn check_step(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    step: StepTo,
) -> Result<Priced, Refusal> {
    check_runner(rules, state, u)?;
    let ch = state.charge.as_ref().expect("a charge");
    let field = rules.charge_field(state, u, ch.legs[ch.current].target);
    check_step_in(rules, state, u, step, &field, true)
}

/// Whether [`check_step`] accepts the step, without its reasons or its words (the
/// computer opponent checks every step of the charges it plays).
pub(crate) fn allows_step(rules: &Skirmish, state: &State, u: UnitId, step: StepTo) -> bool {
    debug_assert_eq!(runs_now(state, u), check_runner(rules, state, u).is_ok());
    if !runs_now(state, u) {
        return false;
    }
    let Some(ch) = state.charge.as_ref() else {
        return false;
    };
    let field = rules.charge_field(state, u, ch.legs[ch.current].target);
    check_step_in(rules, state, u, step, &field, false).is_ok()
}

/// [`check_step`] with the runner's [`Skirmish::charge_field`] to its target computed
/// once by the caller; without `words`, an accepted step comes without its reasons and a
/// refused one without its words.
fn check_step_in(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    step: StepTo,
    field: &[u32],
    words: bool,
) -> Result<Priced, Refusal> {
    let StepTo { to, evasive } = step;
    if !runs_now(state, u) {
        return Err(step::refused(words, || {
            check_runner(rules, state, u).expect_err("not the runner")
        }));
    }
    let ch = state.charge.as_ref().expect("a charge");
    let target = ch.legs[ch.current].target;
    let Some(to) = to else {
        return Err(step::refused(words, || {
            Refusal::new(
                "SK-CHG-5",
                "a charger runs toward its target, not off the map",
            )
        }));
    };
    if evasive {
        return Err(step::refused(words, || {
            Refusal::new("SK-CHG-6", "evasive movement is not available in a charge")
        }));
    }
    let c = Skirmish::ch(state, u);
    let from = c.hex.expect("a runner is in play");
    if !words {
        // Asked only whether the step is accepted: a step toward a hex off every
        // shortest route (it costs more than the runner's own to reach the target) is
        // refused whatever its price, without pricing it. The checks below refuse it
        // too, after the price, when asked for words.
        let (Some(fi), Some(ti)) = (rules.idx(from), rules.idx(to)) else {
            return Err(step::refused(false, || unreachable!("no words")));
        };
        if field[fi] == u32::MAX || field[ti] == u32::MAX || field[ti] > field[fi] {
            if cfg!(debug_assertions) {
                let worded = check_step_in(rules, state, u, step, field, true);
                assert!(worded.is_err(), "{u:?}'s charge step {step:?}");
            }
            return Err(step::refused(false, || unreachable!("no words")));
        }
    }
    let mut p = rules.price_in(state, u, Step::new(from, to, c.facing, Gait::Charge), words)?;
    if p.cost > c.mp {
        return Err(step::refused(words, || {
            Refusal::new(
                "SK-MOV-6",
                format!(
                    "entering {} costs {} point(s); {} has {} left",
                    rules.label(to),
                    p.cost,
                    rules.name(u),
                    c.mp
                ),
            )
        }));
    }
    let (Some(fi), Some(ti)) = (rules.idx(from), rules.idx(to)) else {
        unreachable!("priced hexes are on the map")
    };
    if field[fi] == u32::MAX || field[fi] > u32::from(c.mp) {
        return Err(step::refused(words, || {
            Refusal::new(
                "SK-CHG-14",
                format!(
                    "{} can no longer reach {}: the charge ends",
                    rules.name(u),
                    rules.name(target)
                ),
            )
        }));
    }
    if field[ti] == u32::MAX || field[ti] + u32::from(p.cost) != field[fi] {
        return Err(step::refused(words, || {
            Refusal::new(
                "SK-CHG-5",
                format!(
                "{} is off every shortest route to {}: a charger runs the shortest route by points",
                rules.label(to),
                rules.name(target)
            ),
            )
        }));
    }
    if !words {
        return Ok(p);
    }
    p.reasons.push(Reason::new(
        "SK-CHG-5",
        format!(
            "on a shortest route to {} ({} point(s) left to run)",
            rules.name(target),
            field[ti]
        ),
    ));
    Ok(p)
}

/// SK-CHG-13, SK-CHG-10: after a charger's step the next leg steps next, and a charger
/// now in optimal reach of its target attacks at once.
pub(crate) fn stepped(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if let Some(ch) = &mut state.charge {
        ch.stepped = true;
    }
    strike_if_in_reach(rules, state, ctx);
}

/// SK-CHG-10: a charger standing where its target is in optimal reach attacks at once.
pub(crate) fn strike_if_in_reach(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let Some(ch) = &state.charge else { return };
    let leg = &ch.legs[ch.current];
    if leg.done {
        return;
    }
    let (u, target) = (leg.run.unit, leg.target);
    let Some(h) = Skirmish::ch(state, u).hex else {
        return;
    };
    if !rules.charge_goal(state, u, target, h) {
        return;
    }
    melee::charge_clash(rules, state, u, target, ctx);
    end_leg(
        rules,
        state,
        "SK-CHG-10",
        statuses::Later(|| {
            format!(
                "reached {} and attacked: its movement ends",
                rules.name(target)
            )
        }),
        ctx,
    );
}

/// Ends the current charger's run.
pub(crate) fn end_leg(
    rules: &Skirmish,
    state: &mut State,
    rule: &'static str,
    reason: impl Into<String>,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(ch) = &mut state.charge else { return };
    let i = ch.current;
    if ch.legs[i].done {
        return;
    }
    ch.legs[i].done = true;
    let u = ch.legs[i].run.unit;
    let path = ch.legs[i].run.path.clone();
    ctx.emit_with(|| Event::ChargeEnded {
        unit: u,
        rule: rule.into(),
        reason: reason.into(),
    });
    if Skirmish::ch(state, u).in_play() {
        state.chars[u.index()].done = true;
        if rules.on_friend(state, u) {
            step::put_back(rules, state, u, &path, ctx);
        }
    }
}

/// Moves the charge on when nobody need decide: the next charger's turn (SK-CHG-13),
/// breaks (SK-CHG-8), a target come into reach (SK-CHG-10), a route closed (SK-CHG-14),
/// the end of the charge. True when something changed.
pub(crate) fn advance(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) -> bool {
    let Some(ch) = &mut state.charge else {
        return false;
    };
    let n = ch.legs.len();
    if ch.legs.iter().all(|l| l.done) {
        let legs = std::mem::take(&mut ch.legs);
        state.charge = None;
        for l in legs {
            let u = l.run.unit;
            if Skirmish::ch(state, u).in_play() {
                state.chars[u.index()].done = true;
                if rules.on_friend(state, u) {
                    step::put_back(rules, state, u, &l.run.path, ctx);
                }
            }
        }
        return true;
    }
    if ch.stepped || ch.legs[ch.current].done {
        ch.stepped = false;
        let next = (1..=n)
            .map(|k| (ch.current + k) % n)
            .find(|&i| !ch.legs[i].done);
        if let Some(i) = next {
            if i != ch.current {
                ch.current = i;
            }
        }
        return true;
    }
    let leg = &ch.legs[ch.current];
    let (u, target) = (leg.run.unit, leg.target);
    if !Skirmish::ch(state, u).in_play() {
        if let Some(ch) = &mut state.charge {
            let i = ch.current;
            ch.legs[i].done = true;
        }
        return true;
    }
    let c = Skirmish::ch(state, u);
    if !Skirmish::ch(state, target).in_play() {
        end_leg(
            rules,
            state,
            "SK-CHG-14",
            "its target is no longer in the fight: the charge ends",
            ctx,
        );
        return true;
    }
    if n == 1 && (c.dazed || c.panicked) {
        let why = if c.dazed { "Dazed" } else { "Panicked" };
        end_leg(
            rules,
            state,
            "SK-CHG-8",
            format!("the charge is broken: the charger is {why}"),
            ctx,
        );
        return true;
    }
    let h = c.hex.expect("in play");
    if rules.charge_goal(state, u, target, h) {
        strike_if_in_reach(rules, state, ctx);
        return true;
    }
    if !steps::has_step(rules, state, u, target) {
        end_leg(
            rules,
            state,
            "SK-CHG-14",
            format!(
                "no route within its points leads to {} any more: the charge ends",
                rules.name(target)
            ),
            ctx,
        );
        return true;
    }
    false
}
