//! reactions
