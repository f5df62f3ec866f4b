//! Online evolutionary planning (Justesen, Mahlmann, Risi and Togelius, on Hero
//! Academy): a rival to the tree search for a phase in which each of the side's units
//! acts once.
//!
//! - **A genome is the whole phase**: an order of the units and, for each, one of its
//!   best plans (the root's [`SearchConfig::per_unit`]) or none (it stays).
//! - **Its worth**: the genome is played from the position, the phase ended, the rest of
//!   the turn (and the enemy's reply at the reply's horizon) played as the tree search's
//!   simulations play it (`mcts::rollout`), and the position valued as the
//!   search's leaves are. Each generation plays every genome once more with fresh dice,
//!   so that a genome's worth is its mean over the dice it has met, and the genomes kept
//!   longest are the ones measured best.
//! - **A generation** keeps the better half and fills the rest with children of two
//!   kept genomes: each unit's plan from either parent and the order of the first, one
//!   unit's plan changed and, one time in three, two units swapped in the order.
//! - **The first generation**: the genomes carried from the side's last decision in
//!   the same phase, genomes played by the simulations' own policy (units in a random
//!   order, each its best plan one plan ahead or none), and changed copies of them.
//! - **The plan played** is the first of the best genome (among those played more than
//!   once, when any was); the population goes on to the side's next decision.
//!
//! Where the side's choices are not all units' (a card to play, an order for the whole
//! side, a window of the other side), or fewer than two units have a plan, the decision
//! is the tree search's ([`applies`]).

use crate::mcts::rollout::{outcome_value, Course, Rollout};
use crate::mcts::{Budget, Forest, SearchConfig, Searched, Weighed};
use crate::plans::{self, PhaseKey};
use crate::rng::Rng;
use grognard_engine::{Dice, Plan, Ruleset, Seat, UnitId};
use std::time::Instant;

/// Genomes in a generation.
pub const POPULATION: usize = 20;

/// A population carried to the side's next decision in the same phase: each genome as
/// its units in order, each with its plan or none, best first.
#[derive(Clone, Debug)]
pub struct Population<A> {
    genomes: Vec<Vec<(UnitId, Option<Plan<A>>)>>,
}

impl<A> Population<A> {
    /// Genomes carried.
    #[must_use]
    pub fn len(&self) -> usize {
        self.genomes.len()
    }

    /// Whether none is.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.genomes.is_empty()
    }

    /// The first plan the best genome plays, if it plays any.
    #[must_use]
    pub fn first_plan(&self) -> Option<&Plan<A>> {
        self.genomes.first()?.iter().find_map(|(_, p)| p.as_ref())
    }
}

impl<A> Default for Population<A> {
    fn default() -> Population<A> {
        Population {
            genomes: Vec::new(),
        }
    }
}

/// The planner's answer: as the tree search's, and the population for the side's next
/// decision in the phase.
pub type Planned<A> = (Searched<A>, Population<A>);

/// Whether the decision in `state` is one for the planner: every plan offered is a
/// unit's but the pass, at least two units have one, and it is not a window of the
/// other side.
pub fn applies<R: Ruleset>(rules: &R, state: &R::State, config: &SearchConfig) -> bool {
    let Some(d) = rules.to_act(state) else {
        return false;
    };
    if d.reaction {
        return false;
    }
    let offered = plans::candidates(rules, state, config.played_in_phase, None);
    let pass = rules.pass(state);
    let lone = |p: &Plan<R::Action>| {
        p.unit.is_none() && !(p.steps.len() == 1 && pass.as_ref() == p.steps.first())
    };
    if offered.iter().any(lone) {
        return false;
    }
    let mut units: Vec<UnitId> = offered.iter().filter_map(|p| p.unit).collect();
    units.sort_unstable();
    units.dedup();
    units.len() >= 2
}

/// The planner's choice for the side to act in `state`, from the population carried
/// from its last decision in the phase, if any; `None` once the game is over. Call it
/// where [`applies`] holds.
pub fn search<R: Ruleset>(
    rules: &R,
    state: &R::State,
    config: &SearchConfig,
    previous: Option<&Population<R::Action>>,
) -> Option<Planned<R::Action>> {
    let decision = rules.to_act(state)?;
    let started = Instant::now();
    let root_plans = plans::candidates(rules, state, config.played_in_phase, Some(config.per_unit));
    let pass = rules
        .pass(state)
        .and_then(|p| root_plans.iter().position(|x| x.steps == [p.clone()]));
    let mut ids: Vec<UnitId> = Vec::new();
    let mut slots: Vec<Vec<usize>> = Vec::new();
    for (i, p) in root_plans.iter().enumerate() {
        let Some(u) = p.unit else { continue };
        match ids.iter().position(|&v| v == u) {
            Some(k) => slots[k].push(i),
            None => {
                ids.push(u);
                slots.push(vec![i]);
            }
        }
    }
    let threads = config.threads.max(1);
    let deadline = match config.budget {
        Budget::Time(d) => Some(started + d - d / 20),
        Budget::Simulations(_) => None,
    };
    let quota = |t: usize| match config.budget {
        Budget::Time(_) => u64::MAX,
        Budget::Simulations(n) => n / threads as u64 + u64::from((t as u64) < n % threads as u64),
    };
    let units = Units {
        ids: &ids,
        slots: &slots,
        plans: &root_plans,
        pass,
    };
    let run = |t: usize| {
        Evolver::new(rules, state, &decision.side, config, &units, t).run(
            previous,
            quota(t),
            deadline,
        )
    };
    let results: Vec<Evolved> = if threads == 1 {
        vec![run(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || run(t))).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a planning thread does not panic"))
                .collect()
        })
    };
    // Every thread's genomes together, best first; the stats of the root's plans summed.
    let mut genomes: Vec<Genome> = Vec::new();
    let mut totals = vec![(0u64, 0.0f64); root_plans.len()];
    let mut simulations = 0;
    let mut baseline = 0.0;
    for r in &results {
        simulations += r.evaluations;
        baseline += r.baseline / results.len() as f64;
        genomes.extend(r.genomes.iter().cloned());
        for (t, s) in totals.iter_mut().zip(&r.first) {
            t.0 += s.0;
            t.1 += s.1;
        }
    }
    sort_best_first(&mut genomes);
    let chosen = genomes
        .first()
        .and_then(|g| g.first_plan(&units))
        .or(pass)
        .unwrap_or(0);
    let mut weighed: Vec<Weighed<R::Action>> = root_plans
        .iter()
        .zip(&totals)
        .map(|(plan, &(visits, sum))| {
            Weighed::of_totals(plan.clone(), visits, sum, baseline, config.scale)
        })
        .collect();
    // The plan chosen first, then the others by the evaluations that began with them.
    let chosen_plan = root_plans.get(chosen).cloned();
    weighed.sort_by(|a, b| {
        let (ca, cb) = (
            Some(&a.plan) == chosen_plan.as_ref(),
            Some(&b.plan) == chosen_plan.as_ref(),
        );
        cb.cmp(&ca)
            .then(b.visits.cmp(&a.visits))
            .then(b.win.total_cmp(&a.win))
    });
    let population = Population {
        genomes: genomes
            .iter()
            .take(POPULATION / 2)
            .map(|g| g.carried(&units))
            .collect(),
    };
    Some((
        Searched {
            weighed,
            simulations,
            forest: Forest::default(),
            baseline,
        },
        population,
    ))
}

/// The root's units and their plans: `slots[k]` holds the indices in `plans` of unit
/// `ids[k]`'s plans; `pass`, the index of the pass.
struct Units<'a, A> {
    ids: &'a [UnitId],
    slots: &'a [Vec<usize>],
    plans: &'a [Plan<A>],
    pass: Option<usize>,
}

/// A phase's plan: the units in `order` (indices of [`Units::ids`]), unit `k` playing
/// its plan `genes[k]` (an index of [`Units::slots`]`[k]`) or staying; the sum of the
/// values of its `n` evaluations.
#[derive(Clone, Debug)]
struct Genome {
    order: Vec<usize>,
    genes: Vec<Option<usize>>,
    sum: f64,
    n: u32,
}

impl Genome {
    fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / f64::from(self.n)
        }
    }

    /// The index of the root plan it plays first, if it plays any.
    fn first_plan<A>(&self, units: &Units<'_, A>) -> Option<usize> {
        self.order
            .iter()
            .find_map(|&k| self.genes[k].map(|j| units.slots[k][j]))
    }

    fn carried<A: Clone>(&self, units: &Units<'_, A>) -> Vec<(UnitId, Option<Plan<A>>)> {
        self.order
            .iter()
            .map(|&k| {
                (
                    units.ids[k],
                    self.genes[k].map(|j| units.plans[units.slots[k][j]].clone()),
                )
            })
            .collect()
    }
}

/// Best first: the genomes evaluated more than once before those evaluated once (a
/// single lucky sample does not outrank a mean), then by mean value.
fn sort_best_first(genomes: &mut [Genome]) {
    genomes.sort_by(|a, b| {
        (b.n >= 2)
            .cmp(&(a.n >= 2))
            .then(b.mean().total_cmp(&a.mean()))
    });
}

/// What one thread's planning gives.
struct Evolved {
    genomes: Vec<Genome>,
    /// Per root plan: the evaluations that played it first, and their values' sum.
    first: Vec<(u64, f64)>,
    evaluations: u64,
    baseline: f64,
}

/// How an evaluation ended: the game's value, or the evaluation of a game under way.
enum Leaf {
    Over(f64),
    Eval(f64),
}

struct Evolver<'a, R: Ruleset> {
    rules: &'a R,
    root: &'a R::State,
    me: &'a str,
    config: &'a SearchConfig,
    units: &'a Units<'a, R::Action>,
    key: Option<PhaseKey>,
    rng: Rng,
    rollout: Rollout<R>,
    /// The position the last evaluation played on, for the next to start from.
    scratch: Option<R::State>,
    first: Vec<(u64, f64)>,
    baseline: f64,
}

impl<'a, R: Ruleset> Evolver<'a, R> {
    fn new(
        rules: &'a R,
        root: &'a R::State,
        me: &'a str,
        config: &'a SearchConfig,
        units: &'a Units<'a, R::Action>,
        thread: usize,
    ) -> Evolver<'a, R> {
        Evolver {
            rules,
            root,
            me,
            config,
            units,
            key: PhaseKey::of(rules, root),
            rng: Rng::new(
                config.seed ^ (thread as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x0E9,
            ),
            rollout: Rollout::new(),
            scratch: None,
            first: vec![(0, 0.0); units.plans.len()],
            baseline: 0.0,
        }
    }

    /// A fresh sample of the root for the side, and dice.
    fn sample(&mut self) -> (R::State, Dice) {
        let mut state = match self.scratch.take() {
            Some(mut s) => {
                s.clone_from(self.root);
                s
            }
            None => self.root.clone(),
        };
        let seat = Seat::Side(self.me.to_owned());
        self.rules
            .determinize(&mut state, &seat, &mut Dice::new(self.rng.next_u64()));
        (state, Dice::new(self.rng.next_u64()))
    }

    /// Plays `g` from a fresh sample, the phase's end and the rest to the horizon: how
    /// it ended, and the root plan it played first.
    fn play(&mut self, g: &Genome) -> (Leaf, Option<usize>) {
        let rules = self.rules;
        let (mut state, mut dice) = self.sample();
        let mut course = Course::start(rules, &state, self.me, self.config);
        let mut first = None;
        // Whether the root's phase goes on: it can end only when a plan is played.
        let mut in_phase = true;
        for &k in &g.order {
            if !in_phase || !course.open(rules, &state, self.config.max_plans) {
                break;
            }
            let Some(j) = g.genes[k] else { continue };
            let i = self.units.slots[k][j];
            let plan = &self.units.plans[i];
            if !plans::available(rules, &state, plan) {
                continue;
            }
            plans::play_available(rules, &mut state, plan, &mut dice, &mut self.rollout.events);
            course.step(rules, &state);
            first.get_or_insert(i);
            in_phase = PhaseKey::holds(self.key.as_ref(), rules, &state);
        }
        // The units that stay stay: the phase ends.
        if let Some(p) = self.units.pass {
            let plan = &self.units.plans[p];
            if in_phase
                && course.open(rules, &state, self.config.max_plans)
                && plans::available(rules, &state, plan)
            {
                plans::play_available(rules, &mut state, plan, &mut dice, &mut self.rollout.events);
                course.step(rules, &state);
                first.get_or_insert(p);
            }
        }
        self.rollout.finish(
            rules,
            self.config,
            &mut self.rng,
            &mut state,
            &mut dice,
            &mut course,
        );
        let leaf = match outcome_value(rules, self.me, &state) {
            Some(v) => Leaf::Over(v),
            None => Leaf::Eval(rules.evaluate(&state, self.me)),
        };
        self.scratch = Some(state);
        (leaf, first)
    }

    /// The value of a leaf, on the footing of the baseline.
    fn value(&self, leaf: &Leaf) -> f64 {
        match *leaf {
            Leaf::Over(v) => v,
            Leaf::Eval(e) => crate::mcts::logistic((e - self.baseline) / self.config.scale),
        }
    }

    /// Counts one evaluation of `g`.
    fn credit(&mut self, g: &mut Genome, value: f64, first: Option<usize>) {
        g.sum += value;
        g.n += 1;
        if let Some(i) = first {
            self.first[i].0 += 1;
            self.first[i].1 += value;
        }
    }

    /// A genome played by the simulations' own policy: the units in a random order,
    /// each its best plan one plan ahead, or none when no plan beats standing.
    fn policy_genome(&mut self) -> Genome {
        let rules = self.rules;
        let n = self.units.ids.len();
        let mut order: Vec<usize> = (0..n).collect();
        self.shuffle(&mut order);
        let mut genes = vec![None; n];
        let (mut state, mut dice) = self.sample();
        let mut in_phase = true;
        for &k in &order {
            if !in_phase {
                break;
            }
            // The unit's best among the root's plans (its own, in their order).
            let best = self.rollout.best_of_unit(
                rules,
                self.config,
                &mut self.rng,
                &state,
                self.units.plans,
                self.units.ids[k],
            );
            if let Some(i) = best {
                genes[k] = self.units.slots[k].iter().position(|&x| x == i);
                let plan = &self.units.plans[i];
                plans::play(rules, &mut state, plan, &mut dice, &mut self.rollout.events);
                in_phase = PhaseKey::holds(self.key.as_ref(), rules, &state);
            }
        }
        self.scratch = Some(state);
        Genome {
            order,
            genes,
            sum: 0.0,
            n: 0,
        }
    }

    fn shuffle(&mut self, v: &mut [usize]) {
        for i in (1..v.len()).rev() {
            let j = self.rng.below(i + 1);
            v.swap(i, j);
        }
    }

    /// One unit's plan changed (to another of its plans or to staying) and, one time
    /// in three, two units swapped in the order.
    fn mutate(&mut self, g: &mut Genome) {
        let n = g.genes.len();
        let k = self.rng.below(n);
        let plans = self.units.slots[k].len();
        let r = self.rng.below(plans + 1);
        g.genes[k] = (r < plans).then_some(r);
        if n >= 2 && self.rng.below(3) == 0 {
            let (a, b) = (self.rng.below(n), self.rng.below(n));
            g.order.swap(a, b);
        }
        g.sum = 0.0;
        g.n = 0;
    }

    /// A child of `a` and `b`: each unit's plan from either, the order of `a`; then
    /// mutated.
    fn child(&mut self, a: &Genome, b: &Genome) -> Genome {
        let genes = a
            .genes
            .iter()
            .zip(&b.genes)
            .map(|(&x, &y)| if self.rng.below(2) == 0 { x } else { y })
            .collect();
        let mut g = Genome {
            order: a.order.clone(),
            genes,
            sum: 0.0,
            n: 0,
        };
        self.mutate(&mut g);
        g
    }

    /// A carried genome in this decision's units: a unit carried keeps its plan where
    /// it is still among its plans (a random one where it is not), a unit not carried
    /// comes last with a random plan or none.
    fn translate(&mut self, carried: &[(UnitId, Option<Plan<R::Action>>)]) -> Genome {
        let n = self.units.ids.len();
        let mut order = Vec::with_capacity(n);
        let mut genes = vec![None; n];
        for (u, plan) in carried {
            let Some(k) = self.units.ids.iter().position(|v| v == u) else {
                continue;
            };
            order.push(k);
            genes[k] = match plan {
                None => None,
                Some(p) => match self.units.slots[k]
                    .iter()
                    .position(|&i| self.units.plans[i] == *p)
                {
                    Some(j) => Some(j),
                    None => Some(self.rng.below(self.units.slots[k].len())),
                },
            };
        }
        for (k, gene) in genes.iter_mut().enumerate() {
            if !order.contains(&k) {
                order.push(k);
                let plans = self.units.slots[k].len();
                let r = self.rng.below(plans + 1);
                *gene = (r < plans).then_some(r);
            }
        }
        Genome {
            order,
            genes,
            sum: 0.0,
            n: 0,
        }
    }

    /// Generations until the quota of evaluations or the deadline.
    fn run(
        mut self,
        previous: Option<&Population<R::Action>>,
        quota: u64,
        deadline: Option<Instant>,
    ) -> Evolved {
        let began = Instant::now();
        let mut done = 0u64;
        let over = |done: u64| {
            done >= quota
                || deadline.is_some_and(|d| {
                    let now = Instant::now();
                    let pace = (now - began) / u32::try_from(done.max(1)).unwrap_or(u32::MAX);
                    done > 0 && now + pace >= d
                })
        };
        let mut pop: Vec<Genome> = Vec::with_capacity(POPULATION);
        if let Some(p) = previous {
            for carried in p.genomes.iter().take(POPULATION / 2) {
                let g = self.translate(carried);
                pop.push(g);
            }
        }
        let policy = (POPULATION / 2).saturating_sub(pop.len()).max(2);
        for _ in 0..policy {
            if over(done) {
                break;
            }
            let g = self.policy_genome();
            pop.push(g);
            done += 1;
        }
        let seeds = pop.len();
        while pop.len() < POPULATION && seeds > 0 {
            let mut g = pop[self.rng.below(seeds)].clone();
            self.mutate(&mut g);
            pop.push(g);
        }
        // The first generation sets the baseline: the mean evaluation it ends on.
        let mut leaves = Vec::with_capacity(pop.len());
        for g in &pop {
            if over(done) {
                break;
            }
            leaves.push(self.play(g));
            done += 1;
        }
        let evals: Vec<f64> = leaves
            .iter()
            .filter_map(|(l, _)| match l {
                Leaf::Eval(e) => Some(*e),
                Leaf::Over(_) => None,
            })
            .collect();
        self.baseline = if evals.is_empty() {
            crate::calibration::root_evaluation(self.rules, self.root, self.me, self.config.seed)
        } else {
            evals.iter().sum::<f64>() / evals.len() as f64
        };
        for (g, (leaf, first)) in pop.iter_mut().zip(leaves) {
            let v = self.value(&leaf);
            self.credit(g, v, first);
        }
        'generations: while !over(done) {
            for g in &mut pop {
                if over(done) {
                    break 'generations;
                }
                let (leaf, first) = self.play(g);
                let v = self.value(&leaf);
                self.credit(g, v, first);
                done += 1;
            }
            sort_best_first(&mut pop);
            let keep = POPULATION / 2;
            pop.truncate(keep);
            while pop.len() < POPULATION {
                let a = self.rng.below(keep.min(pop.len()));
                let b = self.rng.below(keep.min(pop.len()));
                let (pa, pb) = (pop[a].clone(), pop[b].clone());
                let c = self.child(&pa, &pb);
                pop.push(c);
            }
        }
        // Unless nothing was evaluated (a budget spent before the first generation:
        // the genomes carried and the policy's then stand in their order).
        if pop.iter().any(|g| g.n > 0) {
            pop.retain(|g| g.n > 0);
        }
        sort_best_first(&mut pop);
        Evolved {
            genomes: pop,
            first: self.first,
            evaluations: done,
            baseline: self.baseline,
        }
    }
}
