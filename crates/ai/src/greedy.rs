//! The `easy` level: the plan that looks best one plan ahead.
//!
//! Each plan is played on copies of the state, with a few samples of the dice when
//! it rolls, and scored by the mean of [`Ruleset::evaluate`] for the side to act.
//! Ties go to a seeded draw, so that equal plans are not always taken in list order.

use crate::plans::{self, Played};
use crate::rng::Rng;
use grognard_engine::{Dice, Plan, Ruleset};

/// Dice samples for a plan that rolls.
pub const SAMPLES: u32 = 6;

/// The chosen plan, and every plan with its mean score, best first.
pub type Greedy<A> = (Plan<A>, Vec<(Plan<A>, f64)>);

/// The best plan one plan ahead and each plan's mean score, or `None` once the game
/// is over or nothing is offered.
pub fn choose<R: Ruleset>(
    rules: &R,
    state: &R::State,
    played_in_phase: u32,
    seed: u64,
) -> Option<Greedy<R::Action>> {
    let side = rules.acting(state)?.side;
    let candidates = plans::candidates(rules, state, played_in_phase, None);
    if candidates.len() <= 1 {
        let plan = candidates.into_iter().next()?;
        return Some((plan.clone(), vec![(plan, 0.0)]));
    }
    let mut tie = Rng::new(seed);
    let mut events = Vec::new();
    let mut scored = Vec::with_capacity(candidates.len());
    let mut best: Option<(f64, u64, usize)> = None;
    for (i, plan) in candidates.iter().enumerate() {
        let mut total = 0.0;
        let mut n = 0u32;
        for sample in 0..SAMPLES {
            let mut s = state.clone();
            let mut dice = Dice::new(seed ^ (u64::from(sample) << 32) ^ i as u64);
            let Played { rolls, .. } = plans::play(rules, &mut s, plan, &mut dice, &mut events);
            total += score(rules, &s, &side);
            n += 1;
            if rolls == 0 {
                break;
            }
        }
        let mean = total / f64::from(n);
        let draw = tie.next_u64();
        let better =
            best.is_none_or(|(b, d, _)| mean > b + 1e-9 || ((mean - b).abs() <= 1e-9 && draw > d));
        if better {
            best = Some((mean, draw, i));
        }
        scored.push(mean);
    }
    let (_, _, i) = best?;
    let chosen = candidates[i].clone();
    let mut all: Vec<(Plan<R::Action>, f64)> = candidates.into_iter().zip(scored).collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some((chosen, all))
}

/// The evaluation, with a finished game worth more than any position.
pub(crate) fn score<R: Ruleset>(rules: &R, state: &R::State, side: &str) -> f64 {
    match rules.outcome(state) {
        Some(o) => match o.winner {
            Some(w) if w == side => 1e9,
            Some(_) => -1e9,
            None => 0.0,
        },
        None => rules.evaluate(state, side),
    }
}
