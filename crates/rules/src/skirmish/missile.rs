//! Ranged combat (`docs/rules/skirmish.md`: the rule text names "Reaction Fire",
//! "ranged attacks" and the "Missile Evasion modifier"; ranged combat is otherwise
//! provisional): the missile phase (SK-MIS-1), what a character needs to shoot (SK-MIS-2), the
//! shot (SK-MIS-3), reaction fire (SK-MIS-4) and the Missile Evasion modifier earned by
//! evasive movement (SK-MOV-14, SK-MIS-5). Every number is in `data.toml`.

use super::combat::{hindrance, list, term};
use super::facing::{attack_arc, Arc};
use super::{melee, reactions, Action, AttackKind, Event, Phase, Skirmish, State, Term, Window};
use grognard_engine::{Ctx, Reason, Refusal, Text, UnitId};
use grognard_hex::Hex;
use serde_json::{json, Value};

/// A shot's totals before the die (SK-MIS-3).
#[derive(Clone, Debug)]
pub(crate) struct Shot {
    pub attack: i32,
    pub defense: i32,
    pub attack_terms: Vec<Term>,
    pub defense_terms: Vec<Term>,
    pub arc: Arc,
    pub distance: u32,
    pub long: bool,
    pub reasons: Vec<Reason>,
}

/// Why a character may shoot nobody now (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoShot {
    Out,
    Unarmed,
    NoQuick,
    Dazed,
    Panicked,
    Berserk,
    Engaged,
}

impl NoShot {
    fn refusal(self, rules: &Skirmish, u: UnitId) -> Refusal {
        let name = rules.name(u);
        match self {
            NoShot::Out => Refusal::new("SK-STA-7", format!("{name} is no longer in the fight")),
            NoShot::Unarmed => {
                Refusal::new("SK-MIS-2", format!("{name} carries no missile weapon"))
            }
            NoShot::NoQuick => Refusal::new(
                "SK-ACT-2",
                format!("{name} has no Quick Action left to shoot with"),
            ),
            NoShot::Dazed => Refusal::new("SK-STA-1", format!("{name} is Dazed and cannot shoot")),
            NoShot::Panicked => {
                Refusal::new("SK-MIS-2", format!("{name} is Panicked: it does not shoot"))
            }
            NoShot::Berserk => {
                Refusal::new("SK-MIS-2", format!("{name} is Berserk: it does not shoot"))
            }
            NoShot::Engaged => Refusal::new(
                "SK-MIS-2",
                format!("{name} is Engaged: a foe at arm's length is fought, not shot"),
            ),
        }
    }
}

/// SK-MIS-2 (provisional): whether `u` may shoot at all, whatever the target: in play, a
/// missile weapon, its Quick Action, not Dazed, Panicked or Berserk, not Engaged.
pub(crate) fn can_shoot(rules: &Skirmish, state: &State, u: UnitId) -> Result<(), NoShot> {
    let c = Skirmish::ch(state, u);
    Err(if c.hex.is_none() {
        NoShot::Out
    } else if rules.missiles[u.index()].is_none() {
        NoShot::Unarmed
    } else if !c.quick {
        NoShot::NoQuick
    } else if c.dazed {
        NoShot::Dazed
    } else if c.panicked {
        NoShot::Panicked
    } else if c.berserk {
        NoShot::Berserk
    } else if rules.engaged(state, u) {
        NoShot::Engaged
    } else {
        return Ok(());
    })
}

/// SK-MIS-2 (provisional): whether `u` can shoot `t` at all, whatever the phase: a
/// missile weapon, its Quick Action, not Dazed, Panicked or Berserk, not Engaged; the
/// target an enemy in play, within range, in line of sight (terrain that blocks sight
/// and other characters block it). Then SK-MIS-3: the totals.
pub(crate) fn aim(rules: &Skirmish, state: &State, u: UnitId, t: UnitId) -> Result<Shot, Refusal> {
    let name = rules.name(u);
    can_shoot(rules, state, u).map_err(|e| e.refusal(rules, u))?;
    let from = Skirmish::ch(state, u).hex.expect("a shooter is in play");
    let m = rules.missiles[u.index()]
        .as_ref()
        .expect("a shooter has a missile weapon");
    if rules.side_of(t) == rules.side_of(u) {
        return Err(Refusal::new(
            "SK-MIS-2",
            format!("{} is a friend", rules.name(t)),
        ));
    }
    let Some(to) = Skirmish::ch(state, t).hex else {
        return Err(Refusal::new(
            "SK-STA-7",
            format!("{} is no longer in the fight", rules.name(t)),
        ));
    };
    let d = from.distance(to);
    if d > u32::from(m.range) {
        return Err(Refusal::new(
            "SK-MIS-2",
            format!(
                "{} is {d} hexes away: beyond the {} hexes of {name}'s {}",
                rules.name(t),
                m.range,
                rules.chars[u.index()]
                    .missile
                    .as_deref()
                    .unwrap_or("missile")
            ),
        ));
    }
    if !in_sight(rules, state, from, to) {
        return Err(Refusal::new(
            "SK-MIS-2",
            format!(
                "{name} has no line of sight to {}: blocking terrain or a character stands between",
                rules.name(t)
            ),
        ));
    }
    Ok(totals(rules, state, u, t, d))
}

/// SK-MIS-2: whether nothing blocks the line of sight from `from` to `to`: terrain that
/// blocks sight, and characters.
fn in_sight(rules: &Skirmish, state: &State, from: Hex, to: Hex) -> bool {
    let blocked = |h| {
        rules
            .terrain_row(h)
            .is_none_or(|r| r.blocks_sight || r.impassable)
            || Skirmish::occupied(state, h)
    };
    grognard_hex::los::visible(from, to, blocked)
}

/// Whether [`aim`] accepts the shot: its checks in the same order, without their words
/// or the shot's totals (for the lists, which ask only that).
fn may_aim(rules: &Skirmish, state: &State, u: UnitId, t: UnitId) -> bool {
    if can_shoot(rules, state, u).is_err() || rules.side_of(t) == rules.side_of(u) {
        return false;
    }
    let (Some(from), Some(to), Some(m)) = (
        Skirmish::ch(state, u).hex,
        Skirmish::ch(state, t).hex,
        rules.missiles[u.index()].as_ref(),
    ) else {
        return false;
    };
    from.distance(to) <= u32::from(m.range) && in_sight(rules, state, from, to)
}

/// Whether [`check_shot`] accepts the shot, without words.
fn may_shoot(rules: &Skirmish, state: &State, u: UnitId, t: UnitId) -> bool {
    let now = match &state.window {
        Some(Window::Reaction { unit }) => {
            reactions::can_react(rules, state, u).is_ok() && t == *unit
        }
        Some(Window::Opportunity { .. }) => false,
        None => state.phase == Phase::Missile && rules.side_of(u) == state.active,
    };
    now && may_aim(rules, state, u, t)
}

/// SK-MIS-3 (provisional): die + Finesse + Weapon Skill + the missile's modifier, less
/// beyond short range, less Wounded or Encumbered; against the Missile Defense: base +
/// Evasion, the shield's defense against a shot from the front, the Missile Evasion
/// modifier (SK-MIS-5), less Dazed, less Wounded or Encumbered.
fn totals(rules: &Skirmish, state: &State, u: UnitId, t: UnitId, d: u32) -> Shot {
    let r = &rules.data.ranged;
    let m = rules.missiles[u.index()].as_ref().expect("aimed");
    let (ca, ct) = (&rules.chars[u.index()], &rules.chars[t.index()]);
    let st = Skirmish::ch(state, t);
    let (from, to) = (
        Skirmish::ch(state, u).hex.expect("aimed"),
        st.hex.expect("aimed"),
    );
    let mut at = Vec::new();
    term(&mut at, "Finesse", i32::from(ca.finesse));
    term(&mut at, "Weapon Skill", i32::from(ca.weapon_skill));
    term(
        &mut at,
        Text::owned(ca.missile.clone().unwrap_or_default()),
        m.attack,
    );
    let long = d > u32::from(m.short);
    if long {
        term(&mut at, "beyond short range", r.long_range);
    }
    hindrance(rules, state, u, &mut at);
    let arc = attack_arc(to, st.facing, from, rules.data.facing.front_turns);
    let mut de = Vec::new();
    term(&mut de, "Missile Defense", r.base);
    term(&mut de, "Evasion", i32::from(ct.evasion));
    if arc == Arc::Front {
        if let (Some(s), Some(name)) = (&rules.shields[t.index()], &ct.shield) {
            term(
                &mut de,
                Text::owned(format!("{name} (a shot from the front)")),
                s.defense,
            );
        }
        // SK-MOV-14, SK-MIS-5: evasive movement pays against shots from the front.
        if st.evasive {
            term(&mut de, "Missile Evasion (moved evasively)", r.evasion);
        }
    }
    if st.dazed {
        term(&mut de, "Dazed", -1);
    }
    hindrance(rules, state, t, &mut de);
    let attack = at.iter().map(|x| x.value).sum();
    let defense = de.iter().map(|x| x.value).sum();
    let mut reasons = vec![
        Reason::new("SK-MIS-3", format!("shot: die + {attack} ({})", list(&at))),
        Reason::new(
            "SK-MIS-3",
            format!(
                "{}'s Missile Defense {defense} ({})",
                rules.name(t),
                list(&de)
            ),
        ),
        Reason::new(
            "SK-MIS-2",
            format!(
                "{d} hex(es), {} range, in line of sight",
                if long { "long" } else { "short" }
            ),
        ),
    ];
    if arc != Arc::Front {
        reasons.push(Reason::new(
            "SK-FAC-2",
            format!("strikes {}'s {}", rules.name(t), arc.name()),
        ));
    }
    if st.evasive && arc == Arc::Front {
        reasons.push(Reason::new(
            "SK-MIS-5",
            format!(
                "{} moved evasively and the shot comes from its front: +{} Missile Defense",
                rules.name(t),
                r.evasion
            ),
        ));
    } else if st.evasive {
        reasons.push(Reason::new(
            "SK-MOV-14",
            format!(
                "{} moved evasively, but the shot comes from its {}: no Missile Evasion",
                rules.name(t),
                arc.name()
            ),
        ));
    }
    Shot {
        attack,
        defense,
        attack_terms: at,
        defense_terms: de,
        arc,
        distance: d,
        long,
        reasons,
    }
}

/// SK-MIS-1, SK-MIS-4: checks a shot: in the active side's missile phase, or as reaction
/// fire at the character that just moved.
pub(crate) fn check_shot(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    t: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    let (rule, why) = match &state.window {
        Some(Window::Reaction { unit }) => {
            reactions::may_react(rules, state, u)?;
            if t != *unit {
                return Err(Refusal::new(
                    "SK-MIS-4",
                    format!(
                        "reaction fire answers the hex just moved: its target is {}, not {}",
                        rules.name(*unit),
                        rules.name(t)
                    ),
                ));
            }
            (
                "SK-MIS-4",
                "reaction fire: spends its Quick Action to shoot at the character that just moved",
            )
        }
        Some(Window::Opportunity { .. }) => return Err(reactions::window_refusal(rules, state)),
        None => {
            if state.phase != Phase::Missile {
                return Err(Refusal::new(
                    "SK-MIS-1",
                    format!(
                        "shots are made in the missile phase or as reaction fire; this is the {} phase",
                        state.phase.name()
                    ),
                ));
            }
            if rules.side_of(u) != state.active {
                return Err(Refusal::new(
                    "SK-MIS-1",
                    format!(
                        "{} is on the passive side: in {}'s missile phase only its characters shoot",
                        rules.name(u),
                        rules.side_title(state.active)
                    ),
                ));
            }
            (
                "SK-MIS-1",
                "the missile phase: spends its Quick Action on a shot",
            )
        }
    };
    let shot = aim(rules, state, u, t)?;
    let mut reasons = vec![Reason::new(rule, why)];
    reasons.extend(shot.reasons);
    Ok(reasons)
}

/// SK-MIS-3: the shot: the Quick Action is spent, the die rolled, the damage landed as a
/// melee hit's (SK-MEL-6). Nobody counters a shot.
pub(crate) fn shoot(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    t: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let reaction = matches!(state.window, Some(Window::Reaction { .. }));
    let Ok(shot) = aim(rules, state, u, t) else {
        return;
    };
    state.chars[u.index()].quick = false;
    let (kind, rule) = if reaction {
        (AttackKind::ReactionFire, "SK-MIS-4")
    } else {
        (AttackKind::Missile, "SK-MIS-1")
    };
    ctx.emit_with(|| Event::Spent {
        unit: u,
        action: "quick_action".into(),
        rule: rule.into(),
    });
    let die = i32::try_from(ctx.roll_for(rules.data.dice.sides, || {
        let what = if reaction { "reaction fire" } else { "shot" };
        [
            rule,
            ": ",
            what,
            " of ",
            rules.name(u),
            " at ",
            rules.name(t),
        ]
        .concat()
    }))
    .expect("a die face");
    let result = die + shot.attack - shot.defense;
    let base = rules.missiles[u.index()].as_ref().map_or(0, |m| m.damage);
    let damage = melee::damage_from(rules, base, result, 0);
    ctx.emit_with(|| Event::Attacked {
        unit: u,
        target: t,
        kind,
        die,
        attack: shot.attack,
        defense: shot.defense,
        result,
        hit: damage.is_some(),
        damage: damage.unwrap_or(0),
        attack_terms: shot.attack_terms,
        defense_terms: shot.defense_terms,
    });
    melee::land(
        rules,
        state,
        &melee::Blow {
            target: t,
            damage: damage.unwrap_or(0),
        },
        ctx,
    );
}

/// SK-MIS-1: whether anyone of the active side can shoot now (else the missile phase
/// passes by itself).
pub(crate) fn any_shot(rules: &Skirmish, state: &State) -> bool {
    rules
        .side_ids(state.active)
        .filter(|&u| rules.missiles[u.index()].is_some())
        .any(|u| {
            rules
                .side_ids(Skirmish::passive(state))
                .any(|t| may_aim(rules, state, u, t))
        })
}

/// SK-MIS-1: every shot of the missile phase: what [`check_shot`] accepts.
pub(crate) fn legal_shots(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    for u in rules.side_ids(state.active) {
        if can_shoot(rules, state, u).is_err() {
            continue;
        }
        for t in rules.side_ids(Skirmish::passive(state)) {
            if may_shoot(rules, state, u, t) {
                out.push(Action::Shoot { unit: u, target: t });
            }
        }
    }
}

/// SK-MIS-4: every legal reaction fire in the reaction window: what [`check_shot`]
/// accepts.
pub(crate) fn legal_reaction_fire(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    let Some(Window::Reaction { unit }) = &state.window else {
        return;
    };
    for u in rules.side_ids(Skirmish::passive(state)) {
        if can_shoot(rules, state, u).is_ok() && may_shoot(rules, state, u, *unit) {
            out.push(Action::Shoot {
                unit: u,
                target: *unit,
            });
        }
    }
}

/// The totals behind a shot's preview.
pub(crate) fn inputs(rules: &Skirmish, state: &State, u: UnitId, t: UnitId) -> Value {
    match aim(rules, state, u, t) {
        Ok(s) => json!({
            "shot": {
                "attack": s.attack,
                "defense": s.defense,
                "attack_terms": s.attack_terms,
                "defense_terms": s.defense_terms,
                "arc": s.arc.name(),
                "distance": s.distance,
                "range": if s.long { "long" } else { "short" },
                "hit_on_die": rules.data.melee.hit_at - s.attack + s.defense,
            }
        }),
        Err(_) => json!({}),
    }
}
