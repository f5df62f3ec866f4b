//! Sequential halving at the root ([`super::SearchConfig::halving`]): the budget is
//! cut into ⌈log₂ n⌉ rounds for the root's n plans; in each round the plans still in it
//! take their simulations in turn, and after it the better half by mean value stays.
//! Below the root the tree policy is UCT as ever. UCT spends a root's visits to keep
//! its summed regret low; the plan played needs only the best choice at the end (the
//! simple regret), which halving aims at (H-MCTS, Pepels, Winands and Lanctot, 2014).

use super::{out_of_time, Tree, Weighed};
use grognard_engine::Ruleset;
use std::time::Instant;

impl<R: Ruleset> Tree<'_, R> {
    /// Runs the rounds until `quota` simulations or the deadline, each round an equal
    /// share of either; the count run and, per root plan, the rounds it survived.
    pub(super) fn halve(&mut self, quota: u64, deadline: Option<Instant>) -> (u64, Vec<u32>) {
        let began = Instant::now();
        let n = self.nodes[0].plans.len();
        let mut alive: Vec<usize> = (0..n).collect();
        let mut rounds = vec![0u32; n];
        let total = rounds_for(n);
        let mut done = 0u64;
        for r in 1..=total {
            let until_count = if quota == u64::MAX {
                u64::MAX
            } else {
                quota * u64::from(r) / u64::from(total)
            };
            let until_time = deadline.map(|d| began + (d - began) * r / total);
            let mut turn = 0usize;
            while done < until_count && !out_of_time(began, done, until_time) {
                self.forced = Some(alive[turn % alive.len()]);
                turn += 1;
                self.simulate();
                done += 1;
            }
            self.forced = None;
            let root = &self.nodes[0];
            let mean = |i: usize| root.mean(i).unwrap_or(f64::NEG_INFINITY);
            alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
            for &i in &alive {
                rounds[i] = r;
            }
            if alive.len() == 1 {
                break;
            }
        }
        (done, rounds)
    }
}

/// The rounds of halving for `n` plans: ⌈log₂ n⌉, at least one.
fn rounds_for(n: usize) -> u32 {
    n.next_power_of_two().trailing_zeros().max(1)
}

/// Orders the root's plans, each with the rounds of halving it survived, for the
/// answer: under halving the plan that survived the most rounds first, the best mean
/// among those that survived as many; else the most visited first (ties: the higher
/// win).
pub(super) fn order<A>(weighed: &mut [(u32, Weighed<A>)], halving: bool) {
    if halving {
        weighed.sort_by(|(ra, a), (rb, b)| {
            rb.cmp(ra)
                .then(b.value.total_cmp(&a.value))
                .then(b.visits.cmp(&a.visits))
        });
    } else {
        weighed.sort_by(|(_, a), (_, b)| b.visits.cmp(&a.visits).then(b.win.total_cmp(&a.win)));
    }
}
