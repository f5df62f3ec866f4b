//! The computer opponent for games of any ruleset: [`Opponent`] implements the
//! engine's [`Computer`] for the protocol and the server, and plays whole games for
//! the arena. It learns the rulesets' types from a [`RulesetVisitor`] walk
//! (`grognard_rules::visit_all`), then reaches the typed game behind
//! [`AnyGame::as_any`].

use crate::arena::{GameRecord, GameSpec};
use crate::player::{self, Choice, Memory, Options, Player};
use grognard_engine::game::GameError;
use grognard_engine::scenario::Scenario;
use grognard_engine::{
    AiAnswer, AiRequest, AiStats, AnyGame, Candidate, Computer, EngineError, Game, Ruleset,
    RulesetVisitor,
};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// Candidates shown in an answer's stats.
pub const SHOWN: usize = 5;

type ChooseFn = fn(&Opponent, &dyn AnyGame, &AiRequest) -> Result<AiAnswer, EngineError>;
type AdviseFn = fn(&Opponent, &dyn AnyGame, &AiRequest) -> Result<Advice, EngineError>;
type PlayFn = fn(&Scenario, &GameSpec) -> Result<GameRecord, GameError>;

struct Entry {
    name: &'static str,
    choose: ChooseFn,
    advise: AdviseFn,
    play: PlayFn,
}

/// One plan the search weighed, for a hint: every step, as JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Advised {
    /// The plan's steps, the first one legal now.
    pub plan: Vec<serde_json::Value>,
    /// Simulations through it.
    pub visits: u64,
    /// The estimated chance that the side to act wins after it, from 0 to 1.
    pub win: f64,
    /// The search's own value of the plan (see `Candidate::value` in the engine).
    pub value: f64,
}

/// What the search advises the side to act, best first; nothing once the game is over.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Advice {
    /// Simulations run.
    pub simulations: u64,
    /// The plans weighed, best (most visited) first.
    pub candidates: Vec<Advised>,
}

/// A game, as far as a player's memory goes: its ruleset, scenario and seed.
type GameKey = (&'static str, String, u64);

/// The computer opponent, for every ruleset it was shown.
///
/// ```
/// use grognard_ai::Opponent;
/// use grognard_engine::{AiRequest, Computer, Level};
/// let mut opponent = Opponent::new();
/// grognard_rules::visit_all(&mut opponent);
/// let registry = grognard_rules::registry();
/// let b = grognard_rules::builtin::find("bridge-at-morne").unwrap();
/// let game = registry.new_game(registry.load_scenario(b.path, b.text).unwrap(), None).unwrap();
/// let request = AiRequest { level: Level::Normal, simulations: Some(20), seed: Some(7), ..AiRequest::default() };
/// let answer = opponent.choose(game.as_ref(), &request).unwrap();
/// assert!(answer.action.is_some());
/// ```
pub struct Opponent {
    entries: Vec<Entry>,
    memory: Mutex<HashMap<GameKey, Memory>>,
    threads: usize,
}

impl Default for Opponent {
    fn default() -> Opponent {
        Opponent::new()
    }
}

impl RulesetVisitor for Opponent {
    fn visit<R: Ruleset>(&mut self) {
        self.entries.push(Entry {
            name: R::NAME,
            choose: choose::<R>,
            advise: advise::<R>,
            play: crate::arena::play::<R>,
        });
    }
}

/// Games whose memory is kept at most; beyond, the oldest memories are dropped
/// (a memory only caps a phase's plans and a turn's time).
const MEMORIES: usize = 4096;

impl Opponent {
    /// An opponent that knows no ruleset yet, searching on every core.
    #[must_use]
    pub fn new() -> Opponent {
        Opponent {
            entries: Vec::new(),
            memory: Mutex::new(HashMap::new()),
            threads: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        }
    }

    /// The same, searching with `threads` threads (at least one).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Opponent {
        self.threads = threads.max(1);
        self
    }

    /// The names of the rulesets it knows.
    #[must_use]
    pub fn rulesets(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// Plays one whole game of `scenario` for the arena.
    ///
    /// # Errors
    /// A ruleset it does not know, or a scenario that does not fit it.
    pub fn play(&self, scenario: &Scenario, spec: &GameSpec) -> Result<GameRecord, GameError> {
        let entry = self
            .entries
            .iter()
            .find(|e| e.name == scenario.ruleset)
            .ok_or_else(|| GameError::Format(format!("unknown ruleset `{}`", scenario.ruleset)))?;
        (entry.play)(scenario, spec)
    }
}

impl Opponent {
    /// The search's advice for the side to act in `game`, as a hint: like
    /// [`Computer::choose`], but it leaves the memory of the game's computer players
    /// (plans played in the phase, time spent in the turn) as it was.
    ///
    /// # Errors
    /// A game of a ruleset this opponent does not know.
    pub fn advise(&self, game: &dyn AnyGame, request: &AiRequest) -> Result<Advice, EngineError> {
        let entry = self.entry(game)?;
        (entry.advise)(self, game, request)
    }
}

fn advise<R: Ruleset>(
    opponent: &Opponent,
    game: &dyn AnyGame,
    request: &AiRequest,
) -> Result<Advice, EngineError> {
    let game = typed::<R>(game)?;
    let seed = request.seed.unwrap_or_else(|| game.seed());
    // A memory of its own: a hint is not a move of the game's players.
    let mut memory = Memory::default();
    let Some(choice) = opponent.decide(game, request, seed, &mut memory) else {
        return Ok(Advice::default());
    };
    let json = |a: &R::Action| to_json(game, a);
    let mut candidates = Vec::new();
    let weighed: Vec<_> = if choice.weighed.is_empty() {
        vec![(choice.plan.steps.clone(), 0, 0.5, 0.5)]
    } else {
        choice
            .weighed
            .iter()
            .map(|w| (w.plan.steps.clone(), w.visits, w.win, w.value))
            .collect()
    };
    for (steps, visits, win, value) in weighed {
        if steps.is_empty() {
            continue;
        }
        candidates.push(Advised {
            plan: steps.iter().map(json).collect::<Result<Vec<_>, _>>()?,
            visits,
            win: rounded(win),
            value: rounded(value),
        });
    }
    Ok(Advice {
        simulations: choice.simulations,
        candidates,
    })
}

impl Opponent {
    /// The entry of `game`'s ruleset.
    fn entry(&self, game: &dyn AnyGame) -> Result<&Entry, EngineError> {
        self.entries
            .iter()
            .find(|e| e.name == game.ruleset())
            .ok_or_else(|| {
                EngineError::BadRequest(format!("no computer player for `{}`", game.ruleset()))
            })
    }
}

impl Opponent {
    /// The search's choice for the side to act in `game`, within `request`'s limits.
    fn decide<R: Ruleset>(
        &self,
        game: &Game<R>,
        request: &AiRequest,
        seed: u64,
        memory: &mut Memory,
    ) -> Option<Choice<R::Action>> {
        let options = Options {
            millis: request.millis,
            simulations: request.simulations,
            // A fixed simulation count searches on one thread, so that it repeats.
            threads: if request.simulations.is_some() {
                1
            } else {
                self.threads
            },
        };
        let player = Player::from(request.level);
        player::decide(game.rules(), game.state(), player, seed, options, memory)
    }
}

/// `action` as JSON, its hexes written as `game`'s map labels.
fn to_json<R: Ruleset>(
    game: &Game<R>,
    action: &R::Action,
) -> Result<serde_json::Value, EngineError> {
    game.rules()
        .names()
        .scope(|| serde_json::to_value(action))
        .map_err(|e| EngineError::BadRequest(format!("an action does not serialise: {e}")))
}

/// A win chance to three decimals, as answers show it.
fn rounded(win: f64) -> f64 {
    (win * 1000.0).round() / 1000.0
}

/// `game` as a game of `R`.
fn typed<R: Ruleset>(game: &dyn AnyGame) -> Result<&Game<R>, EngineError> {
    game.as_any()
        .downcast_ref::<Game<R>>()
        .ok_or_else(|| EngineError::BadRequest(format!("not a game of `{}`", R::NAME)))
}

impl Computer for Opponent {
    fn choose(&self, game: &dyn AnyGame, request: &AiRequest) -> Result<AiAnswer, EngineError> {
        let entry = self.entry(game)?;
        (entry.choose)(self, game, request)
    }
}

fn choose<R: Ruleset>(
    opponent: &Opponent,
    game: &dyn AnyGame,
    request: &AiRequest,
) -> Result<AiAnswer, EngineError> {
    let game = typed::<R>(game)?;
    let key: GameKey = (R::NAME, game.scenario().id.clone(), game.seed());
    let mut memory = {
        let mut all = opponent
            .memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        all.remove(&key).unwrap_or_default()
    };
    let seed = request.seed.unwrap_or_else(|| {
        game.seed() ^ (game.log().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    });
    let choice = opponent.decide(game, request, seed, &mut memory);
    {
        let mut all = opponent
            .memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if all.len() >= MEMORIES {
            all.clear();
        }
        all.insert(key, memory);
    }
    let Some(choice) = choice else {
        return Ok(AiAnswer::default());
    };
    let json = |a: &R::Action| to_json(game, a);
    let plan = choice
        .plan
        .steps
        .iter()
        .map(json)
        .collect::<Result<Vec<_>, _>>()?;
    let mut candidates = Vec::new();
    for w in choice.weighed.iter().take(SHOWN) {
        if let Some(first) = w.plan.steps.first() {
            candidates.push(Candidate {
                action: json(first)?,
                plan: w
                    .plan
                    .steps
                    .iter()
                    .map(json)
                    .collect::<Result<Vec<_>, _>>()?,
                visits: w.visits,
                win: rounded(w.win),
                value: rounded(w.value),
            });
        }
    }
    Ok(AiAnswer {
        action: plan.first().cloned(),
        plan,
        stats: AiStats {
            simulations: choice.simulations,
            candidates,
        },
    })
}
