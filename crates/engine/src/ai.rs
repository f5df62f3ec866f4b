//! The engine's own fallback opponent: a greedy one-ply search on the ruleset's
//! evaluation, over atomic actions. The computer opponent proper (plans, tree search,
//! levels) is the `grognard-ai` crate, which a program passes to the protocol and the
//! server through [`crate::computer::Computer`]; this one answers when none is given.
//!
//! For each legal action it applies the action to copies of the state with a few
//! samples of the dice and scores the mean of [`Ruleset::evaluate`] for the side to
//! act. Ties are broken by a seeded generator so that the computer does not always
//! pick the first of equal moves; a strong search is for later.

use crate::dice::{Ctx, Dice};
use crate::ruleset::Ruleset;
use std::time::{Duration, Instant};

/// How the computer searches.
#[derive(Clone, Copy, Debug)]
pub struct AiConfig {
    /// Dice samples per action with a random part.
    pub samples: u32,
    /// Stop scoring new actions after this long and play the best so far.
    pub budget: Duration,
    /// Seed for the samples and ties.
    pub seed: u64,
}

impl Default for AiConfig {
    fn default() -> AiConfig {
        AiConfig {
            samples: 8,
            budget: Duration::from_millis(1500),
            seed: 0x5EED,
        }
    }
}

/// The action the computer chooses for the side to act, or `None` when nobody is to
/// act (the game is over).
pub fn choose<R: Ruleset>(rules: &R, state: &R::State, config: AiConfig) -> Option<R::Action> {
    let side = rules.to_act(state)?.side;
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    if legal.len() <= 1 {
        return legal.pop();
    }
    let start = Instant::now();
    let mut tie = Dice::new(config.seed);
    let mut best: Option<(f64, u32, usize)> = None;
    let mut events = Vec::new();
    for (i, action) in legal.iter().enumerate() {
        if i > 0 && start.elapsed() > config.budget {
            break;
        }
        let mut total = 0.0;
        let mut n = 0u32;
        for sample in 0..config.samples.max(1) {
            let mut s = state.clone();
            let mut dice = Dice::new(config.seed ^ (u64::from(sample) << 32) ^ i as u64);
            events.clear();
            let mut ctx = Ctx::new(&mut dice, &mut events);
            rules.apply_unchecked(&mut s, action, &mut ctx);
            let rolled = ctx.rolls() > 0;
            total += rules.evaluate(&s, &side);
            n += 1;
            if !rolled {
                break;
            }
        }
        let score = total / f64::from(n);
        let draw = tie.next(1 << 20).0;
        let better = match best {
            None => true,
            Some((b, d, _)) => score > b + 1e-9 || ((score - b).abs() <= 1e-9 && draw > d),
        };
        if better {
            best = Some((score, draw, i));
        }
    }
    best.map(|(_, _, i)| legal.swap_remove(i))
}
