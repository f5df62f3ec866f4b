//! What each seat sees: the whole fight (nothing is hidden in a skirmish), in the
//! envelope every ruleset shares (`turn`, `turns`, `phase`, `active`, `units` with `id`,
//! `side` and `hex`) plus the skirmish's own keys, and the score every view carries
//! (`objectives`, none in a skirmish; `score`, SK-TURN-3; `turns_left`).

use super::step::{self, Gait, Priced, StepTo};
use super::{
    charge, charge_odds, maneuver, melee, missile, movement, reactions, turn, Action, Event, Phase,
    Skirmish, State, Window,
};
use crate::common::score;
use grognard_engine::{Chance, Ctx, Dice, Preview, Reached, Reason, Refusal, Ruleset, UnitId};
use serde_json::{json, Value};

/// The whole fight as every seat sees it.
pub(crate) fn view(rules: &Skirmish, state: &State) -> serde_json::Value {
    let units: Vec<_> = rules
        .ids()
        .map(|u| {
            let c = &rules.chars[u.index()];
            let s = Skirmish::ch(state, u);
            let w = &rules.weapons[u.index()];
            let mut statuses = Vec::new();
            for (on, name) in [
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
            ] {
                if on {
                    statuses.push(name);
                }
            }
            json!({
                "id": c.id,
                "name": c.name,
                "side": rules.side_name(c.side),
                "hex": s.hex.map(|h| rules.label(h)),
                "facing": rules.dir_name(s.facing),
                "facing_index": s.facing.index(),
                "finesse": c.finesse, "vigor": c.vigor, "morale": c.morale,
                "weapon_skill": c.weapon_skill, "combat": c.combat, "evasion": c.evasion,
                "weapon": { "name": c.weapon, "reach": w.reach, "alt_reach": w.alt_reach, "damage": w.damage },
                "missile": rules.missiles[u.index()].as_ref().map(|m| json!({
                    "name": c.missile, "short": m.short, "range": m.range, "damage": m.damage,
                })),
                "shield": c.shield,
                "berserker": c.berserker,
                "formation": c.formation,
                "health": rules.health(u),
                "damage": s.damage,
                "statuses": statuses,
                "mp": s.mp,
                "allowance": rules.allowance(state, u),
                "short_mp": rules.short_allowance(state, u),
                "actions": { "quick": s.quick, "complex": s.complex, "melee": s.melee && !s.dazed },
                "ripostes_left": Skirmish::melee_actions(state, u).saturating_sub(s.ripostes),
                "moved": s.moved,
                "done": s.done,
            })
        })
        .collect();
    let window = state.window.as_ref().map(|w| match w {
        Window::Opportunity {
            unit, to, eligible, ..
        } => json!({
            "kind": "opportunity",
            "unit": rules.id(*unit),
            "from": Skirmish::ch(state, *unit).hex.map(|h| rules.label(h)),
            "to": to.map(|h| rules.label(h)),
            "eligible": eligible.iter().map(|&e| rules.id(e)).collect::<Vec<_>>(),
        }),
        Window::Reaction { unit } => json!({
            "kind": "reaction",
            "unit": rules.id(*unit),
            "at": Skirmish::ch(state, *unit).hex.map(|h| rules.label(h)),
            "reactors": rules
                .side_ids(Skirmish::passive(state))
                .filter(|&p| reactions::can_react(rules, state, p).is_ok())
                .map(|p| rules.id(p))
                .collect::<Vec<_>>(),
        }),
    });
    let charge = state.charge.as_ref().map(|c| {
        json!({
            "current": rules.id(c.legs[c.current].run.unit),
            "legs": c.legs.iter().map(|l| json!({
                "unit": rules.id(l.run.unit),
                "target": rules.id(l.target),
                "done": l.done,
                "path": l.run.path.iter().map(|&h| rules.label(h)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    });
    let p = turn::points(rules, state);
    let mut v = json!({
        "turn": state.turn,
        "turns": rules.turns,
        "active": rules.side_name(state.active),
        "passive": rules.side_name(Skirmish::passive(state)),
        "phase": state.phase,
        "window": window,
        "moving": state.moving.as_ref().map(|m| rules.id(m.unit)),
        "charge": charge,
        "units": units,
        "points": { rules.side_name(0): p[0], rules.side_name(1): p[1] },
        "home_edges": { rules.side_name(0): rules.home[0].name(), rules.side_name(1): rules.home[1].name() },
        "outcome": state.outcome,
    });
    add_score(rules, state, p, &mut v);
    v
}

/// SK-TURN-3: a side has the enemies it has put out of the fight and needs them all (a
/// band with nobody left loses at once); `left` counts its own characters still in the
/// fight.
fn add_score(rules: &Skirmish, state: &State, points: [usize; 2], v: &mut Value) {
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let tallies = [0u8, 1]
        .into_iter()
        .map(|side| {
            let enemies = rules.side_ids(1 - side).count();
            let left = rules
                .side_ids(side)
                .filter(|&u| Skirmish::ch(state, u).in_play())
                .count();
            let mut t = score::tally(count(points[usize::from(side)]), Some(count(enemies)));
            t.insert("left".into(), json!(left));
            (rules.side_name(side), t)
        })
        .collect();
    let left = score::turns_left(state.turn, Some(rules.turns), state.outcome.is_some());
    score::add(v, &[], tallies, left);
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
    if !rules.exists(u) {
        return Err(Refusal::new("request", "no such character"));
    }
    if matches!(state.window, Some(Window::Reaction { .. })) && rules.side_of(u) != state.active {
        reactions::may_react(rules, state, u)?;
        let budget = u32::from(rules.short_allowance(state, u));
        return Ok(step::walk_reach(rules, state, u, budget, Gait::Short));
    }
    if state.window.is_some() {
        return Err(reactions::window_refusal(rules, state));
    }
    if state.phase == Phase::Melee && rules.side_of(u) == state.active {
        // SK-SHM-4: a Maneuver's short move.
        maneuver::may_maneuver(rules, state, u)?;
        let budget = u32::from(rules.short_allowance(state, u));
        return Ok(step::walk_reach(rules, state, u, budget, Gait::Short));
    }
    let c = Skirmish::ch(state, u);
    // The next steps only, as the step's own check accepts them.
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
            .collect()
    };
    if state.charge.is_some() {
        charge::check_runner(rules, state, u)?;
        return Ok(next(charge::check_step));
    }
    rules.may_move(state, u)?;
    if c.panicked {
        return Ok(next(movement::check_move));
    }
    Ok(step::walk_reach(
        rules,
        state,
        u,
        u32::from(c.mp),
        Gait::Walk,
    ))
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
