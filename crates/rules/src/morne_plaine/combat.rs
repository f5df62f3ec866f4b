//! The combat phase (docs/rules/morne-plaine.md, MP-CMB-*, MP-ADV-*, MP-VICU-1,
//! MP-ELIM-*, MP-DEM-*: support, odds, the die, results, morale checks, advance after
//! combat, victorious units, elimination, demoralisation).

use super::data::{Crt, CrtResult};
use super::side_bits as sb;
use super::units::Class;
use super::{Action, Event, MornePlaine, Phase, State};
use grognard_engine::{Chance, Ctx, Preview, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// The morale number's faces (MP-CMB-26: 1 to 9).
const MORALE_DIE: u32 = 9;
/// The combat die (MP-CMB-18: 1 to 6).
pub(crate) const COMBAT_DIE: u32 = 6;

/// A checked attack with everything that sets its odds and die.
#[derive(Clone, Debug)]
pub(crate) struct Battle {
    pub attack_support: Vec<UnitId>,
    pub defence_support: Vec<UnitId>,
    pub attack: u32,
    pub defence: u32,
    pub column: usize,
    pub modifier: i32,
    pub reasons: Vec<Reason>,
}

/// Why an attack is refused (cheap; turned into a refusal on demand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoAttack {
    NoSuchUnit,
    WrongPhase,
    WrongSide,
    Friendly,
    OffMap,
    Attacked,
    Defended,
    Demoralised,
    NotAdjacent,
    NoContact,
}

impl NoAttack {
    pub(crate) fn refusal(
        self,
        rules: &MornePlaine,
        state: &State,
        u: UnitId,
        target: UnitId,
    ) -> Refusal {
        let (Some(c), Some(_)) = (
            rules.counters.get(u.index()),
            rules.counters.get(target.index()),
        ) else {
            return Refusal::new("request", "no such unit");
        };
        match self {
            NoAttack::NoSuchUnit => Refusal::new("request", "no such unit"),
            NoAttack::WrongPhase => Refusal::new(
                "MP-CMB-1",
                format!(
                    "units attack in the combat phase; this is the {} phase",
                    state.phase.name()
                ),
            ),
            NoAttack::WrongSide => Refusal::new(
                "MP-CMB-1",
                format!(
                    "{} belongs to {}, and it is {}'s combat phase",
                    rules.unit_name(u),
                    rules.side_title(c.side),
                    rules.side_title(state.active)
                ),
            ),
            NoAttack::Friendly => {
                Refusal::new("MP-CMB-1", format!("{} is a friendly unit", rules.unit_name(target)))
            }
            NoAttack::OffMap => Refusal::new("MP-CMB-20", "both units must be on the map"),
            NoAttack::Attacked => Refusal::new(
                "MP-CMB-2",
                format!("{} has already attacked this combat phase", rules.unit_name(u)),
            ),
            NoAttack::Defended => Refusal::new(
                "MP-CMB-2",
                format!("{} has already been attacked this combat phase", rules.unit_name(target)),
            ),
            NoAttack::Demoralised => Refusal::new(
                "MP-DEM-3",
                format!("{} is demoralised and cannot attack", rules.unit_name(u)),
            ),
            NoAttack::NotAdjacent => Refusal::new(
                "MP-CMB-1",
                format!(
                    "{} is not adjacent to {}: attacks are on adjacent enemies",
                    rules.unit_name(target), rules.unit_name(u)
                ),
            ),
            NoAttack::NoContact => Refusal::new(
                "MP-CMB-5",
                "combat is not possible where movement is forbidden: across a river or a major river but at a bridge or a ford, or up or down a slope of more than one level",
            ),
        }
    }
}

impl MornePlaine {
    /// A unit's strength in an attack on or by `against`, as MP-CMB-11 corrects it:
    /// x1.5 rounded down after a successful charge on that unit (MP-CHG-17); then, for a
    /// unit of the defending side, by the type of terrain of its own hex (MP-CMB-30).
    pub(crate) fn strength(
        &self,
        state: &State,
        u: UnitId,
        against: UnitId,
        defending: bool,
    ) -> u32 {
        let s = &state.units[u.index()];
        let cs = u32::from(s.cs);
        let cs = if s.charged == Some(against) {
            cs * 3 / 2
        } else {
            cs
        };
        match s.hex {
            Some(hex) if defending => {
                let rank = self.ground_rank(hex, self.counters[u.index()].class);
                cs * self.data.combat_terrain.percent(rank) / 100
            }
            _ => cs,
        }
    }

    /// MP-CMB-3, MP-CMB-6, MP-CMB-7, MP-CMB-9, MP-CMB-10, MP-DEM-6: the units of `side`
    /// that support a fight against `opponent` (the defender, for offensive support; the
    /// attacker, for defensive support), `principal` aside: in contact with the opponent
    /// and with no other enemy, not demoralised; a victorious unit supports whatever its
    /// other contacts.
    fn supports(
        &self,
        state: &State,
        principal: UnitId,
        opponent: UnitId,
        occ: &[u16],
    ) -> Vec<UnitId> {
        let side = self.counters[principal.index()].side;
        let opp_hex = state.units[opponent.index()].hex.expect("on map");
        let mut out = Vec::new();
        for d in Direction::ALL {
            if self.flags(opp_hex, d) & sb::NO_COMBAT != 0 {
                continue;
            }
            let Some(s) = self.occupant_in(occ, opp_hex.neighbor(d)) else {
                continue;
            };
            if s == principal || self.counters[s.index()].side != side || self.demoralised(state, s)
            {
                continue;
            }
            if state.units[s.index()].victorious
                || self
                    .enemies_in_contact(state, s, occ)
                    .all(|e| e == opponent)
            {
                out.push(s);
            }
        }
        out
    }

    /// MP-ADV-3: the defensive rank of a hex's terrain for a unit's class, the hill
    /// aside. Artillery ranks as infantry (it never advances, MP-ADV-4; the rank sets
    /// its ground in MP-CMB-30).
    pub(crate) fn ground_rank(&self, hex: Hex, class: Class) -> i32 {
        let infantry_like = matches!(class, Class::Infantry | Class::Artillery);
        // MP-TER-4: a village is a town.
        let t = self.terrain_name(hex);
        match t {
            "dune" | "marsh" => -1,
            "fort" => 3,
            _ if infantry_like && (self.is_town(hex) || t == "woods") => 2,
            "hamlet" => 1,
            _ => 0,
        }
    }

    /// MP-ADV-3: the defensive rank of a hex for a unit's class in the advance after
    /// combat. A hill is any hex above level 0; the better of its terrain and its hill
    /// counts.
    pub(crate) fn rank(&self, hex: Hex, class: Class) -> i32 {
        let terrain = self.ground_rank(hex, class);
        if self.elev(hex) > 0 {
            terrain.max(1)
        } else {
            terrain
        }
    }

    /// MP-ADV-1: an "objective hex" for the advance after combat: towns, woods, hills
    /// and the scenario's objective places (MP-TER-4: a village is a town).
    fn is_objective(&self, hex: Hex) -> bool {
        self.is_town(hex)
            || self.terrain_name(hex) == "woods"
            || self.elev(hex) > 0
            || self
                .scenario
                .places
                .iter()
                .any(|p| p.objective && p.hex == hex)
    }

    /// MP-CMB-1, MP-CMB-2, MP-CMB-5, MP-CMB-8, MP-DEM-3: whether `u` may attack
    /// `target` now, and from and into which hexes; cheap, for the legal list (the
    /// refusal is built by [`NoAttack::refusal`]).
    #[inline]
    pub(crate) fn can_attack(
        &self,
        state: &State,
        u: UnitId,
        target: UnitId,
    ) -> Result<(Hex, Hex), NoAttack> {
        let (Some(c), Some(t)) = (
            self.counters.get(u.index()),
            self.counters.get(target.index()),
        ) else {
            return Err(NoAttack::NoSuchUnit);
        };
        if state.phase != Phase::Combat {
            return Err(NoAttack::WrongPhase);
        }
        if c.side != state.active {
            return Err(NoAttack::WrongSide);
        }
        if t.side == c.side {
            return Err(NoAttack::Friendly);
        }
        let (Some(a_hex), Some(d_hex)) =
            (state.units[u.index()].hex, state.units[target.index()].hex)
        else {
            return Err(NoAttack::OffMap);
        };
        // MP-CMB-2: once per combat phase, on each side.
        if state.units[u.index()].attacked {
            return Err(NoAttack::Attacked);
        }
        if state.units[target.index()].defended {
            return Err(NoAttack::Defended);
        }
        // MP-DEM-3: a demoralised unit cannot attack.
        if self.demoralised(state, u) {
            return Err(NoAttack::Demoralised);
        }
        if a_hex.distance(d_hex) != 1 {
            return Err(NoAttack::NotAdjacent);
        }
        if !self.in_contact(a_hex, d_hex) {
            return Err(NoAttack::NoContact);
        }
        Ok((a_hex, d_hex))
    }

    /// Checks an attack ([`MornePlaine::can_attack`]) and works out its odds and die
    /// modifier.
    pub(crate) fn check_attack(
        &self,
        state: &State,
        u: UnitId,
        target: UnitId,
    ) -> Result<Battle, Refusal> {
        let (a_hex, d_hex) = self
            .can_attack(state, u, target)
            .map_err(|e| e.refusal(self, state, u, target))?;
        let (attack_support, defence_support) = super::board::with_occupancy(self, state, |occ| {
            (
                self.supports(state, u, target, occ),
                self.supports(state, target, u, occ),
            )
        });
        // MP-CMB-13, MP-CMB-11: the attacker's strength plus its supports'; MP-CMB-14:
        // the defender's plus its supports', each corrected by its ground (MP-CMB-30).
        let attack = self.strength(state, u, target, false)
            + attack_support
                .iter()
                .map(|&s| self.strength(state, s, target, false))
                .sum::<u32>();
        let plain = u32::from(state.units[target.index()].cs)
            + defence_support
                .iter()
                .map(|&s| u32::from(state.units[s.index()].cs))
                .sum::<u32>();
        let defence = self.strength(state, target, u, true)
            + defence_support
                .iter()
                .map(|&s| self.strength(state, s, u, true))
                .sum::<u32>();
        let column = self.data.crt.column(attack, defence);
        let mut modifier = 0;
        let mut reasons = vec![
            Reason::new("MP-CMB-15", format!("{attack} against {defence}")),
            Reason::new(
                "MP-CMB-16",
                format!(
                    "odds {} (rounded in the defender's favour)",
                    self.data.crt.columns[column]
                ),
            ),
        ];
        if !attack_support.is_empty() || !defence_support.is_empty() {
            reasons.push(Reason::new(
                "MP-CMB-11",
                format!(
                    "supports: {} attacking, {} defending",
                    attack_support.len(),
                    defence_support.len()
                ),
            ));
        }
        if state.units[u.index()].charged == Some(target) {
            reasons.push(Reason::new(
                "MP-CHG-17",
                "the charger attacks the unit it charged at 1.5 times its strength",
            ));
        }
        if defence != plain {
            reasons.push(Reason::new(
                "MP-CMB-30",
                format!("the defenders' ground makes their {plain} strength {defence}"),
            ));
        }
        // MP-CMB-18: the die takes cumulative modifiers, "because of terrain or the
        // morale difference". Reading: the die's terrain modifier is the "bonus due to
        // topography" the text then gives; the type of terrain corrects strengths
        // instead (MP-CMB-30), so a hill counts once, here. MP-CMB-21: the elevation of
        // the attacking unit against the defender's; MP-CMB-22: not the supports'.
        let climb = i32::from(self.elev(a_hex)).cmp(&i32::from(self.elev(d_hex)));
        let elevation = match climb {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        };
        if elevation != 0 {
            modifier += elevation;
            reasons.push(Reason::new(
                "MP-CMB-21",
                format!("{elevation:+} to the die for elevation"),
            ));
        }
        // MP-CMB-23: one point per two points of morale difference, rounded toward 0;
        // MP-CMB-24: the principals' morale only. Leaders, who have none, count their
        // simulated morale (strength plus stripes, as MP-CHG-18 does for charges).
        let morale = |x: UnitId| {
            let k = &self.counters[x.index()];
            if k.class == Class::Leader {
                i32::from(state.units[x.index()].cs) + i32::from(k.stripes)
            } else {
                i32::from(state.units[x.index()].mv)
            }
        };
        let m = (morale(u) - morale(target)) / 2;
        if m != 0 {
            modifier += m;
            reasons.push(Reason::new(
                "MP-CMB-23",
                format!("{m:+} to the die for the morale difference"),
            ));
        }
        Ok(Battle {
            attack_support,
            defence_support,
            attack,
            defence,
            column,
            modifier,
            reasons,
        })
    }

    /// MP-CMB-19: the table row for a die roll: below 0 is 0, above 7 is 7.
    fn crt_row(roll: u32, modifier: i32) -> usize {
        let last = i32::try_from(Crt::LAST_ROW).unwrap_or(7);
        usize::try_from((i32::try_from(roll).unwrap_or(last) + modifier).clamp(0, last))
            .unwrap_or(0)
    }

    /// The cell for a roll.
    pub(crate) fn result(&self, b: &Battle, roll: u32) -> CrtResult {
        self.data
            .crt
            .cell(Self::crt_row(roll, b.modifier), b.column)
    }
}

/// MP-CMB-1, MP-CMB-2, MP-DEM-3: every legal attack of the side in its combat phase:
/// each of its units on each enemy in contact with it, where
/// [`MornePlaine::can_attack`] allows.
pub(crate) fn legal_attacks(rules: &MornePlaine, state: &State, out: &mut Vec<Action>) {
    for_each_attack(rules, state, |a| {
        out.push(a);
        true
    });
}

/// Whether the side in its combat phase has any legal attack (MP-TURN-2).
pub(crate) fn any_attack(rules: &MornePlaine, state: &State) -> bool {
    let mut any = false;
    for_each_attack(rules, state, |_| {
        any = true;
        false
    });
    any
}

/// Calls `f` on each legal attack of [`legal_attacks`], in order, while it returns true.
fn for_each_attack(rules: &MornePlaine, state: &State, mut f: impl FnMut(Action) -> bool) {
    super::board::with_occupancy(rules, state, |occ| {
        for &i in &rules.side_units[usize::from(state.active)] {
            let u = UnitId(i);
            let s = &state.units[usize::from(i)];
            // MP-CMB-2, MP-DEM-3: a unit that attacked already, or is demoralised, has
            // no attack on anyone ([`MornePlaine::can_attack`] would refuse each).
            if s.hex.is_none() || s.attacked || rules.demoralised(state, u) {
                continue;
            }
            for e in rules.enemies_in_contact(state, u, occ) {
                if rules.can_attack(state, u, e).is_ok()
                    && !f(Action::Attack { unit: u, target: e })
                {
                    return;
                }
            }
        }
    });
}

/// Resolves a checked attack.
pub(crate) fn apply_attack(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    target: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let b = rules.check_attack(state, u, target).expect("checked");
    let roll = ctx.roll_for(COMBAT_DIE, || {
        format!(
            "MP-CMB-18: combat die, {} attacking {}",
            rules.unit_name(u),
            rules.unit_name(target)
        )
    });
    let r = rules.result(&b, roll);
    state.units[u.index()].attacked = true;
    state.units[target.index()].defended = true;
    ctx.emit_with(|| Event::Attacked {
        unit: u,
        target,
        attack: b.attack,
        defence: b.defence,
        odds: rules.data.crt.columns[b.column].clone(),
        modifier: b.modifier,
        die: u8::try_from(MornePlaine::crt_row(roll, b.modifier)).expect("0..=7"),
        result: r,
        supports: b.attack_support.clone(),
        defence_supports: b.defence_support.clone(),
    });
    // MP-CMB-4, MP-CMB-12: only the attacker and the defender suffer results, at once;
    // the defender's first.
    lose_strength(rules, state, target, r.defender_loss, u, ctx);
    lose_strength(rules, state, u, r.attacker_loss, target, ctx);
    if r.defender_check {
        morale_check(rules, state, target, u, u, ctx);
    }
    if r.attacker_check {
        morale_check(rules, state, u, u, target, ctx);
    }
}

/// MP-CMB-25, MP-CMB-20, MP-ELIM-2: strength loss from the table; at 0 the unit is
/// eliminated and `by` regains a morale point (never above its initial value) and is
/// victorious.
fn lose_strength(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    points: u8,
    by: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    if points == 0 || state.units[u.index()].hex.is_none() {
        return;
    }
    if rules.lose_points(state, u, 0, points, "MP-CMB-25", ctx) {
        credit(rules, state, by, true, ctx);
    }
}

/// MP-VICU-1, MP-ELIM-2: the unit that eliminated or drove back an enemy is victorious;
/// an elimination gives it back a morale point.
fn credit(
    rules: &MornePlaine,
    state: &mut State,
    by: UnitId,
    elimination: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    let initial = rules.counters[by.index()].mv;
    let s = &mut state.units[by.index()];
    if s.hex.is_none() {
        return;
    }
    s.victorious = true;
    if elimination && s.mv < initial && rules.counters[by.index()].class != Class::Leader {
        s.mv += 1;
        ctx.emit_with(|| Event::Rallied {
            unit: by,
            morale: 1,
            rule: "MP-ELIM-2".into(),
        });
    }
}

/// MP-CMB-26, MP-CMB-27, MP-CMB-28: a morale check after combat; failing, the unit
/// retreats one hex (MP-RET-*) and the other, `by`, may advance (MP-ADV-*). `attacker`
/// made the attack (`u` itself when the attacker checks).
fn morale_check(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    attacker: UnitId,
    by: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(from) = state.units[u.index()].hex else {
        return;
    };
    if rules.counters[u.index()].class == Class::Leader {
        return; // MP-CMB-27: leaders are not subject to morale tests resulting of combat.
    }
    let mv = state.units[u.index()].mv;
    // MP-CMB-26: a number from 1 to 9 against the current morale; greater fails.
    // MP-CMB-28: unlike a charge's test, no strength-difference modifier.
    let roll = ctx.roll_for(MORALE_DIE, || {
        format!("MP-CMB-26: morale check of {}", rules.unit_name(u))
    });
    let failed = roll > u32::from(mv);
    ctx.emit_with(|| Event::MoraleChecked {
        unit: u,
        morale: mv,
        roll: u8::try_from(roll).unwrap_or(u8::MAX),
        failed,
    });
    if !failed {
        return;
    }
    match rules.retreat_from(state, u, attacker, by, "MP-RET-13", ctx) {
        Some(zones) => {
            // MP-RET-10: a point of morale per enemy unit controlling the hex retreated
            // into, the attacker aside.
            let dead = rules.lose_morale(state, u, zones, "MP-RET-10", ctx);
            credit(rules, state, by, dead, ctx);
            advance(rules, state, by, from, ctx);
        }
        None => credit(rules, state, by, true, ctx),
    }
}

/// MP-ADV-1 to MP-ADV-6: the victorious unit takes the hex left by the retreating one,
/// unless it would leave better ground or an objective, or it is artillery.
fn advance(rules: &MornePlaine, state: &mut State, u: UnitId, into: Hex, ctx: &mut Ctx<'_, Event>) {
    let Some(at) = state.units[u.index()].hex else {
        return;
    };
    let class = rules.counters[u.index()].class;
    if class == Class::Artillery || MornePlaine::occupant(state, into).is_some() {
        return; // MP-ADV-4: artillery never moves after combat.
    }
    if rules.counters[u.index()].mounted && rules.is_fort(at) {
        return; // MP-ADV-6: mounted units never leave a fort.
    }
    if rules.rank(into, class) < rules.rank(at, class) {
        return; // MP-ADV-5: only for a hex of equal or higher rank.
    }
    if rules.is_objective(at) && !rules.is_objective(into) {
        return; // MP-ADV-1, MP-ADV-2: an objective is not left, unless for another.
    }
    if !rules.in_contact(at, into) {
        return;
    }
    take_hex(rules, state, u, into, "MP-ADV-1", ctx);
}

/// A unit moves into the hex its enemy left, after combat (MP-ADV-1) or a charge
/// (MP-CHG-17), and takes the place it stands for (a fort, an objective).
pub(crate) fn take_hex(
    rules: &MornePlaine,
    state: &mut State,
    u: UnitId,
    into: Hex,
    rule: &str,
    ctx: &mut Ctx<'_, Event>,
) {
    state.units[u.index()].hex = Some(into);
    rules.take_place(state, u, into);
    ctx.emit_with(|| Event::TookHex {
        unit: u,
        to: into,
        rule: rule.into(),
    });
}

/// MP-CMB-29: the exact distribution of an attack's table results, with the odds and
/// the morale checks' chances, before the die is rolled.
pub(crate) fn preview(
    rules: &MornePlaine,
    state: &State,
    u: UnitId,
    target: UnitId,
) -> Result<Preview, Refusal> {
    let b = rules.check_attack(state, u, target)?;
    // Each result with its first table row and the die faces that give it (bug 16: the
    // faces, not only the row, so that "3-5" reads as three faces of the die).
    let mut outcomes: Vec<(CrtResult, usize, Vec<u32>)> = Vec::new();
    for roll in 1..=COMBAT_DIE {
        let row = MornePlaine::crt_row(roll, b.modifier);
        let r = rules.result(&b, roll);
        match outcomes.iter_mut().find(|o| o.0 == r) {
            Some(o) => o.2.push(roll),
            None => outcomes.push((r, row, vec![roll])),
        }
    }
    let fail = |x: UnitId| {
        if rules.counters[x.index()].class == Class::Leader {
            0
        } else {
            u64::from(MORALE_DIE.saturating_sub(u32::from(state.units[x.index()].mv)))
        }
    };
    Ok(Preview {
        roll: "1d6 on the combat results table".into(),
        inputs: serde_json::json!({
            "attack": b.attack,
            "defence": b.defence,
            "odds": rules.data.crt.columns[b.column],
            "modifier": b.modifier,
            "attacker_fails_morale_check": [fail(u), u64::from(MORALE_DIE)],
            "defender_fails_morale_check": [fail(target), u64::from(MORALE_DIE)],
        }),
        outcomes: outcomes
            .into_iter()
            .map(|(r, row, dice)| {
                let n = dice.len() as u64;
                let result = serde_json::json!({ "die": row, "dice": dice, "result": r });
                Chance::new(result, n, u64::from(COMBAT_DIE))
            })
            .collect(),
        reasons: b.reasons,
    })
}
