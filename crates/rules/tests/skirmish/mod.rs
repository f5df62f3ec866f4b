//! Futile Kingdoms skirmish: a test per rule ID (docs/rules/skirmish.md), by chapter;
//! random playouts with invariants and replay; golden legal-action counts.

mod harness;

mod actions;
mod ai;
mod charge;
mod gates;
mod golden;
mod melee;
mod missile;
mod morale;
mod movement;
mod playouts;
mod reachable;
mod reactions;
mod score;
mod statuses;
mod turn;
