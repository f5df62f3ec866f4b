//! The search's settings: budget, horizon, and the constants of its tree policy and
//! its simulations.

use crate::widening::Widening;
use std::time::Duration;

/// When the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// After this long.
    Time(Duration),
    /// After this many simulations in all: the same count and seed give the same
    /// choice on any machine.
    Simulations(u64),
}

/// How far a simulation looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// To the end of the side's own turn.
    OwnTurn,
    /// Through the enemy's reply, to the start of the side's next turn.
    EnemyReply,
}

/// How UCT compares a node's plans. The leaf values sit close to 0.5, a few hundredths
/// apart, so that over raw means the exploration term (its constant made for values
/// spread from 0 to 1) swamps them and the visits spread almost evenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// The raw means, `mean + c √(ln N / n)`.
    Raw,
    /// The means stretched over the spread between the node's worst and best plan
    /// (min-max normalisation, as in MuZero): `(mean - low) / (high - low) + c √(ln N /
    /// n)`.
    Spread,
    /// The raw means, the exploration term scaled by the deviation of the values the
    /// node has seen: `mean + c · 2σ √(ln N / n)`, so that it is the same at σ = 0.5 (the
    /// most values between 0 and 1 can spread) and counts in the noise of the
    /// simulations otherwise.
    Deviation,
}

/// The search's settings.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// When to stop.
    pub budget: Budget,
    /// Threads, each with its own tree.
    pub threads: usize,
    /// Seed of the dice, samples and ties.
    pub seed: u64,
    /// How far simulations look.
    pub horizon: Horizon,
    /// UCT's exploration constant.
    pub exploration: f64,
    /// How UCT weighs a plan's mean value against its exploration term.
    pub values: Values,
    /// Each game turn multiplies a result's distance from a draw by this.
    pub discount: f64,
    /// The evaluation difference that moves the win chance from 50% to 73%
    /// (logistic scale).
    pub scale: f64,
    /// The most plans one simulation plays.
    pub max_plans: usize,
    /// The most plans a unit keeps in a node (at the root its best by a look one plan
    /// ahead; below it a random few, or its best with `ranked_below`).
    pub per_unit: usize,
    /// Below the root too, a unit keeps its `per_unit` best plans by a look one plan
    /// ahead rather than a random `per_unit` (off in the levels: ranking every new
    /// node's plans costs about a simulation's own work).
    pub ranked_below: bool,
    /// Plans already played in the root's phase (for the cap on plans a phase).
    pub played_in_phase: u32,
    /// Below the tree, a unit drawn at random plays its best plan one plan ahead, or
    /// stays when none beats standing, instead of a random plan of its own.
    pub unit_rollouts: bool,
    /// Below the tree, a plan for no unit (the end of a phase, as a rule) is drawn only
    /// once no unit has a plan left to draw: every unit gets its turn (to act, or to
    /// stay when nothing beats standing) before the phase ends. Off, the end of a phase
    /// is drawn as often as any one unit, and most simulations end a phase before its
    /// units have acted (four units and the end: a fifth of them all act).
    pub units_first: bool,
    /// A player starts each search from the subtree of the plan it played at its last
    /// decision of the turn ([`crate::mcts::search_from`]).
    pub reuse: bool,
    /// Progressive widening at the root: its plans opened best first by a look one
    /// plan ahead, more as the visits grow; `None` (the default: it did not beat the
    /// search without it against `easy` in Morne Plaine, docs/AI.md) opens them all
    /// at once.
    pub widening: Option<Widening>,
    /// Simulations run from the root before the search, every plan their own, whose
    /// mean evaluation (those that end the game left out) is the centre of the values
    /// (the logistic's 0.5) when it lies more than `scale` from the root's evaluation:
    /// where the turn is expected to leave the side rather than the position as it
    /// stands, so that the values of the plans do not crowd at one end of the logistic
    /// when a turn moves the evaluation far (a Morne Plaine movement phase gains 20 to
    /// 30 points, which put every plan near 0.95 at a scale of 8). Nearer, and with 0,
    /// the root's evaluation.
    pub centre: usize,
    /// Below the tree, a unit's plans that roll dice are judged one plan ahead by the
    /// mean of this many samples of the dice. 1 (the default): one sample, as every
    /// other plan; 3 (the arena's `mcts-samples-sims:N`) scored even against 1 over
    /// 120 games at 200 simulations a decision, for about a seventh more time a
    /// simulation in the skirmish (docs/AI.md).
    pub rollout_samples: u32,
    /// Chance nodes in the tree: below a plan that rolled dice, each outcome drawn
    /// (the seed of the plan's own dice) keeps a subtree of its own, a new one drawn
    /// while the plan has fewer than ⌈(visits + 1)^`chance`⌉ (double progressive
    /// widening), else one of those drawn played again. `None` (the default): open
    /// loop, one subtree under a plan whatever its dice gave.
    pub chance: Option<f64>,
    /// The tree holds the side's own turn only: past its end the simulations play on
    /// with their own plans (a unit's best one plan ahead) to the horizon, so that
    /// through the enemy's reply ([`Horizon::EnemyReply`]) the reply is scripted, as
    /// the design note's leaf is, rather than searched by a tree of the enemy's
    /// choices. Off (the default): the tree grows to the horizon.
    pub tree_own_turn: bool,
    /// Sequential halving at the root (`mcts/halving.rs`): the budget in ⌈log₂ n⌉
    /// rounds, the root's plans still in play taking their simulations in turn and the
    /// better half by mean value kept after each round; the plan played is the last
    /// one left. Off (the default): UCT at the root too, the most visited plan played.
    pub halving: bool,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            budget: Budget::Time(Duration::from_secs(1)),
            threads: 1,
            seed: 0x5EED,
            horizon: Horizon::OwnTurn,
            exploration: 0.7,
            values: Values::Raw,
            discount: 0.98,
            scale: 8.0,
            max_plans: 80,
            per_unit: 8,
            ranked_below: false,
            played_in_phase: 0,
            unit_rollouts: true,
            units_first: true,
            reuse: true,
            widening: None,
            centre: 8,
            rollout_samples: 1,
            chance: None,
            tree_own_turn: false,
            halving: false,
        }
    }
}
