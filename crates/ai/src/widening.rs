//! Progressive widening at the root: the root's plans are ranked by a look one plan
//! ahead, and the search opens them best first, one more as the visits grow, so that
//! a phase of many plans (a Morne Plaine movement phase offers 70 to 80) spends its
//! simulations on the likely ones rather than a few on each.

use crate::plans;
use grognard_engine::{Dice, Plan, Ruleset};

/// How many of a node's plans the search may open: `width × (visits + 1)^growth`,
/// at least two.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// Plans open at the first visit.
    pub width: f64,
    /// How fast more open as the visits grow (1 opens one more a visit).
    pub growth: f64,
}

impl Default for Widening {
    fn default() -> Widening {
        Widening {
            width: 1.0,
            growth: 0.5,
        }
    }
}

impl Widening {
    /// Plans open after `visits` simulations through the node.
    ///
    /// ```
    /// use grognard_ai::widening::Widening;
    /// let w = Widening { width: 1.0, growth: 0.5 };
    /// assert_eq!(w.open(0), 2);
    /// assert_eq!(w.open(99), 10);
    /// assert_eq!(w.open(399), 20);
    /// ```
    #[must_use]
    pub fn open(&self, visits: u64) -> usize {
        #[expect(
            clippy::cast_precision_loss,
            reason = "visit counts are far below 2^52"
        )]
        let n = (visits + 1) as f64;
        let k = (self.width * n.powf(self.growth)).ceil();
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a positive count of plans, held below usize::MAX"
        )]
        let k = k.clamp(0.0, 1e15) as usize;
        k.max(2)
    }
}

/// Each plan's rank by the side to act's evaluation one plan ahead (one sample of the
/// dice): 0 for the best. Ties keep the plans' order. Empty once the game is over.
pub fn ranks<R: Ruleset>(
    rules: &R,
    state: &R::State,
    plans: &[Plan<R::Action>],
    seed: u64,
) -> Vec<usize> {
    let Some(side) = rules.acting(state).map(|d| d.side) else {
        return Vec::new();
    };
    let mut events = Vec::new();
    let mut scored: Vec<(f64, usize)> = plans
        .iter()
        .enumerate()
        .map(|(i, plan)| {
            let mut s = state.clone();
            let mut dice = Dice::new(seed ^ i as u64);
            plans::play(rules, &mut s, plan, &mut dice, &mut events);
            (crate::greedy::score(rules, &s, &side), i)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut rank = vec![0; plans.len()];
    for (r, &(_, i)) in scored.iter().enumerate() {
        rank[i] = r;
    }
    rank
}
