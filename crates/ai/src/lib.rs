//! The computer opponent of grognard, generic over the engine's
//! [`Ruleset`](grognard_engine::Ruleset).
//!
//! - [`plans`]: the choices at the scale a player thinks (a unit's whole move, an
//!   attack, the pass), with a cap on plans a phase so that no game can loop.
//! - [`mcts`]: Monte Carlo tree search over plans, open loop for the dice,
//!   determinized for hidden information, with truncated simulations scored by the
//!   ruleset's evaluation, root parallelism and a repeatable fixed-count mode.
//! - [`oep`]: online evolutionary planning, a second engine for a phase in which every
//!   choice is a unit's (whole phases as genomes, bred over generations); the levels'
//!   engine for such phases in Morne Plaine.
//! - [`widening`]: progressive widening at the root, plans opened best first.
//! - [`greedy`]: the `easy` level, one plan ahead.
//! - [`player`]: the levels (`easy`, `normal`, `hard`) and the arena's players.
//! - [`opponent`]: [`Opponent`], the engine's [`Computer`](grognard_engine::Computer)
//!   for games of any ruleset.
//! - [`arena`]: whole games between two players, in parallel, with Wilson intervals.
//! - [`sprt`]: the sequential test that accepts or rejects a change on as few games as
//!   it takes.
//!
//! ```
//! use grognard_ai::mcts::{search, Budget, SearchConfig};
//! use grognard_engine::Game;
//! use grognard_rules::morne_plaine::MornePlaine;
//!
//! let b = grognard_rules::builtin::find("bridge-at-morne").unwrap();
//! let scenario = grognard_rules::registry().load_scenario(b.path, b.text).unwrap();
//! let game = Game::<MornePlaine>::new(scenario, None).unwrap();
//! let config = SearchConfig { budget: Budget::Simulations(30), ..SearchConfig::default() };
//! let searched = search(game.rules(), game.state(), &config).unwrap();
//! assert!(searched.best().is_some());
//! assert_eq!(searched.simulations, 30);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod arena;
pub mod calibration;
pub mod greedy;
pub mod mcts;
pub mod oep;
pub mod opponent;
pub mod plans;
pub mod player;
pub mod rng;
mod search_config;
pub mod sprt;
pub mod tuning;
mod turn_watch;
pub mod widening;

pub use arena::{GameRecord, GameSpec};
pub use opponent::{Advice, Advised, Opponent};
pub use player::{Player, UnknownPlayer};
