//! Battle Cry: a test per rule ID (named after it), the text's worked examples, random
//! playouts with invariants and replay, and the golden legal-action counts.

mod cards;
mod harness;
mod movement;
mod orders;
mod playouts;
mod turn;
