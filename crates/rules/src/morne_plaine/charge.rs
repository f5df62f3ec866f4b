//! Cavalry charges (morne-plaine-movement.txt, "Cavalry charges" to "Charge through
//! bridge").

use super::movement::{self, Priced};
use super::side_bits as sb;
use super::units::Class;
use super::{Event, MornePlaine, State};
use grognard_engine::{Chance, Ctx, Preview, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// Terrains whose units cannot be the target of a charge (MP-CHG-8).
const NO_TARGET: [&str; 4] = ["woods", "dune", "palm_grove", "town"];

/// The faces of the morale number (MP-CHG-11: 1 to 9).
const MORALE_DIE: u32 = 9;

/// A checked charging action.
pub(crate) struct ChargeCheck {
    pub dir: Direction,
    pub priced: Priced,
    pub reasons: Vec<Reason>,
}

/// The numbers of a charge's morale test.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoraleTest {
    /// The target's morale value after slope and stream modifiers.
    pub morale: i32,
    /// Charger's strength minus the target's, added to the roll.
    pub modifier: i32,
}

impl MornePlaine {
    /// The enemy unit a step of `u` in `dir` would charge, if that step is a charging
    /// action (MP-CHG-1 to MP-CHG-10, MP-CHG-24, MP-DEM-5).
    pub(crate) fn charge_target(&self, state: &State, u: UnitId, dir: Direction) -> Option<UnitId> {
        self.charge_problem(state, u, dir).ok()
    }

    fn charge_problem(&self, state: &State, u: UnitId, dir: Direction) -> Result<UnitId, Refusal> {
        let c = &self.counters[u.index()];
        let name = &c.id;
        // MP-CHG-1, MP-CHG-2: only mounted units charge; dromedaries are not mounted.
        if !c.mounted {
            return Err(Refusal::new("MP-CHG-1", format!("{name} is not mounted: only mounted units charge")));
        }
        // MP-DEM-5: a demoralised unit cannot charge.
        if self.demoralised(state, u) {
            return Err(Refusal::new("MP-DEM-5", format!("{name} is demoralised and cannot charge")));
        }
        let here = state.units[u.index()].hex.ok_or_else(|| Refusal::new("MP-CMB-20", "eliminated"))?;
        // MP-CHG-6, MP-CHG-12, MP-CHG-13: the charge continues, in one piece, a step just
        // taken by this unit in the same direction onto clear terrain.
        match state.moving {
            Some((m, d, clear)) if m == u && d == dir && clear => {}
            Some((m, d, _)) if m == u && d == dir => {
                return Err(Refusal::new("MP-CHG-5", format!("{name} did not run up over clear terrain")));
            }
            _ => {
                return Err(Refusal::new(
                    "MP-CHG-6",
                    format!("a charging action is two straight hexes: {name} must first step in this direction onto clear terrain, and stay selected"),
                ))
            }
        }
        let next = here.neighbor(dir);
        let target_hex = next.neighbor(dir);
        // MP-CHG-5: the hexes crossed are clear terrain (roads and tracks do not matter).
        if !self.is(next, "clear") {
            return Err(Refusal::new("MP-CHG-5", format!("{} is not clear terrain", self.label(next))));
        }
        // MP-CHG-4: the target is in line with the movement.
        let target = Self::occupant(state, target_hex)
            .filter(|t| self.counters[t.index()].side != c.side)
            .ok_or_else(|| {
                Refusal::new("MP-CHG-4", format!("no enemy unit in line at {}", self.label(target_hex)))
            })?;
        // MP-CHG-8: units in woods, dunes, palm groves and towns cannot be charged.
        let t = self.terrain_name(target_hex);
        if NO_TARGET.contains(&t) {
            return Err(Refusal::new("MP-CHG-8", format!("a unit in {t} cannot be the target of a charge")));
        }
        // MP-CHG-24: never through a bridge over a river.
        let back = here.neighbor(dir.opposite());
        if [(back, dir), (here, dir), (next, dir)]
            .iter()
            .any(|&(h, d)| self.flags(h, d) & sb::RIVER_BRIDGE != 0)
        {
            return Err(Refusal::new("MP-CHG-24", "cavalry may not charge through a bridge over a river"));
        }
        if self.flags(next, dir) & sb::IMPASSABLE != 0 {
            return Err(Refusal::new("MP-MOV-6", "the charger could not cross into the target's hex"));
        }
        Ok(target)
    }

    /// Checks a charge.
    pub(crate) fn check_charge(&self, state: &State, u: UnitId, target: UnitId) -> Result<ChargeCheck, Refusal> {
        if target.index() >= self.counters.len() {
            return Err(Refusal::new("request", "no such target"));
        }
        let (from, m) = self.may_move(state, u)?;
        let dir = match state.moving {
            Some((mu, d, _)) if mu == u => d,
            _ => {
                return Err(Refusal::new(
                    "MP-CHG-6",
                    format!("{} has not just stepped toward a target: a charging action is two straight hexes", self.unit_name(u)),
                ))
            }
        };
        let found = self.charge_problem(state, u, dir)?;
        if found != target {
            return Err(Refusal::new(
                "MP-CHG-4",
                format!("{} is not in line with the movement of {}", self.unit_name(target), self.unit_name(u)),
            ));
        }
        let control = self.control_map(state, self.counters[u.index()].side);
        let to = from.neighbor(dir);
        let priced = self
            .price(self.mover(state, u), from, m, dir, &control, |h| Self::occupant(state, h).is_some())
            .map_err(|_| Refusal::new("MP-MOV-6", format!("{} cannot step into {}", self.unit_name(u), self.label(to))))?;
        if priced.cost > state.units[u.index()].mp {
            return Err(Refusal::new(
                "MP-CHG-14",
                format!("{} lacks the movement points to finish the charging action", self.unit_name(u)),
            ));
        }
        let test = self.morale_test(state, u, target, to, dir);
        let reasons = vec![
            Reason::new("MP-CHG-3", format!("{} charges {}", self.unit_name(u), self.unit_name(target))),
            Reason::new(
                "MP-CHG-11",
                format!(
                    "the target fails if 1d9 {:+} is greater than its morale {}",
                    test.modifier, test.morale
                ),
            ),
        ];
        Ok(ChargeCheck { dir, priced, reasons })
    }

    /// MP-CHG-11, MP-CHG-15, MP-CHG-16, MP-CHG-18: the morale test's numbers for a charge
    /// from `at` (the hex next to the target, reached in `dir`).
    pub(crate) fn morale_test(&self, state: &State, u: UnitId, target: UnitId, at: Hex, dir: Direction) -> MoraleTest {
        let t = &self.counters[target.index()];
        let ts = &state.units[target.index()];
        // MP-CHG-18: a leader's morale is simulated: strength plus stripes.
        let mut morale = if t.class == Class::Leader {
            i32::from(ts.cs) + i32::from(t.stripes)
        } else {
            i32::from(ts.mv)
        };
        let flags = self.flags(at, dir);
        let target_hex = at.neighbor(dir);
        // MP-CHG-16: uphill through a slope +1, downhill -1; through a stream +1.
        if flags & sb::SLOPE != 0 {
            morale += (i32::from(self.elev(target_hex)) - i32::from(self.elev(at))).signum();
        }
        if flags & sb::STREAM != 0 {
            morale += 1;
        }
        // MP-CHG-15: the strength difference corrects the roll.
        let modifier = i32::from(state.units[u.index()].cs) - i32::from(ts.cs);
        MoraleTest { morale, modifier }
    }
}

/// Carries out a checked charge: the step, the morale test and its outcome.
pub(crate) fn apply_charge(rules: &MornePlaine, state: &mut State, u: UnitId, target: UnitId, ctx: &mut Ctx<'_, Event>) {
    let check = rules.check_charge(state, u, target).expect("checked");
    let from = state.units[u.index()].hex.expect("checked");
    movement::step(rules, state, u, from, check.dir, check.priced, ctx);
    let at = from.neighbor(check.dir);
    let test = rules.morale_test(state, u, target, at, check.dir);
    let roll = ctx.roll(
        MORALE_DIE,
        format!("MP-CHG-11: morale test of {} charged by {}", rules.unit_name(target), rules.unit_name(u)),
    );
    let result = i32::try_from(roll).unwrap_or(i32::MAX) + test.modifier;
    let success = result > test.morale;
    ctx.emit(Event::Charged {
        unit: u,
        target,
        morale: test.morale,
        modifier: test.modifier,
        result,
        success,
    });
    state.units[u.index()].stopped = true;
    state.moving = None;
    if !success {
        // MP-CHG-25: reaction fire after a failed charge is not recovered (REFERENCE.md);
        // the charge simply has no effect.
        return;
    }
    let target_hex = state.units[target.index()].hex.expect("target on map");
    match rules.counters[target.index()].class {
        // MP-CHG-23: artillery never retreats and is eliminated.
        Class::Artillery => rules.eliminate(state, target, "MP-CHG-23", "artillery failing a charge's morale test is eliminated".into(), ctx),
        // MP-CHG-22: a leader retreats like the others; its morale is not touched.
        Class::Leader => {
            rules.retreat(state, target, u, ctx);
        }
        // MP-CHG-19, MP-CHG-20: retreat one hex, lose 1 morale plus 1 per zone entered.
        Class::Infantry | Class::Cavalry => {
            if let Some(zones) = rules.retreat(state, target, u, ctx) {
                rules.lose_morale(state, target, 1 + zones, "MP-CHG-19", ctx);
            }
        }
    }
    // MP-CHG-17: the charger takes the target's place, with x1.5 strength against it in
    // the attack that follows.
    if MornePlaine::occupant(state, target_hex).is_none() {
        state.units[u.index()].hex = Some(target_hex);
        rules.take_place(state, target_hex);
        ctx.emit(Event::TookHex {
            unit: u,
            to: target_hex,
            rule: "MP-CHG-17".into(),
        });
    }
    let s = &mut state.units[u.index()];
    s.charged = Some(target);
    // MP-CMB-32: a unit that made an enemy retreat or eliminated it is victorious.
    s.victorious = true;
}

/// The chance that the target fails its morale test (the charge succeeds).
pub(crate) fn preview(rules: &MornePlaine, state: &State, u: UnitId, target: UnitId) -> Result<Preview, Refusal> {
    let check = rules.check_charge(state, u, target)?;
    let from = state.units[u.index()].hex.expect("checked");
    let at = from.neighbor(check.dir);
    let test = rules.morale_test(state, u, target, at, check.dir);
    let fails = (1..=MORALE_DIE)
        .filter(|&r| i32::try_from(r).unwrap_or(i32::MAX) + test.modifier > test.morale)
        .count() as u64;
    let die = u64::from(MORALE_DIE);
    Ok(Preview {
        roll: "1d9 morale test".into(),
        inputs: serde_json::json!({ "morale": test.morale, "modifier": test.modifier }),
        outcomes: vec![
            Chance::new(serde_json::json!({ "charge": "succeeds" }), fails, die),
            Chance::new(serde_json::json!({ "charge": "fails" }), die - fails, die),
        ],
        reasons: check.reasons,
    })
}
