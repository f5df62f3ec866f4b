//! Melee (`docs/rules/skirmish.md`, recovered): the attack and defense totals
//! (SK-MEL-1, SK-MEL-2), reach bands (SK-MEL-3), Close Quarters (SK-MEL-4), attacks of
//! opportunity (SK-MEL-5), what a result does (SK-MEL-6, provisional), the melee phase's
//! attacks and counters (SK-MEL-7), the charge attack and its counter (SK-CHG-10,
//! SK-CHG-11), and the exact odds before the dice roll.

use super::combat::{hindered, list, Name, Tally, Words};
use super::data::Weapon;
use super::facing::{attack_arc, Arc};
use super::{statuses, Action, AttackKind, Event, Skirmish, State, Term};
use grognard_engine::{Ctx, Reason, Refusal, Text, UnitId};
use grognard_hex::Hex;
use serde_json::{json, Value};

/// How a weapon suits a distance (SK-MEL-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// At the weapon's reach.
    Optimal,
    /// Closer than its reach: -1.
    TooLong,
    /// One hex beyond its reach: -2.
    TooShort,
    /// Further.
    Out,
}

impl Band {
    /// The attack modifier.
    #[must_use]
    pub fn modifier(self) -> i32 {
        match self {
            Band::Optimal => 0,
            Band::TooLong => -1,
            Band::TooShort => -2,
            Band::Out => i32::MIN,
        }
    }

    /// The word for players.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Band::Optimal => "optimal",
            Band::TooLong => "too long",
            Band::TooShort => "one hex too short",
            Band::Out => "out of reach",
        }
    }
}

fn band_of(reach: u8, d: u32) -> Band {
    let r = u32::from(reach);
    if d == r {
        Band::Optimal
    } else if d < r {
        Band::TooLong
    } else if d == r + 1 {
        Band::TooShort
    } else {
        Band::Out
    }
}

/// SK-MEL-3: the best band of a weapon's reaches at a distance.
///
/// ```
/// use grognard_rules::skirmish::data::Data;
/// use grognard_rules::skirmish::melee::{band, Band};
/// let data = Data::shipped();
/// let spear = &data.weapon["spear"];
/// assert_eq!(band(spear, 2), Band::Optimal);
/// assert_eq!(band(spear, 1), Band::Optimal); // its alternative reach
/// assert_eq!(band(spear, 3), Band::TooShort);
/// assert_eq!(band(&data.weapon["sword"], 0), Band::TooLong);
/// ```
#[must_use]
pub fn band(w: &Weapon, d: u32) -> Band {
    w.reaches()
        .map(|r| band_of(r, d))
        .min()
        .unwrap_or(Band::Out)
}

/// An attack's totals before the die.
#[derive(Clone, Debug)]
pub(crate) struct Calc {
    pub attack: i32,
    pub defense: i32,
    pub attack_terms: Vec<Term>,
    pub defense_terms: Vec<Term>,
    pub arc: Arc,
    pub band: Band,
    pub reasons: Vec<Reason>,
}

/// SK-MEL-1, SK-MEL-2: the attack and defense totals of `a` striking `t`; `None` when
/// `t` is out of reach.
pub(crate) fn calc(
    rules: &Skirmish,
    state: &State,
    a: UnitId,
    t: UnitId,
    kind: AttackKind,
) -> Option<Calc> {
    calc_in(rules, state, a, t, kind, Words::Reasons)
}

/// [`calc`], with as much in words as `words` asks.
fn calc_in(
    rules: &Skirmish,
    state: &State,
    a: UnitId,
    t: UnitId,
    kind: AttackKind,
    words: Words,
) -> Option<Calc> {
    let (ah, th) = (Skirmish::ch(state, a).hex?, Skirmish::ch(state, t).hex?);
    let d = ah.distance(th);
    let wa = &rules.weapons[a.index()];
    let b = band(wa, d);
    if b == Band::Out {
        return None;
    }
    let (ca, ct) = (&rules.chars[a.index()], &rules.chars[t.index()]);
    let (sa, st) = (Skirmish::ch(state, a), Skirmish::ch(state, t));
    let mut at = Tally::new(words);
    at.add("Vigor", i32::from(ca.vigor));
    at.add("Weapon Skill", i32::from(ca.weapon_skill));
    at.add(Name(&ca.weapon), wa.attack);
    if let (Some(s), Some(name)) = (&rules.shields[a.index()], &ca.shield) {
        at.add(Name(name), s.attack);
    }
    let front = rules.data.facing.front_turns;
    let arc = attack_arc(th, st.facing, ah, front);
    match arc {
        Arc::Flank => at.add("from a flank", 1),
        Arc::Rear => at.add("from the rear", 3),
        Arc::Front => {}
    }
    at.add(
        "extra attacks on the target this melee phase",
        i32::from(st.attacked),
    );
    if sa.berserk {
        at.add("Berserk", 1);
    }
    hindered(rules, state, a, &mut at);
    if b.modifier() != 0 {
        at.add(Text::owned(format!("reach {}", b.name())), b.modifier());
    }
    let mut de = Tally::new(words);
    de.add("Vigor", i32::from(ct.vigor));
    let wt = &rules.weapons[t.index()];
    let shield = rules.shields[t.index()].as_ref();
    if ct.weapon != "unarmed" {
        de.add("Weapon Skill", i32::from(ct.weapon_skill));
    } else if shield.is_some() {
        de.add("Combat (a shield only)", i32::from(ct.combat));
    } else {
        de.add("Evasion (no weapon, no shield)", i32::from(ct.evasion));
    }
    match (shield, &ct.shield) {
        (Some(s), Some(name)) => de.add(Name(name), s.defense),
        _ => de.add(Name(&ct.weapon), wt.defense),
    }
    if st.defending.is_some() {
        de.add("Defending", 2);
    }
    if st.dazed {
        de.add("Dazed", -1);
    }
    hindered(rules, state, t, &mut de);
    if st.berserk {
        de.add("Berserk", -2);
    }
    let (attack, defense) = (at.total, de.total);
    let (at, de) = (at.terms.unwrap_or_default(), de.terms.unwrap_or_default());
    let reasons = if words == Words::Reasons {
        calc_reasons(rules, t, (attack, &at), (defense, &de), (d, b, arc))
    } else {
        Vec::new()
    };
    let _ = kind;
    Some(Calc {
        attack,
        defense,
        attack_terms: at,
        defense_terms: de,
        arc,
        band: b,
        reasons,
    })
}

/// The reasons of [`calc`]: the two totals with their terms, the reach at the distance,
/// Close Quarters and the arc struck.
fn calc_reasons(
    rules: &Skirmish,
    t: UnitId,
    (attack, at): (i32, &[Term]),
    (defense, de): (i32, &[Term]),
    (d, b, arc): (u32, Band, Arc),
) -> Vec<Reason> {
    let mut reasons = vec![
        Reason::new("SK-MEL-1", format!("attack: die + {attack} ({})", list(at))),
        Reason::new(
            "SK-MEL-2",
            format!("{}'s Melee Defense {defense} ({})", rules.name(t), list(de)),
        ),
        Reason::new("SK-MEL-3", format!("distance {d}: reach {}", b.name())),
    ];
    if d == 0 {
        reasons.push(Reason::new("SK-MEL-4", "in Close Quarters"));
    }
    if arc != Arc::Front {
        reasons.push(Reason::new(
            "SK-FAC-2",
            format!("strikes {}'s {}", rules.name(t), arc.name()),
        ));
    }
    reasons
}

/// A resolved attack, not yet applied.
#[derive(Clone, Debug)]
pub(crate) struct Blow {
    pub target: UnitId,
    pub damage: u8,
}

/// SK-MEL-6: what a result does: a hit from `hit_at`, the weapon's damage and a point
/// more for every `per_damage` above it, plus a bonus.
pub(crate) fn damage_of(rules: &Skirmish, a: UnitId, result: i32, bonus: u8) -> Option<u8> {
    damage_from(rules, rules.weapons[a.index()].damage, result, bonus)
}

/// SK-MEL-6 for any weapon's `base` damage (a shot's too, SK-MIS-3).
pub(crate) fn damage_from(rules: &Skirmish, base: u8, result: i32, bonus: u8) -> Option<u8> {
    let m = &rules.data.melee;
    if result < m.hit_at {
        return None;
    }
    let extra = u8::try_from((result - m.hit_at) / m.per_damage).unwrap_or(u8::MAX);
    Some(base.saturating_add(extra).saturating_add(bonus))
}

/// Rolls an attack and records it; the damage is applied by [`land`] (so that
/// simultaneous attacks are both rolled first).
pub(crate) fn resolve(
    rules: &Skirmish,
    state: &State,
    a: UnitId,
    t: UnitId,
    kind: AttackKind,
    bonus: u8,
    ctx: &mut Ctx<'_, Event>,
) -> Option<Blow> {
    // A quiet context records no event: the totals alone.
    let words = if ctx.is_quiet() {
        Words::Totals
    } else {
        Words::Terms
    };
    let c = calc_in(rules, state, a, t, kind, words)?;
    let rule = match kind {
        AttackKind::Melee => "SK-MEL-7",
        AttackKind::Counter => "SK-CHG-11",
        AttackKind::Charge => "SK-CHG-10",
        AttackKind::Opportunity => "SK-MEL-5",
        AttackKind::Missile => "SK-MIS-1",
        AttackKind::ReactionFire => "SK-MIS-4",
    };
    // The purpose's words joined, not formatted: one allocation, a roll an attack.
    let die = i32::try_from(ctx.roll_for(rules.data.dice.sides, || {
        let word = match kind {
            AttackKind::Melee => "melee",
            AttackKind::Counter => "counter",
            AttackKind::Charge => "charge",
            AttackKind::Opportunity => "opportunity",
            AttackKind::Missile | AttackKind::ReactionFire => "missile",
        };
        [
            rule,
            ": ",
            word,
            " attack of ",
            rules.name(a),
            " on ",
            rules.name(t),
        ]
        .concat()
    }))
    .expect("a die face");
    let result = die + c.attack - c.defense;
    let damage = damage_of(rules, a, result, bonus);
    ctx.emit_with(|| Event::Attacked {
        unit: a,
        target: t,
        kind,
        die,
        attack: c.attack,
        defense: c.defense,
        result,
        hit: damage.is_some(),
        damage: damage.unwrap_or(0),
        attack_terms: c.attack_terms,
        defense_terms: c.defense_terms,
    });
    Some(Blow {
        target: t,
        damage: damage.unwrap_or(0),
    })
}

/// Applies a blow's damage.
pub(crate) fn land(rules: &Skirmish, state: &mut State, blow: &Blow, ctx: &mut Ctx<'_, Event>) {
    statuses::hurt(rules, state, blow.target, blow.damage, ctx);
}

/// The characters of `side` who may strike `mover` leaving `from`: in whose zone it is,
/// with a riposte left (SK-CHG-12), reaching it, not yet provoked in this movement
/// (SK-MOV-9) and not the charge's target (SK-CHG-7).
pub(crate) fn opportunists(
    rules: &Skirmish,
    state: &State,
    mover: UnitId,
    from: Hex,
    side: u8,
    provoked: &[UnitId],
    exclude: Option<UnitId>,
) -> Vec<UnitId> {
    rules
        .side_ids(side)
        .filter(|&e| {
            Some(e) != exclude
                && !provoked.contains(&e)
                && Skirmish::can_riposte(state, e)
                && rules.controls(state, e, from)
                && Skirmish::ch(state, e)
                    .hex
                    .is_some_and(|h| band(&rules.weapons[e.index()], h.distance(from)) != Band::Out)
        })
        .filter(|&e| e != mover)
        .collect()
}

/// SK-STA-3: a Berserk character attacks the nearest enemy only.
pub(crate) fn nearest_check(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    target: UnitId,
) -> Result<(), Refusal> {
    let Some(h) = Skirmish::ch(state, u).hex else {
        return Ok(());
    };
    let nearest = rules
        .side_ids(1 - rules.side_of(u))
        .filter_map(|e| Skirmish::ch(state, e).hex.map(|x| x.distance(h)))
        .min();
    let d = Skirmish::ch(state, target).hex.map(|x| x.distance(h));
    if d.is_some() && d == nearest {
        Ok(())
    } else {
        Err(Refusal::new(
            "SK-STA-3",
            format!(
                "{} is Berserk and must attack the nearest enemy; {} is not",
                rules.name(u),
                rules.name(target)
            ),
        ))
    }
}

/// Why a character may make no melee-phase attack now, whatever its target (a reason
/// code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoAttack {
    WrongPhase,
    Passive,
    Out,
    Dazed,
    Spent,
}

/// SK-MEL-7, SK-ACT-1: whether `u` may attack at all now.
pub(crate) fn can_attack(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), NoAttack> {
    if state.phase != super::Phase::Melee {
        return Err(NoAttack::WrongPhase);
    }
    if rules.side_of(u) != state.active {
        return Err(NoAttack::Passive);
    }
    let c = Skirmish::ch(state, u);
    Err(if !c.in_play() {
        NoAttack::Out
    } else if c.dazed {
        NoAttack::Dazed
    } else if !c.melee {
        NoAttack::Spent
    } else {
        return Ok(());
    })
}

impl NoAttack {
    fn refusal(self, rules: &Skirmish, state: &State, u: UnitId) -> Refusal {
        let name = rules.name(u);
        match self {
            NoAttack::WrongPhase => Refusal::new(
                "SK-MEL-7",
                format!("attacks are made in the melee phase; this is the {} phase (a charge attacks on reaching its target)", state.phase.name()),
            ),
            NoAttack::Passive => Refusal::new(
                "SK-MEL-7",
                format!("{name} is on the passive side: in {}'s melee phase only its characters attack (the target counters)", rules.side_title(state.active)),
            ),
            NoAttack::Out => Refusal::new("SK-STA-7", format!("{name} is no longer in the fight")),
            NoAttack::Dazed => Refusal::new("SK-ACT-1", format!("{name} is Dazed: no Melee Action")),
            NoAttack::Spent => Refusal::new(
                "SK-ACT-1",
                format!("{name} has used its Melee Action this turn"),
            ),
        }
    }
}

/// SK-MEL-7: every melee-phase attack of the active side: what [`check_attack`] accepts.
pub(crate) fn legal_attacks(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    for u in rules.side_ids(state.active) {
        if can_attack(rules, state, u).is_err() {
            continue;
        }
        for t in rules.side_ids(Skirmish::passive(state)) {
            if may_attack(rules, state, u, t) {
                out.push(Action::Attack { unit: u, target: t });
            }
        }
    }
}

/// Whether [`check_attack`] accepts the attack of `u` on `t` (SK-MEL-7), without
/// wording it: what [`legal_attacks`] lists.
pub(crate) fn attack_open(rules: &Skirmish, state: &State, u: UnitId, t: UnitId) -> bool {
    can_attack(rules, state, u).is_ok() && may_attack(rules, state, u, t)
}

/// Whether [`check_attack`] accepts the attack of `u`, who [`can_attack`]: its checks in
/// the same order, without their words (`calc` refuses only a target out of reach).
fn may_attack(rules: &Skirmish, state: &State, u: UnitId, t: UnitId) -> bool {
    if rules.side_of(t) == rules.side_of(u) {
        return false;
    }
    let Some(th) = Skirmish::ch(state, t).hex else {
        return false;
    };
    let c = Skirmish::ch(state, u);
    if c.berserk && nearest_check(rules, state, u, t).is_err() {
        return false;
    }
    c.hex
        .is_some_and(|h| band(&rules.weapons[u.index()], h.distance(th)) != Band::Out)
}

/// SK-MEL-7: checks a melee-phase attack.
pub(crate) fn check_attack(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    t: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    let name = rules.name(u);
    can_attack(rules, state, u).map_err(|e| e.refusal(rules, state, u))?;
    let c = Skirmish::ch(state, u);
    if rules.side_of(t) == rules.side_of(u) {
        return Err(Refusal::new(
            "SK-MEL-7",
            format!("{} is a friend", rules.name(t)),
        ));
    }
    if !Skirmish::ch(state, t).in_play() {
        return Err(Refusal::new(
            "SK-STA-7",
            format!("{} is no longer in the fight", rules.name(t)),
        ));
    }
    if c.berserk {
        nearest_check(rules, state, u, t)?;
    }
    let Some(k) = calc(rules, state, u, t, AttackKind::Melee) else {
        let d = c
            .hex
            .zip(Skirmish::ch(state, t).hex)
            .map_or(0, |(a, b)| a.distance(b));
        return Err(Refusal::new(
            "SK-MEL-3",
            format!(
                "{} is {d} hexes away: out of reach of {name}'s {}",
                rules.name(t),
                rules.chars[u.index()].weapon
            ),
        ));
    };
    let mut reasons = vec![Reason::new(
        "SK-MEL-7",
        format!("{name} spends its Melee Action on {}", rules.name(t)),
    )];
    reasons.extend(k.reasons);
    if counters(rules, state, t, u) {
        reasons.push(Reason::new(
            "SK-MEL-7",
            format!("{} counterattacks at the same time", rules.name(t)),
        ));
    }
    Ok(reasons)
}

/// Whether `t`, attacked by `a`, counterattacks: it has a riposte left (SK-CHG-12) and
/// reaches `a`.
pub(crate) fn counters(rules: &Skirmish, state: &State, t: UnitId, a: UnitId) -> bool {
    Skirmish::can_riposte(state, t)
        && calc_in(rules, state, t, a, AttackKind::Counter, Words::Totals).is_some()
}

/// SK-MEL-7 (provisional): the attack and the target's counterattack, simultaneous.
pub(crate) fn attack(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    t: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    state.chars[u.index()].melee = false;
    let counter = counters(rules, state, t, u);
    let blow = resolve(rules, state, u, t, AttackKind::Melee, 0, ctx);
    let back = if counter {
        state.chars[t.index()].ripostes += 1;
        resolve(rules, state, t, u, AttackKind::Counter, 0, ctx)
    } else {
        None
    };
    state.chars[t.index()].attacked += 1;
    if back.is_some() {
        state.chars[u.index()].attacked += 1;
    }
    for b in blow.iter().chain(back.iter()) {
        land(rules, state, b, ctx);
    }
}

/// SK-CHG-10, SK-CHG-11: the charge attack with +2 damage; the target counters first
/// when its reach is longer than the distance, at the same time when it reaches no
/// further, each +2 damage. A Dazed charger still strikes (SK-CHG-8).
pub(crate) fn charge_clash(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    t: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let bonus = rules.data.charge.damage_bonus;
    let d = match (Skirmish::ch(state, u).hex, Skirmish::ch(state, t).hex) {
        (Some(a), Some(b)) => a.distance(b),
        _ => return,
    };
    let counter = counters(rules, state, t, u);
    let first = counter && u32::from(rules.weapons[t.index()].longest()) > d;
    if counter {
        state.chars[t.index()].ripostes += 1;
    }
    if first {
        if let Some(b) = resolve(rules, state, t, u, AttackKind::Counter, bonus, ctx) {
            land(rules, state, &b, ctx);
        }
        if !Skirmish::ch(state, u).in_play() {
            return;
        }
        if let Some(b) = resolve(rules, state, u, t, AttackKind::Charge, bonus, ctx) {
            land(rules, state, &b, ctx);
        }
        return;
    }
    let blow = resolve(rules, state, u, t, AttackKind::Charge, bonus, ctx);
    let back = if counter {
        resolve(rules, state, t, u, AttackKind::Counter, bonus, ctx)
    } else {
        None
    };
    for b in blow.iter().chain(back.iter()) {
        land(rules, state, b, ctx);
    }
}

fn calc_json(rules: &Skirmish, c: &Calc) -> Value {
    json!({
        "attack": c.attack,
        "defense": c.defense,
        "attack_terms": c.attack_terms,
        "defense_terms": c.defense_terms,
        "arc": c.arc.name(),
        "reach": c.band.name(),
        "hit_on_die": rules.data.melee.hit_at - c.attack + c.defense,
    })
}

/// The totals behind a preview of an attack: the attack and, when there is one, the
/// counter.
pub(crate) fn inputs(rules: &Skirmish, state: &State, action: &Action) -> Value {
    let (a, t, kind) = match action {
        Action::Attack { unit, target } => (*unit, *target, AttackKind::Melee),
        Action::Opportunity { unit, target } => (*unit, *target, AttackKind::Opportunity),
        _ => return json!({}),
    };
    totals(rules, state, a, t, kind)
}

/// The attack and defense totals of `a` striking `t` in an attack of `kind`, and of the
/// target's counter when an attack or a charge's strike draws one (SK-CHG-11).
pub(crate) fn totals(
    rules: &Skirmish,
    state: &State,
    a: UnitId,
    t: UnitId,
    kind: AttackKind,
) -> Value {
    let mut v = json!({});
    if let Some(c) = calc(rules, state, a, t, kind) {
        v["attack"] = calc_json(rules, &c);
    }
    if matches!(kind, AttackKind::Melee | AttackKind::Charge) && counters(rules, state, t, a) {
        if let Some(c) = calc(rules, state, t, a, AttackKind::Counter) {
            v["counter"] = calc_json(rules, &c);
        }
    }
    v
}
