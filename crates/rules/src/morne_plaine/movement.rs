//! The movement phase (morne-plaine-movement.txt, "Movement phase", "Effects of terrain
//! on movement", roads and crossroads), and leaving and entering zones of control.

use super::side_bits as sb;
use super::units::Class;
use super::zones_of_control::{CONTROLLED, MOUNTED};
use super::{Action, Event, MornePlaine, Phase, State};
use grognard_engine::{Chance, Ctx, Preview, Reached, Reason, Refusal, UnitId};
use grognard_hex::search::{Search, Step};
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;

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
    fn refusal(self, rules: &MornePlaine, to: Hex) -> Refusal {
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

impl Priced {
    pub(crate) fn reasons(self, rules: &MornePlaine) -> Vec<Reason> {
        let _ = rules;
        let mut r = vec![Reason::new(
            "MP-MOV-3",
            format!("costs {} movement point(s)", self.cost),
        )];
        let table: [(u16, &str, &str); 10] = [
            (why::ROAD, "MP-ROAD-2", "follows the same road from a road hex: the road's cost"),
            (why::ROAD_START, "MP-ROAD-3", "the first step of the turn from a road hex to a road hex is free"),
            (why::JUMP, "MP-ROAD-4", "jumps from one road to another past the crossroads: no road bonus"),
            (why::PENALTY, "MP-ROAD-5", "the first road hex after a crossroads jump costs its terrain"),
            (why::TRACK, "MP-ROAD-7", "follows a track: the track's cost"),
            (why::HEXSIDE, "MP-TER-2", "the hexside crossed adds its cost to the hex's"),
            (why::LEAVE_ZOC, "MP-ZOC-11", "leaving an enemy zone of control costs one more point"),
            (why::MOUNTED_FREE, "MP-ZOC-12", "a mounted unit leaves a hex controlled only by infantry freely"),
            (why::ENTER_ZOC, "MP-ZOC-10", "enters an enemy zone of control: movement ends there"),
            (why::BOG, "MP-REF-BOG", "marsh: a bog test may leave the unit stuck"),
        ];
        for (bit, rule, text) in table {
            if self.why & bit != 0 {
                r.push(Reason::new(rule, text));
            }
        }
        r
    }
}

/// What the pricing needs to know about the moving unit.
#[derive(Clone, Copy)]
pub(crate) struct Mover {
    pub class: Class,
    pub mounted: bool,
    pub demoralised: bool,
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

    /// Prices one step; `occupied(hex)` and `control` (from
    /// [`MornePlaine::control_map`] for the mover's side) describe the board.
    pub(crate) fn price(
        &self,
        m: Mover,
        from: Hex,
        from_mode: u8,
        dir: Direction,
        control: &[u8],
        occupied: impl Fn(Hex) -> bool,
    ) -> Result<Priced, Block> {
        let to = from.neighbor(dir);
        let (Some(fi), Some(ti)) = (self.idx(from), self.idx(to)) else {
            return Err(Block::OffMap);
        };
        if occupied(to) {
            return Err(Block::Occupied);
        }
        let k = fi * 6 + dir.index();
        if self.side_flags[k] & sb::IMPASSABLE != 0 {
            return Err(Block::Impassable);
        }
        let row = &self.terrain_rows[usize::from(self.terrain[ti])];
        let mut why = 0u16;
        let mut next_mode = mode::NORMAL;
        // MP-MOV-3, MP-TER-1, MP-TER-2: the hex's cost for the class plus the hexside's.
        let terrain = row.cost[m.class.column()];
        let hexside = self.side_cost[k];
        let link = self.links[k];
        let on_road = |i: usize| self.on_path[i] & 1 != 0;
        let mut cost = if link & 1 != 0 && from_mode != mode::PENALTY {
            // MP-ROAD-2: along the same road.
            why |= why::ROAD;
            self.road_cost
        } else if from_mode == mode::FRESH && on_road(fi) && on_road(ti) {
            // MP-ROAD-3: the first step of the turn, road hex to road hex.
            why |= why::ROAD_START;
            0
        } else if link & 2 != 0 {
            // MP-ROAD-7: along a track (a road-track crossroads is priced by the route
            // followed into it).
            why |= why::TRACK;
            if link & 1 != 0 {
                why |= why::PENALTY;
            }
            self.track_cost.min(terrain + hexside)
        } else {
            if link & 1 != 0 {
                // MP-ROAD-5: the road hex after a crossroads jump is paid in full.
                why |= why::PENALTY;
            } else if on_road(fi) && on_road(ti) {
                // MP-ROAD-4: a jump between two roads past the crossroads.
                why |= why::JUMP;
                next_mode = mode::PENALTY;
            }
            if hexside > 0 {
                why |= why::HEXSIDE;
            }
            terrain + hexside
        };
        if row.bog && self.bog_test {
            why |= why::BOG;
        }
        // Leaving an enemy zone of control.
        let (cf, ct) = (control[fi], control[ti]);
        if cf & CONTROLLED != 0 {
            if m.mounted {
                if cf & MOUNTED != 0 {
                    // MP-ZOC-13.
                    if ct & MOUNTED != 0 {
                        return Err(Block::LeaveIntoMountedZoc);
                    }
                    cost += 1;
                    why |= why::LEAVE_ZOC;
                } else {
                    // MP-ZOC-12.
                    why |= why::MOUNTED_FREE;
                }
            } else {
                // MP-ZOC-11.
                if ct & CONTROLLED != 0 {
                    return Err(Block::LeaveIntoZoc);
                }
                cost += 1;
                why |= why::LEAVE_ZOC;
            }
        }
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
            why,
        })
    }

    /// Whether `u` may take a step now at all, and from which hex and mode.
    pub(crate) fn may_move(&self, state: &State, u: UnitId) -> Result<(Hex, u8), Refusal> {
        let Some(c) = self.counters.get(u.index()) else {
            return Err(Refusal::new("request", "no such unit"));
        };
        let s = &state.units[u.index()];
        let Some(hex) = s.hex else {
            if s.waiting {
                return Err(Refusal::new("MP-REIN-1", format!("{} is a reinforcement that has not come on yet", c.id)));
            }
            return Err(Refusal::new("MP-CMB-20", format!("{} has been eliminated", c.id)));
        };
        if state.phase != Phase::Movement {
            return Err(Refusal::new(
                "MP-MOV-1",
                format!("units move in the movement phase; this is the {} phase", state.phase.name()),
            ));
        }
        if c.side != state.active {
            return Err(Refusal::new(
                "MP-MOV-1",
                format!("{} belongs to {}, and it is {}'s movement phase", c.id, self.side_name(c.side), self.side_name(state.active)),
            ));
        }
        if s.stopped {
            let r = if s.fired {
                Refusal::new("MP-BMB-4", format!("{} fired in the bombardment phase and may not move this turn", c.id))
            } else {
                Refusal::new("MP-MOV-8", format!("{} has ended its movement for this phase", c.id))
            };
            return Err(r);
        }
        if s.mp == 0 {
            return Err(Refusal::new("MP-MOV-4", format!("{} has no movement points left", c.id)));
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

    /// Checks a one-hex step.
    pub(crate) fn check_move(&self, state: &State, u: UnitId, to: Hex) -> Result<Priced, Refusal> {
        let (from, m) = self.may_move(state, u)?;
        let Some(dir) = from.direction_to(to) else {
            return Err(Refusal::new(
                "MP-MOV-5",
                format!("{} is not next to {}: movement is from one hex to a contiguous hex", self.label(to), self.label(from)),
            ));
        };
        let control = self.control_map(state, self.counters[u.index()].side);
        let p = self
            .price(self.mover(state, u), from, m, dir, &control, |h| Self::occupant(state, h).is_some())
            .map_err(|b| b.refusal(self, to))?;
        let mp = state.units[u.index()].mp;
        if p.cost > mp {
            return Err(Refusal::new(
                "MP-MOV-3",
                format!("entering {} costs {} point(s); {} has {mp} left", self.label(to), p.cost, self.unit_name(u)),
            ));
        }
        if let Some(target) = self.charge_target(state, u, dir) {
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
}

/// Every legal step and charge of the side to move.
pub(crate) fn legal_moves(rules: &MornePlaine, state: &State, out: &mut Vec<Action>) {
    let control = rules.control_map(state, state.active);
    for (i, c) in rules.counters.iter().enumerate() {
        if c.side != state.active {
            continue;
        }
        let u = UnitId(u16::try_from(i).expect("unit count fits u16"));
        let Ok((from, m)) = rules.may_move(state, u) else { continue };
        let mover = rules.mover(state, u);
        let mp = state.units[i].mp;
        for dir in Direction::ALL {
            let Ok(p) = rules.price(mover, from, m, dir, &control, |h| MornePlaine::occupant(state, h).is_some()) else {
                continue;
            };
            if p.cost > mp {
                continue;
            }
            match rules.charge_target(state, u, dir) {
                Some(target) => out.push(Action::Charge { unit: u, target }),
                None => out.push(Action::Move { unit: u, to: from.neighbor(dir) }),
            }
        }
    }
}

/// Applies a checked step.
pub(crate) fn apply_move(rules: &MornePlaine, state: &mut State, u: UnitId, to: Hex, ctx: &mut Ctx<'_, Event>) {
    let (from, m) = rules.may_move(state, u).expect("checked");
    let dir = from.direction_to(to).expect("checked");
    let control = rules.control_map(state, rules.counters[u.index()].side);
    let p = rules
        .price(rules.mover(state, u), from, m, dir, &control, |h| MornePlaine::occupant(state, h).is_some())
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
    let clear = rules.is(to, "clear");
    let rules_used = p.reasons(rules).into_iter().map(|r| r.rule).collect();
    ctx.emit(Event::Moved {
        unit: u,
        from,
        to,
        cost: p.cost,
        left,
        rules: rules_used,
    });
    rules.take_place(state, to);
    state.moving = Some((u, dir, clear));
    if p.stop {
        state.units[u.index()].stopped = true;
        ctx.emit(Event::Halted {
            unit: u,
            rule: "MP-ZOC-10".into(),
            reason: format!("entered an enemy zone of control at {}", rules.label(to)),
        });
    } else if p.why & why::BOG != 0 {
        let class = rules.counters[u.index()].class;
        let bog = &rules.data.bog;
        let roll = ctx.roll(bog.sides, format!("MP-REF-BOG: bog test for {} in the marsh at {}", rules.unit_name(u), rules.label(to)));
        if roll <= bog.stuck[class.column()] {
            state.units[u.index()].stopped = true;
            ctx.emit(Event::Halted {
                unit: u,
                rule: "MP-REF-BOG".into(),
                reason: format!("stuck in the marsh at {} (rolled {roll} on a d{})", rules.label(to), bog.sides),
            });
        }
    }
}

impl MornePlaine {
    /// A unit entering a fort or a place takes it for its side (MP-ZOC-9 asks who holds
    /// a fort; MP-VIC-1 who holds an objective).
    pub(crate) fn take_place(&self, state: &mut State, hex: Hex) {
        let Some(u) = Self::occupant(state, hex) else { return };
        let side = self.counters[u.index()].side;
        if let Some(i) = self.forts.iter().position(|f| f.0 == hex) {
            state.forts[i] = Some(side);
        }
        for (i, p) in self.scenario.places.iter().enumerate() {
            if p.hex == hex {
                state.held[i] = Some(side);
            }
        }
    }
}

/// The chance that a step into a marsh leaves the unit stuck.
pub(crate) fn preview(rules: &MornePlaine, state: &State, u: UnitId, to: Hex) -> Result<Preview, Refusal> {
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
        reasons: vec![Reason::new("MP-REF-BOG", "entering marsh calls for a bog test")],
    })
}

thread_local! {
    static SEARCH: RefCell<Option<Search>> = const { RefCell::new(None) };
}

/// The hexes a unit can reach this phase, with costs and paths (MP-MOV-3 to MP-MOV-8,
/// roads, zones of control). Bog tests are assumed passed; a charge is not a move.
pub(crate) fn reachable(rules: &MornePlaine, state: &State, u: UnitId) -> Result<Vec<Reached>, Refusal> {
    let (from, m) = rules.may_move(state, u)?;
    let control = rules.control_map(state, rules.counters[u.index()].side);
    let mut occupied = vec![false; rules.map.len()];
    for s in &state.units {
        if let Some(i) = s.hex.and_then(|h| rules.idx(h)) {
            occupied[i] = true;
        }
    }
    let mover = rules.mover(state, u);
    let budget = u32::from(state.units[u.index()].mp);
    SEARCH.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|s| s.shape() != &rules.map) {
            *slot = Some(Search::new(rules.map, mode::COUNT));
        }
        let search = slot.as_mut().expect("just set");
        let reach = search.run(from, m, budget, |h, hm, _to, dir| {
            match rules.price(mover, h, hm, dir, &control, |x| rules.idx(x).is_some_and(|i| occupied[i])) {
                Ok(p) => Step::Enter {
                    cost: u32::from(p.cost),
                    stop: p.stop,
                    mode: p.mode,
                },
                Err(_) => Step::Blocked,
            }
        });
        let mut out: Vec<Reached> = reach
            .hexes()
            .filter(|&(h, _)| h != from)
            .map(|(h, cost)| {
                let stop = rules.idx(h).is_some_and(|i| control[i] & CONTROLLED != 0);
                let mut path = reach.path(h).unwrap_or_default();
                if path.first() == Some(&from) {
                    path.remove(0);
                }
                Reached { hex: h, cost, path, stop }
            })
            .collect();
        out.sort_by_key(|r| (r.cost, rules.idx(r.hex)));
        Ok(out)
    })
}
