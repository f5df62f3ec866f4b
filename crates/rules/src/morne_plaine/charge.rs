//! Cavalry charges (docs/rules/morne-plaine.md, MP-CHG-1 to MP-CHG-29, MP-DEM-5).
//!
//! A charging action (MP-CHG-6) is two straight hexes: the unit steps onto a clear hex,
//! and its next step in the same direction, onto another clear hex next to an enemy in
//! line, is the charge (MP-CHG-7). The engine sends that second step as an
//! [`super::Action::Charge`], offered in the legal list exactly when it is valid
//! (MP-CHG-10), in place of the plain step.

use super::movement::{self, Priced};
use super::side_bits as sb;
use super::units::Class;
use super::zones_of_control::CONTROLLED;
use super::{bombardment, combat};
use super::{Event, MornePlaine, State};
use grognard_engine::{Chance, Ctx, Preview, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// Terrains whose units cannot be the target of a charge (MP-CHG-8), besides towns
/// ([`MornePlaine::is_town`], MP-TER-4: villages too).
const NO_TARGET: [&str; 3] = ["woods", "dune", "palm_grove"];

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
    RiverCrossing,
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
            NoCharge::RiverCrossing => Refusal::new(
                "MP-CHG-24",
                "cavalry may charge through a bridge over a stream only: never across a river, at a bridge or a ford",
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
        occupant: impl Fn(Hex) -> Option<UnitId>,
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
        let run = match state.moving {
            Some((m, d, clear)) if m == u => Some((d, clear)),
            _ => None,
        };
        self.charge_from(c.side, here, run, dir, occupant)
    }

    /// [`MornePlaine::charge_target`] for a mounted, steady unit of `side` standing on
    /// `here`, whose last step (if it is still selected) went toward `run.0`, onto clear
    /// terrain when `run.1`: also for the route search, which asks about hexes the unit
    /// has not reached yet.
    pub(crate) fn charge_from(
        &self,
        side: u8,
        here: Hex,
        run: Option<(Direction, bool)>,
        dir: Direction,
        occupant: impl Fn(Hex) -> Option<UnitId>,
    ) -> Result<UnitId, NoCharge> {
        // MP-CHG-6, MP-CHG-7, MP-CHG-12: the charge continues, in one piece, a step just
        // taken by this unit in the same direction onto clear terrain; moving another
        // unit in between cancels it (MP-CHG-13: a new run-up starts a new one).
        match run {
            Some((d, true)) if d == dir => {}
            Some((d, false)) if d == dir => return Err(NoCharge::RunUpNotClear),
            _ => return Err(NoCharge::NoRunUp),
        }
        let next = here.neighbor(dir);
        let target_hex = next.neighbor(dir);
        // MP-CHG-5: the hexes crossed are clear terrain (roads and tracks do not matter).
        if !self.cell_is(next, super::cell_bits::CLEAR) {
            return Err(NoCharge::NotClear(next));
        }
        // MP-CHG-4: the target is an enemy in line with the movement.
        let target = occupant(target_hex)
            .filter(|t| self.counters[t.index()].side != side)
            .ok_or(NoCharge::NoEnemy(target_hex))?;
        // MP-CHG-8: units in woods, dunes, palm groves and towns (MP-TER-4: villages
        // too) cannot be charged; MP-CHG-9: any other terrain of the target's hex makes
        // no difference.
        if self.is_town(target_hex) || NO_TARGET.contains(&self.terrain_name(target_hex)) {
            return Err(NoCharge::Sheltered(target_hex));
        }
        // MP-CHG-24: through a bridge over a stream only. Reading: "If the bridge is over
        // a river, cavalry may not charge": no hexside of the charging action (the
        // run-up, the charging step, the strike into the target's hex) crosses a river
        // or a major river, at a bridge or at a ford alike; a ford is no better a
        // crossing for a charge than a bridge.
        let back = here.neighbor(dir.opposite());
        if [(back, dir), (here, dir), (next, dir)]
            .iter()
            .any(|&(h, d)| self.flags(h, d) & sb::RIVER_CROSSING != 0)
        {
            return Err(NoCharge::RiverCrossing);
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
            .charge_target(state, u, dir, |h| self.occupant_in(&occ, h))
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
        if !priced.affordable(state.units[u.index()].mp) {
            return Err(Refusal::new(
                "MP-CHG-14",
                format!(
                    "{} lacks the movement points to carry out the charging action in one piece",
                    self.unit_name(u)
                ),
            ));
        }
        let test = self.morale_test(state, u, target, to, dir);
        let mut reasons = vec![
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
        let fire = &self.data.reaction_fire;
        if fire.fires[self.counters[target.index()].class.column()]
            && !self.demoralised(state, target)
        {
            reasons.push(Reason::new(
                "MP-CHG-29",
                format!(
                    "if it holds, {} fires at the charger: 1d{} of {} or more costs a morale point, {} or more a strength point",
                    self.unit_name(target),
                    fire.sides,
                    fire.morale,
                    fire.strength
                ),
            ));
        }
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
    // MP-CHG-28: the charging action is one piece; whether it ends in an enemy zone of
    // control (MP-MOV-8) is judged where it ends, once the charge is resolved.
    let priced = Priced {
        stop: false,
        why: check.priced.why & !movement::why::ENTER_ZOC,
        ..check.priced
    };
    movement::step(rules, state, u, from, check.dir, priced, ctx);
    let at = from.neighbor(check.dir);
    let test = rules.morale_test(state, u, target, at, check.dir);
    // MP-CHG-11: a number from 1 to 9, corrected by the strength difference
    // (MP-CHG-15); greater than the morale value fails.
    let roll = ctx.roll_for(MORALE_DIE, || {
        format!(
            "MP-CHG-11: morale test of {} charged by {}",
            rules.unit_name(target),
            rules.unit_name(u)
        )
    });
    let result = i32::try_from(roll).unwrap_or(i32::MAX) + test.modifier;
    let success = result > test.morale;
    ctx.emit_with(|| Event::Charged {
        unit: u,
        target,
        morale: test.morale,
        modifier: test.modifier,
        result,
        success,
    });
    // MP-CHG-13, MP-CHG-28: the charging action is over; a new one needs a new run-up
    // (the charger's move into the target's place is no step of its own).
    state.moving = None;
    if !success {
        // MP-CHG-25: the target faces up to the charge, which has no effect on it;
        // MP-CHG-29: it may answer with reaction fire.
        reaction_fire(rules, state, target, u, ctx);
        halt_in_zoc(rules, state, u, ctx);
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
        combat::take_hex(rules, state, u, target_hex, "MP-CHG-17", ctx);
    }
    let s = &mut state.units[u.index()];
    s.charged = Some(target);
    // MP-VICU-1: a unit that made an enemy retreat or eliminated it is victorious.
    s.victorious = true;
    halt_in_zoc(rules, state, u, ctx);
}

/// MP-CHG-28, MP-MOV-8: a charge does not end the charger's movement by itself: it goes
/// on with the points it has left ("The mounted unit may carry out a new charging action
/// later in the movement phase provided its remaining movement allowance is high
/// enough"), unless the hex where the charging action ended (the target's, after a
/// success; the one next to it, after a failure) is in an enemy zone of control.
fn halt_in_zoc(rules: &MornePlaine, state: &mut State, u: UnitId, ctx: &mut Ctx<'_, Event>) {
    let Some(hex) = state.units[u.index()].hex else {
        return;
    };
    let Some(i) = rules.idx(hex) else {
        return;
    };
    let side = rules.counters[u.index()].side;
    let [bits] = rules.control_at(state, side, [(hex, i)]);
    if bits & CONTROLLED != 0 {
        state.units[u.index()].stopped = true;
        ctx.emit_with(|| Event::Halted {
            unit: u,
            rule: "MP-MOV-8".into(),
            reason: format!(
                "the charge ended in an enemy zone of control at {}: its movement ends",
                rules.label(hex)
            ),
        });
    }
}

/// MP-CHG-29 (provisional; the text: "if the morale check is successful a reaction fire
/// may occur", its "Reaction fire" chapter is not recovered): a charged unit that faced
/// up to the charge fires at the charger if its class fires and it is not demoralised
/// (MP-DEM-3: it cannot attack); the die reads off `[reaction_fire]` in `data.toml`.
fn reaction_fire(
    rules: &MornePlaine,
    state: &mut State,
    firer: UnitId,
    charger: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let table = &rules.data.reaction_fire;
    let class = rules.counters[firer.index()].class;
    if !table.fires[class.column()]
        || rules.demoralised(state, firer)
        || state.units[firer.index()].hex.is_none()
    {
        return;
    }
    let roll = ctx.roll_for(table.sides, || {
        format!(
            "MP-CHG-29: reaction fire of {} at {}",
            rules.unit_name(firer),
            rules.unit_name(charger)
        )
    });
    let roll = i32::try_from(roll).unwrap_or(i32::MAX);
    let at = (table.strength, table.morale);
    bombardment::fire_loss(rules, state, charger, roll, at, "MP-CHG-29", ctx);
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
