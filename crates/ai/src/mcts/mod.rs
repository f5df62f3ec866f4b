//! Monte Carlo tree search over plans.
//!
//! - **Open loop for chance**: tree edges are plans, not states; every iteration plays
//!   the plans from the root with fresh dice.
//! - **Information sets**: every iteration starts from [`Ruleset::determinize`] of the
//!   root for the side to act (single-observer IS-MCTS); a plan kept in a node that is
//!   not legal in this iteration's sample is skipped.
//! - **Truncated simulations**: below the tree, a unit drawn at random plays its best
//!   plan one plan ahead (or stays), every unit before the phase's end
//!   ([`SearchConfig::units_first`]), until the end of the side's turn, or of the enemy's
//!   reply at `hard`; then [`Ruleset::evaluate`] relative to the root's, or to where
//!   simulations from the root end on average when that is more than a scale from it
//!   ([`SearchConfig::centre`]), through a logistic, discounted a turn. A finished
//!   game is worth 1, 0.5 or 0. The `win` shown is calibrated from that value
//!   ([`crate::calibration`]).
//! - **Root parallelism**: each thread grows its own tree with its own seed; the
//!   root's visits and values are summed.

use crate::plans;
use crate::rng::Rng;
use crate::widening;
use grognard_engine::{Dice, Plan, Ruleset, Seat};
use std::time::Instant;

mod chance;
mod halving;
pub(crate) mod rollout;
mod uct;
use chance::outcomes;
use rollout::{Course, Rollout};
use uct::squares;

pub use crate::search_config::{Budget, Horizon, SearchConfig, Values};

/// One root plan as the search saw it.
#[derive(Clone, Debug)]
pub struct Weighed<A> {
    /// The plan.
    pub plan: Plan<A>,
    /// Simulations through it.
    pub visits: u64,
    /// The chance that the side to act wins after it: calibrated to results where the
    /// scenario or its ruleset has a line in the calibration table
    /// ([`crate::calibration`]), else the search's `value`.
    pub win: f64,
    /// The search's mean value of the plan: the evaluation at the end of the turn
    /// through a logistic, 0.5 for no better and no worse than the position as it
    /// stands or, when the turn moves the evaluation by more than a scale, than the
    /// turn's simulations from the root end on average ([`SearchConfig::centre`]).
    pub value: f64,
    /// The absolute evaluation after the plan that `value` stands for, from the view
    /// of the side to act.
    pub eval: f64,
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct Searched<A> {
    /// The root plans, most visited first (ties: higher win first).
    pub weighed: Vec<Weighed<A>>,
    /// Simulations run.
    pub simulations: u64,
    /// The trees grown, for the side's next decision ([`search_from`]).
    pub forest: Forest<A>,
    /// The evaluation the values are gains over: the centre ([`SearchConfig::centre`]).
    pub baseline: f64,
}

/// Each thread's tree, kept for the side's next decision: the subtree under the plan
/// played becomes the next search's start, so the simulations already run through
/// that plan are not thrown away (re-rooting, as the design note asks).
#[derive(Clone)]
pub struct Forest<A> {
    trees: Vec<Vec<Node<A>>>,
    /// The evaluation the trees' values are taken from: kept with them, so that the
    /// values of a search that reuses them stay on the same footing.
    baseline: f64,
}

impl<A> Default for Forest<A> {
    fn default() -> Forest<A> {
        Forest {
            trees: Vec::new(),
            baseline: 0.0,
        }
    }
}

impl<A> std::fmt::Debug for Forest<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nodes: usize = self.trees.iter().map(Vec::len).sum();
        write!(f, "Forest({} trees, {nodes} nodes)", self.trees.len())
    }
}

/// Whether playing `plan` on `from` rolls no dice, plays all its steps and reaches
/// `to`: only then do the statistics kept below the plan hold for `to`. Open loop,
/// they were gathered over every roll of the plan's dice (and of the enemy's
/// reactions to it), so after an attack they mix the outcomes that did not happen
/// with the one that did; kept after one, they steered the next decision the more,
/// the more simulations had gone into them: at Broken Cairn the search at 2,500
/// simulations a decision scored 12.5 of 40 against itself at 500 (docs/AI.md, "Trees
/// kept only where no dice fell").
pub(crate) fn led_to<R: Ruleset>(
    rules: &R,
    from: &R::State,
    plan: &Plan<R::Action>,
    to: &R::State,
) -> bool {
    let mut state = from.clone();
    let played = plans::play(rules, &mut state, plan, &mut Dice::new(0), &mut Vec::new());
    played.rolls == 0 && played.steps == plan.steps.len() && state == *to
}

impl<A> Forest<A> {
    /// The sides that choose at the trees' nodes, each once, in the order first met:
    /// the side that searched alone when its tree held its own turn only
    /// ([`SearchConfig::tree_own_turn`]).
    #[must_use]
    pub fn movers(&self) -> Vec<&str> {
        let mut sides: Vec<&str> = Vec::new();
        for node in self.trees.iter().flatten() {
            if !sides.contains(&node.mover.as_str()) {
                sides.push(&node.mover);
            }
        }
        sides
    }
}

impl<A: Clone + PartialEq> Forest<A> {
    /// Thread `t`'s subtree under `plan`, if it has one whose mover is `side`.
    fn subtree(&self, t: usize, plan: &Plan<A>, side: &str) -> Option<(&[Node<A>], usize)> {
        let nodes = self.trees.get(t)?;
        let root = nodes.first()?;
        let i = root.plans.iter().position(|p| p == plan)?;
        let child = root.children[i]?;
        (nodes[child].mover == side).then_some((nodes.as_slice(), child))
    }
}

impl<A> Weighed<A> {
    /// A root plan from its visits and the sum of their values (0.5 before any), the
    /// evaluation it stands for read around `baseline` at the logistic's `scale`.
    pub(crate) fn of_totals(
        plan: Plan<A>,
        visits: u64,
        sum: f64,
        baseline: f64,
        scale: f64,
    ) -> Weighed<A> {
        #[expect(
            clippy::cast_precision_loss,
            reason = "visit counts are far below 2^52"
        )]
        let value = if visits == 0 {
            0.5
        } else {
            sum / visits as f64
        };
        Weighed {
            plan,
            visits,
            win: value,
            value,
            eval: crate::calibration::evaluation_of(baseline, value, scale),
        }
    }
}

impl<A: Clone> Searched<A> {
    /// The plan to play: the most visited.
    #[must_use]
    pub fn best(&self) -> Option<&Plan<A>> {
        self.weighed.first().map(|w| &w.plan)
    }
}

/// The trees of a former search and the plan played from them.
pub type Previous<'a, A> = (&'a Forest<A>, &'a Plan<A>);

/// What one thread's search gives: the root's visits and value sums, the number of
/// simulations, its tree, and under sequential halving the rounds each root plan
/// survived (else none).
type Grown<A> = (Vec<(u64, f64)>, u64, Vec<Node<A>>, Vec<u32>);

/// Searches `state` for the side to act. `None` once the game is over.
pub fn search<R: Ruleset>(
    rules: &R,
    state: &R::State,
    config: &SearchConfig,
) -> Option<Searched<R::Action>> {
    search_from(rules, state, config, None)
}

/// [`search`], starting from the trees of the side's last search and the plan it
/// played then: each root plan of `state` found among that plan's next choices keeps
/// its visits, value and subtree (a plan no longer legal is skipped as in any
/// sample). Callers keep trees only across a plan that [`led_to`] `state`: one that
/// rolled no dice.
pub fn search_from<R: Ruleset>(
    rules: &R,
    state: &R::State,
    config: &SearchConfig,
    previous: Option<Previous<'_, R::Action>>,
) -> Option<Searched<R::Action>> {
    let decision = rules.to_act(state)?;
    // The clock starts now: ranking the root's plans is part of the decision's time.
    let started = Instant::now();
    let root_plans = plans::candidates(rules, state, config.played_in_phase, Some(config.per_unit));
    if root_plans.len() <= 1 {
        let baseline =
            crate::calibration::root_evaluation(rules, state, &decision.side, config.seed);
        return Some(Searched {
            weighed: root_plans
                .into_iter()
                .map(|plan| Weighed {
                    plan,
                    visits: 0,
                    win: 0.5,
                    value: 0.5,
                    eval: baseline,
                })
                .collect(),
            simulations: 0,
            forest: Forest::default(),
            baseline,
        });
    }
    let deadline = match config.budget {
        // A twentieth kept back for the threads to finish, be joined and answer on a
        // loaded machine, where a thread may wait for a core at any moment.
        Budget::Time(d) => Some(started + d - d / 20),
        Budget::Simulations(_) => None,
    };
    // The centre's few simulations may take at most a quarter of the time: on a
    // loaded machine they must not eat the search's.
    let centre_until = match config.budget {
        Budget::Time(d) => Some(started + d / 4),
        Budget::Simulations(_) => None,
    };
    let kept = |t: usize| previous.and_then(|(f, plan)| f.subtree(t, plan, &decision.side));
    let threads = config.threads.max(1);
    // The root's evaluation, read from a sample of what the side may see; or the one
    // the reused trees were valued from.
    let reused = (0..threads).any(|t| kept(t).is_some());
    let baseline = if let (true, Some((f, _))) = (reused, previous) {
        f.baseline
    } else {
        let root = crate::calibration::root_evaluation(rules, state, &decision.side, config.seed);
        if config.centre == 0 {
            root
        } else {
            // Where the turn is expected to end reads 0.5 when it lies more than a scale
            // from the root's evaluation, so that the plans better than the
            // simulations' own (those UCT must tell apart) do not crowd near 1; nearer,
            // the root's evaluation stays the centre (in Battle Cry and JOMINI, where a
            // turn moves the evaluation little, the centre moved every time scored a
            // little below it: docs/AI.md).
            Tree::new(rules, state, &decision.side, config, &[], threads, root)
                .expected_leaf(config.centre, centre_until)
                .filter(|e| (e - root).abs() > config.scale)
                .unwrap_or(root)
        }
    };
    let quota = |t: usize| match config.budget {
        Budget::Time(_) => u64::MAX,
        Budget::Simulations(n) => {
            let per = n / threads as u64;
            per + u64::from((t as u64) < n % threads as u64)
        }
    };
    // The widening's ranks, made once for every thread's tree.
    let rank = if config.widening.is_some() {
        widening::ranks(rules, state, &root_plans, config.seed)
    } else {
        Vec::new()
    };
    let results: Vec<Grown<R::Action>> = if threads == 1 {
        vec![Tree::new(
            rules,
            state,
            &decision.side,
            config,
            &root_plans,
            0,
            baseline,
        )
        .ranked(&rank)
        .graft(kept(0))
        .run(quota(0), deadline)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let root_plans = &root_plans;
                    let side = &decision.side;
                    let old = kept(t);
                    let rank = &rank;
                    scope.spawn(move || {
                        Tree::new(rules, state, side, config, root_plans, t, baseline)
                            .ranked(rank)
                            .graft(old)
                            .run(quota(t), deadline)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread does not panic"))
                .collect()
        })
    };
    let mut totals = vec![(0u64, 0.0f64); root_plans.len()];
    let mut simulations = 0;
    let mut forest = Forest {
        trees: Vec::new(),
        baseline,
    };
    let mut survived = vec![0u32; root_plans.len()];
    for (stats, sims, nodes, rounds) in results {
        simulations += sims;
        for (s, r) in survived.iter_mut().zip(rounds) {
            *s = (*s).max(r);
        }
        forest.trees.push(nodes);
        for (t, s) in totals.iter_mut().zip(stats) {
            t.0 += s.0;
            t.1 += s.1;
        }
    }
    let mut weighed: Vec<(u32, Weighed<R::Action>)> = root_plans
        .into_iter()
        .zip(totals)
        .zip(survived)
        .map(|((plan, (visits, sum)), rounds)| {
            let w = Weighed::of_totals(plan, visits, sum, baseline, config.scale);
            (rounds, w)
        })
        .collect();
    halving::order(&mut weighed, config.halving);
    let weighed: Vec<Weighed<R::Action>> = weighed.into_iter().map(|(_, w)| w).collect();
    Some(Searched {
        weighed,
        simulations,
        forest,
        baseline,
    })
}

#[derive(Clone)]
struct Node<A> {
    /// The side choosing here.
    mover: String,
    plans: Vec<Plan<A>>,
    /// Per plan: visits, summed value for the mover, child node.
    visits: Vec<u64>,
    values: Vec<f64>,
    children: Vec<Option<usize>>,
    total: u64,
    /// Per plan, its rank for the widening (0 the best); empty: every plan is open.
    rank: Vec<usize>,
    /// Per plan, the sum of the squares of its values, for their deviation; empty
    /// unless the search weighs the values by it ([`Values::Deviation`]).
    squares: Vec<f64>,
    /// Per plan, under chance nodes ([`SearchConfig::chance`]), the outcomes drawn: the
    /// seed of the plan's dice (0 for a plan that rolled none) and the node below it;
    /// empty in the open loop.
    outcomes: Vec<Vec<(u64, Option<usize>)>>,
}

struct Tree<'a, R: Ruleset> {
    rules: &'a R,
    root: &'a R::State,
    me: &'a str,
    config: &'a SearchConfig,
    nodes: Vec<Node<R::Action>>,
    baseline: f64,
    rng: Rng,
    /// The simulations' own play below the tree, and its buffers.
    rollout: Rollout<R>,
    /// The position the last simulation played on, for the next to start from.
    start: Option<R::State>,
    /// The root plan the next simulation takes (sequential halving), if it is legal in
    /// that simulation's sample.
    forced: Option<usize>,
}

impl<'a, R: Ruleset> Tree<'a, R> {
    fn new(
        rules: &'a R,
        root: &'a R::State,
        me: &'a str,
        config: &'a SearchConfig,
        root_plans: &[Plan<R::Action>],
        thread: usize,
        baseline: f64,
    ) -> Tree<'a, R> {
        let n = root_plans.len();
        Tree {
            rules,
            root,
            me,
            config,
            nodes: vec![Node {
                mover: me.to_owned(),
                plans: root_plans.to_vec(),
                visits: vec![0; n],
                values: vec![0.0; n],
                children: vec![None; n],
                total: 0,
                rank: Vec::new(),
                squares: squares(config.values, n),
                outcomes: outcomes(config, n),
            }],
            baseline,
            rng: Rng::new(config.seed ^ (thread as u64).wrapping_mul(0xA076_1D64_78BD_642F)),
            rollout: Rollout::new(),
            start: None,
            forced: None,
        }
    }

    /// Gives the root's plans their ranks for the widening.
    fn ranked(mut self, rank: &[usize]) -> Self {
        self.nodes[0].rank = rank.to_vec();
        self
    }

    /// Starts the root from a subtree of a former search (`old[at]`, a node of the
    /// same mover): each root plan found among that node's plans takes its visits,
    /// value sum and subtree.
    fn graft(mut self, old: Option<(&[Node<R::Action>], usize)>) -> Self {
        let Some((old, at)) = old else {
            return self;
        };
        let from = &old[at];
        for i in 0..self.nodes[0].plans.len() {
            let Some(j) = from.plans.iter().position(|p| *p == self.nodes[0].plans[i]) else {
                continue;
            };
            let child = from.children[j].map(|c| copy_subtree(old, c, &mut self.nodes));
            let root = &mut self.nodes[0];
            root.visits[i] = from.visits[j];
            root.values[i] = from.values[j];
            if let (Some(to), Some(&sq)) = (root.squares.get_mut(i), from.squares.get(j)) {
                *to = sq;
            }
            root.children[i] = child;
            root.total += from.visits[j];
        }
        self
    }

    /// Runs simulations until the quota or the deadline (by UCT at the root, or by
    /// sequential halving: [`SearchConfig::halving`]); the root's visits and value
    /// sums, the number of simulations, the tree and the rounds each root plan survived.
    fn run(mut self, quota: u64, deadline: Option<Instant>) -> Grown<R::Action> {
        let began = Instant::now();
        let (done, rounds) = if self.config.halving && self.nodes[0].plans.len() > 1 {
            self.halve(quota, deadline)
        } else {
            (self.run_until(quota, began, deadline), Vec::new())
        };
        let root = &self.nodes[0];
        let stats = root
            .visits
            .iter()
            .zip(&root.values)
            .map(|(&v, &s)| (v, s))
            .collect();
        (stats, done, self.nodes, rounds)
    }

    /// Runs simulations from `began` until `quota` or the deadline; the count run.
    fn run_until(&mut self, quota: u64, began: Instant, deadline: Option<Instant>) -> u64 {
        let mut done = 0;
        while done < quota && !out_of_time(began, done, deadline) {
            self.simulate();
            done += 1;
        }
        done
    }

    fn simulate(&mut self) {
        let (state, path) = self.walk();
        let value = self.value(&state);
        self.start = Some(state);
        for (n, i) in path {
            let node = &mut self.nodes[n];
            let v = if node.mover == self.me {
                value
            } else {
                1.0 - value
            };
            node.visits[i] += 1;
            node.values[i] += v;
            if let Some(sq) = node.squares.get_mut(i) {
                *sq += v * v;
            }
            node.total += 1;
        }
    }

    /// The mean evaluation, for the side that searches, at the end of `n` simulations
    /// from the root that take no plan from the tree (every plan the simulations'
    /// own): where the turn is expected to leave the side. A simulation that ends the
    /// game is left out (its value is its result, not its evaluation, which a ruleset
    /// may make as large as it likes); `None` when every one does, or when none began
    /// before `until`.
    fn expected_leaf(&mut self, n: usize, until: Option<Instant>) -> Option<f64> {
        let (mut sum, mut count) = (0.0, 0u32);
        for _ in 0..n {
            if until.is_some_and(|u| Instant::now() >= u) {
                break;
            }
            let (state, _) = self.walk();
            if self.rules.outcome(&state).is_none() {
                sum += self.rules.evaluate(&state, self.me);
                count += 1;
            }
            self.start = Some(state);
        }
        (count > 0).then(|| sum / f64::from(count))
    }

    /// One simulation's way down: the tree's plans from the root (growing the tree by
    /// a node), then the simulation's own to the horizon. The position it ends in and
    /// the tree's (node, plan) pairs it took.
    fn walk(&mut self) -> (R::State, Vec<(usize, usize)>) {
        let rules = self.rules;
        let mut state = match self.start.take() {
            Some(mut s) => {
                s.clone_from(self.root);
                s
            }
            None => self.root.clone(),
        };
        let seat = Seat::Side(self.me.to_owned());
        rules.determinize(&mut state, &seat, &mut Dice::new(self.rng.next_u64()));
        let mut dice = Dice::new(self.rng.next_u64());
        let mut course = Course::start(rules, &state, self.me, self.config);
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut node = 0usize;
        // Selection and expansion.
        loop {
            if !course.open(rules, &state, self.config.max_plans) {
                break;
            }
            let Some(i) = self.select(node, &state) else {
                break;
            };
            let plan = self.nodes[node].plans[i].clone();
            // Under chance nodes the plan rolls its own dice: an outcome drawn anew, or
            // one drawn before played again from its seed (`Some(None)`: a new one).
            let again = self.config.chance.map(|e| self.outcome(node, i, e));
            let seed = again.map(|a| self.outcome_seed(node, i, a));
            let mut own = seed.map(Dice::new);
            // `select` chose it available in this state.
            let played = plans::play_available(
                rules,
                &mut state,
                &plan,
                own.as_mut().unwrap_or(&mut dice),
                &mut self.rollout.events,
            );
            course.step(rules, &state);
            path.push((node, i));
            let below = match again {
                Some(Some(j)) => self.nodes[node].outcomes[i][j].1,
                Some(None) => {
                    let child = self.expand(&state, &course);
                    let key = if played.rolls == 0 {
                        0
                    } else {
                        seed.unwrap_or(0)
                    };
                    self.nodes[node].outcomes[i].push((key, child));
                    break;
                }
                None => match self.nodes[node].children[i] {
                    Some(child) => Some(child),
                    None => {
                        self.nodes[node].children[i] = self.expand(&state, &course);
                        break;
                    }
                },
            };
            match below {
                Some(child) => node = child,
                None => break,
            }
        }
        // Truncated simulation.
        self.rollout.finish(
            rules,
            self.config,
            &mut self.rng,
            &mut state,
            &mut dice,
            &mut course,
        );
        (state, path)
    }

    /// A new node for the position a plan of the tree led to, unless the game or the
    /// horizon ends there; its index.
    fn expand(&mut self, state: &R::State, course: &Course) -> Option<usize> {
        let rules = self.rules;
        let d = rules.to_act(state)?;
        if course.horizon.reached() || (self.config.tree_own_turn && course.horizon.own_turn_over())
        {
            return None;
        }
        // Below the root, a unit keeps a random few of its plans: ranking them all
        // would cost more than the simulations they save (unless `ranked_below`).
        let plans = if self.config.ranked_below {
            plans::candidates(
                rules,
                state,
                course.phase.plans(),
                Some(self.config.per_unit),
            )
        } else {
            let mut plans = plans::candidates(rules, state, course.phase.plans(), None);
            plans::sample_per_unit(&mut plans, self.config.per_unit, &mut self.rng);
            plans
        };
        let n = plans.len();
        self.nodes.push(Node {
            mover: d.side,
            plans,
            visits: vec![0; n],
            values: vec![0.0; n],
            children: vec![None; n],
            total: 0,
            rank: Vec::new(),
            squares: squares(self.config.values, n),
            outcomes: outcomes(self.config, n),
        });
        Some(self.nodes.len() - 1)
    }

    /// The win chance of the side that searches, from 0 to 1.
    fn value(&self, state: &R::State) -> f64 {
        rollout::leaf_value(
            self.rules,
            self.config,
            self.me,
            self.rules.turn(self.root),
            self.baseline,
            state,
        )
    }
}

/// Whether no simulation may start after `done` run since `began`: the first always
/// runs, so every answer has some basis; after it, none starts that would end past the
/// deadline at the mean pace so far (a loaded machine slows every simulation alike).
fn out_of_time(began: Instant, done: u64, deadline: Option<Instant>) -> bool {
    let Some(d) = deadline else {
        return false;
    };
    let now = Instant::now();
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a count of simulations within a decision"
    )]
    let pace = (now - began) / done.max(1) as u32;
    done > 0 && now + pace >= d
}

/// Copies `old[at]` and the nodes below it to the end of `into`; the copy's index.
fn copy_subtree<A: Clone>(old: &[Node<A>], at: usize, into: &mut Vec<Node<A>>) -> usize {
    let mut node = old[at].clone();
    let children = std::mem::take(&mut node.children);
    into.push(node);
    let me = into.len() - 1;
    let copied: Vec<Option<usize>> = children
        .into_iter()
        .map(|c| c.map(|c| copy_subtree(old, c, into)))
        .collect();
    into[me].children = copied;
    me
}

/// The logistic function.
pub(crate) fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}
