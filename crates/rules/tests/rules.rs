//! The rulesets' tests: one integration binary, a module per ruleset.

mod common;
mod index;
mod morne_plaine;
