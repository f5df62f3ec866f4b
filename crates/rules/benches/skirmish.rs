//! Complete random playouts of the skirmish built-in scenario, through the ruleset's
//! unchecked fast path (`legal_actions` + `apply_unchecked`) and through the checked
//! `Game::apply` (the shared part in `common/`).
//!
//! `cargo bench -p grognard-rules --bench skirmish`

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use grognard_rules::skirmish::Skirmish;

fn playouts(c: &mut Criterion) {
    common::playouts::<Skirmish>(c, "skirmish", "broken-cairn");
}

criterion_group!(benches, playouts);
criterion_main!(benches);
