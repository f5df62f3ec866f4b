//! The seam between the engine and a computer opponent that lives in a crate of its
//! own: what a caller asks for ([`AiRequest`]), what it gets back ([`AiAnswer`]),
//! and the object-safe [`Computer`] that the engine protocol and the server hold.
//!
//! The engine does not search: a program that wants a strong opponent passes one in
//! (the `grognard` binary passes `grognard-ai`'s). To list the rulesets once for
//! such a crate, [`RulesetVisitor`] is called with each ruleset's type.
//!
//! ```
//! use grognard_engine::computer::Level;
//! assert_eq!("hard".parse::<Level>().unwrap(), Level::Hard);
//! assert!("grandmaster".parse::<Level>().is_err());
//! assert_eq!(Level::Normal.to_string(), "normal");
//! ```

use crate::dynamic::{AnyGame, EngineError};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// How hard the computer tries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Greedy: the plan that looks best one step ahead.
    Easy,
    /// The search, about a second a decision.
    #[default]
    Normal,
    /// The search, about five seconds a decision, looking at the enemy's reply.
    Hard,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The level's name, as requests write it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level `{0}` (easy, normal or hard)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}

/// What the caller asks of the computer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AiRequest {
    /// How hard to try.
    pub level: Level,
    /// The time for this decision, instead of the level's.
    pub millis: Option<u64>,
    /// A fixed number of simulations instead of a time budget: the same request
    /// then gives the same answer on any machine.
    pub simulations: Option<u64>,
    /// The seed of the search's dice and samples.
    pub seed: Option<u64>,
}

/// One of the choices the computer weighed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// Its first action, as JSON.
    pub action: Value,
    /// Every step of the plan it begins, as JSON (two plans may begin alike: an officer
    /// activated with different units).
    #[serde(default)]
    pub plan: Vec<Value>,
    /// How many simulations went through it.
    pub visits: u64,
    /// The estimated chance that the side to act wins after it, from 0 to 1 (calibrated
    /// to the results of games where the computer's table has a line for the scenario
    /// or its ruleset).
    pub win: f64,
    /// The search's own value of the plan: the evaluation gained over the turn through
    /// a logistic, 0.5 for no better and no worse than the position as it stands.
    #[serde(default)]
    pub value: f64,
}

/// What the search saw.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AiStats {
    /// Simulations run, over every thread.
    pub simulations: u64,
    /// The best candidates, best first.
    pub candidates: Vec<Candidate>,
}

/// The computer's choice.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AiAnswer {
    /// The action to play now, or `None` once the game is over.
    pub action: Option<Value>,
    /// The whole plan it begins (the action first): a caller may play the next
    /// steps while they stay legal and the same side is to act.
    pub plan: Vec<Value>,
    /// What the search saw.
    pub stats: AiStats,
}

/// A computer player for games of any ruleset.
pub trait Computer: Send + Sync {
    /// The choice for the side to act in `game`.
    ///
    /// # Errors
    /// A game of a ruleset this computer does not know.
    fn choose(&self, game: &dyn AnyGame, request: &AiRequest) -> Result<AiAnswer, EngineError>;
}

/// Something that wants to be told every ruleset's type, e.g. to build a table of
/// functions generic over [`Ruleset`] (see `grognard_rules::visit_all`).
pub trait RulesetVisitor {
    /// Called once for each ruleset.
    fn visit<R: Ruleset>(&mut self);
}
