//! Plumbing every ruleset shares and no rulebook states: where a table's values come
//! from and how the shipped tables are read ([`data`]), the lookups of sides and
//! pieces by their index ([`lookup`]), and the `impl Ruleset` items every ruleset
//! delegates the same way (`skeleton`), the small pieces of their sentences
//! ([`text`]), the shape of the score every view carries ([`score`]), and how a
//! state is copied field by field (`state`).
//!
//! Every ruleset takes its `Source` from here. Battle Cry and JOMINI also read their shipped
//! tables through [`data::shipped`]; Morne Plaine and skirmish still return an owned `Data`
//! from their own `shipped()`, and would switch by keeping a `OnceLock` (or cloning), and
//! their `side_index` and piece-id loops by [`lookup::side_index`] and [`lookup::ids`].

pub mod data;
pub mod lookup;
pub(crate) mod pool;
pub mod score;
pub(crate) mod skeleton;
pub(crate) mod stamp;
pub(crate) mod state;
pub(crate) mod terms;
pub mod text;
