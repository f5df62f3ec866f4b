//! Plans as the computer chooses among them: the ruleset's plans, the pass always
//! among them, a cap on plans a phase, the few best plans of each unit, and playing
//! a plan's steps.

use crate::rng::Rng;
use grognard_engine::{Ctx, Dice, Plan, Ruleset};

/// Where the game stands in its sequence of phases and windows: a new key means a
/// new phase (or a window opened or closed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseKey {
    /// Game turn, from [`Ruleset::turn`].
    pub turn: u32,
    /// The side deciding.
    pub side: String,
    /// The kind of decision.
    pub kind: String,
    /// Whether it is the other side's window.
    pub reaction: bool,
}

impl PhaseKey {
    /// The key of `state`, or `None` once the game is over.
    pub fn of<R: Ruleset>(rules: &R, state: &R::State) -> Option<PhaseKey> {
        let d = rules.to_act(state)?;
        Some(PhaseKey {
            turn: rules.turn(state),
            side: d.side,
            kind: d.kind,
            reaction: d.reaction,
        })
    }

    /// Whether `key` is the key of `state`: [`PhaseKey::of`] compared, without the
    /// strings it would build (asked after every plan of every simulation).
    pub fn holds<R: Ruleset>(key: Option<&PhaseKey>, rules: &R, state: &R::State) -> bool {
        match (key, rules.acting(state)) {
            (None, None) => true,
            (Some(k), Some(a)) => {
                k.reaction == a.reaction
                    && k.side == a.side
                    && k.kind == a.kind
                    && k.turn == rules.turn(state)
            }
            _ => false,
        }
    }
}

/// How many plans have been played in the current phase: after `3 × units` of them
/// only the pass is offered, so that no phase goes on for ever.
#[derive(Clone, Debug, Default)]
pub struct PhaseCount {
    key: Option<PhaseKey>,
    plans: u32,
}

impl PhaseCount {
    /// Brings the count to `state`: a new phase starts again from 0.
    pub fn observe<R: Ruleset>(&mut self, rules: &R, state: &R::State) {
        if !PhaseKey::holds(self.key.as_ref(), rules, state) {
            self.key = PhaseKey::of(rules, state);
            self.plans = 0;
        }
    }

    /// Counts one plan played in the current phase.
    pub fn played(&mut self) {
        self.plans = self.plans.saturating_add(1);
    }

    /// Plans played in the current phase.
    #[must_use]
    pub fn plans(&self) -> u32 {
        self.plans
    }
}

/// Plans a phase may hold before only the pass is offered: three per unit, and at
/// least a few for scenarios with very few units.
#[must_use]
pub fn phase_cap(units: usize) -> u32 {
    u32::try_from(units.saturating_mul(3))
        .unwrap_or(u32::MAX)
        .max(6)
}

/// The plans the computer chooses among in `state`: the ruleset's, with its pass
/// last, or the pass alone once the phase has had `phase_cap` plans. With
/// `per_unit`, a unit with more plans keeps only its `per_unit` best by the
/// evaluation one plan ahead (one sample of the dice).
pub fn candidates<R: Ruleset>(
    rules: &R,
    state: &R::State,
    played_in_phase: u32,
    per_unit: Option<usize>,
) -> Vec<Plan<R::Action>> {
    let pass = rules.pass(state).filter(|p| rules.allows(state, p));
    if let Some(p) = &pass {
        if played_in_phase >= phase_cap(rules.names().unit_count()) {
            return vec![Plan::single(p.clone())];
        }
    }
    let mut plans = Vec::new();
    rules.plans(state, &mut plans);
    if let Some(p) = pass {
        // Last, so that between plans the search cannot tell apart, it acts.
        plans.retain(|x| !(x.steps.len() == 1 && x.steps[0] == p));
        plans.push(Plan::single(p));
    }
    plans.retain(|p| !p.steps.is_empty());
    if let Some(k) = per_unit {
        prune(rules, state, &mut plans, k);
    }
    plans
}

/// Keeps a random `k` of each unit's plans.
pub fn sample_per_unit<A>(plans: &mut Vec<Plan<A>>, k: usize, rng: &mut Rng) {
    let mut seen: Vec<(grognard_engine::UnitId, usize)> = Vec::new();
    // A random order, then the first k of each unit.
    for i in (1..plans.len()).rev() {
        let j = rng.below(i + 1);
        plans.swap(i, j);
    }
    plans.retain(|p| {
        let Some(u) = p.unit else { return true };
        match seen.iter_mut().find(|(v, _)| *v == u) {
            Some((_, n)) => {
                *n += 1;
                *n <= k
            }
            None => {
                seen.push((u, 1));
                true
            }
        }
    });
}

/// Keeps each unit's `k` best plans.
fn prune<R: Ruleset>(rules: &R, state: &R::State, plans: &mut Vec<Plan<R::Action>>, k: usize) {
    let Some(side) = rules.acting(state).map(|d| d.side) else {
        return;
    };
    let mut units: Vec<_> = plans.iter().filter_map(|p| p.unit).collect();
    units.sort_unstable();
    units.dedup();
    let mut drop = vec![false; plans.len()];
    let mut events = Vec::new();
    for u in units {
        let idx: Vec<usize> = (0..plans.len())
            .filter(|&i| plans[i].unit == Some(u))
            .collect();
        if idx.len() <= k {
            continue;
        }
        let mut scored: Vec<(f64, usize)> = idx
            .iter()
            .map(|&i| {
                let mut s = state.clone();
                let mut dice = Dice::new(0x5EED ^ i as u64);
                play(rules, &mut s, &plans[i], &mut dice, &mut events);
                (rules.evaluate(&s, &side), i)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(_, i) in &scored[k..] {
            drop[i] = true;
        }
    }
    let mut i = 0;
    plans.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
}

/// What playing a plan did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Steps played.
    pub steps: usize,
    /// Dice rolled.
    pub rolls: u32,
}

/// Plays a plan's steps on `state` while each is legal and the same side is to act
/// (a plan made for another sample of the dice or of the hidden cards, or a path
/// that an enemy's zone cuts short, stops there). The steps are applied in a quiet
/// context ([`Ctx::quiet`]): `events` is left empty.
pub fn play<R: Ruleset>(
    rules: &R,
    state: &mut R::State,
    plan: &Plan<R::Action>,
    dice: &mut Dice,
    events: &mut Vec<R::Event>,
) -> Played {
    play_from(rules, state, plan, dice, events, false)
}

/// [`play`] for a plan whose first step [`available`] has just found legal in this
/// same `state`: the check is not made twice (legality is what a simulation's steps
/// cost most in some rulesets).
pub fn play_available<R: Ruleset>(
    rules: &R,
    state: &mut R::State,
    plan: &Plan<R::Action>,
    dice: &mut Dice,
    events: &mut Vec<R::Event>,
) -> Played {
    play_from(rules, state, plan, dice, events, true)
}

fn play_from<R: Ruleset>(
    rules: &R,
    state: &mut R::State,
    plan: &Plan<R::Action>,
    dice: &mut Dice,
    events: &mut Vec<R::Event>,
    first_checked: bool,
) -> Played {
    let side = rules.acting(state).map(|d| d.side);
    let mut played = Played::default();
    for step in &plan.steps {
        let same_side = played.steps == 0 || rules.acting(state).map(|d| d.side) == side;
        let checked = first_checked && played.steps == 0;
        if !same_side || !(checked || rules.allows(state, step)) {
            break;
        }
        events.clear();
        let mut ctx = Ctx::quiet(dice, events);
        rules.apply_unchecked(state, step, &mut ctx);
        played.steps += 1;
        played.rolls += ctx.rolls();
    }
    played
}

/// Whether a plan's first step is legal in `state` (plans kept from another sample
/// of the dice or of the hidden cards may not be).
pub fn available<R: Ruleset>(rules: &R, state: &R::State, plan: &Plan<R::Action>) -> bool {
    plan.steps.first().is_some_and(|a| rules.allows(state, a))
}

/// A random plan: a random unit (or plan for no unit), then one of its plans, so
/// that a unit with many destinations is not chosen more often than one with few.
/// The units are counted in the order they first appear, in one walk of the list;
/// nothing is allocated when their indices are below 256 (every built-in scenario's).
pub fn random_index<A>(plans: &[Plan<A>], rng: &mut Rng) -> usize {
    random_index_of(plans, rng, true)
}

/// [`random_index`] among the plans of units, and among the plans for no unit only when
/// no unit has one: how a simulation gives every unit its turn before the phase's end
/// ([`SearchConfig::units_first`]).
///
/// [`SearchConfig::units_first`]: crate::search_config::SearchConfig::units_first
pub fn random_unit_index<A>(plans: &[Plan<A>], rng: &mut Rng) -> usize {
    random_index_of(plans, rng, false)
}

fn random_index_of<A>(plans: &[Plan<A>], rng: &mut Rng, lone_too: bool) -> usize {
    const UNITS: usize = 256;
    // One walk of the list: each unit's count of plans and the units in the order they
    // first appear (the draws are those of `random_index_listed`).
    let mut members = [0u32; UNITS];
    let mut order = [grognard_engine::UnitId(0); UNITS];
    let mut groups = 0usize;
    let mut lone = 0usize;
    for p in plans {
        match p.unit {
            Some(u) if u.index() < UNITS => {
                let m = &mut members[u.index()];
                if *m == 0 {
                    order[groups] = u;
                    groups += 1;
                }
                *m += 1;
            }
            Some(_) => return random_index_listed(plans, rng, lone_too),
            None => lone += 1,
        }
    }
    let lone_plans = lone;
    if !lone_too && groups > 0 {
        lone = 0;
    }
    let pick = rng.below(groups + lone);
    let (unit, count) = if pick < groups {
        let u = order[pick];
        (Some(u), members[u.index()] as usize)
    } else {
        (None, lone_plans)
    };
    let r = rng.below(count);
    plans
        .iter()
        .enumerate()
        .filter(|(_, p)| p.unit == unit)
        .nth(r)
        .map_or(0, |(i, _)| i)
}

/// [`random_index`] with the units listed: for units of any index.
fn random_index_listed<A>(plans: &[Plan<A>], rng: &mut Rng, lone_too: bool) -> usize {
    let mut groups: Vec<Option<grognard_engine::UnitId>> = Vec::new();
    let mut lone = 0usize;
    for p in plans {
        match p.unit {
            Some(u) if !groups.contains(&Some(u)) => groups.push(Some(u)),
            Some(_) => {}
            None => lone += 1,
        }
    }
    if !lone_too && !groups.is_empty() {
        lone = 0;
    }
    let pick = rng.below(groups.len() + lone);
    let unit = groups.get(pick).copied().flatten();
    let members: Vec<usize> = (0..plans.len())
        .filter(|&i| plans[i].unit == unit)
        .collect();
    members[rng.below(members.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use grognard_engine::UnitId;

    /// The draw without a list of units is the draw with one: the same index and the
    /// same numbers taken from the generator, for lists of every shape (units of low
    /// and high indices, repeated and interleaved, plans for no unit).
    #[test]
    fn random_index_draws_as_the_listed_draw_does() {
        let mut shapes = Rng::new(7);
        for case in 0..2_000u64 {
            let len = 1 + shapes.below(40);
            let units = 1 + shapes.below(12);
            let high = case % 5 == 0;
            let plans: Vec<Plan<u32>> = (0..len)
                .map(|k| {
                    let step = u32::try_from(k).expect("small");
                    if shapes.below(6) == 0 {
                        Plan::single(step)
                    } else {
                        let u = shapes.below(units) + if high { 250 } else { 0 };
                        Plan::of_unit(UnitId(u16::try_from(u).expect("small")), vec![step])
                    }
                })
                .collect();
            let (mut a, mut b) = (Rng::new(case), Rng::new(case));
            assert_eq!(
                random_index(&plans, &mut a),
                random_index_listed(&plans, &mut b, true),
                "case {case}"
            );
            assert_eq!(a.next_u64(), b.next_u64(), "case {case}: the same draws");
            let i = random_unit_index(&plans, &mut a);
            assert_eq!(
                plans[i].unit.is_some(),
                plans.iter().any(|p| p.unit.is_some()),
                "case {case}: a unit's plan whenever a unit has one"
            );
            assert_eq!(i, random_index_listed(&plans, &mut b, false), "case {case}");
        }
    }
}
