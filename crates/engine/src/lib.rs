//! The rules-agnostic engine of grognard.
//!
//! A game flows one way:
//!
//! ```text
//! scenario file -> validated Scenario -> Ruleset (bound to it) -> legal actions
//!     -> apply -> events -> views          \-> preview / explain
//! ```
//!
//! The engine knows hexes, units, dice and turns; the rules live in types that
//! implement [`Ruleset`]. A [`Game`] is its scenario, seed and action log: replaying
//! the log reproduces the state byte for byte. [`AnyGame`] erases the ruleset's types
//! behind JSON for the engine protocol, the server and the command line.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ai;
pub mod computer;
pub mod dice;
pub mod dice_pool;
pub mod dice_stream;
pub mod dynamic;
pub mod ending;
pub mod fuzzing;
pub mod game;
pub mod palette;
pub mod position;
pub mod protocol;
pub mod retreat;
pub mod ruleset;
pub mod scenario;
pub mod svg;
pub mod text;
pub mod wire;

pub use computer::{AiAnswer, AiRequest, AiStats, Candidate, Computer, Level, RulesetVisitor};
pub use dice::{Ctx, Dice, Roll};
pub use dynamic::{AnyGame, EngineError, Registry, RulesetEntry};
pub use ending::{Ending, EndingKind};
pub use game::{Game, LogEntry, SavedGame};
pub use ruleset::{
    Acting, Chance, Decision, Explanation, Outcome, Plan, Preview, Reached, Reason, Refusal,
    Ruleset, Seat, Term,
};
pub use text::Text;
pub use wire::{Names, UnitId};
