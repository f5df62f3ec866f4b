//! Complete random playouts of JOMINI's built-in scenario, through the ruleset's
//! unchecked fast path (`legal_actions` + `apply_unchecked`) and through the checked
//! `Game::apply` (the shared part in `common/`).
//!
//! `cargo bench -p grognard-rules --bench jomini`

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use grognard_rules::jomini::Jomini;

fn playouts(c: &mut Criterion) {
    common::playouts::<Jomini>(c, "jomini", "passage-of-the-saale");
}

criterion_group!(benches, playouts);
criterion_main!(benches);
