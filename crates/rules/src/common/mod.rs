//! Plumbing every ruleset shares and no rulebook states: where a table's values come
//! from and how the shipped tables are read ([`data`]), and the lookups of sides and
//! pieces by their index ([`lookup`]).
//!
//! Battle Cry and JOMINI use it; Morne Plaine and skirmish switch by replacing their own
//! `Source` enum with `pub use crate::common::data::Source;` and their `shipped()` body
//! with [`data::shipped`] (their loaders return an owned `Data` today, so theirs would
//! keep a `OnceLock` or clone), and their `side_index` and piece-id loops with
//! [`lookup::side_index`] and [`lookup::ids`].

pub mod data;
pub mod lookup;
