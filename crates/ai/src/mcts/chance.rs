//! Chance nodes ([`SearchConfig::chance`]): below a plan that rolls dice, each outcome
//! drawn (the seed of the plan's own dice) keeps a subtree of its own, so that what
//! the side does after a roll is chosen for that roll, not for every roll at once as
//! in the open loop. Outcomes are widened as the plan's visits grow (double
//! progressive widening): a new one is drawn while the plan has fewer than
//! ⌈(visits + 1)^exponent⌉, else one drawn before is played again from its seed,
//! which gives the same position where nothing is hidden.

use super::{Forest, SearchConfig, Tree};
use grognard_engine::Ruleset;

/// A node's outcomes under chance nodes: a list for each of its `plans`; none in the
/// open loop.
pub(super) fn outcomes(config: &SearchConfig, plans: usize) -> Vec<Vec<(u64, Option<usize>)>> {
    if config.chance.is_some() {
        vec![Vec::new(); plans]
    } else {
        Vec::new()
    }
}

/// How many outcomes a plan visited `visits` times may have drawn.
pub(super) fn allowed(visits: u64, exponent: f64) -> usize {
    #[expect(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "visit counts are far below 2^52; a small positive count"
    )]
    let n = ((visits + 1) as f64).powf(exponent).ceil() as usize;
    n.max(1)
}

impl<A> Forest<A> {
    /// Under chance nodes, for every plan of the trees that was played, how many
    /// outcomes it drew and how many visits it had, and whether it rolled dice; empty
    /// in the open loop.
    #[must_use]
    pub fn outcomes_drawn(&self) -> Vec<(usize, u64, bool)> {
        self.trees
            .iter()
            .flatten()
            .flat_map(|n| {
                n.outcomes
                    .iter()
                    .zip(&n.visits)
                    .filter(|(o, _)| !o.is_empty())
                    .map(|(o, &v)| (o.len(), v, o[0].0 != 0))
            })
            .collect()
    }
}

impl<R: Ruleset> Tree<'_, R> {
    /// The outcome of plan `i` at `node` this simulation plays: the index of one
    /// drawn before, or `None` to draw a new one. A plan that rolled no dice (its one
    /// outcome keyed 0) always plays that one.
    pub(super) fn outcome(&mut self, node: usize, i: usize, exponent: f64) -> Option<usize> {
        let n = &self.nodes[node];
        let outs = &n.outcomes[i];
        match outs.first() {
            None => None,
            Some(&(0, _)) => Some(0),
            Some(_) if outs.len() < allowed(n.visits[i], exponent) => None,
            Some(_) => Some(self.rng.below(outs.len())),
        }
    }

    /// The seed of the dice plan `i` at `node` plays with: that of outcome `again`,
    /// or a new one (never 0, the key of a plan without dice).
    pub(super) fn outcome_seed(&mut self, node: usize, i: usize, again: Option<usize>) -> u64 {
        match again {
            Some(j) => self.nodes[node].outcomes[i][j].0,
            None => self.rng.next_u64() | 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn outcomes_are_widened_with_the_square_root_of_the_visits() {
        let got: Vec<usize> = [0, 1, 2, 3, 4, 8, 9, 99].map(|v| allowed(v, 0.5)).to_vec();
        assert_eq!(got, [1, 2, 2, 2, 3, 3, 4, 10]);
        assert_eq!(allowed(1_000, 0.0), 1);
    }
}
