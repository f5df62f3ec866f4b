//! JOMINI V2: a test per rule ID (named after it), random playouts with invariants and
//! replay, and the golden legal-action counts.

mod ai;
mod combat;
mod command;
mod gates;
mod golden;
mod harness;
mod movement;
mod orders;
mod panic;
mod playouts;
mod reachable;
mod retreat;
mod score;
mod turn;
