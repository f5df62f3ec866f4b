//! Cavalry charges (morne-plaine-movement.txt, "Cavalry charges" to "Charge through
//! bridge").
//!
//! A charging action (MP-CHG-6) is two straight hexes: the unit steps onto a clear hex,
//! and its next step in the same direction, onto another clear hex next to an enemy in
//! line, is the charge (MP-CHG-7). The engine sends that second step as an
//! [`super::Action::Charge`], offered in the legal list exactly when it is valid
//! (MP-CHG-10), in place of the plain step.

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

/// Why a step is not a charging action (cheap; turned into a refusal on demand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoCharge {
    NotMounted,
    Demoralised,
    Eliminated,
    NoRunUp,
    RunUpNotClear,
    NotClear(Hex),
    NoEnemy(Hex),
    Sheltered(Hex),
    RiverBridge,
    Impassable,
}

impl NoCharge {
    pub(crate) fn refusal(self, rules: &MornePlaine, u: UnitId) -> Refusal {
        let name = rules.unit_name(u);
        match self {
            NoCharge::NotMounted => Refusal::new(
                "MP-CHG-1",
                format!("{name} is not mounted: only mounted units charge (dromedaries are never mounted, MP-CHG-2)"),
            ),
            NoCharge::Demoralised => Refusal::new("MP-DEM-5", format!("{name} is demoralised and cannot charge")),
            NoCharge::Eliminated => Refusal::new("MP-CMB-20", format!("{name} has been eliminated")),
            NoCharge::NoRunUp => Refusal::new(
                "MP-CHG-6",
                format!("a charging action is two straight hexes: {name} must first step in this direction onto clear terrain, and stay selected (MP-CHG-12)"),
            ),
            NoCharge::RunUpNotClear => Refusal::new(
                "MP-CHG-5",
                format!("{name} did not run up over clear terrain: the hexes crossed must be clear"),
            ),
            NoCharge::NotClear(h) => Refusal::new(
                "MP-CHG-5",
                format!("{} is not clear terrain: the hexes a charge crosses must be clear (roads and tracks do not count)", rules.label(h)),
            ),
            NoCharge::NoEnemy(h) => Refusal::new(
                "MP-CHG-4",
                format!("no enemy unit in line with the movement at {}", rules.label(h)),
            ),
            NoCharge::Sheltered(h) => Refusal::new(
                "MP-CHG-8",
                format!("a unit in {} cannot be the target of a charge", rules.terrain_name(h)),
            ),
            NoCharge::RiverBridge => Refusal::new(
                "MP-CHG-24",
                "cavalry may charge through a bridge over a stream only, never over a river",
            ),
            NoCharge::Impassable => Refusal::new(
                "MP-MOV-6",
                "the charger could not cross into the target's hex",
            ),
        }
    }
}

impl MornePlaine {
    /// The enemy unit a step of `u` in `dir` would charge, if that step is a charging
    /// action (MP-CHG-1 to MP-CHG-10, MP-CHG-24, MP-DEM-5). `occ` is the board's
    /// [`MornePlaine::occupancy`].
    pub(crate) fn charge_target(
        &self,
        state: &State,
        u: UnitId,
        dir: Direction,
        occ: &[u16],
    ) -> Result<UnitId, NoCharge> {
        let c = &self.counters[u.index()];
        // MP-CHG-1, MP-CHG-2: only mounted units charge; dromedaries are not mounted.
        if !c.mounted {
            return Err(NoCharge::NotMounted);
        }
        // MP-DEM-5: a demoralised unit cannot charge.
        if self.demoralised(state, u) {
            return Err(NoCharge::Demoralised);
        }
        let here = state.units[u.index()].hex.ok_or(NoCharge::Eliminated)?;
        // MP-CHG-6, MP-CHG-7, MP-CHG-12: the charge continues, in one piece, a step just
        // taken by this unit in the same direction onto clear terrain; moving another
        // unit in between cancels it (MP-CHG-13: a new run-up starts a new one).
        match state.moving {
            Some((m, d, true)) if m == u && d == dir => {}
            Some((m, d, false)) if m == u && d == dir => return Err(NoCharge::RunUpNotClear),
            _ => return Err(NoCharge::NoRunUp),
        }
        let next = here.neighbor(dir);
        let target_hex = next.neighbor(dir);
        // MP-CHG-5: the hexes crossed are clear terrain (roads and tracks do not matter).
        if !self.cell_is(next, super::cell_bits::CLEAR) {
            return Err(NoCharge::NotClear(next));
        }
        // MP-CHG-4: the target is an enemy in line with the movement.
        let target = self
            .occupant_in(occ, target_hex)
            .filter(|t| self.counters[t.index()].side != c.side)
            .ok_or(NoCharge::NoEnemy(target_hex))?;
        // MP-CHG-8: units in woods, dunes, palm groves and towns cannot be charged;
        // MP-CHG-9: any other terrain of the target's hex makes no difference.
        if NO_TARGET.contains(&self.terrain_name(target_hex)) {
            return Err(NoCharge::Sheltered(target_hex));
        }
        // MP-CHG-24: through a bridge over a stream, never over a river.
        let back = here.neighbor(dir.opposite());
        if [(back, dir), (here, dir), (next, dir)]
            .iter()
            .any(|&(h, d)| self.flags(h, d) & sb::RIVER_BRIDGE != 0)
        {
            return Err(NoCharge::RiverBridge);
        }
        if self.flags(next, dir) & sb::IMPASSABLE != 0 {
            return Err(NoCharge::Impassable);
        }
        Ok(target)
    }

    /// Checks a charge.
    pub(crate) fn check_charge(
        &self,
        state: &State,
        u: UnitId,
        target: UnitId,
    ) -> Result<ChargeCheck, Refusal> {
        if target.index() >= self.counters.len() {
            return Err(Refusal::new("request", "no such target"));
        }
        let (from, m) = self.may_move(state, u)?;
        let dir = match state.moving {
            Some((mu, d, _)) if mu == u => d,
            _ => return Err(NoCharge::NoRunUp.refusal(self, u)),
        };
        let occ = self.occupancy(state);
        let found = self
            .charge_target(state, u, dir, &occ)
            .map_err(|e| e.refusal(self, u))?;
        if found != target {
            return Err(Refusal::new(
                "MP-CHG-4",
                format!(
                    "{} is not in line with the movement of {}",
                    self.unit_name(target),
                    self.unit_name(u)
                ),
            ));
        }
        let control = self.control_map(state, self.counters[u.index()].side);
        let to = from.neighbor(dir);
        let priced = self
            .price(self.mover(state, u), from, m, dir, &control, &occ)
            .map_err(|b| b.refusal(self, to))?;
        // MP-CHG-14: the charging action is carried out in one piece: the allowance
        // must pay for its step.
        if priced.cost > state.units[u.index()].mp {
            return Err(Refusal::new(
                "MP-CHG-14",
                format!(
                    "{} lacks the movement points to carry out the charging action in one piece",
                    self.unit_name(u)
                ),
            ));
        }
        let test = self.morale_test(state, u, target, to, dir);
        let reasons = vec![
            Reason::new(
                "MP-CHG-3",
                format!("{} charges {}", self.unit_name(u), self.unit_name(target)),
            ),
            Reason::new(
                "MP-CHG-11",
                format!(
                    "the target fails if 1d9 {:+} is greater than its morale {}",
                    test.modifier, test.morale
                ),
            ),
            Reason::new(
                "MP-CHG-15",
                format!(
                    "{:+}: the charger's strength minus the target's",
                    test.modifier
                ),
            ),
        ];
        Ok(ChargeCheck {
            dir,
            priced,
            reasons,
        })
    }

    /// MP-CHG-11, MP-CHG-15, MP-CHG-16, MP-CHG-18, MP-CHG-20: the morale test's numbers for
    /// a charge from `at` (the hex next to the target, reached in `dir`).
    ///
    /// Reading: the slope and the stream are those of the hexside between `at` and the
    /// target, through which the charge strikes.
    pub(crate) fn morale_test(
        &self,
        state: &State,
        u: UnitId,
        target: UnitId,
        at: Hex,
        dir: Direction,
    ) -> MoraleTest {
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
        // MP-CHG-16 (cumulative, MP-CHG-20): uphill through a slope +1, downhill -1;
        // through a stream +1.
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
pub(crate) fn apply_charge(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    target: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let check = rules.check_charge(state, u, target).expect("checked");
    let from = state.units[u.index()].hex.expect("checked");
    movement::step(rules, state, u, from, check.dir, check.priced, ctx);
    let at = from.neighbor(check.dir);
    let test = rules.morale_test(state, u, target, at, check.dir);
    // MP-CHG-11: a number from 1 to 9, corrected by the strength difference
    // (MP-CHG-15); greater than the morale value fails.
    let roll = ctx.roll(
        MORALE_DIE,
        format!(
            "MP-CHG-11: morale test of {} charged by {}",
            rules.unit_name(target),
            rules.unit_name(u)
        ),
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
    // MP-CHG-28 (provisional): a charge, successful or not, ends the charger's
    // movement for the phase.
    let s = &mut state.units[u.index()];
    s.stopped = true;
    s.has_charged = true;
    state.moving = None;
    ctx.emit(Event::Halted {
        unit: u,
        rule: "MP-CHG-28".into(),
        reason: "a charge ends the charger's movement for this phase".into(),
    });
    if !success {
        // MP-CHG-25 (provisional): reaction fire after a failed charge is not recovered
        // (REFERENCE.md); the charge simply has no effect.
        return;
    }
    let target_hex = state.units[target.index()].hex.expect("target on map");
    match rules.counters[target.index()].class {
        // MP-CHG-23: artillery never retreats after a charge; failing, it is eliminated.
        Class::Artillery => rules.eliminate(
            state,
            target,
            "MP-CHG-23",
            "artillery failing a charge's morale test is eliminated".into(),
            ctx,
        ),
        // MP-CHG-22: a leader retreats like the others; its morale is not touched.
        Class::Leader => {
            rules.retreat(state, target, u, "MP-CHG-21", ctx);
        }
        // MP-CHG-19, MP-CHG-26: retreat one hex as after combat, lose 1 morale plus 1
        // per enemy zone of control entered besides the charger's; MP-CHG-27: once the
        // morale is gone the rest comes off the strength.
        Class::Infantry | Class::Cavalry => {
            if let Some(zones) = rules.retreat(state, target, u, "MP-CHG-21", ctx) {
                rules.lose_morale(state, target, 1 + zones, "MP-CHG-19", ctx);
            }
        }
    }
    // MP-CHG-17: the charger takes the target's place, with x1.5 strength in the attack
    // on it that follows.
    if MornePlaine::occupant(state, target_hex).is_none() {
        state.units[u.index()].hex = Some(target_hex);
        rules.take_place(state, u, target_hex);
        ctx.emit(Event::TookHex {
            unit: u,
            to: target_hex,
            rule: "MP-CHG-17".into(),
        });
    }
    let s = &mut state.units[u.index()];
    s.charged = Some(target);
    // MP-VICU-1: a unit that made an enemy retreat or eliminated it is victorious.
    s.victorious = true;
}

/// The chance that the target fails its morale test (the charge succeeds).
pub(crate) fn preview(
    rules: &MornePlaine,
    state: &State,
    u: UnitId,
    target: UnitId,
) -> Result<Preview, Refusal> {
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
