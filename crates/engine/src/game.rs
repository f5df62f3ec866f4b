//! A game: its scenario, seed and action log, and the state they produce.

use crate::dice::{Ctx, Dice};
use crate::dice_stream::Generator;
use crate::ending::{Ending, EndingKind};
use crate::ruleset::{Decision, Outcome, Refusal, Ruleset, Seat};
use crate::scenario::{Problems, SaveProblems, Scenario};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One applied action with what it caused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry<A, E> {
    /// The action as applied.
    pub action: A,
    /// The forced die results it consumed, in order (replayed as they were).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forced: Vec<u32>,
    /// How many dice it rolled; undo stops at an entry that rolled.
    #[serde(default)]
    pub rolls: u32,
    /// The events it caused, rolls included.
    pub events: Vec<E>,
}

/// A game as saved: enough to rebuild it exactly by replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Always `grognard-game/1`.
    pub format: String,
    /// The ruleset's name.
    pub ruleset: String,
    /// The validated scenario.
    pub scenario: Scenario,
    /// The seed of the dice.
    pub seed: u64,
    /// The actions in order, each with the forced results it consumed, as JSON.
    pub log: Vec<SavedAction>,
    /// Forced results queued but not yet used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_forced: Vec<u32>,
    /// The generator of the dice (issue 19, item 6). Left out for SplitMix64 from
    /// `seed`, so that a save without it, as every save before, replays as it did.
    #[serde(default, skip_serializing_if = "Generator::is_splitmix")]
    pub generator: Generator,
    /// How the game ended from outside its rules (a resignation, a loss on time), if
    /// it did (issue 16). Left out otherwise, so that every save before loads as it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
}

/// One action of a [`SavedGame`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedAction {
    /// The action as JSON.
    pub action: serde_json::Value,
    /// The forced results it consumed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forced: Vec<u32>,
}

/// The format tag of [`SavedGame`].
pub const SAVE_FORMAT: &str = "grognard-game/1";

/// Why a game could not be built, replayed or undone.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The scenario does not fit the ruleset.
    #[error("{0}")]
    Scenario(#[from] Problems),
    /// A logged action was refused on replay (the log does not belong to this scenario).
    #[error("action {index} of the log was refused on replay: {refusal}")]
    Replay {
        /// Its position in the log, from 0.
        index: usize,
        /// Why.
        refusal: Refusal,
    },
    /// A saved action could not be read.
    #[error("action {index} of the log is malformed: {message}")]
    Malformed {
        /// Its position in the log, from 0.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// The save is not for this ruleset or format.
    #[error("{0}")]
    Format(String),
    /// The scenario inside the save is not one validation could have produced (it is
    /// JSON from outside): each problem names its field.
    #[error("{0}")]
    Save(#[from] SaveProblems),
    /// Nothing can be undone.
    #[error("{0}")]
    Undo(String),
    /// The game cannot end from outside its rules as asked (it is over, or the side
    /// is none of the scenario's), or a saved ending does not fit its log.
    #[error("{0}")]
    Ending(String),
}

/// The state a game of `scenario` begins in: its `[position]` part read over the
/// start when it has one, else the start.
///
/// # Errors
/// The position part's problems, each located in the file.
pub fn start<R: Ruleset>(rules: &R, scenario: &Scenario) -> Result<R::State, Problems> {
    let Some(raw) = scenario.position() else {
        return Ok(rules.initial_state());
    };
    let state = rules.read_position(scenario, raw)?;
    // A hand-written part under way (a battle, a charge, a window) may be well typed and
    // still not one the rules can go on from: ask them the questions every client asks
    // at once, and refuse the file, not crash later, when they cannot answer.
    let answers = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut legal = Vec::new();
        rules.legal_actions(&state, &mut legal);
        let _ = (rules.to_act(&state), rules.outcome(&state));
        let sides = scenario
            .sides
            .iter()
            .map(|s| crate::Seat::Side(s.id.clone()));
        for seat in sides.chain([crate::Seat::Spectator, crate::Seat::Omniscient]) {
            let _ = rules.view(&state, &seat);
        }
        for a in legal.iter().take(64) {
            let _ = rules.explain(&state, a);
        }
    }));
    if answers.is_err() {
        let mut p = crate::position::Position::new(scenario, raw);
        p.at(
            "",
            "the rules cannot go on from this position (a part under way that no game could reach?): write it with `grognard position` from a game",
        );
        p.finish()?;
    }
    Ok(state)
}

/// A seed nobody chose: the clock mixed by the process's random hasher keys.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(now);
    h.finish()
}

/// A game of ruleset `R`.
///
/// ```no_run
/// # fn demo<R: grognard_engine::Ruleset>(scenario: grognard_engine::scenario::Scenario) {
/// use grognard_engine::Game;
/// let mut game = Game::<R>::new(scenario, None).unwrap();
/// let action = game.legal_actions().into_iter().next().unwrap();
/// game.apply(action).unwrap();
/// let again = Game::<R>::from_saved(&game.save()).unwrap();
/// assert_eq!(again.state(), game.state());
/// # }
/// ```
#[derive(Debug)]
pub struct Game<R: Ruleset> {
    rules: Arc<R>,
    scenario: Arc<Scenario>,
    seed: u64,
    generator: Generator,
    state: R::State,
    dice: Dice,
    log: Vec<LogEntry<R::Action, R::Event>>,
    ending: Option<Ending>,
}

impl<R: Ruleset> Clone for Game<R> {
    fn clone(&self) -> Game<R> {
        Game {
            log: self.log.clone(),
            ..self.without_log()
        }
    }
}

impl<R: Ruleset> Game<R> {
    /// A new game of a validated scenario, with its default seed unless one is given.
    ///
    /// # Errors
    /// The scenario's problems for this ruleset.
    pub fn new(scenario: Scenario, seed: Option<u64>) -> Result<Game<R>, GameError> {
        Game::with_generator(scenario, seed, Generator::SplitMix64)
    }

    /// A new game whose dice come from `generator` (ChaCha20 for a game with a human
    /// seat); `seed` (the scenario's unless given) is still the game's, for SplitMix64
    /// and for the computer's default search seed.
    ///
    /// # Errors
    /// The scenario's problems for this ruleset.
    pub fn with_generator(
        scenario: Scenario,
        seed: Option<u64>,
        generator: Generator,
    ) -> Result<Game<R>, GameError> {
        let rules = R::new(&scenario)?;
        let state = start(&rules, &scenario)?;
        // A position never holds the game's seed: it draws fresh dice (issue 19, item 4).
        let seed = seed.unwrap_or_else(|| {
            if scenario.position().is_some() {
                fresh_seed()
            } else {
                scenario.seed
            }
        });
        Ok(Game {
            state,
            rules: Arc::new(rules),
            scenario: Arc::new(scenario),
            seed,
            dice: Dice::from_generator(&generator, seed),
            generator,
            log: Vec::new(),
            ending: None,
        })
    }

    /// The rules bound to this scenario.
    #[must_use]
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The rules, shared (for an AI that searches copies of the state).
    #[must_use]
    pub fn rules_arc(&self) -> Arc<R> {
        Arc::clone(&self.rules)
    }

    /// The scenario.
    #[must_use]
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The generator of the dice.
    #[must_use]
    pub fn generator(&self) -> &Generator {
        &self.generator
    }

    /// The current state.
    #[must_use]
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// The dice, for forcing results.
    pub fn dice_mut(&mut self) -> &mut Dice {
        &mut self.dice
    }

    /// The dice.
    #[must_use]
    pub fn dice(&self) -> &Dice {
        &self.dice
    }

    /// The log so far.
    #[must_use]
    pub fn log(&self) -> &[LogEntry<R::Action, R::Event>] {
        &self.log
    }

    /// Every legal action now: none once the game has ended from outside its rules.
    #[must_use]
    pub fn legal_actions(&self) -> Vec<R::Action> {
        let mut out = Vec::new();
        if self.ending.is_none() {
            self.rules.legal_actions(&self.state, &mut out);
        }
        out
    }

    /// Whose decision it is: the rules' answer, or nobody's once the game has ended
    /// from outside its rules.
    #[must_use]
    pub fn to_act(&self) -> Option<Decision> {
        if self.ending.is_some() {
            return None;
        }
        self.rules.to_act(&self.state)
    }

    /// The result once over: the ending from outside the rules when there is one,
    /// else the rules' answer.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match &self.ending {
            Some(ending) => Some(ending.outcome(&self.scenario)),
            None => self.rules.outcome(&self.state),
        }
    }

    /// How the game ended from outside its rules, if it did.
    #[must_use]
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Ends the game from outside its rules: `side` resigned or ran out of time, and
    /// loses. The ending is recorded beside the log (in saves too); from then on the
    /// game answers it as its outcome, no action is legal, nobody is to act, and
    /// nothing can be undone. Any ruleset: the rules are not asked.
    ///
    /// # Errors
    /// The game is over already (by its rules or an ending), or `side` is none of the
    /// scenario's sides; nothing changes.
    pub fn end_from_outside(&mut self, side: &str, kind: EndingKind) -> Result<&Ending, GameError> {
        if !self.scenario.sides.iter().any(|s| s.id == side) {
            return Err(GameError::Ending(format!(
                "no side `{side}` in this scenario"
            )));
        }
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Ending(format!(
                "the game is over already: {}",
                outcome.reason
            )));
        }
        Ok(self.ending.insert(Ending {
            side: side.to_owned(),
            kind,
            at_action: self.log.len(),
        }))
    }

    /// Checks and applies an action; on success it is logged and its events returned.
    ///
    /// # Errors
    /// The refusal; nothing changes, the dice included.
    pub fn apply(&mut self, action: R::Action) -> Result<&[R::Event], Refusal> {
        if let Some(ending) = &self.ending {
            return Err(Refusal::new(
                ending.kind.rule(),
                format!(
                    "the game is over: {}",
                    ending.outcome(&self.scenario).reason
                ),
            ));
        }
        let saved_state = self.state.clone();
        let saved_dice = self.dice.clone();
        let mut events = Vec::new();
        let mut ctx = Ctx::new(&mut self.dice, &mut events);
        let result = self.rules.apply(&mut self.state, &action, &mut ctx);
        let (rolls, forced) = (ctx.rolls(), ctx.forced_used().to_vec());
        let fault = self.dice.take_fault();
        if let Err(refusal) = result {
            self.state = saved_state;
            self.dice = saved_dice;
            return Err(refusal);
        }
        if let Some(fault) = fault {
            self.state = saved_state;
            self.dice = saved_dice;
            return Err(Refusal::new("ENGINE-DICE", fault));
        }
        self.log.push(LogEntry {
            action,
            forced,
            rolls,
            events,
        });
        Ok(&self.log.last().expect("just pushed").events)
    }

    /// Whether [`Game::undo`] would take back the last action, without taking it back.
    ///
    /// # Errors
    /// When the log is empty or its last action rolled, as [`Game::undo`] says.
    pub fn can_undo(&self) -> Result<(), GameError> {
        if let Some(ending) = &self.ending {
            return Err(GameError::Undo(format!(
                "the game is over ({}): nothing can be taken back",
                ending.outcome(&self.scenario).reason
            )));
        }
        let Some(last) = self.log.last() else {
            return Err(GameError::Undo("nothing to undo: no action yet".into()));
        };
        if last.rolls > 0 {
            return Err(GameError::Undo(
                "the last action rolled dice: undo stops at the last random result".into(),
            ));
        }
        Ok(())
    }

    /// Takes back the last action, unless it rolled dice: undo goes back to the last
    /// random result and no further, so nobody can roll again.
    ///
    /// # Errors
    /// When the log is empty or its last action rolled.
    pub fn undo(&mut self) -> Result<(), GameError> {
        self.can_undo()?;
        let pending = self.dice.forced();
        let entries: Vec<_> = self.log[..self.log.len() - 1]
            .iter()
            .map(|e| (e.action.clone(), e.forced.clone()))
            .collect();
        let mut g = Game {
            rules: Arc::clone(&self.rules),
            scenario: Arc::clone(&self.scenario),
            seed: self.seed,
            generator: self.generator.clone(),
            state: start(self.rules.as_ref(), &self.scenario)?,
            dice: Dice::from_generator(&self.generator, self.seed),
            log: Vec::new(),
            ending: None,
        };
        for (index, (action, forced)) in entries.into_iter().enumerate() {
            g.replay_one(index, action, forced)?;
        }
        g.dice.force(pending);
        *self = g;
        Ok(())
    }

    fn replay_one(
        &mut self,
        index: usize,
        action: R::Action,
        forced: Vec<u32>,
    ) -> Result<(), GameError> {
        let pending = self.dice.forced();
        self.dice.clear_forced();
        self.dice.force(forced);
        let result = self
            .apply(action)
            .map(|_| ())
            .map_err(|refusal| GameError::Replay { index, refusal });
        self.dice.clear_forced();
        self.dice.force(pending);
        result
    }

    /// Rebuilds a game by replaying actions (each with its forced results).
    ///
    /// # Errors
    /// A scenario problem, or the first action refused.
    pub fn replay(
        scenario: Scenario,
        seed: u64,
        actions: impl IntoIterator<Item = (R::Action, Vec<u32>)>,
    ) -> Result<Game<R>, GameError> {
        let mut g = Game::new(scenario, Some(seed))?;
        for (index, (action, forced)) in actions.into_iter().enumerate() {
            g.replay_one(index, action, forced)?;
        }
        Ok(g)
    }

    /// The game as a [`SavedGame`].
    ///
    /// # Panics
    /// If an action cannot be written as JSON (a ruleset bug).
    #[must_use]
    pub fn save(&self) -> SavedGame {
        let names = self.rules.names();
        let log = names.scope(|| {
            self.log
                .iter()
                .map(|e| SavedAction {
                    action: serde_json::to_value(&e.action).expect("actions serialise"),
                    forced: e.forced.clone(),
                })
                .collect()
        });
        SavedGame {
            format: SAVE_FORMAT.into(),
            ruleset: R::NAME.into(),
            scenario: (*self.scenario).clone(),
            seed: self.seed,
            log,
            pending_forced: self.dice.forced(),
            generator: self.generator.clone(),
            ending: self.ending.clone(),
        }
    }

    /// A copy of the game as it stands without its log: the state, the dice (forced
    /// results included) and what they were built from. An action applied to it is
    /// checked and gives the state after it exactly as on the game, at a cost that does
    /// not grow with the game's length; its log holds only what it applies.
    #[must_use]
    pub fn without_log(&self) -> Game<R> {
        Game {
            rules: Arc::clone(&self.rules),
            scenario: Arc::clone(&self.scenario),
            seed: self.seed,
            generator: self.generator.clone(),
            state: self.state.clone(),
            dice: self.dice.clone(),
            log: Vec::new(),
            // An ended game refuses an action on its copy too.
            ending: self.ending.clone(),
        }
    }

    /// A copy for a computer playing `seat`: the state with what the seat may not see
    /// (the other hand, the deck's order) replaced by a sample consistent with what it
    /// sees ([`Ruleset::determinize`], drawn with `seed`), and dice seeded with `seed`
    /// instead of the game's. The log is the game's: a search reads the state.
    #[must_use]
    pub fn determinized(&self, seat: &Seat, seed: u64) -> Game<R> {
        let mut g = self.clone();
        g.dice = Dice::new(seed);
        self.rules.determinize(&mut g.state, seat, &mut g.dice);
        g
    }

    /// Rebuilds a saved game by replaying its log.
    ///
    /// # Errors
    /// A save of another format or ruleset, a scenario that validation could not have
    /// produced (the save is JSON from outside), a malformed or refused action.
    pub fn from_saved(saved: &SavedGame) -> Result<Game<R>, GameError> {
        if saved.format != SAVE_FORMAT {
            return Err(GameError::Format(format!(
                "unknown save format `{}` (expected `{SAVE_FORMAT}`)",
                saved.format
            )));
        }
        if saved.ruleset != R::NAME {
            return Err(GameError::Format(format!(
                "the save is a `{}` game, not `{}`",
                saved.ruleset,
                R::NAME
            )));
        }
        crate::scenario::check_saved(&saved.scenario, &R::vocabulary())?;
        let mut g = Game::<R>::with_generator(
            saved.scenario.clone(),
            Some(saved.seed),
            saved.generator.clone(),
        )?;
        let names = g.rules.names().clone();
        for (index, entry) in saved.log.iter().enumerate() {
            let action: R::Action = names
                .scope(|| serde_json::from_value(entry.action.clone()))
                .map_err(|e| GameError::Malformed {
                    index,
                    message: e.to_string(),
                })?;
            g.replay_one(index, action, entry.forced.clone())?;
        }
        g.dice.force(saved.pending_forced.iter().copied());
        if let Some(ending) = &saved.ending {
            if ending.at_action != g.log.len() {
                return Err(GameError::Ending(format!(
                    "the save's ending is at action {}, but its log holds {}",
                    ending.at_action,
                    g.log.len()
                )));
            }
            g.end_from_outside(&ending.side, ending.kind)?;
        }
        Ok(g)
    }
}
