//! Battle Cry: a test per rule ID (named after it), the text's worked examples, random
//! playouts with invariants and replay, and the golden legal-action counts.

mod ai;
mod battle;
mod cards;
mod gates;
mod golden;
mod harness;
mod line_of_sight;
mod movement;
mod orders;
mod playouts;
mod reachable;
mod retreat;
mod score;
mod turn;
