//! The bombardment phase (docs/rules/morne-plaine.md, MP-BMB-1 to MP-BMB-5: recovered;
//! the results are provisional).

use super::side_bits as sb;
use super::units::Class;
use super::{Action, Event, MornePlaine, Phase, State};
use grognard_engine::{Chance, Ctx, Preview, Reason, Refusal, UnitId};
use grognard_hex::los::{steps, LineStep};
use grognard_hex::Hex;

/// Why a battery may not fire (cheap; turned into a refusal on demand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoFire {
    NoSuchUnit,
    WrongPhase,
    NotBattery,
    WrongSide,
    OffMap,
    Fired,
    NoEnemy,
    Range(u32),
    NoSight,
}

impl NoFire {
    pub(crate) fn refusal(
        self,
        rules: &MornePlaine,
        state: &State,
        u: UnitId,
        target: Hex,
    ) -> Refusal {
        let Some(c) = rules.counters.get(u.index()) else {
            return Refusal::new("request", "no such unit");
        };
        match self {
            NoFire::NoSuchUnit => Refusal::new("request", "no such unit"),
            NoFire::WrongPhase => Refusal::new(
                "MP-BMB-1",
                format!(
                    "batteries fire in the bombardment phase; this is the {} phase",
                    state.phase.name()
                ),
            ),
            NoFire::NotBattery => Refusal::new(
                "MP-BMB-1",
                format!("{} is not a battery", rules.unit_name(u)),
            ),
            NoFire::WrongSide => Refusal::new(
                "MP-BMB-1",
                format!(
                    "{} belongs to {}",
                    rules.unit_name(u),
                    rules.side_title(c.side)
                ),
            ),
            NoFire::OffMap => Refusal::new(
                "MP-CMB-20",
                format!("{} is not on the map", rules.unit_name(u)),
            ),
            NoFire::Fired => Refusal::new(
                "MP-BMB-1",
                format!(
                    "{} has already fired this phase: each battery fires once",
                    rules.unit_name(u)
                ),
            ),
            NoFire::NoEnemy => Refusal::new(
                "MP-BMB-1",
                format!("no enemy unit at {}", rules.label(target)),
            ),
            NoFire::Range(distance) => Refusal::new(
                "MP-BMB-1",
                format!(
                    "{} is {distance} hexes away; {}'s range is {}",
                    rules.label(target),
                    rules.unit_name(u),
                    c.range
                ),
            ),
            NoFire::NoSight => Refusal::new(
                "MP-BMB-2",
                format!(
                    "{} cannot see {}: the line of sight is blocked",
                    rules.unit_name(u),
                    rules.label(target)
                ),
            ),
        }
    }
}

impl MornePlaine {
    /// MP-BMB-2: whether a hex blocks a battery's line of sight: woods, towns, forts,
    /// dunes, palm groves (the terrain table's `blocks_sight`), and slope hexes: hexes
    /// higher than both ends of the line. Marsh, rough ground and units never block.
    fn blocks_sight(&self, hex: Hex, from: Hex, to: Hex) -> bool {
        self.row(hex).is_some_and(|r| r.blocks_sight)
            || self.elev(hex) > self.elev(from).max(self.elev(to))
    }

    /// MP-BMB-2, MP-BMB-3: line of sight from centre to centre; along a hexside it is
    /// blocked only when the hexes on both sides block; a slope hexside crossed between
    /// the ends blocks.
    pub(crate) fn line_of_sight(&self, from: Hex, to: Hex) -> bool {
        let mut prev: Option<Hex> = None;
        for step in steps(from, to) {
            match step {
                LineStep::Hex(h) => {
                    if let Some(p) = prev {
                        // A slope hexside crossed away from both ends hides the target.
                        if let Some(d) = p.direction_to(h) {
                            let ends = p == from || h == to;
                            if !ends && self.flags(p, d) & sb::SLOPE != 0 {
                                return false;
                            }
                        }
                    }
                    if h != from && h != to && self.blocks_sight(h, from, to) {
                        return false;
                    }
                    prev = Some(h);
                }
                LineStep::Edge(a, b) => {
                    if self.blocks_sight(a, from, to) && self.blocks_sight(b, from, to) {
                        return false;
                    }
                    prev = None;
                }
            }
        }
        true
    }

    /// MP-BMB-1: whether `u` is a battery of the side to move that may fire now, and
    /// from which hex; cheap, for the legal list (the refusal is built by [`NoFire::refusal`]).
    #[inline]
    pub(crate) fn can_fire(&self, state: &State, u: UnitId) -> Result<Hex, NoFire> {
        let c = self.counters.get(u.index()).ok_or(NoFire::NoSuchUnit)?;
        if state.phase != Phase::Bombardment {
            return Err(NoFire::WrongPhase);
        }
        if c.class != Class::Artillery {
            return Err(NoFire::NotBattery);
        }
        if c.side != state.active {
            return Err(NoFire::WrongSide);
        }
        let s = &state.units[u.index()];
        let at = s.hex.ok_or(NoFire::OffMap)?;
        // MP-BMB-1: each battery fires once per bombardment phase.
        if s.fired {
            return Err(NoFire::Fired);
        }
        Ok(at)
    }

    /// MP-BMB-1, MP-BMB-2: whether a battery of `side` with range `range` at `at` may fire
    /// at `target`, where `victim` stands: an enemy unit in range and in line of sight;
    /// the distance when it may.
    #[inline]
    pub(crate) fn fire_at(
        &self,
        side: u8,
        range: u8,
        at: Hex,
        target: Hex,
        victim: Option<UnitId>,
    ) -> Result<u32, NoFire> {
        if victim.is_none_or(|v| self.counters[v.index()].side == side) {
            return Err(NoFire::NoEnemy);
        }
        let distance = at.distance(target);
        if distance == 0 || distance > u32::from(range) {
            return Err(NoFire::Range(distance));
        }
        if !self.line_of_sight(at, target) {
            return Err(NoFire::NoSight);
        }
        Ok(distance)
    }

    /// Checks a battery's fire at a hex: [`MornePlaine::can_fire`], then
    /// [`MornePlaine::fire_at`] the unit there.
    pub(crate) fn check_bombard(
        &self,
        state: &State,
        u: UnitId,
        target: Hex,
    ) -> Result<(UnitId, u32), Refusal> {
        let refuse = |e: NoFire| e.refusal(self, state, u, target);
        let at = self.can_fire(state, u).map_err(refuse)?;
        let c = &self.counters[u.index()];
        let victim = Self::occupant(state, target);
        let distance = self
            .fire_at(c.side, c.range, at, target, victim)
            .map_err(refuse)?;
        Ok((victim.expect("an enemy unit"), distance))
    }

    fn bombard_final(&self, u: UnitId, distance: u32, roll: u32) -> i32 {
        i32::try_from(roll).unwrap_or(0) + i32::from(self.counters[u.index()].bv)
            - i32::try_from(distance).unwrap_or(0)
    }
}

/// MP-BMB-1: every legal fire of the side's batteries: each battery that may fire
/// ([`MornePlaine::can_fire`]), at each unit's hex it may fire at
/// ([`MornePlaine::fire_at`]).
pub(crate) fn legal_bombards(rules: &MornePlaine, state: &State, out: &mut Vec<Action>) {
    for &i in &rules.side_units[usize::from(state.active)] {
        let u = UnitId(i);
        let Ok(at) = rules.can_fire(state, u) else {
            continue;
        };
        let c = &rules.counters[u.index()];
        for (j, e) in state.units.iter().enumerate() {
            let Some(h) = e.hex else { continue };
            let victim = UnitId(u16::try_from(j).expect("unit count fits u16"));
            if rules.fire_at(c.side, c.range, at, h, Some(victim)).is_ok() {
                out.push(Action::Bombard { unit: u, target: h });
            }
        }
    }
}

/// Whether the side has any battery that can fire (MP-TURN-2).
pub(crate) fn any_fire(rules: &MornePlaine, state: &State) -> bool {
    let mut v = Vec::new();
    legal_bombards(rules, state, &mut v);
    !v.is_empty()
}

/// Fires a checked battery.
pub(crate) fn apply_bombard(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    target: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let (victim, distance) = rules.check_bombard(state, u, target).expect("checked");
    let table = &rules.data.bombardment;
    let roll = ctx.roll_for(table.sides, || {
        format!(
            "MP-BMB-5: {} bombards {}",
            rules.unit_name(u),
            rules.label(target)
        )
    });
    let final_ = rules.bombard_final(u, distance, roll);
    // MP-BMB-1: once per phase; MP-BMB-4: a battery that fired cannot move in the
    // following movement phase.
    state.units[u.index()].fired = true;
    ctx.emit_with(|| Event::Bombarded {
        unit: u,
        target: victim,
        result: final_,
    });
    // MP-BMB-5 (provisional): the results table.
    let at = (table.strength, table.morale);
    fire_loss(rules, state, victim, final_, at, "MP-BMB-5", ctx);
}

/// MP-BMB-5, MP-CHG-29 (provisional tables): what a fire's final number costs its
/// target: a strength point from the first threshold up, else a morale point from the
/// second up.
pub(crate) fn fire_loss(
    rules: &MornePlaine,
    state: &mut State,
    target: UnitId,
    result: i32,
    (strength, morale): (i32, i32),
    rule: &str,
    ctx: &mut Ctx<'_, Event>,
) {
    if result >= strength {
        rules.lose_points(state, target, 0, 1, rule, ctx);
    } else if result >= morale {
        rules.lose_morale(state, target, 1, rule, ctx);
    }
}

/// The exact distribution of a bombardment's results.
pub(crate) fn preview(
    rules: &MornePlaine,
    state: &State,
    u: UnitId,
    target: Hex,
) -> Result<Preview, Refusal> {
    let (victim, distance) = rules.check_bombard(state, u, target)?;
    let table = &rules.data.bombardment;
    let (mut hit, mut shaken) = (0u64, 0u64);
    for roll in 1..=table.sides {
        let f = rules.bombard_final(u, distance, roll);
        if f >= table.strength {
            hit += 1;
        } else if f >= table.morale {
            shaken += 1;
        }
    }
    let sides = u64::from(table.sides);
    Ok(Preview {
        roll: format!("1d{sides} + BV - range"),
        inputs: serde_json::json!({ "bv": rules.counters[u.index()].bv, "distance": distance, "target": rules.unit_id(victim) }),
        outcomes: vec![
            Chance::new(serde_json::json!({ "loss": "strength" }), hit, sides),
            Chance::new(serde_json::json!({ "loss": "morale" }), shaken, sides),
            Chance::new(
                serde_json::json!({ "loss": "none" }),
                sides - hit - shaken,
                sides,
            ),
        ],
        reasons: vec![Reason::new(
            "MP-BMB-5",
            "the bombardment results table (provisional)",
        )],
    })
}
