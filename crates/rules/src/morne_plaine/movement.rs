//! The movement phase (docs/rules/morne-plaine.md, MP-MOV-*, MP-TER-*, MP-ROAD-*,
//! MP-REF-*), and the costs of leaving and entering zones of control (MP-ZOC-10 to
//! MP-ZOC-13). The legal list's memo is in [`super::board`].

use super::board::with_board;
use super::cell_bits as cb;
use super::side_bits as sb;
use super::units::Class;
use super::zones_of_control::{CONTROLLED, MOUNTED};
pub use super::StepRules;
use super::{Action, Event, MornePlaine, Phase, State};
use grognard_engine::{Chance, Ctx, Preview, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// Search modes: how the unit arrived, for the road rules.
pub(crate) mod mode {
    /// No step yet this phase (MP-ROAD-3: the first road step is free).
    pub const FRESH: u8 = 0;
    /// Any later step.
    pub const NORMAL: u8 = 1;
    /// Jumped a crossroads: the next road hex costs its terrain (MP-ROAD-5).
    pub const PENALTY: u8 = 2;
    /// How many modes.
    pub const COUNT: u8 = 3;
}

/// Bits naming the rules that priced a step, for `explain` and events.
pub(crate) mod why {
    pub const ROAD: u16 = 1;
    pub const ROAD_START: u16 = 2;
    pub const JUMP: u16 = 4;
    pub const PENALTY: u16 = 8;
    pub const TRACK: u16 = 16;
    pub const HEXSIDE: u16 = 32;
    pub const LEAVE_ZOC: u16 = 64;
    pub const ENTER_ZOC: u16 = 128;
    pub const BOG: u16 = 256;
    pub const MOUNTED_FREE: u16 = 512;
    pub const MARSH_STREAM: u16 = 1024;
    pub const LEAVE_MOUNTED_ZOC: u16 = 2048;
}

/// Why a step is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    OffMap,
    Occupied,
    Impassable,
    LeaveIntoZoc,
    LeaveIntoMountedZoc,
    DemoralisedIntoZoc,
}

impl Block {
    pub(crate) fn refusal(self, rules: &MornePlaine, to: Hex) -> Refusal {
        let l = rules.label(to);
        match self {
            Block::OffMap => Refusal::new("MP-MOV-5", "a unit moves only to a contiguous hex of the map"),
            Block::Occupied => Refusal::new(
                "MP-MOV-7",
                format!("{l} is occupied: a unit may never enter or pass through a hex occupied by another unit"),
            ),
            Block::Impassable => Refusal::new(
                "MP-MOV-6",
                format!("the hexside into {l} cannot be crossed (an unbridged, unforded river or a steep slope)"),
            ),
            Block::LeaveIntoZoc => Refusal::new(
                "MP-ZOC-11",
                format!("infantry and artillery leave an enemy zone of control only for a hex outside one; {l} is controlled"),
            ),
            Block::LeaveIntoMountedZoc => Refusal::new(
                "MP-ZOC-13",
                format!("a mounted unit leaves a hex controlled by enemy cavalry or leaders only for a hex they do not control; {l} is"),
            ),
            Block::DemoralisedIntoZoc => Refusal::new(
                "MP-DEM-2",
                format!("a demoralised unit may not enter an enemy zone of control; {l} is controlled"),
            ),
        }
    }
}

/// A priced step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Priced {
    pub cost: u8,
    pub stop: bool,
    pub mode: u8,
    pub why: u16,
}

/// The rules that may price a step, by their `why` bit.
pub(crate) const WHY: [(u16, &str, &str); 12] = [
    (
        why::ROAD,
        "MP-ROAD-2",
        "follows the same road from a road hex: the road's cost (MP-REF-4)",
    ),
    (
        why::ROAD_START,
        "MP-ROAD-3",
        "the first step of the turn from a road hex to a road hex is free",
    ),
    (
        why::JUMP,
        "MP-ROAD-4",
        "jumps from one road hex to another past the crossroads: no road bonus, the terrain's cost",
    ),
    (
        why::PENALTY,
        "MP-ROAD-5",
        "the first road hex after a crossroads jump costs its terrain",
    ),
    (
        why::TRACK,
        "MP-ROAD-7",
        "follows a track: the track's cost (MP-REF-5)",
    ),
    (
        why::HEXSIDE,
        "MP-TER-2",
        "the hexside crossed adds its cost to the hex's",
    ),
    (
        why::LEAVE_ZOC,
        "MP-ZOC-11",
        "leaving an enemy zone of control costs one more point",
    ),
    (
        why::LEAVE_MOUNTED_ZOC,
        "MP-ZOC-13",
        "leaving the zone of control of enemy cavalry or leaders costs one more point",
    ),
    (
        why::MOUNTED_FREE,
        "MP-ZOC-12",
        "a mounted unit leaves a hex controlled only by infantry freely",
    ),
    (
        why::ENTER_ZOC,
        "MP-ZOC-10",
        "enters an enemy zone of control at no extra cost: movement ends there",
    ),
    (
        why::BOG,
        "MP-REF-BOG",
        "marsh: a bog test may leave the unit stuck",
    ),
    (
        why::MARSH_STREAM,
        "MP-TER-3",
        "into marsh across a stream: both costs are paid",
    ),
];

impl Priced {
    /// MP-MOV-3: a step is taken only when the allowance left pays for it: the allowance
    /// is never exceeded.
    #[inline]
    pub(crate) fn affordable(self, mp: u8) -> bool {
        self.cost <= mp
    }

    /// The rules that priced the step, with plain-language reasons (MP-MOV-3 first).
    pub(crate) fn reasons(self) -> Vec<Reason> {
        let mut r = vec![Reason::new(
            "MP-MOV-3",
            format!("costs {} movement point(s)", self.cost),
        )];
        for (bit, rule, text) in WHY {
            if self.why & bit != 0 {
                r.push(Reason::new(rule, text));
            }
        }
        r
    }

    /// The rule IDs of [`Priced::reasons`], for the event log.
    pub(crate) fn rule_ids(self) -> StepRules {
        StepRules(self.why)
    }
}

/// What the pricing needs to know about the moving unit.
#[derive(Clone, Copy)]
pub(crate) struct Mover {
    pub class: Class,
    pub mounted: bool,
    pub demoralised: bool,
}

/// Why a unit may not take a step at all now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoMove {
    NoSuchUnit,
    Waiting,
    Eliminated,
    WrongPhase,
    WrongSide,
    Fired,
    Stopped,
    Spent,
}

impl MornePlaine {
    pub(crate) fn mover(&self, state: &State, u: UnitId) -> Mover {
        let c = &self.counters[u.index()];
        Mover {
            class: c.class,
            mounted: c.mounted,
            demoralised: self.demoralised(state, u),
        }
    }

    /// Prices one step; `occ` ([`MornePlaine::occupancy`]) and `control` (from
    /// [`MornePlaine::control_map`] for the mover's side) describe the board.
    ///
    /// MP-MOV-3, MP-TER-1, MP-TER-2: the cost of the hex entered for the unit's class
    /// (MP-REF-1) plus the cost of the hexside crossed (MP-REF-2: a stream or a ford
    /// +1; MP-REF-6: climbing a slope +1). A road or a track replaces the hex's cost,
    /// never the hexside's: a road that crosses a ford still pays the ford's point,
    /// and a bridge carries it over a stream for nothing.
    pub(crate) fn price(
        &self,
        m: Mover,
        from: Hex,
        from_mode: u8,
        dir: Direction,
        control: &[u8],
        occ: &[u16],
    ) -> Result<Priced, Block> {
        let fi = self.idx(from).ok_or(Block::OffMap)?;
        self.price_at::<true>(m, fi, from_mode, dir, |j| control[j], |j| occ[j] != 0)
    }

    /// [`MornePlaine::price`] from the hex of index `fi`, asking `control(index)` and
    /// `occupied(index)` about the board. With `WHY` false the rules that priced the
    /// step are not recorded (the legal list needs only the cost).
    #[inline]
    pub(crate) fn price_at<const WHY: bool>(
        &self,
        m: Mover,
        fi: usize,
        from_mode: u8,
        dir: Direction,
        control: impl Fn(usize) -> u8,
        occupied: impl Fn(usize) -> bool,
    ) -> Result<Priced, Block> {
        let st = self.steps[fi * 6 + dir.index()];
        // MP-MOV-5: contiguous hexes of the map only.
        if st.to == super::NO_HEX {
            return Err(Block::OffMap);
        }
        let ti = st.to as usize;
        // MP-MOV-7: never into or through an occupied hex.
        if occupied(ti) {
            return Err(Block::Occupied);
        }
        // MP-MOV-6, MP-REF-3, MP-REF-6: unbridged, unforded rivers and steep slopes.
        if st.flags & sb::IMPASSABLE != 0 {
            return Err(Block::Impassable);
        }
        let bog = st.to_cell & cb::BOG != 0;
        let mut why = 0u16;
        let terrain = st.terrain[m.class.column()];
        let (hexside, link) = (st.hexside, st.link);
        let (from_road, to_road) = (self.cell[fi] & cb::ROAD != 0, st.to_cell & cb::ROAD != 0);
        // MP-ROAD-4: a jump past the crossroads; MP-ROAD-5: the next road hex then
        // costs its terrain.
        let jump = st.jump;
        let next_mode = if jump { mode::PENALTY } else { mode::NORMAL };
        let mut cost = if from_mode == mode::FRESH && from_road && to_road && !jump {
            // MP-ROAD-3: the first step of the turn, road hex to road hex, is always
            // free. Reading (MP-ROAD-4): crossroads are "a special case": a jump past
            // them gets no road bonus, the first step of the turn included, so going
            // via the crossroads is always the better way (MP-ROAD-6). Reading (MP-TER-2): "free" replaces the hex's cost as a road does, not the
            // hexside's: a stream, a ford or a slope crossed is paid as on any road step.
            why |= why::ROAD_START;
            hexside
        } else if link & 1 != 0 && from_mode != mode::PENALTY {
            // MP-ROAD-2, MP-REF-4: along the same road.
            why |= why::ROAD;
            self.road_cost + hexside
        } else if link & 2 != 0 {
            // MP-ROAD-7, MP-REF-5: along a track; a road-track crossroads is entered
            // at the rate of the route followed into it.
            why |= why::TRACK;
            if link & 1 != 0 {
                why |= why::PENALTY;
            }
            self.track_cost + hexside
        } else {
            // MP-ROAD-1: a road hex entered otherwise costs its main terrain; MP-ROAD-6:
            // so going via the crossroads takes a unit further than jumping past it.
            if link & 1 != 0 {
                // MP-ROAD-5: the road hex after a crossroads jump is paid in full.
                why |= why::PENALTY;
            } else if jump {
                why |= why::JUMP;
            }
            terrain + hexside
        };
        if hexside > 0 {
            why |= why::HEXSIDE;
            // MP-TER-3: into marsh across a stream, both costs.
            if bog && st.flags & sb::STREAM != 0 {
                why |= why::MARSH_STREAM;
            }
        }
        if bog && self.bog_test {
            why |= why::BOG;
        }
        // Leaving an enemy zone of control.
        let (cf, ct) = (control(fi), control(ti));
        if cf & CONTROLLED != 0 {
            if m.mounted {
                if cf & MOUNTED != 0 {
                    // MP-ZOC-13: a mounted unit held by enemy cavalry or leaders leaves
                    // only for a hex they do not control, at one more point.
                    if ct & MOUNTED != 0 {
                        return Err(Block::LeaveIntoMountedZoc);
                    }
                    cost += 1;
                    why |= why::LEAVE_MOUNTED_ZOC;
                } else {
                    // MP-ZOC-12: held only by infantry (or a fort), it leaves freely.
                    why |= why::MOUNTED_FREE;
                }
            } else {
                // MP-ZOC-11: infantry and artillery leave only for a hex outside every
                // enemy zone of control, at one more point.
                if ct & CONTROLLED != 0 {
                    return Err(Block::LeaveIntoZoc);
                }
                cost += 1;
                why |= why::LEAVE_ZOC;
            }
        }
        // MP-ZOC-10, MP-MOV-8: entering an enemy zone of control costs nothing more and
        // ends the movement; MP-DEM-2: a demoralised unit may not enter one.
        let stop = ct & CONTROLLED != 0;
        if stop {
            if m.demoralised {
                return Err(Block::DemoralisedIntoZoc);
            }
            why |= why::ENTER_ZOC;
        }
        Ok(Priced {
            cost,
            stop,
            mode: next_mode,
            // Unrecorded, the bits are never built (dead code once WHY is false).
            why: if WHY { why } else { 0 },
        })
    }

    /// Whether `u` may take a step now at all, and from which hex and mode; cheap, for
    /// the legal-action list.
    pub(crate) fn can_move(&self, state: &State, u: UnitId) -> Result<(Hex, u8), NoMove> {
        let Some(c) = self.counters.get(u.index()) else {
            return Err(NoMove::NoSuchUnit);
        };
        let s = &state.units[u.index()];
        let Some(hex) = s.hex else {
            return Err(if s.waiting {
                NoMove::Waiting
            } else {
                NoMove::Eliminated
            });
        };
        if state.phase != Phase::Movement {
            return Err(NoMove::WrongPhase);
        }
        if c.side != state.active {
            return Err(NoMove::WrongSide);
        }
        if s.stopped {
            return Err(if s.fired {
                NoMove::Fired
            } else {
                NoMove::Stopped
            });
        }
        if s.mp == 0 {
            return Err(NoMove::Spent);
        }
        let m = if !s.moved {
            mode::FRESH
        } else if s.road_penalty {
            mode::PENALTY
        } else {
            mode::NORMAL
        };
        Ok((hex, m))
    }

    /// Whether `u` may take a step now at all, and from which hex and mode.
    pub(crate) fn may_move(&self, state: &State, u: UnitId) -> Result<(Hex, u8), Refusal> {
        self.can_move(state, u).map_err(|e| {
            let name = if self.counters.get(u.index()).is_some() {
                self.unit_name(u)
            } else {
                "?"
            };
            match e {
                NoMove::NoSuchUnit => Refusal::new("request", "no such unit"),
                NoMove::Waiting => {
                    Refusal::new("MP-REIN-1", format!("{name} is a reinforcement that has not come on yet"))
                }
                NoMove::Eliminated => Refusal::new("MP-CMB-20", format!("{name} has been eliminated")),
                NoMove::WrongPhase => Refusal::new(
                    "MP-MOV-1",
                    format!("units move in the movement phase; this is the {} phase", state.phase.name()),
                ),
                NoMove::WrongSide => {
                    let side = self.counters[u.index()].side;
                    Refusal::new(
                        "MP-MOV-1",
                        format!(
                            "{name} belongs to {}, and it is {}'s movement phase: a player moves only his own units",
                            self.side_title(side),
                            self.side_title(state.active)
                        ),
                    )
                }
                NoMove::Fired => Refusal::new(
                    "MP-BMB-4",
                    format!("{name} fired in the bombardment phase and may not move in this movement phase"),
                ),
                NoMove::Stopped => Refusal::new(
                    "MP-MOV-8",
                    format!("{name} has ended its movement for this phase"),
                ),
                NoMove::Spent => Refusal::new(
                    "MP-MOV-4",
                    format!("{name} has used up its movement allowance: move another unit or end the phase"),
                ),
            }
        })
    }

    /// Checks a one-hex step.
    pub(crate) fn check_move(&self, state: &State, u: UnitId, to: Hex) -> Result<Priced, Refusal> {
        let (from, m) = self.may_move(state, u)?;
        let Some(dir) = from.direction_to(to) else {
            return Err(Refusal::new(
                "MP-MOV-5",
                format!(
                    "{} is not next to {}: movement is from one hex to a contiguous hex",
                    self.label(to),
                    self.label(from)
                ),
            ));
        };
        let mover = self.mover(state, u);
        let (p, charge) = with_board(self, state, |board| {
            let p = self.price(mover, from, m, dir, &board.control, &board.occ);
            (
                p,
                self.charge_target(state, u, dir, |h| self.occupant_in(&board.occ, h)),
            )
        });
        let p = p.map_err(|b| b.refusal(self, to))?;
        let mp = state.units[u.index()].mp;
        if !p.affordable(mp) {
            return Err(Refusal::new(
                "MP-MOV-3",
                format!(
                    "entering {} costs {} point(s); {} has {mp} left: the allowance is never exceeded",
                    self.label(to),
                    p.cost,
                    self.unit_name(u)
                ),
            ));
        }
        if let Ok(target) = charge {
            return Err(Refusal::new(
                "MP-CHG-7",
                format!(
                    "this step continues a run on clear terrain toward {} in line: it is a charging action, sent as charge",
                    self.unit_name(target)
                ),
            ));
        }
        Ok(p)
    }

    /// [`MornePlaine::check_move`]'s verdict without its words and without the
    /// movement phase's board: the control of the two hexes of the step and who stands
    /// where are all a single step asks (the computer opponent checks every step it
    /// plays, many on positions the board was not built for).
    pub(crate) fn allows_move(&self, state: &State, u: UnitId, to: Hex) -> bool {
        let Ok((from, m)) = self.can_move(state, u) else {
            return false;
        };
        let (Some(dir), Some(fi)) = (from.direction_to(to), self.idx(from)) else {
            return false;
        };
        let ti = self.nbr[fi * 6 + dir.index()];
        if ti == super::NO_HEX {
            return false;
        }
        let ti = ti as usize;
        let side = state.active;
        let [cf, ct] = self.control_at(state, side, [(from, fi), (to, ti)]);
        let control = |j: usize| match j {
            _ if j == fi => cf,
            _ if j == ti => ct,
            _ => self.control_at(state, side, [(self.map.hex_at(j), j)])[0],
        };
        let mover = self.mover(state, u);
        // Who stands where is asked of the units themselves: a step asks about one or
        // two hexes, fewer than a table of the map would cost to build.
        let Ok(p) = self.price_at::<false>(mover, fi, m, dir, control, |j| {
            self.occupant_scan(state, self.map.hex_at(j)).is_some()
        }) else {
            return false;
        };
        p.affordable(state.units[u.index()].mp)
            && self
                .charge_target(state, u, dir, |h| self.occupant_scan(state, h))
                .is_err()
    }
}

/// MP-MOV-1, MP-MOV-2, MP-MOV-4: every legal step of every unit of the side to move,
/// toward each of the six directions, and every charge (MP-CHG-10: a charge is offered
/// exactly when it is valid, in place of the step it continues).
pub(crate) fn legal_moves(rules: &MornePlaine, state: &State, out: &mut Vec<Action>) {
    with_board(rules, state, |board| {
        // The unit running on clear terrain, if any (else no unit's index).
        let (running, dir) = match state.moving {
            Some((mu, d, true)) => (mu.index(), d),
            _ => (usize::MAX, Direction::ALL[0]),
        };
        let units = &rules.side_units[usize::from(state.active)];
        out.reserve(units.len() * 6);
        for &i in units {
            let i = usize::from(i);
            let n = usize::from(board.counts[i]);
            if i == running {
                // MP-CHG-10: the step that continues a run on clear terrain is a
                // charge when one is valid.
                let to = state.units[i].hex.map(|h| h.neighbor(dir));
                for &a in &board.moves[i][..n] {
                    match a {
                        Action::Move { unit, to: t } if Some(t) == to => {
                            match rules.charge_target(state, unit, dir, |h| {
                                rules.occupant_in(&board.occ, h)
                            }) {
                                Ok(target) => out.push(Action::Charge { unit, target }),
                                Err(_) => out.push(a),
                            }
                        }
                        _ => out.push(a),
                    }
                }
                continue;
            }
            // All six slots are copied (a fixed size: no branches on the count, not
            // even on none), and the unused ones dropped again.
            let len = out.len();
            out.extend_from_slice(&board.moves[i]);
            out.truncate(len + n);
        }
    });
}

/// Applies a checked step.
pub(crate) fn apply_move(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    to: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let (from, m) = rules.can_move(state, u).expect("checked");
    let dir = from.direction_to(to).expect("checked");
    let fi = rules.idx(from).expect("on the map");
    let mover = rules.mover(state, u);
    let side = rules.counters[u.index()].side;
    // Checked already; only the two hexes' control is asked.
    let ti = rules.nbr[fi * 6 + dir.index()] as usize;
    // The movement board holds the control map of the enemies of the side to move
    // (the mover's) when the step was just listed from it; else the units are asked.
    let [cf, ct] = match super::board::control_if_current(rules, state, [fi, ti]) {
        Some(bits) if side == state.active => {
            debug_assert_eq!(
                bits,
                rules.control_at(state, side, [(from, fi), (to, ti)]),
                "the board's control map"
            );
            bits
        }
        _ => rules.control_at(state, side, [(from, fi), (to, ti)]),
    };
    let control = |j| if j == fi { cf } else { ct };
    let p = rules
        .price_at::<true>(mover, fi, m, dir, control, |_| false)
        .expect("checked");
    step(rules, state, u, from, dir, p, ctx);
}

/// Moves a unit one hex at a priced cost, with its consequences (bog, zone of control).
pub(crate) fn step(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    from: Hex,
    dir: Direction,
    p: Priced,
    ctx: &mut Ctx<'_, Event>,
) {
    let to = from.neighbor(dir);
    let s = &mut state.units[u.index()];
    s.mp -= p.cost;
    s.hex = Some(to);
    s.moved = true;
    s.road_penalty = p.mode == mode::PENALTY;
    let left = s.mp;
    let at = rules.idx(to);
    let clear = at.is_some_and(|i| rules.cell[i] & cb::CLEAR != 0);
    ctx.emit_with(|| Event::Moved {
        unit: u,
        from,
        to,
        cost: p.cost,
        left,
        rules: p.rule_ids(),
    });
    if at.is_none_or(|i| rules.place[i]) {
        rules.take_place(state, u, to);
    }
    state.moving = Some((u, dir, clear));
    if p.stop {
        state.units[u.index()].stopped = true;
        ctx.emit_with(|| Event::Halted {
            unit: u,
            rule: "MP-MOV-8".into(),
            reason: format!(
                "entered an enemy zone of control at {}: its movement ends",
                rules.label(to)
            ),
        });
    } else if p.why & why::BOG != 0 {
        let class = rules.counters[u.index()].class;
        let bog = &rules.data.bog;
        // MP-REF-BOG: the recovered chance of being stuck; what it does (the unit's
        // movement ends in the marsh) is provisional.
        let roll = ctx.roll_for(bog.sides, || {
            format!(
                "MP-REF-BOG: bog test for {} in the marsh at {}",
                rules.unit_name(u),
                rules.label(to)
            )
        });
        if roll <= bog.stuck[class.column()] {
            state.units[u.index()].stopped = true;
            ctx.emit_with(|| Event::Halted {
                unit: u,
                rule: "MP-REF-BOG".into(),
                reason: format!(
                    "stuck in the marsh at {} (rolled {roll} on a d{})",
                    rules.label(to),
                    bog.sides
                ),
            });
        }
    }
}

/// The chance that a step into a marsh leaves the unit stuck.
pub(crate) fn preview(
    rules: &MornePlaine,
    state: &State,
    u: UnitId,
    to: Hex,
) -> Result<Preview, Refusal> {
    let p = rules.check_move(state, u, to)?;
    if p.why & why::BOG == 0 || p.stop {
        return Err(Refusal::new("MP-MOV-3", "this step rolls no dice"));
    }
    let bog = &rules.data.bog;
    let stuck = u64::from(bog.stuck[rules.counters[u.index()].class.column()]);
    let sides = u64::from(bog.sides);
    Ok(Preview {
        roll: format!("1d{sides} bog test"),
        inputs: serde_json::json!({ "stuck_on_or_below": stuck }),
        outcomes: vec![
            Chance::new(serde_json::json!({ "stuck": true }), stuck, sides),
            Chance::new(serde_json::json!({ "stuck": false }), sides - stuck, sides),
        ],
        reasons: vec![Reason::new(
            "MP-REF-BOG",
            "entering marsh calls for a bog test",
        )],
    })
}
