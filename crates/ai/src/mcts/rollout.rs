//! A simulation's own play below the tree, shared by the tree search and the
//! evolutionary planner ([`crate::oep`]): a unit drawn at random plays its best plan
//! one plan ahead (or stays), every unit before the phase's end
//! ([`SearchConfig::units_first`]), until the horizon; and the value of the position it
//! ends in.

use super::SearchConfig;
use crate::plans::{self, PhaseCount, PhaseKey};
use crate::rng::Rng;
use crate::turn_watch::TurnWatch;
use grognard_engine::{Dice, Plan, Ruleset};

/// The plans made for a phase, in a truncated simulation.
type PhasePlans<A> = (Option<PhaseKey>, Vec<Plan<A>>);

/// Where a simulation stands: the plans played in the current phase, the turns begun,
/// and the plans played in all.
pub(crate) struct Course {
    pub(crate) phase: PhaseCount,
    pub(crate) horizon: TurnWatch,
    pub(crate) plays: usize,
}

impl Course {
    /// A simulation starting in `state` for `me`, `config.played_in_phase` plans into
    /// the root's phase.
    pub(crate) fn start<R: Ruleset>(
        rules: &R,
        state: &R::State,
        me: &str,
        config: &SearchConfig,
    ) -> Course {
        let horizon = TurnWatch::start(rules, state, me, config.horizon);
        let mut phase = PhaseCount::default();
        phase.observe(rules, state);
        for _ in 0..config.played_in_phase {
            phase.played();
        }
        Course {
            phase,
            horizon,
            plays: 0,
        }
    }

    /// Whether the simulation goes on: the game not over, the horizon not reached,
    /// plans left.
    pub(crate) fn open<R: Ruleset>(&self, rules: &R, state: &R::State, max_plans: usize) -> bool {
        self.plays < max_plans && rules.acting(state).is_some() && !self.horizon.reached()
    }

    /// Counts a plan played, which left the game in `state`.
    pub(crate) fn step<R: Ruleset>(&mut self, rules: &R, state: &R::State) {
        self.plays += 1;
        self.phase.played();
        self.phase.observe(rules, state);
        self.horizon.observe(rules, state);
    }
}

/// The buffers of the simulations' own play, kept between simulations.
pub(crate) struct Rollout<R: Ruleset> {
    pub(crate) events: Vec<R::Event>,
    /// The position a unit's plan is tried on ([`Rollout::best_of_unit`]), kept so
    /// that a ruleset whose state clones field by field (`clone_from`) allocates
    /// nothing for it.
    trial: Option<R::State>,
}

impl<R: Ruleset> Rollout<R> {
    pub(crate) fn new() -> Rollout<R> {
        Rollout {
            events: Vec::new(),
            trial: None,
        }
    }

    /// Plays `state` on to the horizon: the plans of a phase are made once and used
    /// up as units act (a plan no longer legal is dropped when drawn).
    pub(crate) fn finish(
        &mut self,
        rules: &R,
        config: &SearchConfig,
        rng: &mut Rng,
        state: &mut R::State,
        dice: &mut Dice,
        course: &mut Course,
    ) {
        let mut cached: Option<PhasePlans<R::Action>> = None;
        while course.open(rules, state, config.max_plans) {
            let stale = cached
                .as_ref()
                .is_none_or(|(k, _)| !PhaseKey::holds(k.as_ref(), rules, state))
                || course.phase.plans() >= plans::phase_cap(rules.names().unit_count());
            if stale {
                cached = Some((
                    PhaseKey::of(rules, state),
                    plans::candidates(rules, state, course.phase.plans(), None),
                ));
            }
            let Some((_, list)) = cached.as_mut() else {
                break;
            };
            let mut chosen = None;
            while !list.is_empty() {
                let i = if config.units_first {
                    plans::random_unit_index(list, rng)
                } else {
                    plans::random_index(list, rng)
                };
                if !plans::available(rules, state, &list[i]) {
                    list.swap_remove(i);
                    continue;
                }
                if config.unit_rollouts {
                    if let Some(u) = list[i].unit {
                        match self.best_of_unit(rules, config, rng, state, list, u) {
                            Some(j) => chosen = Some(list.swap_remove(j)),
                            // Nothing better than standing: the unit stays.
                            None => list.retain(|p| p.unit != Some(u)),
                        }
                        if chosen.is_some() {
                            break;
                        }
                        continue;
                    }
                }
                chosen = Some(list.swap_remove(i));
                break;
            }
            let Some(plan) = chosen else {
                // Nothing left of the phase's plans: make them again.
                cached = None;
                let fresh = plans::candidates(rules, state, course.phase.plans(), None);
                if fresh.is_empty() {
                    break;
                }
                let i = plans::random_index(&fresh, rng);
                plans::play(rules, state, &fresh[i], dice, &mut self.events);
                course.step(rules, state);
                continue;
            };
            if let (Some(u), Some((_, list))) = (plan.unit, cached.as_mut()) {
                list.retain(|p| p.unit != Some(u));
            }
            // Found available in this state: at `i` above, or by `best_of_unit`.
            plans::play_available(rules, state, &plan, dice, &mut self.events);
            course.step(rules, state);
        }
    }

    /// The plan of unit `u` in `list` that scores best for the side to act one plan
    /// ahead (the mean of [`SearchConfig::rollout_samples`] samples of the dice for a
    /// plan that rolls, one for the others), if any scores above the position as it
    /// stands.
    pub(crate) fn best_of_unit(
        &mut self,
        rules: &R,
        config: &SearchConfig,
        rng: &mut Rng,
        state: &R::State,
        list: &[Plan<R::Action>],
        u: grognard_engine::UnitId,
    ) -> Option<usize> {
        let mover = rules.acting(state)?.side;
        let mut best = (rules.evaluate(state, &mover), None);
        for (j, plan) in list.iter().enumerate() {
            if plan.unit != Some(u) || !plans::available(rules, state, plan) {
                continue;
            }
            let s = match &mut self.trial {
                Some(s) => {
                    s.clone_from(state);
                    s
                }
                None => self.trial.insert(state.clone()),
            };
            let mut dice = Dice::new(rng.next_u64());
            let played = plans::play_available(rules, s, plan, &mut dice, &mut self.events);
            let mut v = crate::greedy::score(rules, s, &mover);
            // A plan that rolls is judged by the mean of a few samples: the best of
            // single samples would favour the plans whose dice vary most (a long-odds
            // attack that one lucky roll shows winning), which are then played with
            // other dice.
            let samples = config.rollout_samples.max(1);
            if played.rolls > 0 && samples > 1 {
                for _ in 1..samples {
                    s.clone_from(state);
                    let mut dice = Dice::new(rng.next_u64());
                    plans::play_available(rules, s, plan, &mut dice, &mut self.events);
                    v += crate::greedy::score(rules, s, &mover);
                }
                v /= f64::from(samples);
            }
            if v > best.0 {
                best = (v, Some(j));
            }
        }
        best.1
    }
}

/// The win chance of `me` in `state`, from 0 to 1: a finished game's result, else
/// the evaluation's gain over `baseline` through the logistic, pulled toward 0.5 by
/// the discount for each game turn since `root_turn`.
pub(crate) fn leaf_value<R: Ruleset>(
    rules: &R,
    config: &SearchConfig,
    me: &str,
    root_turn: u32,
    baseline: f64,
    state: &R::State,
) -> f64 {
    if let Some(v) = outcome_value(rules, me, state) {
        return v;
    }
    let score = rules.evaluate(state, me) - baseline;
    let win = super::logistic(score / config.scale);
    let turns = rules.turn(state).saturating_sub(root_turn);
    0.5 + (win - 0.5)
        * config
            .discount
            .powi(i32::try_from(turns).unwrap_or(i32::MAX))
}

/// A finished game's value for `me`: 1 won, 0.5 drawn, 0 lost; `None` while it goes on.
pub(crate) fn outcome_value<R: Ruleset>(rules: &R, me: &str, state: &R::State) -> Option<f64> {
    rules.outcome(state).map(|o| match o.winner {
        Some(w) if w == me => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    })
}
