//! Complete random playouts of the built-in Morne Plaine scenarios, through the ruleset's
//! unchecked fast path (`legal_actions` + `apply_unchecked`) and through the checked
//! `Game::apply` (the shared part in `common/`), a group per scenario.
//!
//! `cargo bench -p grognard-rules --bench morne_plaine -- --warm-up-time 2 --measurement-time 10`
//! (the figure goes in docs/PERFORMANCE.md).

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use grognard_rules::morne_plaine::MornePlaine;

fn playouts(c: &mut Criterion) {
    for id in ["heights-of-aubrac", "bridge-at-morne"] {
        common::playouts::<MornePlaine>(c, &format!("morne_plaine {id}"), id);
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
