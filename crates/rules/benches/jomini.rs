//! Complete random playouts of JOMINI's built-in scenario, through the ruleset's
//! unchecked fast path (`legal_actions` + `apply_unchecked`) and through the checked
//! `Game::apply`.
//!
//! `cargo bench -p grognard-rules --bench jomini`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grognard_engine::{Ctx, Dice, Game, Ruleset};
use grognard_rules::jomini::{Action, Event, Jomini};
use std::hint::black_box;

fn scenario() -> grognard_engine::scenario::Scenario {
    let b = grognard_rules::builtin::find("passage-of-the-saale").unwrap();
    grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .unwrap()
}

/// One game from the first command phase to the end with random legal actions; its length.
fn fast_playout(
    rules: &Jomini,
    seed: u64,
    legal: &mut Vec<Action>,
    events: &mut Vec<Event>,
) -> usize {
    let mut state = rules.initial_state();
    let mut dice = Dice::new(seed);
    let mut pick = Dice::new(seed ^ 0xB0A7);
    let mut n = 0;
    while state.outcome.is_none() {
        legal.clear();
        rules.legal_actions(&state, legal);
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        events.clear();
        let mut ctx = Ctx::new(&mut dice, events);
        rules.apply_unchecked(&mut state, &legal[i], &mut ctx);
        n += 1;
    }
    n
}

fn checked_playout(scenario: &grognard_engine::scenario::Scenario, seed: u64) -> usize {
    let mut game = Game::<Jomini>::new(scenario.clone(), Some(seed)).unwrap();
    let mut pick = Dice::new(seed ^ 0xB0A7);
    while game.rules().outcome(game.state()).is_none() {
        let legal = game.legal_actions();
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        game.apply(legal[i].clone()).unwrap();
    }
    game.log().len()
}

fn playouts(c: &mut Criterion) {
    let s = scenario();
    let rules = Jomini::new(&s).unwrap();
    let mut group = c.benchmark_group("jomini");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    let mut seed = 0;
    group.bench_function("playout_unchecked", |b| {
        b.iter(|| {
            seed += 1;
            black_box(fast_playout(&rules, seed, &mut legal, &mut events))
        });
    });
    let mut seed = 0;
    group.bench_function("playout_checked_game", |b| {
        b.iter(|| {
            seed += 1;
            black_box(checked_playout(&s, seed))
        });
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
