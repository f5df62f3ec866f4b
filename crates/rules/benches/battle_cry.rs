//! Complete random playouts of Battle Cry's built-in scenario, through the ruleset's
//! unchecked fast path (`legal_actions` + `apply_unchecked`) and through the checked
//! `Game::apply` (the shared part in `common/`).
//!
//! `cargo bench -p grognard-rules --bench battle_cry`

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use grognard_rules::battle_cry::BattleCry;

fn playouts(c: &mut Criterion) {
    common::playouts::<BattleCry>(c, "battle_cry", "crossing-at-hollins-ford");
}

criterion_group!(benches, playouts);
criterion_main!(benches);
