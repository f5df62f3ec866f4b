//! The movement phase (`docs/rules/skirmish.md`, SK-MOV-1 to SK-MOV-18): one character
//! at a time, one hex per action, so that the passive side may react after every hex
//! (SK-MOV-2). A step's price is in `step.rs`; what follows a step (a window, a charge's
//! attack) is the sequencer's (`turn.rs`).

use super::crowd::Crowd;
use super::step::{self, Gait, Priced, Step, StepTo};
use super::{statuses, walks, Action, Event, Movement, Skirmish, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

pub(crate) use super::gate::{Barred, Gate};

/// Why a character may not move at all now (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoMove {
    WrongPhase,
    Passive,
    Out,
    Fled,
    Dazed,
    TookComplex,
    Done,
    NoPoints,
}

impl NoMove {
    /// The words of the refusal, asked for only by `explain` and `apply`.
    pub(crate) fn refusal(self, rules: &Skirmish, state: &State, u: UnitId) -> Refusal {
        let name = rules.name(u);
        match self {
            NoMove::WrongPhase => Refusal::new(
                "SK-MOV-1",
                format!(
                    "characters move in the movement phase; this is the {} phase",
                    state.phase.name()
                ),
            ),
            NoMove::Passive => Refusal::new(
                "SK-MOV-1",
                format!(
                    "{name} is on the passive side: in {}'s movement phase only {}'s characters move (the passive side reacts)",
                    rules.side_title(state.active),
                    rules.side_title(state.active)
                ),
            ),
            NoMove::Out => Refusal::new("SK-STA-7", format!("{name} is out of action")),
            NoMove::Fled => Refusal::new("SK-STA-2", format!("{name} has fled the fight")),
            NoMove::Dazed => Refusal::new(
                "SK-MOV-5",
                format!("{name} is Dazed: Dazed characters cannot move"),
            ),
            NoMove::TookComplex => Refusal::new(
                "SK-MOV-5",
                format!("{name} has taken a Complex Action: it cannot move this turn"),
            ),
            NoMove::Done => Refusal::new(
                "SK-MOV-7",
                format!("{name} has finished its movement this phase"),
            ),
            NoMove::NoPoints => Refusal::new(
                "SK-MOV-6",
                format!("{name} has no movement points left"),
            ),
        }
    }
}

impl Skirmish {
    /// SK-MOV-1, SK-MOV-5 to SK-MOV-7: what keeps a character of the active side from
    /// moving at all, outside a charge; a reason code, worded by [`Skirmish::may_move`].
    pub(crate) fn can_move(&self, state: &State, u: UnitId) -> Result<(), NoMove> {
        if state.phase != super::Phase::Movement {
            return Err(NoMove::WrongPhase);
        }
        if self.side_of(u) != state.active {
            return Err(NoMove::Passive);
        }
        let c = Self::ch(state, u);
        Err(if c.out {
            NoMove::Out
        } else if c.fled {
            NoMove::Fled
        } else if c.dazed {
            NoMove::Dazed
        } else if c.took_complex {
            NoMove::TookComplex
        } else if c.done {
            NoMove::Done
        } else if c.mp == 0 {
            NoMove::NoPoints
        } else {
            return Ok(());
        })
    }

    /// [`Skirmish::can_move`] with its refusal worded.
    pub(crate) fn may_move(&self, state: &State, u: UnitId) -> Result<(), Refusal> {
        self.can_move(state, u)
            .map_err(|e| e.refusal(self, state, u))
    }

    /// One step of `u` (not a charge) judged on its own: its restrictions, the board and
    /// its points; not whose turn to move it is. A Panicked character's flight field may
    /// be given, computed once by the caller.
    pub(crate) fn step_ok(
        &self,
        state: &State,
        u: UnitId,
        step: StepTo,
        field: Option<&[u32]>,
    ) -> Result<Priced, Refusal> {
        self.step_ok_in(state, u, step, field, true)
    }

    /// [`Skirmish::step_ok`]; without `words`, an accepted step's price comes without
    /// its reasons (for the lists that only ask whether it is accepted).
    pub(crate) fn step_ok_in(
        &self,
        state: &State,
        u: UnitId,
        step: StepTo,
        field: Option<&[u32]>,
        words: bool,
    ) -> Result<Priced, Refusal> {
        self.step_ok_among(state, u, step, field, words, None)
    }

    /// [`Skirmish::step_ok_in`], the others read from `crowd` when given (`crowd.rs`).
    pub(crate) fn step_ok_among(
        &self,
        state: &State,
        u: UnitId,
        step: StepTo,
        field: Option<&[u32]>,
        words: bool,
        crowd: Option<&Crowd>,
    ) -> Result<Priced, Refusal> {
        let StepTo { to, evasive } = step;
        if let Err(e) = self.can_move(state, u) {
            return Err(step::refused(words, || e.refusal(self, state, u)));
        }
        let c = Self::ch(state, u);
        let name = self.name(u);
        let from = c.hex.expect("in play");
        if evasive && (c.panicked || c.berserk) {
            return Err(step::refused(words, || {
                Refusal::new(
                    "SK-MOV-15",
                    format!(
                        "{name} is {}: no evasive movement",
                        if c.panicked { "Panicked" } else { "Berserk" }
                    ),
                )
            }));
        }
        let Some(to) = to else {
            if !c.panicked {
                return Err(step::refused(words, || {
                    Refusal::new(
                        "SK-STA-2",
                        format!(
                            "only a Panicked character flees off the map; {name} is not Panicked"
                        ),
                    )
                }));
            }
            if !self.on_edge(self.side_of(u), from) {
                return Err(step::refused(words, || {
                    Refusal::new(
                        "SK-STA-2",
                        format!(
                            "{name} flees off the map from its home edge; {} is not on it",
                            self.label(from)
                        ),
                    )
                }));
            }
            if self.on_friend(state, u) {
                return Err(step::refused(words, || {
                    Refusal::new(
                        "SK-MOV-11",
                        format!("{name} may not leave from a friend's hex"),
                    )
                }));
            }
            return Ok(Priced {
                cost: 1,
                facing: c.facing,
                stop: false,
                friend: None,
                difficult: false,
                reasons: if words {
                    vec![Reason::new(
                        "SK-STA-2",
                        "a Panicked character on its home edge leaves the map: it has fled (one point)",
                    )]
                } else {
                    Vec::new()
                },
                ids: Vec::new(),
            });
        };
        let gait = if c.panicked { Gait::Flight } else { Gait::Walk };
        let step = Step {
            evasive,
            ..Step::new(from, to, c.facing, gait)
        };
        let p = self.price_among(state, u, step, words, crowd)?;
        self.priced_ok(state, u, step, p, field, words)
    }

    /// The checks of [`Skirmish::step_ok_in`] that follow the step's price: the points
    /// left (SK-MOV-6), a flight's shortest route (SK-STA-2), a friend passed (SK-MOV-11).
    fn priced_ok(
        &self,
        state: &State,
        u: UnitId,
        step: Step,
        p: Priced,
        field: Option<&[u32]>,
        words: bool,
    ) -> Result<Priced, Refusal> {
        let c = Self::ch(state, u);
        let name = self.name(u);
        let Step { from, to, .. } = step;
        if p.cost > c.mp {
            return Err(step::refused(words, || {
                Refusal::new(
                    "SK-MOV-6",
                    format!(
                    "entering {} costs {} point(s); {name} has {} left: never more than its points",
                    self.label(to),
                    p.cost,
                    c.mp
                ),
                )
            }));
        }
        if c.panicked {
            let own;
            let field = match field {
                Some(f) => f,
                None => {
                    own = self.flight_field(state, u);
                    &own
                }
            };
            let (Some(fi), Some(ti)) = (self.idx(from), self.idx(to)) else {
                unreachable!("priced hexes are on the map")
            };
            let row = self.terrain_row(to).map_or(1, |r| u32::from(r.cost));
            if field[fi] == u32::MAX || field[ti].saturating_add(row) != field[fi] {
                return Err(step::refused(words, || {
                    Refusal::new(
                    "SK-STA-2",
                    format!(
                        "{name} is Panicked and must flee toward its home edge by the shortest route; {} is not on one",
                        self.label(to)
                    ),
                )
                }));
            }
        }
        if p.friend.is_some() {
            self.may_pass(state, u, step, c.mp - p.cost, &p, words)?;
        }
        Ok(p)
    }

    /// SK-MOV-11: a step into a friend's hex must leave the movement a way on; the
    /// refusal worded when `words` asks for it.
    fn may_pass(
        &self,
        state: &State,
        u: UnitId,
        step: Step,
        left: u8,
        p: &Priced,
        words: bool,
    ) -> Result<(), Refusal> {
        let Some(f) = p.friend else { return Ok(()) };
        let Step {
            from,
            to,
            facing,
            gait,
            ..
        } = step;
        let why = |r: &str| {
            step::refused(words, || {
                Refusal::new(
                    "SK-MOV-11",
                    format!(
                        "{} may pass through {} in {} but not end its movement there: {r}",
                        self.name(u),
                        self.name(f),
                        self.label(to)
                    ),
                )
            })
        };
        if p.stop {
            return Err(why("the hex is in an enemy's zone of control"));
        }
        if left == 0 {
            return Err(why("no points would be left"));
        }
        let onward = to.neighbors().into_iter().any(|n| {
            let free = n == from || !Self::occupied(state, n);
            // A walk keeps its facing (SK-MOV-16); the other gaits face the way onward.
            let facing = if gait == Gait::Walk {
                facing
            } else {
                to.direction_to(n).unwrap_or(facing)
            };
            free && self
                .price_in(state, u, Step::new(to, n, facing, gait), false)
                .is_ok_and(|q| q.cost <= left)
        });
        if onward {
            Ok(())
        } else {
            Err(why("no free hex beyond it is within its points"))
        }
    }

    /// [`Skirmish::step_ok_in`] without words for the plain and the evasive step of `u`
    /// into `to`, the step priced once: an evasive step is the same step for
    /// `evasive` more points (SK-MOV-14), barred to the Panicked and Berserk (SK-MOV-15).
    pub(crate) fn walk_ok(
        &self,
        state: &State,
        u: UnitId,
        to: Hex,
        field: Option<&[u32]>,
        near: &Crowd,
    ) -> [bool; 2] {
        if self.can_move(state, u).is_err() {
            return [false; 2];
        }
        let c = Self::ch(state, u);
        let from = c.hex.expect("in play");
        let gait = if c.panicked { Gait::Flight } else { Gait::Walk };
        let plain = Step::new(from, to, c.facing, gait);
        let Ok(p) = self.price_among(state, u, plain, false, Some(near)) else {
            return [false; 2];
        };
        let evasive = (!c.panicked && !c.berserk).then(|| Priced {
            cost: p.cost + self.data.movement.evasive,
            ..p.clone()
        });
        let plain_ok = self.priced_ok(state, u, plain, p, field, false).is_ok();
        let evasive_ok = evasive.is_some_and(|e| {
            let step = Step {
                evasive: true,
                ..plain
            };
            self.priced_ok(state, u, step, e, field, false).is_ok()
        });
        [plain_ok, evasive_ok]
    }
}

/// SK-MOV-7 and the rest: checks a step of the active side outside a window and a
/// charge.
pub(crate) fn check_move(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    step: StepTo,
) -> Result<Priced, Refusal> {
    rules.may_move(state, u)?;
    check_move_in(rules, state, &rules.gate(state), u, step, None)
}

/// [`check_move`] outside a charge, with the phase's gate (and a Panicked mover's flight
/// field) computed once by the caller.
pub(crate) fn check_move_in(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    u: UnitId,
    step: StepTo,
    field: Option<&[u32]>,
) -> Result<Priced, Refusal> {
    rules.may_move(state, u)?;
    gate.admits(rules, state, u)?;
    let mut p = rules.step_ok(state, u, step, field)?;
    let switching = state.moving.as_ref().is_some_and(|m| m.unit != u);
    if switching {
        p.reasons.push(Reason::new(
            "SK-MOV-7",
            format!(
                "{} has finished its movement: one character moves at a time",
                rules.name(state.moving.as_ref().expect("switching").unit)
            ),
        ));
    }
    Ok(p)
}

/// Starts a step outside a charge: finishes the previous character's movement if
/// another now moves (SK-MOV-7) and opens this one's. The attacks of opportunity on
/// leaving the hex (SK-MOV-9) come next, from the sequencer.
pub(crate) fn start_step(rules: &Skirmish, state: &mut State, u: UnitId, ctx: &mut Ctx<'_, Event>) {
    if state.charge.is_none() {
        if state.moving.as_ref().is_some_and(|m| m.unit != u) {
            finish(
                rules,
                state,
                "SK-MOV-7",
                "another character moves: its movement is over",
                ctx,
            );
        }
        if state.moving.is_none() {
            let hex = Skirmish::ch(state, u).hex.expect("checked");
            state.moving = Some(Movement {
                unit: u,
                path: vec![hex],
                provoked: Vec::new(),
            });
        }
    }
}

/// What a step came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stepped {
    /// The character stepped into a hex: the passive side may react (SK-MOV-2).
    Moved,
    /// No step was made (it could no longer be, or the character fled off the map).
    Not,
}

/// Sets the character moving into a hex pays for it, its facing after it, and the
/// evasive status that follows it (SK-MOV-14).
fn enter(
    state: &mut State,
    u: UnitId,
    p: &Priced,
    to: Hex,
    evasive: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    let s = &mut state.chars[u.index()];
    s.mp -= p.cost;
    s.hex = Some(to);
    s.facing = p.facing;
    s.moved = true;
    if evasive && !s.evasive {
        s.evasive = true;
        statuses::status(
            ctx,
            u,
            "evasive",
            true,
            "SK-MOV-14",
            "moving evasively: the missile evasion modifier against ranged attacks from the front",
        );
    } else if !evasive && s.evasive {
        s.evasive = false;
        statuses::status(
            ctx,
            u,
            "evasive",
            false,
            "SK-MOV-14",
            "a step without evasive movement",
        );
    }
}

/// Makes a step whose attacks of opportunity are over: pays, moves and applies what the
/// step causes (a friend passed, a difficult step, a zone entered). What follows (a
/// charge's attack, the reaction window) is the sequencer's.
pub(crate) fn execute_step(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    step: StepTo,
    ctx: &mut Ctx<'_, Event>,
) -> Stepped {
    let StepTo { to, evasive } = step;
    let c = Skirmish::ch(state, u);
    let Some(from) = c.hex else {
        return Stepped::Not;
    };
    let Some(to) = to else {
        // SK-STA-2: off the map from the home edge.
        state.chars[u.index()].mp = c.mp.saturating_sub(1);
        statuses::take_out(rules, state, u, true, ctx);
        state.chars[u.index()].done = true;
        state.moving = None;
        return Stepped::Not;
    };
    let charging = state.charge.is_some();
    let gait = if charging {
        Gait::Charge
    } else if c.panicked {
        Gait::Flight
    } else {
        Gait::Walk
    };
    let step = Step {
        evasive,
        ..Step::new(from, to, c.facing, gait)
    };
    // The event names the rules that priced the step, not their words.
    let priced = if ctx.is_quiet() {
        rules.price_in(state, u, step, false)
    } else {
        rules.price_ids(state, u, step)
    };
    let mut p = match priced {
        Ok(p) if p.cost <= c.mp => p,
        Ok(_) | Err(_) => {
            // The board changed under a window (it cannot today): the movement ends.
            halt(state, u, "SK-MOV-6", "the step can no longer be made", ctx);
            return Stepped::Not;
        }
    };
    enter(state, u, &p, to, evasive, ctx);
    let left = Skirmish::ch(state, u).mp;
    // The IDs found for the event handed to it, not copied (nothing after reads them).
    let ids = std::mem::take(&mut p.ids);
    ctx.emit_with(|| Event::Moved {
        unit: u,
        from,
        to,
        cost: p.cost,
        left,
        rules: if ids.is_empty() { p.rule_ids() } else { ids },
    });
    if let Some(run) = Skirmish::current_run_mut(state) {
        if run.unit == u {
            run.path.push(to);
        }
    }
    if let Some(f) = p.friend {
        step::pass_friend(rules, state, u, f, ctx);
    }
    if p.difficult {
        step::difficult_check(rules, state, u, to, ctx);
    }
    if p.stop && !Skirmish::ch(state, u).dazed {
        halt(
            state,
            u,
            "SK-MOV-8",
            format!("entered an enemy's zone of control at {}", rules.label(to)),
            ctx,
        );
    }
    Stepped::Moved
}

/// SK-MOV-3, SK-MOV-14, SK-STA-2: every step (plain and evasive) and flight of `u`
/// outside a charge that [`check_move_in`] accepts, the flight field computed once.
pub(crate) fn legal_moves(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    u: UnitId,
    out: &mut Vec<Action>,
) {
    let c = Skirmish::ch(state, u);
    let Some(h) = c.hex else { return };
    if rules.can_move(state, u).is_err() || gate.bars(state, u).is_some() {
        return;
    }
    let field = c.panicked.then(|| rules.flight_field(state, u));
    let field = field.as_deref();
    let steps = walks::steps(rules, state, u, field);
    for (dir, oks) in Direction::ALL.into_iter().zip(steps) {
        let n = h.neighbor(dir);
        for (evasive, ok) in [false, true].into_iter().zip(oks) {
            if ok {
                out.push(Action::Move {
                    unit: u,
                    to: n,
                    evasive,
                });
            }
        }
    }
    if c.panicked
        && rules
            .step_ok_in(state, u, StepTo::OFF_MAP, field, false)
            .is_ok()
    {
        out.push(Action::Flee { unit: u });
    }
}

/// Ends a character's movement for this phase.
pub(crate) fn halt(
    state: &mut State,
    u: UnitId,
    rule: &'static str,
    reason: impl Into<String>,
    ctx: &mut Ctx<'_, Event>,
) {
    state.chars[u.index()].done = true;
    ctx.emit_with(|| Event::Halted {
        unit: u,
        rule: rule.into(),
        reason: reason.into(),
    });
}

/// Finishes the movement under way (outside a charge): the character is done, and put
/// back on a free hex if it stands in a friend's (SK-MOV-18).
pub(crate) fn finish(
    rules: &Skirmish,
    state: &mut State,
    rule: &'static str,
    reason: &str,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(m) = state.moving.take() else { return };
    let u = m.unit;
    if Skirmish::ch(state, u).in_play() {
        if rules.on_friend(state, u) {
            step::put_back(rules, state, u, &m.path, ctx);
        }
        if !Skirmish::ch(state, u).done {
            halt(state, u, rule, reason, ctx);
        }
    }
}

/// After a step and its window: ends the movement under way when it cannot go on.
/// Returns whether anything changed.
pub(crate) fn wrap_up(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) -> bool {
    let Some(m) = &state.moving else { return false };
    let u = m.unit;
    let c = Skirmish::ch(state, u);
    if !c.in_play() {
        state.moving = None;
        return true;
    }
    if c.done {
        finish(rules, state, "SK-MOV-7", "its movement is over", ctx);
        return true;
    }
    let (rule, reason) = if c.dazed {
        ("SK-MOV-5", "Dazed: it cannot move on")
    } else if c.mp == 0 {
        ("SK-MOV-6", "no movement points left")
    } else if !rules.has_step(state, u) {
        ("SK-MOV-7", "no step is open to it")
    } else {
        return false;
    };
    halt(state, u, rule, reason, ctx);
    finish(rules, state, rule, reason, ctx);
    true
}
