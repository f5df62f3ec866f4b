//! The rulesets.
