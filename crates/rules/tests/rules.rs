//! The rulesets' tests: one integration binary, a module per ruleset.

mod common;
mod morne_plaine;
