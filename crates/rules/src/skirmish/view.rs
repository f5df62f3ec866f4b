//! What each seat sees: the whole fight (nothing is hidden in a skirmish), in the
//! envelope every ruleset shares (`turn`, `turns`, `phase`, `active`, `units` with `id`,
//! `side` and `hex`) plus the skirmish's own keys, and the score every view carries
//! (`objectives`, none in a skirmish; `score`, SK-TURN-3; `turns_left`).

use super::step::{self, Gait, Priced, StepTo};
use super::{
    charge, charge_odds, maneuver, melee, missile, movement, reactions, turn, walks, Action, Event,
    Phase, Skirmish, State, Window,
};
use crate::common::score;
use grognard_engine::{
    Chance, Ctx, Dice, Preview, Reached, Reason, Refusal, Ruleset, Seat, UnitId,
};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The whole fight as every seat sees it: nothing is hidden in a skirmish.
pub(crate) fn view(rules: &Skirmish, state: &State, _seat: &Seat) -> Value {
    score::value(&build(rules, state))
}

/// [`view`] as JSON text, written straight from the records.
pub(crate) fn view_text(rules: &Skirmish, state: &State, _seat: &Seat) -> String {
    score::text(&build(rules, state))
}

/// The view, built as typed records whose fields are declared in the order of their
/// keys, so that written straight to text ([`view_text`]) it has the bytes a `Value` of
/// it would write ([`view`]).
#[derive(Serialize)]
struct View<'a> {
    active: &'a str,
    charge: Option<ChargeOut<'a>>,
    home_edges: BTreeMap<&'a str, &'static str>,
    moving: Option<&'a str>,
    /// None in a skirmish.
    objectives: [u8; 0],
    /// Through a `Value`, which sorts its keys (the engine's `Outcome` declares them
    /// otherwise); rare, once the game is over.
    outcome: Option<Value>,
    passive: &'a str,
    phase: Phase,
    points: BTreeMap<&'a str, usize>,
    score: BTreeMap<&'a str, Tally>,
    turn: u32,
    turns: u32,
    turns_left: Option<u32>,
    units: Vec<UnitOut<'a>>,
    window: Option<WindowOut<'a>>,
}

/// One character, fully.
#[derive(Serialize)]
struct UnitOut<'a> {
    actions: ActionsOut,
    allowance: u8,
    berserker: bool,
    combat: u8,
    damage: u8,
    done: bool,
    evasion: u8,
    facing: &'static str,
    facing_index: usize,
    finesse: u8,
    formation: &'a Option<String>,
    health: u8,
    hex: Option<String>,
    id: &'a str,
    missile: Option<MissileOut<'a>>,
    morale: u8,
    moved: bool,
    mp: u8,
    name: &'a str,
    ripostes_left: u8,
    shield: &'a Option<String>,
    short_mp: u8,
    side: &'a str,
    statuses: Vec<&'static str>,
    vigor: u8,
    weapon: WeaponOut<'a>,
    weapon_skill: u8,
}

/// The actions a character has left this turn.
#[derive(Serialize)]
struct ActionsOut {
    complex: bool,
    melee: bool,
    quick: bool,
}

#[derive(Serialize)]
struct MissileOut<'a> {
    damage: u8,
    name: &'a Option<String>,
    range: u8,
    short: u8,
}

#[derive(Serialize)]
struct WeaponOut<'a> {
    alt_reach: Option<u8>,
    damage: u8,
    name: &'a str,
    reach: u8,
}

/// The window open to the passive side, if any.
#[derive(Serialize)]
#[serde(untagged)]
enum WindowOut<'a> {
    Opportunity {
        eligible: Vec<&'a str>,
        from: Option<String>,
        kind: &'static str,
        to: Option<String>,
        unit: &'a str,
    },
    Reaction {
        at: Option<String>,
        kind: &'static str,
        reactors: Vec<&'a str>,
        unit: &'a str,
    },
}

/// A charge under way (SK-CHG).
#[derive(Serialize)]
struct ChargeOut<'a> {
    current: &'a str,
    legs: Vec<LegOut<'a>>,
}

#[derive(Serialize)]
struct LegOut<'a> {
    done: bool,
    path: Vec<String>,
    target: &'a str,
    unit: &'a str,
}

/// One side's entry in `score`, as `common::score::tally` writes it, with the
/// characters it has `left`.
#[derive(Serialize)]
struct Tally {
    have: i64,
    left: usize,
    need: Option<i64>,
}

fn build<'a>(rules: &'a Skirmish, state: &'a State) -> View<'a> {
    let units = rules
        .ids()
        .map(|u| {
            let c = &rules.chars[u.index()];
            let s = Skirmish::ch(state, u);
            let w = &rules.weapons[u.index()];
            let statuses = [
                (s.dazed, "dazed"),
                (s.panicked, "panicked"),
                (s.berserk, "berserk"),
                (rules.wounded(state, u), "wounded"),
                (s.encumbered, "encumbered"),
                (s.in_play() && rules.engaged(state, u), "engaged"),
                (s.defending.is_some(), "defending"),
                (s.evasive, "evasive"),
                (s.out, "out_of_action"),
                (s.fled, "fled"),
            ]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
            UnitOut {
                actions: ActionsOut {
                    complex: s.complex,
                    melee: s.melee && !s.dazed,
                    quick: s.quick,
                },
                allowance: rules.allowance(state, u),
                berserker: c.berserker,
                combat: c.combat,
                damage: s.damage,
                done: s.done,
                evasion: c.evasion,
                facing: rules.dir_name(s.facing),
                facing_index: s.facing.index(),
                finesse: c.finesse,
                formation: &c.formation,
                health: rules.health(u),
                hex: s.hex.map(|h| rules.label(h)),
                id: &c.id,
                missile: rules.missiles[u.index()].as_ref().map(|m| MissileOut {
                    damage: m.damage,
                    name: &c.missile,
                    range: m.range,
                    short: m.short,
                }),
                morale: c.morale,
                moved: s.moved,
                mp: s.mp,
                name: &c.name,
                ripostes_left: Skirmish::melee_actions(state, u).saturating_sub(s.ripostes),
                shield: &c.shield,
                short_mp: rules.short_allowance(state, u),
                side: rules.side_name(c.side),
                statuses,
                vigor: c.vigor,
                weapon: WeaponOut {
                    alt_reach: w.alt_reach,
                    damage: w.damage,
                    name: &c.weapon,
                    reach: w.reach,
                },
                weapon_skill: c.weapon_skill,
            }
        })
        .collect();
    let window = state.window.as_ref().map(|w| match w {
        Window::Opportunity {
            unit, to, eligible, ..
        } => WindowOut::Opportunity {
            eligible: eligible.iter().map(|&e| rules.id(e)).collect(),
            from: Skirmish::ch(state, *unit).hex.map(|h| rules.label(h)),
            kind: "opportunity",
            to: to.map(|h| rules.label(h)),
            unit: rules.id(*unit),
        },
        Window::Reaction { unit } => WindowOut::Reaction {
            at: Skirmish::ch(state, *unit).hex.map(|h| rules.label(h)),
            kind: "reaction",
            reactors: rules
                .side_ids(Skirmish::passive(state))
                .filter(|&p| reactions::can_react(rules, state, p).is_ok())
                .map(|p| rules.id(p))
                .collect(),
            unit: rules.id(*unit),
        },
    });
    let charge = state.charge.as_ref().map(|c| ChargeOut {
        current: rules.id(c.legs[c.current].run.unit),
        legs: c
            .legs
            .iter()
            .map(|l| LegOut {
                done: l.done,
                path: l.run.path.iter().map(|&h| rules.label(h)).collect(),
                target: rules.id(l.target),
                unit: rules.id(l.run.unit),
            })
            .collect(),
    });
    let points = turn::points(rules, state);
    View {
        active: rules.side_name(state.active),
        charge,
        home_edges: BTreeMap::from([
            (rules.side_name(0), rules.home[0].name()),
            (rules.side_name(1), rules.home[1].name()),
        ]),
        moving: state.moving.as_ref().map(|m| rules.id(m.unit)),
        objectives: [],
        outcome: state.outcome.as_ref().map(score::value),
        passive: rules.side_name(Skirmish::passive(state)),
        phase: state.phase,
        points: BTreeMap::from([
            (rules.side_name(0), points[0]),
            (rules.side_name(1), points[1]),
        ]),
        score: score(rules, state, points),
        turn: state.turn,
        turns: rules.turns,
        turns_left: score::turns_left(state.turn, Some(rules.turns), state.outcome.is_some()),
        units,
        window,
    }
}

/// SK-TURN-3: a side has the enemies it has put out of the fight and needs them all (a
/// band with nobody left loses at once); `left` counts its own characters still in the
/// fight.
fn score<'a>(rules: &'a Skirmish, state: &State, points: [usize; 2]) -> BTreeMap<&'a str, Tally> {
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    [0u8, 1]
        .into_iter()
        .map(|side| {
            let enemies = rules.side_ids(1 - side).count();
            let left = rules
                .side_ids(side)
                .filter(|&u| Skirmish::ch(state, u).in_play())
                .count();
            let tally = Tally {
                have: count(points[usize::from(side)]),
                left,
                need: Some(count(enemies)),
            };
            (rules.side_name(side), tally)
        })
        .collect()
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
    Ok(match reach_of(rules, state, u)? {
        Reach::Next(next) => next,
        Reach::Walk(budget, gait) => step::walk_reach(rules, state, u, budget, gait),
    })
}

/// The paths of [`reachable`]'s hexes, in its order, each handed to `each` (none where
/// it refuses): a walk's or short move's laid end to end in one vector
/// ([`walks::walk_ends`]) rather than one a hex. The searches' plans read these.
pub(crate) fn reached_paths(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    mut each: impl FnMut(&[grognard_hex::Hex]),
) {
    match reach_of(rules, state, u) {
        Err(_) => {}
        Ok(Reach::Next(next)) => {
            for r in &next {
                each(&r.path);
            }
        }
        Ok(Reach::Walk(budget, gait)) => {
            let ends = walks::walk_ends(rules, state, u, budget, gait);
            for e in ends.iter() {
                each(ends.path(e));
            }
        }
    }
}

/// What [`reachable`] answers with: the next steps found, or a walk (or short move)
/// within so many points, stepping so.
enum Reach {
    Next(Vec<Reached>),
    Walk(u32, Gait),
}

/// [`reachable`]'s checks: what it answers with, or why it refuses.
fn reach_of(rules: &Skirmish, state: &State, u: UnitId) -> Result<Reach, Refusal> {
    if !rules.exists(u) {
        return Err(Refusal::new("request", "no such character"));
    }
    if matches!(state.window, Some(Window::Reaction { .. })) && rules.side_of(u) != state.active {
        reactions::may_react(rules, state, u)?;
        let budget = u32::from(rules.short_allowance(state, u));
        return Ok(Reach::Walk(budget, Gait::Short));
    }
    if state.window.is_some() {
        return Err(reactions::window_refusal(rules, state));
    }
    if state.phase == Phase::Melee && rules.side_of(u) == state.active {
        // SK-SHM-4: a Maneuver's short move.
        maneuver::may_maneuver(rules, state, u)?;
        let budget = u32::from(rules.short_allowance(state, u));
        return Ok(Reach::Walk(budget, Gait::Short));
    }
    let c = Skirmish::ch(state, u);
    // The next steps only, as the step's own check accepts them. A step into a
    // friend's hex that ends the run there is put back where it started (SK-MOV-18):
    // it reaches nothing.
    type Check = fn(&Skirmish, &State, UnitId, StepTo) -> Result<Priced, Refusal>;
    let next = |check: Check| -> Vec<Reached> {
        let from = c.hex.expect("in play");
        from.neighbors()
            .into_iter()
            .filter(|&n| rules.map.contains(n))
            .filter_map(|n| {
                check(rules, state, u, StepTo::hex(n, false))
                    .ok()
                    .map(|p| Reached {
                        hex: n,
                        cost: u32::from(p.cost),
                        path: vec![n],
                        stop: p.stop,
                    })
            })
            .filter(|r| !rules.friend_at(state, u, r.hex) || stays(rules, state, u, r.hex))
            .collect()
    };
    if state.charge.is_some() {
        charge::check_runner(rules, state, u)?;
        return Ok(Reach::Next(next(charge::check_step)));
    }
    rules.may_move(state, u)?;
    if c.panicked {
        return Ok(Reach::Next(next(movement::check_move)));
    }
    Ok(Reach::Walk(u32::from(c.mp), Gait::Walk))
}

/// Whether `u`'s step into `to` leaves it standing there, played on a copy with fixed
/// dice: a flight runs facing its route and rolls nothing (SK-MOV-17 tests only
/// sideways and backward steps); a charge's step may end in its strike, and a run that
/// ends in a friend's hex is put back whatever the strike rolled.
pub(crate) fn stays(rules: &Skirmish, state: &State, u: UnitId, to: grognard_hex::Hex) -> bool {
    let mut after = state.clone();
    let mut dice = Dice::new(0);
    let mut events = Vec::new();
    let step = Action::Move {
        unit: u,
        to,
        evasive: false,
    };
    grognard_engine::Ruleset::apply(
        rules,
        &mut after,
        &step,
        &mut Ctx::new(&mut dice, &mut events),
    )
    .is_ok()
        && Skirmish::ch(&after, u).hex == Some(to)
}

/// What an action did to the characters, for grouping the outcomes of a preview.
fn summary(rules: &Skirmish, before: &State, after: &State) -> Value {
    let mut out = serde_json::Map::new();
    for u in rules.ids() {
        let (b, a) = (Skirmish::ch(before, u), Skirmish::ch(after, u));
        let mut m = serde_json::Map::new();
        if a.damage > b.damage {
            m.insert("damage".into(), json!(a.damage - b.damage));
        }
        if a.dazed && !b.dazed {
            m.insert("dazed".into(), json!(true));
        }
        if rules.wounded(after, u) && !rules.wounded(before, u) {
            m.insert("wounded".into(), json!(true));
        }
        if a.out && !b.out {
            m.insert("out".into(), json!(true));
        }
        if a.hex != b.hex && a.in_play() {
            m.insert("at".into(), json!(a.hex.map(|h| rules.label(h))));
        }
        if !m.is_empty() {
            out.insert(rules.id(u).to_owned(), Value::Object(m));
        }
    }
    Value::Object(out)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The exact distribution of an action's results: the action is played on copies of
/// the state for every sequence of die faces it can roll, so the odds are the rules'
/// own. Any legal action that rolls can be previewed: attacks (with their counters),
/// attacks of opportunity, shots, maneuvers and short moves that provoke, the step that
/// completes a charge, a difficult step. A charge whose declaration rolls nothing is
/// previewed by the strike at its end (SK-CHG-10, `charge_odds`).
pub(crate) fn preview(
    rules: &Skirmish,
    state: &State,
    action: &Action,
) -> Result<Preview, Refusal> {
    let e = rules.explain(state, action);
    if !e.legal {
        return Err(Refusal { reasons: e.reasons });
    }
    let mut reasons = e.reasons;
    let (mut leaves, mut depth) = leaves(rules, state, state, |s, ctx| {
        rules.apply_unchecked(s, action, ctx);
    })?;
    let mut inputs = match action {
        Action::Shoot { unit, target } => missile::inputs(rules, state, *unit, *target),
        _ => melee::inputs(rules, state, action),
    };
    if depth == 0 {
        let mut arrived = state.clone();
        let mut dice = Dice::new(0);
        let mut events = Vec::new();
        let arrival = charge_odds::arrive(
            rules,
            &mut arrived,
            action,
            &mut Ctx::new(&mut dice, &mut events),
        );
        if let Some(a) = arrival {
            // The run rolls nothing: only the strike at its end is played for each die.
            (leaves, depth) = self::leaves(rules, state, &arrived, |s, ctx| {
                charge_odds::strike(rules, s, a, ctx);
            })?;
            inputs = charge_odds::inputs(rules, &arrived, a);
            reasons.push(Reason::new(
                "SK-CHG-10",
                format!(
                    "declaring the charge rolls no dice: these are the odds of the strike when {} reaches {} at {}, by the shortest route, if nothing stops it on the way",
                    rules.name(a.unit),
                    rules.name(a.target),
                    rules.label(a.at)
                ),
            ));
        }
    }
    if depth == 0 {
        return Err(Refusal::new(
            "SK-MEL-6",
            "this action rolls no dice: nothing to preview",
        ));
    }
    let sides = u64::from(rules.data.dice.sides);
    let den = sides.pow(depth);
    let mut grouped: Vec<(Value, u64)> = Vec::new();
    for (v, d) in leaves {
        let w = sides.pow(depth - d);
        match grouped.iter_mut().find(|(g, _)| *g == v) {
            Some(g) => g.1 += w,
            None => grouped.push((v, w)),
        }
    }
    let outcomes = grouped
        .into_iter()
        .map(|(v, n)| {
            let g = gcd(n, den);
            Chance::new(v, n / g, den / g)
        })
        .collect();
    Ok(Preview {
        roll: format!("up to {depth}d{sides}"),
        inputs,
        outcomes,
        reasons,
    })
}

/// What `play` does from `start` for every sequence of die faces it can roll, told as
/// what changed for the characters since `before`, each with the number of dice of its
/// sequence; and the most dice any sequence rolls.
fn leaves(
    rules: &Skirmish,
    before: &State,
    start: &State,
    play: impl Fn(&mut State, &mut Ctx<'_, Event>),
) -> Result<(Vec<(Value, u32)>, u32), Refusal> {
    let mut leaves: Vec<(Value, u32)> = Vec::new();
    let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        let mut s = start.clone();
        let mut dice = Dice::new(0);
        dice.force(prefix.iter().copied());
        let mut events = Vec::new();
        let mut ctx = Ctx::new(&mut dice, &mut events);
        play(&mut s, &mut ctx);
        let rolled = ctx.rolls() as usize;
        if rolled > 4 {
            return Err(Refusal::new(
                "SK-MEL-6",
                "this action rolls more than four dice (a morale phase): no preview",
            ));
        }
        if rolled > prefix.len() {
            let next_sides = events
                .iter()
                .filter_map(|ev| match ev {
                    Event::Roll(r) => Some(r.sides),
                    _ => None,
                })
                .nth(prefix.len())
                .unwrap_or(rules.data.dice.sides);
            for f in (1..=next_sides).rev() {
                let mut p = prefix.clone();
                p.push(f);
                stack.push(p);
            }
            continue;
        }
        leaves.push((
            summary(rules, before, &s),
            u32::try_from(prefix.len()).expect("few dice"),
        ));
    }
    let depth = leaves.iter().map(|l| l.1).max().unwrap_or(0);
    Ok((leaves, depth))
}
