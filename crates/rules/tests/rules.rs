//! The rulesets' tests: one integration binary, a module per ruleset.

mod battle_cry;
mod common;
mod envelope;
mod index;
mod jomini;
mod morne_plaine;
mod position;
mod quiet;
mod saves;
mod seat_sessions;
mod skirmish;
mod text;
mod toy;
