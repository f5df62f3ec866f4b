//! The movement phase (skirmish-movement.txt, "Movement Phase", "Basic Movement",
//! "Movement Restrictions", "Advanced Movement"): one character at a time, one hex per
//! action, so that the passive side may react after every hex (SK-MOV-2).

use super::facing::{arc, Arc};
use super::{reactions, statuses, Event, Movement, Skirmish, State, Window};
use grognard_engine::{Ctx, Reached, Reason, Refusal, UnitId};
use grognard_hex::search::{Search, Step};
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How a step is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gait {
    /// A regular step: the facing stays (SK-MOV-16), a zone of control ends it (SK-MOV-8).
    Walk,
    /// A step of a short move: like a walk, through friends but never ending in their
    /// hex (SK-SHM-3, SK-MOV-11); its attacks of opportunity come at once (SK-MOV-19).
    Short,
    /// A charge step: the charger runs facing its route and ignores zones (SK-CHG-5).
    Charge,
    /// A panicked flight: the character runs facing its route (SK-STA-2).
    Flight,
}

/// A step priced by the rules.
#[derive(Clone, Debug)]
pub(crate) struct Priced {
    /// Points it costs.
    pub cost: u8,
    /// The facing after the step.
    pub facing: Direction,
    /// Entering an enemy zone of control ends the movement (SK-MOV-8).
    pub stop: bool,
    /// The friend passed through (SK-MOV-11).
    pub friend: Option<UnitId>,
    /// Calls for the Finesse check of difficult terrain (SK-MOV-17).
    pub difficult: bool,
    /// The rules that priced it.
    pub reasons: Vec<Reason>,
}

impl Priced {
    pub(crate) fn rule_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        for r in &self.reasons {
            if !ids.contains(&r.rule) {
                ids.push(r.rule.clone());
            }
        }
        ids
    }
}

/// What the movement phase as a whole asks before a character acts: the movement under
/// way must go on (SK-MOV-11, SK-STA-2), or a Panicked character must flee first
/// (SK-STA-2).
#[derive(Clone, Debug, Default)]
pub(crate) struct Gate {
    /// Why the character moving now may not stop, if it may not.
    pub go_on: Option<Refusal>,
    /// A Panicked character that must flee before anyone else moves.
    pub flight: Option<UnitId>,
}

impl Gate {
    /// SK-MOV-7, SK-STA-2: whether `u` may start or go on moving as far as the rest of
    /// the side is concerned.
    pub(crate) fn admits(&self, rules: &Skirmish, state: &State, u: UnitId) -> Result<(), Refusal> {
        if let (Some(r), Some(m)) = (&self.go_on, &state.moving) {
            if m.unit != u {
                return Err(r.clone());
            }
        }
        if let Some(p) = self.flight {
            if !Skirmish::ch(state, u).panicked {
                return Err(Refusal::new(
                    "SK-STA-2",
                    format!(
                        "{} is Panicked and must flee before any other character moves",
                        rules.name(p)
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl Skirmish {
    /// The price of one step from `from` to `to` for `u` facing `facing`, board rules
    /// only (not the points left): SK-MOV-3, SK-MOV-10, SK-MOV-11, SK-MOV-13, SK-MOV-14,
    /// SK-MOV-16, SK-MOV-8, SK-CHG-9.
    #[expect(clippy::too_many_arguments, reason = "a step is all of these")]
    pub(crate) fn price(
        &self,
        state: &State,
        u: UnitId,
        from: Hex,
        to: Hex,
        facing: Direction,
        gait: Gait,
        evasive: bool,
    ) -> Result<Priced, Refusal> {
        let l = self.label(to);
        let Some(dir) = from.direction_to(to) else {
            return Err(Refusal::new(
                "SK-MOV-3",
                format!(
                    "{l} is not next to {}: a character moves one hex at a time",
                    self.label(from)
                ),
            ));
        };
        let Some(row) = self.terrain_row(to) else {
            return Err(Refusal::new("SK-MOV-3", format!("{l} is off the map")));
        };
        if row.impassable {
            return Err(Refusal::new(
                "SK-MOV-13",
                format!("{l} is {}: nobody enters it", self.terrain_name(to)),
            ));
        }
        let side = self.side_of(u);
        let here: Vec<UnitId> = Self::occupants(state, to)
            .into_iter()
            .filter(|&o| o != u)
            .collect();
        let mut reasons = Vec::new();
        let mut friend = None;
        match here.as_slice() {
            [] => {}
            [o] if self.side_of(*o) == side => {
                // SK-MOV-11: walks, charges, flights and short moves alike (a short move
                // "works like regular Movement", SK-SHM-3).
                friend = Some(*o);
                reasons.push(Reason::new(
                    "SK-MOV-11",
                    format!(
                        "passes through {} with its permission, and may not end there",
                        self.name(*o)
                    ),
                ));
            }
            [o] if gait == Gait::Charge
                && super::charge::enters_close_quarters(self, state, u, *o, to) =>
            {
                reasons.push(Reason::new(
                    "SK-CHG-9",
                    format!(
                        "charges into {l} with a reach 0 weapon: Close Quarters with {}",
                        self.name(*o)
                    ),
                ));
            }
            [o] => {
                return Err(Refusal::new(
                    "SK-MOV-10",
                    format!(
                        "{l} holds {}, an enemy: characters never stack but in Close Quarters, entered only by a charge with a reach 0 weapon",
                        self.name(*o)
                    ),
                ));
            }
            _ => {
                return Err(Refusal::new(
                    "SK-MOV-10",
                    format!("{l} holds two characters in Close Quarters: no third may enter"),
                ));
            }
        }
        let runs = matches!(gait, Gait::Charge | Gait::Flight);
        let step_arc = if runs {
            Arc::Front
        } else {
            arc(facing, dir, self.data.facing.front_turns)
        };
        let m = &self.data.movement;
        let mut cost = row.cost;
        reasons.insert(
            0,
            Reason::new(
                "SK-MOV-3",
                format!(
                    "{} costs {} point(s) to enter toward the front",
                    self.terrain_name(to),
                    row.cost
                ),
            ),
        );
        if row.difficult {
            reasons.push(Reason::new(
                "SK-MOV-13",
                format!("{} is difficult terrain", self.terrain_name(to)),
            ));
        }
        if runs {
            reasons.push(Reason::new(
                if gait == Gait::Charge {
                    "SK-CHG-14"
                } else {
                    "SK-STA-2"
                },
                "runs facing its route: every step is toward its front",
            ));
        } else if step_arc != Arc::Front {
            cost *= m.flank_factor;
            reasons.push(Reason::new(
                "SK-MOV-16",
                format!(
                    "toward its {} without changing facing: double cost",
                    step_arc.name()
                ),
            ));
        }
        if evasive {
            cost += m.evasive;
            reasons.push(Reason::new(
                "SK-MOV-14",
                "evasive movement: one more point for the hex",
            ));
        }
        let difficult = row.difficult && step_arc != Arc::Front;
        if difficult {
            reasons.push(Reason::new(
                "SK-MOV-17",
                "sideways or backward into difficult terrain: a Finesse check, Dazed on a failure",
            ));
        }
        let leaves = self.enemy_zone(state, side, from);
        let in_zone = self.enemy_zone(state, side, to);
        // SK-MOV-12 (reading): a friend's hex is passed, never ended in (SK-MOV-11), so
        // entering it does not end the movement even in an enemy's zone; the movement
        // ends in the first hex of an enemy's zone it may stand in.
        let stop = gait != Gait::Charge && in_zone && friend.is_none();
        if gait != Gait::Charge && in_zone && friend.is_some() {
            reasons.push(Reason::new(
                "SK-MOV-12",
                format!(
                    "{l} is in an enemy's zone of control, but a friend's hex is passed through, not stopped in"
                ),
            ));
        }
        if stop {
            reasons.push(Reason::new(
                "SK-MOV-8",
                format!("{l} is in an enemy's zone of control: the movement ends there"),
            ));
        } else if gait == Gait::Charge && in_zone {
            reasons.push(Reason::new("SK-CHG-5", "a charge ignores zones of control"));
        }
        if leaves && gait != Gait::Short {
            reasons.push(Reason::new(
                "SK-MOV-9",
                format!(
                    "leaves {} in an enemy's zone of control: an attack of opportunity from each enemy not yet provoked in this movement",
                    self.label(from)
                ),
            ));
        }
        Ok(Priced {
            cost,
            facing: if runs { dir } else { facing },
            stop,
            friend,
            difficult,
            reasons,
        })
    }

    /// Whether a character shares its hex with a friend (it may not end there).
    pub(crate) fn on_friend(&self, state: &State, u: UnitId) -> bool {
        let Some(h) = Self::ch(state, u).hex else {
            return false;
        };
        Self::occupants(state, h)
            .into_iter()
            .any(|o| o != u && self.side_of(o) == self.side_of(u))
    }

    /// SK-MOV-5, SK-MOV-7: what keeps a character of the active side from moving at
    /// all, outside a charge.
    pub(crate) fn may_move(&self, state: &State, u: UnitId) -> Result<(), Refusal> {
        let name = self.name(u);
        if state.phase != super::Phase::Movement {
            return Err(Refusal::new(
                "SK-MOV-1",
                format!(
                    "characters move in the movement phase; this is the {} phase",
                    state.phase.name()
                ),
            ));
        }
        if self.side_of(u) != state.active {
            return Err(Refusal::new(
                "SK-MOV-1",
                format!(
                    "{name} is on the passive side: in {}'s movement phase only {}'s characters move (the passive side reacts)",
                    self.side_name(state.active),
                    self.side_name(state.active)
                ),
            ));
        }
        let c = Self::ch(state, u);
        if c.out {
            return Err(Refusal::new("SK-STA-7", format!("{name} is out of action")));
        }
        if c.fled {
            return Err(Refusal::new(
                "SK-STA-2",
                format!("{name} has fled the fight"),
            ));
        }
        if c.dazed {
            return Err(Refusal::new(
                "SK-MOV-5",
                format!("{name} is Dazed: Dazed characters cannot move"),
            ));
        }
        if c.took_complex {
            return Err(Refusal::new(
                "SK-MOV-5",
                format!("{name} has taken a Complex Action: it cannot move this turn"),
            ));
        }
        if c.done {
            return Err(Refusal::new(
                "SK-MOV-7",
                format!("{name} has finished its movement this phase"),
            ));
        }
        if c.mp == 0 {
            return Err(Refusal::new(
                "SK-MOV-6",
                format!("{name} has no movement points left"),
            ));
        }
        Ok(())
    }

    /// One step of `u` (not a charge) judged on its own: its restrictions, the board and
    /// its points; not whose turn to move it is.
    /// One step of `u` (not a charge) judged on its own: its restrictions, the board and
    /// its points; not whose turn to move it is. A Panicked character's flight field may
    /// be given, computed once by the caller.
    pub(crate) fn step_ok(
        &self,
        state: &State,
        u: UnitId,
        to: Option<Hex>,
        evasive: bool,
        field: Option<&[u32]>,
    ) -> Result<Priced, Refusal> {
        self.may_move(state, u)?;
        let c = Self::ch(state, u);
        let name = self.name(u);
        let from = c.hex.expect("in play");
        if evasive && (c.panicked || c.berserk) {
            return Err(Refusal::new(
                "SK-MOV-15",
                format!(
                    "{name} is {}: no evasive movement",
                    if c.panicked { "Panicked" } else { "Berserk" }
                ),
            ));
        }
        let Some(to) = to else {
            if !c.panicked {
                return Err(Refusal::new(
                    "SK-STA-2",
                    format!("only a Panicked character flees off the map; {name} is not Panicked"),
                ));
            }
            if !self.on_edge(self.side_of(u), from) {
                return Err(Refusal::new(
                    "SK-STA-2",
                    format!(
                        "{name} flees off the map from its home edge; {} is not on it",
                        self.label(from)
                    ),
                ));
            }
            if self.on_friend(state, u) {
                return Err(Refusal::new(
                    "SK-MOV-11",
                    format!("{name} may not leave from a friend's hex"),
                ));
            }
            return Ok(Priced {
                cost: 1,
                facing: c.facing,
                stop: false,
                friend: None,
                difficult: false,
                reasons: vec![Reason::new(
                    "SK-STA-2",
                    "a Panicked character on its home edge leaves the map: it has fled (one point)",
                )],
            });
        };
        let gait = if c.panicked { Gait::Flight } else { Gait::Walk };
        let p = self.price(state, u, from, to, c.facing, gait, evasive)?;
        if p.cost > c.mp {
            return Err(Refusal::new(
                "SK-MOV-6",
                format!(
                    "entering {} costs {} point(s); {name} has {} left: never more than its points",
                    self.label(to),
                    p.cost,
                    c.mp
                ),
            ));
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
                return Err(Refusal::new(
                    "SK-STA-2",
                    format!(
                        "{name} is Panicked and must flee toward its home edge by the shortest route; {} is not on one",
                        self.label(to)
                    ),
                ));
            }
        }
        if let Some(f) = p.friend {
            self.may_pass(state, u, from, to, c.facing, gait, c.mp - p.cost, &p, f)?;
        }
        Ok(p)
    }

    /// SK-MOV-11: a step into a friend's hex must leave the movement a way on.
    #[expect(clippy::too_many_arguments, reason = "the step and what is left of it")]
    fn may_pass(
        &self,
        state: &State,
        u: UnitId,
        from: Hex,
        to: Hex,
        facing: Direction,
        gait: Gait,
        left: u8,
        p: &Priced,
        f: UnitId,
    ) -> Result<(), Refusal> {
        let why = |r: &str| {
            Refusal::new(
                "SK-MOV-11",
                format!(
                    "{} may pass through {} in {} but not end its movement there: {r}",
                    self.name(u),
                    self.name(f),
                    self.label(to)
                ),
            )
        };
        if p.stop {
            return Err(why("the hex is in an enemy's zone of control"));
        }
        if left == 0 {
            return Err(why("no points would be left"));
        }
        let onward = to.neighbors().into_iter().any(|n| {
            let free = n == from || Self::occupants(state, n).is_empty();
            free && self
                .price(
                    state,
                    u,
                    to,
                    n,
                    if gait == Gait::Walk {
                        facing
                    } else {
                        to.direction_to(n).unwrap_or(facing)
                    },
                    gait,
                    false,
                )
                .is_ok_and(|q| q.cost <= left)
        });
        if onward {
            Ok(())
        } else {
            Err(why("no free hex beyond it is within its points"))
        }
    }

    /// Whether `u` has any step now (outside a charge).
    pub(crate) fn has_step(&self, state: &State, u: UnitId) -> bool {
        let c = Self::ch(state, u);
        let Some(h) = c.hex else {
            return false;
        };
        if self.may_move(state, u).is_err() {
            return false;
        }
        let field = c.panicked.then(|| self.flight_field(state, u));
        let field = field.as_deref();
        h.neighbors()
            .into_iter()
            .any(|n| self.map.contains(n) && self.step_ok(state, u, Some(n), false, field).is_ok())
            || self.step_ok(state, u, None, false, field).is_ok()
    }

    /// What the phase asks before anyone acts (computed once per question).
    pub(crate) fn gate(&self, state: &State) -> Gate {
        Gate {
            go_on: self.must_go_on(state),
            flight: self.pending_flight(state),
        }
    }

    /// Why the character moving now may not stop yet (SK-MOV-11: it stands in a friend's
    /// hex; SK-STA-2: it is Panicked and can still flee), if it may not.
    pub(crate) fn must_go_on(&self, state: &State) -> Option<Refusal> {
        let m = state.moving.as_ref()?;
        let u = m.unit;
        if !self.has_step(state, u) {
            return None;
        }
        let c = Self::ch(state, u);
        if self.on_friend(state, u) {
            return Some(Refusal::new(
                "SK-MOV-11",
                format!(
                    "{} stands in a friend's hex and must move on: a movement never ends there",
                    self.name(u)
                ),
            ));
        }
        if c.panicked {
            return Some(Refusal::new(
                "SK-STA-2",
                format!(
                    "{} is Panicked and must flee as far as it can",
                    self.name(u)
                ),
            ));
        }
        None
    }

    /// SK-STA-2: the first Panicked character of the active side that has yet to flee and
    /// can.
    pub(crate) fn pending_flight(&self, state: &State) -> Option<UnitId> {
        self.side_ids(state.active).find(|&p| {
            let c = Self::ch(state, p);
            c.panicked && !c.done && c.in_play() && self.has_step(state, p)
        })
    }

    /// Least cost from every hex to the nearest of `goals`, stepping through hexes
    /// `through` allows and paying `cost(hex)` to enter each; `u32::MAX` where none.
    pub(crate) fn field(
        &self,
        goals: &[Hex],
        through: impl Fn(Hex) -> bool,
        cost: impl Fn(Hex) -> u32,
    ) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.map.len()];
        let mut heap = BinaryHeap::new();
        for &g in goals {
            if let Some(i) = self.idx(g) {
                dist[i] = 0;
                heap.push(Reverse((0u32, i)));
            }
        }
        while let Some(Reverse((d, i))) = heap.pop() {
            if d > dist[i] {
                continue;
            }
            let v = self.map.hex_at(i);
            let step = cost(v);
            for n in v.neighbors() {
                let Some(j) = self.idx(n) else { continue };
                if !through(n) {
                    continue;
                }
                let nd = d.saturating_add(step);
                if nd < dist[j] {
                    dist[j] = nd;
                    heap.push(Reverse((nd, j)));
                }
            }
        }
        dist
    }

    /// SK-STA-2: each hex's distance by points to `u`'s home edge, through free hexes and
    /// friends (whom it may pass).
    pub(crate) fn flight_field(&self, state: &State, u: UnitId) -> Vec<u32> {
        let side = self.side_of(u);
        let me = Self::ch(state, u).hex;
        let goals: Vec<Hex> = self
            .edge_hexes(side)
            .into_iter()
            .filter(|&h| {
                self.passable(h) && (Some(h) == me || Self::occupants(state, h).is_empty())
            })
            .collect();
        // Each hex's occupants counted once: how many, and whether an enemy is among them.
        let mut count = vec![0u8; self.map.len()];
        let mut enemy = vec![false; self.map.len()];
        for (i, c) in state.chars.iter().enumerate() {
            if let Some(k) = c.hex.and_then(|h| self.idx(h)) {
                count[k] = count[k].saturating_add(1);
                enemy[k] |= self.chars[i].side != side;
            }
        }
        self.field(
            &goals,
            |h| {
                self.idx(h).is_some_and(|k| {
                    self.passable(h) && (Some(h) == me || !enemy[k]) && count[k] < 2
                })
            },
            |h| self.terrain_row(h).map_or(1, |r| u32::from(r.cost)),
        )
    }
}

/// SK-MOV-7 and the rest: checks a step of the active side outside a window.
pub(crate) fn check_move(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    to: Option<Hex>,
    evasive: bool,
) -> Result<Priced, Refusal> {
    if state.charge.is_some() {
        return super::charge::check_step(rules, state, u, to, evasive);
    }
    rules.may_move(state, u)?;
    check_move_in(rules, state, &rules.gate(state), u, to, evasive, None)
}

/// [`check_move`] outside a charge, with the phase's gate (and a Panicked mover's flight
/// field) computed once by the caller.
pub(crate) fn check_move_in(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    u: UnitId,
    to: Option<Hex>,
    evasive: bool,
    field: Option<&[u32]>,
) -> Result<Priced, Refusal> {
    rules.may_move(state, u)?;
    gate.admits(rules, state, u)?;
    let mut p = rules.step_ok(state, u, to, evasive, field)?;
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

/// Starts a step: finishes the previous character's movement if another now moves
/// (SK-MOV-7), then opens the attack-of-opportunity window when the hex left is in the
/// zone of passive characters not yet provoked (SK-MOV-9), else steps at once.
pub(crate) fn declare_step(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    to: Option<Hex>,
    evasive: bool,
    ctx: &mut Ctx<'_, Event>,
) {
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
    if reactions::open_opportunity(rules, state, u, to, evasive, ctx) {
        return;
    }
    execute_step(rules, state, u, to, evasive, ctx);
}

/// Makes a step whose attacks of opportunity are over: pays, moves, applies what the
/// step causes, resolves a charge that has reached its target, and opens the reaction
/// window (SK-MOV-2).
pub(crate) fn execute_step(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    to: Option<Hex>,
    evasive: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    let c = Skirmish::ch(state, u);
    let Some(from) = c.hex else { return };
    let Some(to) = to else {
        // SK-STA-2: off the map from the home edge.
        state.chars[u.index()].mp = c.mp.saturating_sub(1);
        statuses::take_out(rules, state, u, true, ctx);
        state.chars[u.index()].done = true;
        state.moving = None;
        return;
    };
    let charging = state.charge.is_some();
    let gait = if charging {
        Gait::Charge
    } else if c.panicked {
        Gait::Flight
    } else {
        Gait::Walk
    };
    let p = match rules.price(state, u, from, to, c.facing, gait, evasive) {
        Ok(p) if p.cost <= c.mp => p,
        Ok(_) | Err(_) => {
            // The board changed under a window (it cannot today): the movement ends.
            halt(state, u, "SK-MOV-6", "the step can no longer be made", ctx);
            return;
        }
    };
    let s = &mut state.chars[u.index()];
    s.mp -= p.cost;
    s.hex = Some(to);
    s.facing = p.facing;
    s.moved = true;
    let left = s.mp;
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
    ctx.emit(Event::Moved {
        unit: u,
        from,
        to,
        cost: p.cost,
        left,
        rules: p.rule_ids(),
    });
    if let Some(run) = Skirmish::current_run_mut(state) {
        if run.unit == u {
            run.path.push(to);
        }
    }
    if let Some(f) = p.friend {
        pass_friend(rules, state, u, f, ctx);
    }
    if p.difficult {
        difficult_check(rules, state, u, to, ctx);
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
    if charging {
        if let Some(ch) = &mut state.charge {
            ch.stepped = true;
        }
        super::charge::strike_if_in_reach(rules, state, ctx);
    } else {
        // A movement that cannot go on ends before the passive side reacts, so that it
        // reacts to where the character stands (SK-MOV-18).
        wrap_up(rules, state, ctx);
    }
    reactions::open_reaction(rules, state, u, ctx);
}

/// SK-MOV-12: an Engaged friend passed through spends a Quick Action or is Dazed, in a
/// walk, a charge, a flight or a short move alike.
pub(crate) fn pass_friend(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    f: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    if !rules.engaged(state, f) {
        return;
    }
    if state.chars[f.index()].quick {
        state.chars[f.index()].quick = false;
        ctx.emit(Event::Spent {
            unit: f,
            action: "quick_action".into(),
            rule: "SK-MOV-12".into(),
        });
    } else {
        statuses::daze(
            state,
            f,
            "SK-MOV-12",
            format!(
                "{} passed through it while it was Engaged, with no Quick Action left",
                rules.name(u)
            ),
            ctx,
        );
    }
}

/// SK-MOV-17 (provisional): a sideways or backward step into difficult terrain calls for
/// a check of Finesse - the terrain's base cost on the die; failing it dazes.
pub(crate) fn difficult_check(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    at: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let base = rules.terrain_row(at).map_or(1, |r| i32::from(r.cost));
    let need = i32::from(rules.chars[u.index()].finesse) - base + rules.data.difficult.bonus;
    let die = i32::try_from(ctx.roll(
        rules.data.dice.sides,
        format!(
            "SK-MOV-17: Finesse check for {} stepping sideways or backward into {} at {}",
            rules.name(u),
            rules.terrain_name(at),
            rules.label(at)
        ),
    ))
    .expect("a die face");
    let passed = die <= need;
    ctx.emit(Event::Checked {
        unit: u,
        check: "difficult_terrain".into(),
        total: die,
        need: format!("{need} or less"),
        result: if passed { "passed" } else { "failed: Dazed" }.into(),
        rule: "SK-MOV-17".into(),
    });
    if !passed {
        statuses::daze(
            state,
            u,
            "SK-MOV-17",
            "failed the Finesse check in difficult terrain",
            ctx,
        );
    }
}

/// Ends a character's movement for this phase.
pub(crate) fn halt(
    state: &mut State,
    u: UnitId,
    rule: &str,
    reason: impl Into<String>,
    ctx: &mut Ctx<'_, Event>,
) {
    state.chars[u.index()].done = true;
    ctx.emit(Event::Halted {
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
    rule: &str,
    reason: &str,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(m) = state.moving.take() else { return };
    let u = m.unit;
    if Skirmish::ch(state, u).in_play() {
        if rules.on_friend(state, u) {
            put_back(rules, state, u, &m.path, ctx);
        }
        if !Skirmish::ch(state, u).done {
            halt(state, u, rule, reason, ctx);
        }
    }
}

/// SK-MOV-18 (provisional): a character whose movement must end in a friend's hex goes
/// back along its path to the last hex it may stand in, else to the nearest free hex.
pub(crate) fn put_back(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    path: &[Hex],
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(from) = Skirmish::ch(state, u).hex else {
        return;
    };
    let free = |h: Hex| rules.passable(h) && Skirmish::occupants(state, h).iter().all(|&o| o == u);
    let back = path.iter().rev().copied().find(|&h| h != from && free(h));
    let to = back.or_else(|| {
        (1..=rules.map.cols() + rules.map.rows()).find_map(|r| {
            let mut ring: Vec<Hex> = from
                .ring(r)
                .into_iter()
                .filter(|&h| rules.map.contains(h) && free(h))
                .collect();
            ring.sort_by_key(|&h| rules.idx(h));
            ring.first().copied()
        })
    });
    if let Some(to) = to {
        state.chars[u.index()].hex = Some(to);
        ctx.emit(Event::Moved {
            unit: u,
            from,
            to,
            cost: 0,
            left: Skirmish::ch(state, u).mp,
            rules: vec!["SK-MOV-18".into()],
        });
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

thread_local! {
    static SEARCH: RefCell<Option<Search>> = const { RefCell::new(None) };
}

/// Runs the facing-aware search (search mode = facing) from `u`'s hex and facing.
fn search_from(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    budget: u32,
    gait: Gait,
) -> Vec<Reached> {
    let c = Skirmish::ch(state, u);
    let Some(from) = c.hex else { return Vec::new() };
    let facing = c.facing;
    let side = rules.side_of(u);
    SEARCH.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|s| s.shape() != &rules.map) {
            *slot = Some(Search::new(rules.map, 6));
        }
        let search = slot.as_mut().expect("just set");
        #[expect(clippy::cast_possible_truncation, reason = "six directions")]
        let start_mode = facing.index() as u8;
        let reach = search.run(from, start_mode, budget, |h, mode, to, _dir| {
            let f = Direction::from_index(usize::from(mode));
            match rules.price(state, u, h, to, f, gait, false) {
                Ok(p) => Step::Enter {
                    cost: u32::from(p.cost),
                    stop: p.stop,
                    #[expect(clippy::cast_possible_truncation, reason = "six directions")]
                    mode: p.facing.index() as u8,
                },
                Err(_) => Step::Blocked,
            }
        });
        let mut out: Vec<Reached> = reach
            .hexes()
            .filter(|&(h, _)| h != from && Skirmish::occupants(state, h).is_empty())
            .map(|(h, cost)| {
                let mut path = reach.path(h).unwrap_or_default();
                if path.first() == Some(&from) {
                    path.remove(0);
                }
                Reached {
                    hex: h,
                    cost,
                    path,
                    stop: rules.enemy_zone(state, side, h),
                }
            })
            .collect();
        out.sort_by_key(|r| (r.cost, rules.idx(r.hex)));
        out
    })
}

/// The hexes a character can reach now, with costs and paths, for its facing (the
/// search's mode is the facing; steps toward the flanks and rear cost double,
/// SK-MOV-16): a walk for the active side's character, a short move for a passive one
/// in the reaction window (SK-SHM-2) or an Engaged active one in the melee phase
/// (SK-SHM-4), the next steps of a charge (SK-CHG-5) or a
/// flight (SK-STA-2).
pub(crate) fn reachable(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reached>, Refusal> {
    if !rules.exists(u) {
        return Err(Refusal::new("request", "no such character"));
    }
    if matches!(state.window, Some(Window::Reaction { .. })) && rules.side_of(u) != state.active {
        reactions::may_react(rules, state, u)?;
        let budget = u32::from(rules.short_allowance(state, u));
        return Ok(search_from(rules, state, u, budget, Gait::Short));
    }
    if state.window.is_some() {
        return Err(reactions::window_refusal(rules, state));
    }
    if state.phase == super::Phase::Melee && rules.side_of(u) == state.active {
        // SK-SHM-4: a Maneuver's short move.
        super::maneuver::may_maneuver(rules, state, u)?;
        let budget = u32::from(rules.short_allowance(state, u));
        return Ok(search_from(rules, state, u, budget, Gait::Short));
    }
    let c = Skirmish::ch(state, u);
    let next = |rules: &Skirmish| -> Vec<Reached> {
        let from = c.hex.expect("in play");
        from.neighbors()
            .into_iter()
            .filter(|&n| rules.map.contains(n))
            .filter_map(|n| {
                check_move(rules, state, u, Some(n), false)
                    .ok()
                    .map(|p| Reached {
                        hex: n,
                        cost: u32::from(p.cost),
                        path: vec![n],
                        stop: p.stop,
                    })
            })
            .collect()
    };
    if state.charge.is_some() {
        super::charge::check_runner(rules, state, u)?;
        return Ok(next(rules));
    }
    rules.may_move(state, u)?;
    if c.panicked {
        return Ok(next(rules));
    }
    Ok(search_from(rules, state, u, u32::from(c.mp), Gait::Walk))
}
