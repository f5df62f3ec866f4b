//! Games of any ruleset behind one object-safe trait that speaks JSON, for the
//! engine protocol, the server and the command line.

use crate::ending::{Ending, EndingKind};
use crate::game::{Game, GameError, SavedGame};
use crate::ruleset::{Decision, Explanation, Outcome, Preview, Reached, Refusal, Ruleset, Seat};
use crate::scenario::{self, Problems, Scenario, Vocabulary};
use serde_json::Value;

/// What went wrong with a request to a game.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The rules refuse the action.
    #[error("{0}")]
    Refused(#[from] Refusal),
    /// The request does not say anything the game can act on (malformed action,
    /// unknown unit, off-map hex).
    #[error("{0}")]
    BadRequest(String),
    /// The scenario has problems.
    #[error("{0}")]
    Scenario(#[from] Problems),
    /// Building, replaying or undoing failed.
    #[error("{0}")]
    Game(#[from] GameError),
}

impl EngineError {
    /// The rule ID that refused, or a category for other errors.
    #[must_use]
    pub fn rule(&self) -> String {
        match self {
            EngineError::Refused(r) => r.rule().to_owned(),
            EngineError::BadRequest(_) => "request".into(),
            EngineError::Scenario(_) => "scenario".into(),
            EngineError::Game(GameError::Undo(_)) => "undo".into(),
            EngineError::Game(GameError::Ending(_)) => "ending".into(),
            EngineError::Game(_) => "game".into(),
        }
    }
}

/// A game of any ruleset, speaking JSON.
pub trait AnyGame: Send + Sync {
    /// The ruleset's name.
    fn ruleset(&self) -> &'static str;
    /// The scenario.
    fn scenario(&self) -> &Scenario;
    /// The seed.
    fn seed(&self) -> u64;
    /// The generator of the dice (ChaCha20 holds its key).
    fn generator(&self) -> &crate::dice_stream::Generator;
    /// How many actions have been applied.
    fn len(&self) -> usize;
    /// True before the first action.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Whose decision it is, with its sentence in `text`.
    fn to_act(&self) -> Option<Decision>;
    /// The result once over (an ending from outside the rules included).
    fn outcome(&self) -> Option<Outcome>;
    /// How the game ended from outside its rules, if it did ([`Game::ending`]).
    fn ending(&self) -> Option<&Ending>;
    /// Ends the game from outside its rules: `side` resigned or ran out of time
    /// ([`Game::end_from_outside`]).
    ///
    /// # Errors
    /// The game is over already, or `side` is none of the scenario's; nothing changes.
    fn end_from_outside(&mut self, side: &str, kind: EndingKind) -> Result<Ending, EngineError>;
    /// The legal actions as JSON objects that [`AnyGame::apply`] takes as they are.
    fn legal(&self) -> Vec<Value>;
    /// Applies an action given as JSON; returns its events as JSON, each with its
    /// sentence in `"text"`.
    ///
    /// # Errors
    /// A malformed action, or the rules' refusal; nothing changes.
    fn apply(&mut self, action: &Value) -> Result<Vec<Value>, EngineError>;
    /// The action as the ruleset writes it: read, then written back. Two ways of
    /// writing one action give the same canonical form; a field the ruleset does not
    /// read is not in it.
    ///
    /// # Errors
    /// A malformed action.
    fn canonical(&self, action: &Value) -> Result<Value, EngineError>;
    /// Why an action is legal or not.
    ///
    /// # Errors
    /// A malformed action.
    fn explain(&self, action: &Value) -> Result<Explanation, EngineError>;
    /// The exact distribution of an action's random results.
    ///
    /// # Errors
    /// A malformed action, or one with no random part.
    fn preview(&self, action: &Value) -> Result<Preview, EngineError>;
    /// A unit's reachable hexes.
    ///
    /// # Errors
    /// An unknown unit, or one that cannot move now.
    fn reachable(&self, unit: &str) -> Result<Vec<Reached>, EngineError>;
    /// The whole state as JSON.
    fn state(&self) -> Value;
    /// The text of a scenario file that starts exactly where the game stands: the
    /// scenario with a `[position]` part (issue 19, item 4). It holds no seed and no
    /// state of the dice.
    fn position(&self) -> String;
    /// What a seat may see.
    fn view(&self, seat: &Seat) -> Value;
    /// [`AnyGame::view`] as JSON text, the same bytes as `view(seat).to_string()`,
    /// written by the ruleset without the `Value` tree where it can
    /// ([`Ruleset::view_text`]).
    fn view_text(&self, seat: &Seat) -> String;
    /// True when every seat sees the same view in every state of this game's
    /// ruleset ([`Ruleset::views_are_public`]).
    fn views_are_public(&self) -> bool;
    /// Whether some seat sees this game otherwise than a spectator now, when the
    /// ruleset knows it without building the views ([`Ruleset::views_differ`]).
    fn views_differ(&self) -> Option<bool>;
    /// The log as `seat` may see it: each action with its visible events, each event
    /// with its sentence in `"text"`.
    fn log(&self, seat: &Seat) -> Vec<Value>;
    /// The last `k` entries of [`AnyGame::log`], without writing the others.
    fn log_tail(&self, seat: &Seat, k: usize) -> Vec<Value>;
    /// The entries of [`AnyGame::log`] after its first `k` (those numbered `k + 1` on;
    /// none when `k` is at or past the end), without writing the first `k`: what a
    /// seat that holds the log up to `k` lacks, at a cost that does not grow with the
    /// game's length.
    fn log_from(&self, seat: &Seat, k: usize) -> Vec<Value>;
    /// Queues forced die results.
    fn force_rolls(&mut self, values: &[u32]);
    /// Takes back the last action back to the last random result.
    ///
    /// # Errors
    /// Nothing to undo, or the last action rolled.
    fn undo(&mut self) -> Result<(), EngineError>;
    /// Whether [`AnyGame::undo`] would take back the last action, without replaying
    /// anything.
    ///
    /// # Errors
    /// Nothing to undo, or the last action rolled.
    fn can_undo(&self) -> Result<(), EngineError>;
    /// The game as a save.
    fn save(&self) -> SavedGame;
    /// A copy, for "what if" analysis.
    fn boxed_clone(&self) -> Box<dyn AnyGame>;
    /// A copy without the log ([`Game::without_log`]): an action applied to it is
    /// checked, and leaves the state, the outcome and whose decision it is as on the
    /// game, at a cost that does not grow with the game's length.
    fn without_log(&self) -> Box<dyn AnyGame>;
    /// The action the computer opponent chooses for the side to act (JSON, as
    /// [`AnyGame::apply`] takes it), or `None` once the game is over.
    fn ai_action(&self, config: crate::ai::AiConfig) -> Option<Value>;
    /// The game as [`std::any::Any`], so that code generic over a ruleset can reach
    /// the typed [`Game`] (`downcast_ref::<Game<R>>()`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// A copy for a computer playing `seat`: what the seat may not see replaced by a
    /// sample drawn with `seed` ([`Game::determinized`]).
    fn determinized(&self, seat: &Seat, seed: u64) -> Box<dyn AnyGame>;
}

impl<R: Ruleset> Game<R> {
    fn decode(&self, action: &Value) -> Result<R::Action, EngineError> {
        self.rules()
            .names()
            .scope(|| serde_json::from_value(action.clone()))
            .map_err(|e| EngineError::BadRequest(format!("malformed action: {e}")))
    }

    fn encode<T: serde::Serialize>(&self, value: &T) -> Value {
        self.rules()
            .names()
            .scope(|| serde_json::to_value(value))
            .expect("rulesets' types serialise")
    }
}

/// An event as JSON with its sentence beside its fields: `"text"`, written by the
/// ruleset ([`Ruleset::event_text`]). Call inside the rules' [`crate::Names::scope`].
fn event_json<R: Ruleset>(rules: &R, event: &R::Event) -> Value {
    let mut value = serde_json::to_value(event).expect("events serialise");
    if let Value::Object(fields) = &mut value {
        fields.insert("text".into(), Value::String(rules.event_text(event)));
    }
    value
}

impl<R: Ruleset> AnyGame for Game<R> {
    fn ruleset(&self) -> &'static str {
        R::NAME
    }
    fn scenario(&self) -> &Scenario {
        Game::scenario(self)
    }
    fn seed(&self) -> u64 {
        Game::seed(self)
    }
    fn generator(&self) -> &crate::dice_stream::Generator {
        Game::generator(self)
    }
    fn len(&self) -> usize {
        self.log().len()
    }
    fn to_act(&self) -> Option<Decision> {
        let rules = self.rules();
        Game::to_act(self).map(|d| Decision {
            text: rules.decision_text(self.state(), &d),
            ..d
        })
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn ending(&self) -> Option<&Ending> {
        Game::ending(self)
    }
    fn end_from_outside(&mut self, side: &str, kind: EndingKind) -> Result<Ending, EngineError> {
        Ok(Game::end_from_outside(self, side, kind)?.clone())
    }
    fn legal(&self) -> Vec<Value> {
        self.legal_actions()
            .iter()
            .map(|a| self.encode(a))
            .collect()
    }
    fn apply(&mut self, action: &Value) -> Result<Vec<Value>, EngineError> {
        let action = self.decode(action)?;
        let events = Game::apply(self, action)?.to_vec();
        let rules = self.rules();
        Ok(rules
            .names()
            .scope(|| events.iter().map(|e| event_json(rules, e)).collect()))
    }
    fn canonical(&self, action: &Value) -> Result<Value, EngineError> {
        let action = self.decode(action)?;
        Ok(self.encode(&action))
    }
    fn explain(&self, action: &Value) -> Result<Explanation, EngineError> {
        let action = self.decode(action)?;
        Ok(self.rules().explain(self.state(), &action))
    }
    fn preview(&self, action: &Value) -> Result<Preview, EngineError> {
        let action = self.decode(action)?;
        Ok(self.rules().preview(self.state(), &action)?)
    }
    fn reachable(&self, unit: &str) -> Result<Vec<Reached>, EngineError> {
        let names = self.rules().names();
        let id = names
            .unit(unit)
            .ok_or_else(|| EngineError::BadRequest(format!("no unit `{unit}` in this scenario")))?;
        Ok(self.rules().reachable(self.state(), id)?)
    }
    fn state(&self) -> Value {
        self.encode(Game::state(self))
    }
    fn position(&self) -> String {
        let scenario = Game::scenario(self);
        let part = self.rules().write_position(scenario, Game::state(self));
        scenario::write(scenario, Some(&part))
    }
    fn view(&self, seat: &Seat) -> Value {
        let names = self.rules().names();
        names.scope(|| self.rules().view(self.state(), seat))
    }
    fn view_text(&self, seat: &Seat) -> String {
        let names = self.rules().names();
        names.scope(|| self.rules().view_text(self.state(), seat))
    }
    fn views_are_public(&self) -> bool {
        self.rules().views_are_public()
    }
    fn views_differ(&self) -> Option<bool> {
        self.rules().views_differ(self.state())
    }
    fn log(&self, seat: &Seat) -> Vec<Value> {
        AnyGame::log_tail(self, seat, usize::MAX)
    }
    fn log_tail(&self, seat: &Seat, k: usize) -> Vec<Value> {
        AnyGame::log_from(self, seat, self.log().len().saturating_sub(k))
    }
    fn log_from(&self, seat: &Seat, skip: usize) -> Vec<Value> {
        let rules = self.rules();
        let names = rules.names();
        names.scope(|| {
            self.log()
                .iter()
                .enumerate()
                .skip(skip)
                .map(|(n, e)| {
                    let events: Vec<Value> = e
                        .events
                        .iter()
                        .filter_map(|ev| rules.redact(ev, seat))
                        .map(|ev| event_json(rules, &ev))
                        .collect();
                    serde_json::json!({
                        "n": n + 1,
                        "action": serde_json::to_value(&e.action).expect("actions serialise"),
                        "events": events,
                    })
                })
                .collect()
        })
    }
    fn force_rolls(&mut self, values: &[u32]) {
        self.dice_mut().force(values.iter().copied());
    }
    fn undo(&mut self) -> Result<(), EngineError> {
        Ok(Game::undo(self)?)
    }
    fn can_undo(&self) -> Result<(), EngineError> {
        Ok(Game::can_undo(self)?)
    }
    fn save(&self) -> SavedGame {
        Game::save(self)
    }
    fn boxed_clone(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn without_log(&self) -> Box<dyn AnyGame> {
        Box::new(Game::without_log(self))
    }
    fn ai_action(&self, config: crate::ai::AiConfig) -> Option<Value> {
        if self.ending().is_some() {
            return None;
        }
        crate::ai::choose(self.rules(), self.state(), config).map(|a| self.encode(&a))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn determinized(&self, seat: &Seat, seed: u64) -> Box<dyn AnyGame> {
        Box::new(Game::determinized(self, seat, seed))
    }
}

/// Starts a game of a validated scenario, with an optional seed and its dice's generator.
pub type NewGame =
    fn(Scenario, Option<u64>, crate::dice_stream::Generator) -> Result<Box<dyn AnyGame>, GameError>;

/// Rebuilds a saved game.
pub type LoadGame = fn(&SavedGame) -> Result<Box<dyn AnyGame>, GameError>;

/// One ruleset as the registry knows it.
#[derive(Clone, Copy)]
pub struct RulesetEntry {
    /// The name scenario files use.
    pub name: &'static str,
    /// Its scenario vocabulary.
    pub vocabulary: fn() -> Vocabulary,
    /// Checks a scenario against the ruleset beyond the vocabulary.
    pub check: fn(&Scenario) -> Result<(), Problems>,
    /// Starts a game.
    pub new_game: NewGame,
    /// Rebuilds a saved game.
    pub load: LoadGame,
}

impl RulesetEntry {
    /// The entry for ruleset `R`.
    #[must_use]
    pub fn of<R: Ruleset>() -> RulesetEntry {
        RulesetEntry {
            name: R::NAME,
            vocabulary: R::vocabulary,
            check: |s| crate::game::start(&R::new(s)?, s).map(|_| ()),
            new_game: |s, seed, generator| {
                Ok(Box::new(Game::<R>::with_generator(s, seed, generator)?))
            },
            load: |saved| Ok(Box::new(Game::<R>::from_saved(saved)?)),
        }
    }
}

/// The rulesets a program knows, by name.
#[derive(Clone, Default)]
pub struct Registry {
    entries: Vec<RulesetEntry>,
}

impl crate::computer::RulesetVisitor for Registry {
    fn visit<R: Ruleset>(&mut self) {
        self.entries.push(RulesetEntry::of::<R>());
    }
}

impl Registry {
    /// An empty registry.
    #[must_use]
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds ruleset `R`.
    #[must_use]
    pub fn with<R: Ruleset>(mut self) -> Registry {
        self.entries.push(RulesetEntry::of::<R>());
        self
    }

    /// The entry for a name.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&RulesetEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The names known.
    #[must_use]
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// Parses and validates a scenario file for whichever ruleset it names, with the
    /// ruleset's own checks; every problem at once.
    ///
    /// # Errors
    /// Every problem, each with file, line and column.
    pub fn load_scenario(&self, file: &str, text: &str) -> Result<Scenario, Problems> {
        let scenario = scenario::load(file, text, |name| self.get(name).map(|e| (e.vocabulary)()))?;
        let entry = self
            .get(&scenario.ruleset)
            .expect("load checked the ruleset");
        (entry.check)(&scenario)?;
        Ok(scenario)
    }

    /// Starts a game of a validated scenario.
    ///
    /// # Errors
    /// An unknown ruleset or a scenario problem.
    pub fn new_game(
        &self,
        scenario: Scenario,
        seed: Option<u64>,
    ) -> Result<Box<dyn AnyGame>, EngineError> {
        self.new_game_with(scenario, seed, crate::dice_stream::Generator::SplitMix64)
    }

    /// Starts a game of a validated scenario whose dice come from `generator`.
    ///
    /// # Errors
    /// An unknown ruleset or a scenario problem.
    pub fn new_game_with(
        &self,
        scenario: Scenario,
        seed: Option<u64>,
        generator: crate::dice_stream::Generator,
    ) -> Result<Box<dyn AnyGame>, EngineError> {
        let entry = self.get(&scenario.ruleset).ok_or_else(|| {
            EngineError::BadRequest(format!("unknown ruleset `{}`", scenario.ruleset))
        })?;
        Ok((entry.new_game)(scenario, seed, generator)?)
    }

    /// Rebuilds a saved game.
    ///
    /// # Errors
    /// An unknown ruleset, or a log that does not replay.
    pub fn load_game(&self, saved: &SavedGame) -> Result<Box<dyn AnyGame>, EngineError> {
        let entry = self.get(&saved.ruleset).ok_or_else(|| {
            EngineError::BadRequest(format!("unknown ruleset `{}`", saved.ruleset))
        })?;
        Ok((entry.load)(saved)?)
    }
}
