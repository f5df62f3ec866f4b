//! Complete random playouts of the built-in Morne Plaine scenario, in games per second,
//! through the ruleset's fast path: `Ruleset::legal_actions` and `apply_unchecked` on a
//! clone of the initial state, seeded dice, no JSON and no checks.
//!
//! `cargo bench -p grognard-rules --bench morne_plaine -- --warm-up-time 2 --measurement-time 10`
//! (the figure goes in docs/PERFORMANCE.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grognard_engine::{Ctx, Dice, Ruleset};
use grognard_rules::morne_plaine::{Action, Event, MornePlaine, State};
use std::hint::black_box;

/// Plays one game of uniformly random legal actions; returns the number of actions.
fn playout(
    rules: &MornePlaine,
    start: &State,
    seed: u64,
    legal: &mut Vec<Action>,
    events: &mut Vec<Event>,
) -> u64 {
    let mut state = start.clone();
    let mut dice = Dice::new(seed);
    let mut pick = Dice::new(!seed);
    let mut n = 0;
    while state.outcome.is_none() {
        legal.clear();
        rules.legal_actions(&state, legal);
        let i = pick
            .next(u32::try_from(legal.len()).expect("few actions"))
            .0
            - 1;
        events.clear();
        let mut ctx = Ctx::new(&mut dice, events);
        rules.apply_unchecked(&mut state, &legal[i as usize], &mut ctx);
        n += 1;
    }
    n
}

fn scenario(id: &str) -> MornePlaine {
    let b = grognard_rules::builtin::find(id).expect("built-in");
    let s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("valid");
    MornePlaine::new(&s).expect("binds")
}

fn random_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("morne_plaine");
    for id in ["heights-of-aubrac", "bridge-at-morne"] {
        let rules = scenario(id);
        let start = rules.initial_state();
        let (mut legal, mut events) = (Vec::new(), Vec::new());
        // Actions per game, for the record.
        let games = 200;
        let actions: u64 = (0..games)
            .map(|s| playout(&rules, &start, s, &mut legal, &mut events))
            .sum();
        println!(
            "{id}: {:.0} actions a game on average over {games} games",
            actions as f64 / games as f64
        );
        group.throughput(Throughput::Elements(1));
        let mut seed = 0u64;
        group.bench_function(format!("{id} random playout"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(playout(&rules, &start, seed, &mut legal, &mut events))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, random_playouts);
criterion_main!(benches);
