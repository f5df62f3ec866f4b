//! Players: the levels and the arena's other contestants, and the memory a player
//! keeps over one game (plans played in the phase, time spent in the turn).

use crate::mcts::{self, Budget, Horizon, SearchConfig, Values, Weighed};
use crate::oep;
use crate::plans::{self, PhaseCount};
use crate::rng::Rng;
use grognard_engine::{Level, Plan, Ruleset};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A random plan (a random unit, then one of its plans).
    Random,
    /// Greedy one plan ahead.
    Easy,
    /// The search, about a second a decision.
    Normal,
    /// The search, about five seconds a decision, through the enemy's reply.
    Hard,
    /// The search with this many milliseconds a decision.
    Mcts(u64),
    /// The search with this many simulations a decision: repeatable on any machine.
    MctsSims(u64),
    /// The search with this many milliseconds a decision, through the enemy's reply.
    MctsReply(u64),
    /// The search with this many simulations a decision, through the enemy's reply.
    MctsReplySims(u64),
    /// The search with this many simulations a decision and progressive widening at
    /// the root ([`crate::widening`], off in the levels): for measuring it.
    MctsWideSims(u64),
    /// The search with this many simulations a decision, UCT over min-max normalised
    /// values ([`Values::Spread`]): for measuring it.
    MctsNormSims(u64),
    /// The search with this many simulations a decision, UCT's exploration scaled by
    /// the deviation of the values ([`Values::Deviation`]): for measuring it.
    MctsDevSims(u64),
    /// The search with this many simulations a decision, its values centred on the
    /// root's evaluation rather than on where the turn is expected to leave the side
    /// ([`SearchConfig::centre`] 0, as before it): for measuring it.
    MctsRootSims(u64),
    /// The search with this many simulations a decision, judging a plan that rolls in
    /// the simulations by the mean of 3 samples of the dice
    /// ([`SearchConfig::rollout_samples`], 1 in the levels): for measuring it.
    MctsSamplesSims(u64),
    /// Online evolutionary planning ([`crate::oep`]) with this many milliseconds a
    /// decision, where the side's choices are all its units' (the tree search
    /// elsewhere): for measuring it.
    Oep(u64),
    /// Online evolutionary planning with this many evaluations a decision (simulations
    /// of the tree search where it hands the decision over): for measuring it.
    OepSims(u64),
    /// Online evolutionary planning with this many milliseconds a decision, each genome
    /// played through the enemy's reply (as `hard` plans in Morne Plaine): for
    /// measuring it.
    OepReply(u64),
    /// Online evolutionary planning with this many evaluations a decision, through the
    /// enemy's reply: for measuring it.
    OepReplySims(u64),
    /// The search at a count of simulations with chance nodes
    /// ([`SearchConfig::chance`], exponent 0.5): for measuring it.
    MctsChanceSims(u64),
    /// The search with this many milliseconds a decision to the end of its own turn,
    /// with chance nodes and no trees kept: for measuring them at a level's time.
    MctsChance(u64),
    /// The search at a count of simulations keeping 16 plans a unit in a node
    /// ([`SearchConfig::per_unit`], 8 in the levels) instead of 8: for measuring
    /// whether a larger budget is better spent on more choices.
    MctsBroadSims(u64),
    /// The search at a count of simulations keeping 4 plans a unit in a node instead
    /// of 8: for measuring it.
    MctsNarrowSims(u64),
    /// The search at a count of simulations whose nodes below the root keep each
    /// unit's best plans by a look one plan ahead, as the root does, rather than a
    /// random few ([`SearchConfig::ranked_below`]): for measuring it.
    MctsRankedSims(u64),
    /// The search at a count of simulations through the enemy's reply, its tree
    /// holding the side's own turn only, the reply played by the simulations' own plans
    /// ([`SearchConfig::tree_own_turn`]): for measuring it.
    MctsScriptedSims(u64),
    /// The same with this many milliseconds a decision: for measuring it at a level's
    /// time.
    MctsScripted(u64),
    /// The search at a count of simulations with sequential halving at the root
    /// ([`SearchConfig::halving`]): for measuring it.
    MctsHalvingSims(u64),
    /// The same with this many milliseconds a decision.
    MctsHalving(u64),
}

/// A player name that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown player `{0}` (random, easy, normal, hard, mcts:MILLIS, mcts-sims:N, mcts-reply:MILLIS, mcts-reply-sims:N, mcts-wide-sims:N, mcts-norm-sims:N, mcts-dev-sims:N, mcts-root-sims:N, mcts-samples-sims:N, mcts-chance-sims:N, mcts-chance:MILLIS, mcts-broad-sims:N, mcts-narrow-sims:N, mcts-ranked-sims:N, mcts-scripted-sims:N, mcts-scripted:MILLIS, mcts-halving-sims:N, mcts-halving:MILLIS, oep:MILLIS, oep-sims:N, oep-reply:MILLIS, oep-reply-sims:N)"
)]
pub struct UnknownPlayer(pub String);

impl FromStr for Player {
    type Err = UnknownPlayer;
    fn from_str(s: &str) -> Result<Player, UnknownPlayer> {
        let number = |n: &str| {
            n.parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| UnknownPlayer(s.to_owned()))
        };
        match s {
            "random" => Ok(Player::Random),
            "easy" => Ok(Player::Easy),
            "normal" => Ok(Player::Normal),
            "hard" => Ok(Player::Hard),
            _ => {
                if let Some(n) = s.strip_prefix("mcts-reply-sims:") {
                    Ok(Player::MctsReplySims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-reply:") {
                    Ok(Player::MctsReply(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-wide-sims:") {
                    Ok(Player::MctsWideSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-norm-sims:") {
                    Ok(Player::MctsNormSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-dev-sims:") {
                    Ok(Player::MctsDevSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-chance-sims:") {
                    Ok(Player::MctsChanceSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-chance:") {
                    Ok(Player::MctsChance(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-broad-sims:") {
                    Ok(Player::MctsBroadSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-narrow-sims:") {
                    Ok(Player::MctsNarrowSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-ranked-sims:") {
                    Ok(Player::MctsRankedSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-scripted-sims:") {
                    Ok(Player::MctsScriptedSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-scripted:") {
                    Ok(Player::MctsScripted(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-halving-sims:") {
                    Ok(Player::MctsHalvingSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-halving:") {
                    Ok(Player::MctsHalving(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-samples-sims:") {
                    Ok(Player::MctsSamplesSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-root-sims:") {
                    Ok(Player::MctsRootSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts-sims:") {
                    Ok(Player::MctsSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("oep-reply-sims:") {
                    Ok(Player::OepReplySims(number(n)?))
                } else if let Some(n) = s.strip_prefix("oep-reply:") {
                    Ok(Player::OepReply(number(n)?))
                } else if let Some(n) = s.strip_prefix("oep-sims:") {
                    Ok(Player::OepSims(number(n)?))
                } else if let Some(n) = s.strip_prefix("oep:") {
                    Ok(Player::Oep(number(n)?))
                } else if let Some(n) = s.strip_prefix("mcts:") {
                    Ok(Player::Mcts(number(n)?))
                } else {
                    Err(UnknownPlayer(s.to_owned()))
                }
            }
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Random => f.write_str("random"),
            Player::Easy => f.write_str("easy"),
            Player::Normal => f.write_str("normal"),
            Player::Hard => f.write_str("hard"),
            Player::Mcts(ms) => write!(f, "mcts:{ms}"),
            Player::MctsSims(n) => write!(f, "mcts-sims:{n}"),
            Player::MctsReply(ms) => write!(f, "mcts-reply:{ms}"),
            Player::MctsReplySims(n) => write!(f, "mcts-reply-sims:{n}"),
            Player::MctsWideSims(n) => write!(f, "mcts-wide-sims:{n}"),
            Player::MctsNormSims(n) => write!(f, "mcts-norm-sims:{n}"),
            Player::MctsDevSims(n) => write!(f, "mcts-dev-sims:{n}"),
            Player::MctsRootSims(n) => write!(f, "mcts-root-sims:{n}"),
            Player::MctsSamplesSims(n) => write!(f, "mcts-samples-sims:{n}"),
            Player::MctsChanceSims(n) => write!(f, "mcts-chance-sims:{n}"),
            Player::MctsChance(ms) => write!(f, "mcts-chance:{ms}"),
            Player::MctsBroadSims(n) => write!(f, "mcts-broad-sims:{n}"),
            Player::MctsNarrowSims(n) => write!(f, "mcts-narrow-sims:{n}"),
            Player::MctsRankedSims(n) => write!(f, "mcts-ranked-sims:{n}"),
            Player::MctsScriptedSims(n) => write!(f, "mcts-scripted-sims:{n}"),
            Player::MctsScripted(ms) => write!(f, "mcts-scripted:{ms}"),
            Player::MctsHalvingSims(n) => write!(f, "mcts-halving-sims:{n}"),
            Player::MctsHalving(ms) => write!(f, "mcts-halving:{ms}"),
            Player::Oep(ms) => write!(f, "oep:{ms}"),
            Player::OepSims(n) => write!(f, "oep-sims:{n}"),
            Player::OepReply(ms) => write!(f, "oep-reply:{ms}"),
            Player::OepReplySims(n) => write!(f, "oep-reply-sims:{n}"),
        }
    }
}

impl From<Level> for Player {
    fn from(level: Level) -> Player {
        match level {
            Level::Easy => Player::Easy,
            Level::Normal => Player::Normal,
            Level::Hard => Player::Hard,
        }
    }
}

/// Milliseconds a decision at `normal`.
pub const NORMAL_MILLIS: u64 = 1_000;
/// The exponent of the chance nodes' widening where a player searches with them: a
/// plan visited `n` times has drawn at most ⌈(n + 1)^0.5⌉ outcomes of its dice.
pub const CHANCE_EXPONENT: f64 = 0.5;
/// Milliseconds a decision at `hard`.
pub const HARD_MILLIS: u64 = 5_000;
/// The rulesets in which `hard` searches to the end of its own turn, as `normal` does,
/// with its five times the time, rather than through the enemy's reply: in the skirmish
/// a simulation through the reply costs about five times one of the own turn, and the
/// reply horizon lost to the shorter one at the same time and at five times the time;
/// in JOMINI the reply lost to the own turn at a second (16.0 of 40 at the Saale) and
/// `hard` through it scored 8.5 of 20 against `normal`, where the own turn at five
/// seconds won 9.5 of 10 against `easy` (docs/AI.md, "`hard`'s horizon").
pub const HARD_OWN_TURN: &[&str] = &["skirmish", "jomini"];

/// The rulesets in which `normal` searches through the enemy's reply, as `hard` does,
/// rather than to the end of its own turn: in Morne Plaine the planner through the
/// reply scored 17.5 of 20 against `normal` at the Bridge, both at a second a decision
/// (docs/AI.md, "`normal` through the enemy's reply in Morne Plaine").
pub const NORMAL_REPLY: &[&str] = &["morne_plaine"];

/// The rulesets in which the search's values stay centred on the root's evaluation
/// ([`SearchConfig::centre`] 0): at Broken Cairn the centre moved to the turn's expected
/// end scored 14.5 of 40 against the root's at 200 simulations a decision (docs/AI.md,
/// "Values centred on the turn's end").
pub const CENTRE_OFF: &[&str] = &["skirmish"];

/// The rulesets in which no search keeps its trees for the side's next decision
/// ([`SearchConfig::reuse`] off): at Broken Cairn, with the trees kept, the search at
/// 2,500 simulations a decision scored 12.5 of 40 against itself at 500, and still
/// about a third with them kept only across plans that rolled no dice; with none kept,
/// 19.0 of 40 (docs/AI.md, "Trees kept only where no dice fell").
pub const REUSE_OFF: &[&str] = &["skirmish"];

/// The rulesets in which `hard` searches with chance nodes ([`SearchConfig::chance`],
/// exponent 0.5; no trees kept): at Broken Cairn the search at 2,500 simulations a
/// decision with them scored 28.5 of 40 against the open loop at 500, where the open
/// loop at 2,500 scored 19.0 of 40; at 500 against 500 they were level (21.5 of 40),
/// and at the Saale behind (16.0 of 40), so `normal` and the other rulesets keep the
/// open loop (docs/AI.md, "Chance nodes").
pub const HARD_CHANCE: &[&str] = &["skirmish"];

/// The rulesets in which the levels (`normal`, `hard`) plan a phase of units by
/// evolution ([`crate::oep`]) where it applies, and search the rest with the tree: in
/// Morne Plaine, at 100 ms a decision, the planner scored 26.0 of 40 against `easy`
/// where the tree search scored 17.0, and 43.5 of 80 against the tree search head to
/// head at 100 and 300 ms; at the Saale it was level with it, at Broken Cairn behind
/// (docs/AI.md, "Online evolutionary planning").
pub const EVOLVE_IN: &[&str] = &["morne_plaine"];

/// A whole turn may take this many decisions' budgets at the full budget; after that
/// each decision searches for a quarter of it, and past twice this many the player
/// decides greedily until its turn ends ([`turn_budget`]).
pub const TURN_BUDGETS: u32 = 15;

/// The time a decision may search when `spent` of its turn is gone, at `per_decision`
/// a decision; `None`: decide greedily. The full budget (or what is left of
/// [`TURN_BUDGETS`] of them), then a quarter of it a decision (a Morne Plaine or
/// skirmish turn holds more decisions than that: its last attacks are still searched),
/// then none once twice the budgets are spent, so that a turn stays bounded.
///
/// ```
/// use grognard_ai::player::{turn_budget, TURN_BUDGETS};
/// use std::time::Duration;
/// let d = Duration::from_millis(1000);
/// assert_eq!(turn_budget(d, Duration::ZERO), Some(d));
/// assert_eq!(turn_budget(d, d * TURN_BUDGETS - d / 2), Some(d / 2));
/// assert_eq!(turn_budget(d, d * TURN_BUDGETS), Some(d / 4));
/// assert_eq!(turn_budget(d, d * TURN_BUDGETS * 2), None);
/// ```
#[must_use]
pub fn turn_budget(per_decision: Duration, spent: Duration) -> Option<Duration> {
    let cap = per_decision * TURN_BUDGETS;
    if spent < cap {
        Some(per_decision.min(cap - spent).max(per_decision / 4))
    } else if spent < cap * 2 {
        Some(per_decision / 4)
    } else {
        None
    }
}

impl Player {
    /// Whether the player plans a phase of units by evolution ([`crate::oep`]) where
    /// it applies in the ruleset named `ruleset`: the arena's `oep` players everywhere,
    /// the levels in the rulesets of [`EVOLVE_IN`].
    #[must_use]
    pub fn evolves_in(self, ruleset: &str) -> bool {
        match self {
            Player::Oep(_) | Player::OepSims(_) | Player::OepReply(_) | Player::OepReplySims(_) => {
                true
            }
            Player::Normal | Player::Hard => EVOLVE_IN.contains(&ruleset),
            _ => false,
        }
    }

    /// [`Player::search`] in the ruleset named `ruleset`: `hard` searches its own turn
    /// in the rulesets of [`HARD_OWN_TURN`], `normal` through the enemy's reply in
    /// those of [`NORMAL_REPLY`], and every search keeps the root's evaluation as its
    /// values' centre in those of [`CENTRE_OFF`] and no trees in those of
    /// [`REUSE_OFF`].
    #[must_use]
    pub fn search_in(
        self,
        ruleset: &str,
        millis: Option<u64>,
        simulations: Option<u64>,
    ) -> Option<SearchConfig> {
        let mut config = self.search(millis, simulations)?;
        if self == Player::Hard && HARD_OWN_TURN.contains(&ruleset) {
            config.horizon = Horizon::OwnTurn;
        }
        if self == Player::Normal && NORMAL_REPLY.contains(&ruleset) {
            config.horizon = Horizon::EnemyReply;
        }
        if CENTRE_OFF.contains(&ruleset) {
            config.centre = 0;
        }
        if REUSE_OFF.contains(&ruleset) {
            config.reuse = false;
        }
        if self == Player::Hard && HARD_CHANCE.contains(&ruleset) {
            config.chance = Some(CHANCE_EXPONENT);
            config.reuse = false;
        }
        Some(config)
    }

    /// The search settings of this player, with the given time per decision (for
    /// the levels and `mcts:MILLIS`), or `None` for the players that do not search.
    #[must_use]
    pub fn search(self, millis: Option<u64>, simulations: Option<u64>) -> Option<SearchConfig> {
        // The players for measuring: the search to the end of its own turn at a count
        // of simulations, one setting changed.
        let sims = |n| SearchConfig {
            budget: Budget::Simulations(n),
            horizon: Horizon::OwnTurn,
            ..SearchConfig::default()
        };
        let (ms, horizon) = match self {
            Player::Random | Player::Easy => return None,
            Player::Normal => (NORMAL_MILLIS, Horizon::OwnTurn),
            Player::Hard => (HARD_MILLIS, Horizon::EnemyReply),
            Player::Mcts(ms)
            | Player::MctsChance(ms)
            | Player::MctsHalving(ms)
            | Player::Oep(ms) => (ms, Horizon::OwnTurn),
            Player::MctsReply(ms) | Player::OepReply(ms) | Player::MctsScripted(ms) => {
                (ms, Horizon::EnemyReply)
            }
            Player::MctsSims(n) | Player::OepSims(n) => return Some(sims(n)),
            Player::MctsReplySims(n) | Player::OepReplySims(n) => {
                return Some(SearchConfig {
                    horizon: Horizon::EnemyReply,
                    ..sims(n)
                })
            }
            Player::MctsRootSims(n) => {
                return Some(SearchConfig {
                    centre: 0,
                    ..sims(n)
                })
            }
            Player::MctsSamplesSims(n) => {
                return Some(SearchConfig {
                    rollout_samples: 3,
                    ..sims(n)
                })
            }
            Player::MctsChanceSims(n) => {
                return Some(SearchConfig {
                    chance: Some(CHANCE_EXPONENT),
                    reuse: false,
                    ..sims(n)
                })
            }
            Player::MctsBroadSims(n) => {
                return Some(SearchConfig {
                    per_unit: 16,
                    ..sims(n)
                })
            }
            Player::MctsNarrowSims(n) => {
                return Some(SearchConfig {
                    per_unit: 4,
                    ..sims(n)
                })
            }
            Player::MctsRankedSims(n) => {
                return Some(SearchConfig {
                    ranked_below: true,
                    ..sims(n)
                })
            }
            Player::MctsScriptedSims(n) => {
                return Some(SearchConfig {
                    horizon: Horizon::EnemyReply,
                    tree_own_turn: true,
                    ..sims(n)
                })
            }
            Player::MctsHalvingSims(n) => {
                return Some(SearchConfig {
                    halving: true,
                    ..sims(n)
                })
            }
            Player::MctsWideSims(n) => {
                return Some(SearchConfig {
                    widening: Some(crate::widening::Widening::default()),
                    ..sims(n)
                })
            }
            Player::MctsNormSims(n) => {
                return Some(SearchConfig {
                    values: Values::Spread,
                    ..sims(n)
                })
            }
            Player::MctsDevSims(n) => {
                return Some(SearchConfig {
                    values: Values::Deviation,
                    ..sims(n)
                })
            }
        };
        let budget = match simulations {
            Some(n) => Budget::Simulations(n),
            None => Budget::Time(Duration::from_millis(millis.unwrap_or(ms))),
        };
        let chance = matches!(self, Player::MctsChance(_));
        Some(SearchConfig {
            budget,
            horizon,
            chance: chance.then_some(CHANCE_EXPONENT),
            reuse: !chance,
            tree_own_turn: matches!(self, Player::MctsScripted(_)),
            halving: matches!(self, Player::MctsHalving(_)),
            ..SearchConfig::default()
        })
    }
}

/// What a player remembers over one game.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    phase: PhaseCount,
    turn: Option<(u32, String)>,
    spent: Duration,
    /// The last search's trees and the plan played from them, for the next decision
    /// of the same turn ([`mcts::search_from`]); typed by the ruleset's action.
    kept: Option<Kept>,
}

/// A search's trees kept for the next decision (taken by it, so never older).
#[derive(Clone)]
struct Kept {
    trees: std::sync::Arc<dyn std::any::Any + Send + Sync>,
}

impl fmt::Debug for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Kept")
    }
}

/// Frees a search's kept trees on a thread of their own: grown for seconds at `hard`,
/// they take long to free, and not on the clock of the decision that lets them go.
fn free_later(kept: Option<Kept>) {
    if let Some(old) = kept {
        std::thread::spawn(move || drop(old));
    }
}

/// A player's choice.
#[derive(Clone, Debug)]
pub struct Choice<A> {
    /// The plan to play.
    pub plan: Plan<A>,
    /// The plans weighed, best first (for `easy`, visits are 0 and `win` is the
    /// score's logistic).
    pub weighed: Vec<Weighed<A>>,
    /// Simulations run.
    pub simulations: u64,
}

/// How a player decides beyond who it is.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// The time for this decision instead of the player's.
    pub millis: Option<u64>,
    /// A fixed number of simulations instead of a time budget.
    pub simulations: Option<u64>,
    /// Threads for the search (0: one).
    pub threads: usize,
}

/// The choice of `player` for the side to act, or `None` once the game is over.
pub fn decide<R: Ruleset>(
    rules: &R,
    state: &R::State,
    player: Player,
    seed: u64,
    options: Options,
    memory: &mut Memory,
) -> Option<Choice<R::Action>> {
    let decision = rules.to_act(state)?;
    memory.phase.observe(rules, state);
    let turn = (rules.turn(state), decision.side.clone());
    if memory.turn.as_ref() != Some(&turn) {
        memory.turn = Some(turn);
        memory.spent = Duration::ZERO;
        // Trees are kept within a turn only.
        free_later(memory.kept.take());
    }
    // The trees of the decision just before this one, taken: none are kept longer.
    let kept = memory.kept.take();
    let start = Instant::now();
    let played = memory.phase.plans();
    let mut config = player.search_in(rules.names().ruleset(), options.millis, options.simulations);
    if let Some(c) = &mut config {
        if let Budget::Time(d) = c.budget {
            // Bound the whole turn: a quarter of the budget once its budgets are spent,
            // greedy past twice them.
            match turn_budget(d, memory.spent) {
                Some(t) => c.budget = Budget::Time(t),
                None => config = None,
            }
        }
    }
    let choice = match (player, config) {
        (Player::Random, _) => {
            let candidates = plans::candidates(rules, state, played, None);
            if candidates.is_empty() {
                return None;
            }
            let i = plans::random_index(&candidates, &mut Rng::new(seed));
            Choice {
                plan: candidates[i].clone(),
                weighed: Vec::new(),
                simulations: 0,
            }
        }
        (_, Some(mut c)) => {
            c.seed = seed;
            c.threads = options.threads.max(1);
            c.played_in_phase = played;
            // The plan is taken as played when the game has moved on from the state it
            // was chosen in (asked again in the same state, the search starts afresh).
            let (searched, plan) =
                if player.evolves_in(rules.names().ruleset()) && oep::applies(rules, state, &c) {
                    let previous = kept.as_ref().and_then(|k| {
                        k.trees
                            .downcast_ref::<(oep::Population<R::Action>, R::State)>()
                            .filter(|(_, root)| root != state)
                            .map(|(p, _)| p)
                    });
                    let (searched, population) = oep::search(rules, state, &c, previous)?;
                    let plan = searched.best()?.clone();
                    if c.reuse {
                        memory.kept = Some(Kept {
                            trees: std::sync::Arc::new((population, state.clone())),
                        });
                    }
                    (searched, plan)
                } else {
                    let previous = kept.as_ref().and_then(|k| {
                        k.trees
                            .downcast_ref::<(mcts::Forest<R::Action>, Plan<R::Action>, R::State)>()
                            .filter(|(_, plan, root)| {
                                root != state && mcts::led_to(rules, root, plan, state)
                            })
                            .map(|(f, p, _)| (f, p))
                    });
                    let mut searched = if c.reuse {
                        mcts::search_from(rules, state, &c, previous)?
                    } else {
                        mcts::search(rules, state, &c)?
                    };
                    let plan = searched.best()?.clone();
                    let forest = std::mem::take(&mut searched.forest);
                    if c.reuse {
                        memory.kept = Some(Kept {
                            trees: std::sync::Arc::new((forest, plan.clone(), state.clone())),
                        });
                    } else {
                        // A tree of tens of thousands of nodes takes tens of
                        // milliseconds to free: not on the decision's time.
                        free_later(Some(Kept {
                            trees: std::sync::Arc::new(forest),
                        }));
                    }
                    (searched, plan)
                };
            let mut weighed = searched.weighed;
            crate::calibration::calibrate(rules, state, &decision.side, &mut weighed);
            Choice {
                plan,
                weighed,
                simulations: searched.simulations,
            }
        }
        (_, None) => {
            let (plan, all) = crate::greedy::choose(rules, state, played, seed)?;
            let mut weighed: Vec<Weighed<R::Action>> = all
                .into_iter()
                .map(|(plan, score)| {
                    let value = 1.0 / (1.0 + (-score / SearchConfig::default().scale).exp());
                    Weighed {
                        plan,
                        visits: 0,
                        win: value,
                        value,
                        eval: score,
                    }
                })
                .collect();
            crate::calibration::calibrate(rules, state, &decision.side, &mut weighed);
            Choice {
                plan,
                weighed,
                simulations: 0,
            }
        }
    };
    memory.phase.played();
    memory.spent += start.elapsed();
    free_later(kept);
    Some(choice)
}
