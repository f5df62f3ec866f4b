//! Morne Plaine: a test per rule ID (docs/rules/morne-plaine.md), by chapter, with
//! the texts' own examples; whole sequences through the engine protocol; random
//! playouts; golden legal-action counts.

mod ai;
mod harness;

mod bombardment;
mod charge;
mod combat;
mod golden;
mod legal;
mod movement;
mod playouts;
mod preview;
mod protocol;
mod reachable;
mod retreat;
mod scenarios;
mod score;
mod turn;
mod zones_of_control;
