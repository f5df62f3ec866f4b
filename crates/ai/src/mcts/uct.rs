//! The tree policy: UCT among a node's plans that are legal in this iteration's sample,
//! and how it weighs their values ([`Values`]: raw means, means normalised between the
//! node's lowest and highest, or an exploration scaled by the values' deviation), with
//! the root's progressive widening.

use super::{Node, Tree, Values};
use crate::plans;
use grognard_engine::Ruleset;

impl<A> Node<A> {
    /// Plan `i`'s mean value for the mover; `None` before its first visit.
    pub(super) fn mean(&self, i: usize) -> Option<f64> {
        #[expect(
            clippy::cast_precision_loss,
            reason = "visit counts are far below 2^52"
        )]
        (self.visits[i] > 0).then(|| self.values[i] / self.visits[i] as f64)
    }

    /// The deviation of the values through the node (the mover's), held between 0.01
    /// and 0.5; 0.5 before two visits.
    fn deviation(&self) -> f64 {
        if self.total < 2 {
            return 0.5;
        }
        #[expect(
            clippy::cast_precision_loss,
            reason = "visit counts are far below 2^52"
        )]
        let n = self.total as f64;
        let mean = self.values.iter().sum::<f64>() / n;
        (self.squares.iter().sum::<f64>() / n - mean * mean)
            .max(0.0)
            .sqrt()
            .clamp(0.01, 0.5)
    }
}

impl<R: Ruleset> Tree<'_, R> {
    /// UCT among the node's plans that are legal now; an unvisited one first. Under
    /// progressive widening only the plans open at the node's visits count (those
    /// already visited stay open); when none of them is legal now, every plan does.
    /// At the root, the plan sequential halving gives the simulation, when legal.
    pub(super) fn select(&mut self, node: usize, state: &R::State) -> Option<usize> {
        if let (0, Some(i)) = (node, self.forced) {
            if plans::available(self.rules, state, &self.nodes[0].plans[i]) {
                return Some(i);
            }
        }
        let n = &self.nodes[node];
        let open = match self.config.widening {
            Some(w) if !n.rank.is_empty() => w.open(n.total),
            _ => usize::MAX,
        };
        match self.select_among(node, state, open) {
            None if open != usize::MAX => self.select_among(node, state, usize::MAX),
            chosen => chosen,
        }
    }

    /// UCT among the node's plans of rank below `open` (or visited) that are legal now.
    fn select_among(&mut self, node: usize, state: &R::State, open: usize) -> Option<usize> {
        let rules = self.rules;
        let n = &self.nodes[node];
        let count = n.plans.len();
        if count == 0 {
            return None;
        }
        let offset = self.rng.below(count);
        let mut best: Option<(f64, usize)> = None;
        #[expect(
            clippy::cast_precision_loss,
            reason = "visit counts are far below 2^52"
        )]
        let ln = ((n.total + 1) as f64).ln();
        // The spread of the visited plans' means, for the normalised values; the
        // deviation of the values seen, for the scaled exploration.
        let (low, high) = if self.config.values == Values::Spread {
            spread(&n.visits, &n.values)
        } else {
            (0.0, 1.0)
        };
        let width = high - low;
        let explore = if self.config.values == Values::Deviation {
            self.config.exploration * 2.0 * n.deviation()
        } else {
            self.config.exploration
        };
        for k in 0..count {
            let i = (k + offset) % count;
            if n.visits[i] == 0 && n.rank.get(i).is_some_and(|&r| r >= open) {
                continue;
            }
            let score = if let Some(mean) = n.mean(i) {
                #[expect(
                    clippy::cast_precision_loss,
                    reason = "visit counts are far below 2^52"
                )]
                let v = n.visits[i] as f64;
                let q = if width > 1e-9 {
                    (mean - low) / width
                } else {
                    0.5
                };
                q + explore * (ln / v).sqrt()
            } else {
                f64::INFINITY
            };
            if best.is_none_or(|(b, _)| score > b) {
                // Checked only for a plan that would be chosen: legality costs time.
                if plans::available(rules, state, &n.plans[i]) {
                    best = Some((score, i));
                }
            }
        }
        best.map(|(_, i)| i)
    }
}

/// A node's sums of squares: one a plan when the search weighs the values by their
/// deviation, else none (nothing to keep up at every simulation).
pub(super) fn squares(values: Values, plans: usize) -> Vec<f64> {
    if values == Values::Deviation {
        vec![0.0; plans]
    } else {
        Vec::new()
    }
}

/// The lowest and highest mean value among the visited plans of a node (0 and 1 when
/// none is visited).
fn spread(visits: &[u64], values: &[f64]) -> (f64, f64) {
    let mut low = f64::INFINITY;
    let mut high = f64::NEG_INFINITY;
    for (&n, &sum) in visits.iter().zip(values) {
        if n > 0 {
            #[expect(
                clippy::cast_precision_loss,
                reason = "visit counts are far below 2^52"
            )]
            let mean = sum / n as f64;
            low = low.min(mean);
            high = high.max(mean);
        }
    }
    if low > high {
        (0.0, 1.0)
    } else {
        (low, high)
    }
}
