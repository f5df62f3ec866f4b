//! Complete random playouts of a ruleset's built-in scenario, through the ruleset's
//! unchecked fast path (`legal_actions` + `apply_unchecked`), recording the events or
//! quiet as the searches' simulations are, and through the checked `Game::apply`: the
//! part every ruleset's bench shares.

use criterion::{Criterion, Throughput};
use grognard_engine::scenario::Scenario;
use grognard_engine::{Ctx, Dice, Game, Ruleset};
use std::hint::black_box;

/// A built-in scenario by its id.
fn scenario(id: &str) -> Scenario {
    let b = grognard_rules::builtin::find(id).unwrap();
    grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .unwrap()
}

/// One game from the initial state to the end with random legal actions; its length.
/// `quiet`: applied in a quiet context (`Ctx::quiet`), as the searches' simulations
/// apply their steps, recording no events.
fn fast_playout<R: Ruleset>(
    rules: &R,
    seed: u64,
    legal: &mut Vec<R::Action>,
    events: &mut Vec<R::Event>,
    quiet: bool,
) -> usize {
    let mut state = rules.initial_state();
    let mut dice = Dice::new(seed);
    let mut pick = Dice::new(seed ^ 0xB0A7);
    let mut n = 0;
    while rules.outcome(&state).is_none() {
        legal.clear();
        rules.legal_actions(&state, legal);
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        events.clear();
        let mut ctx = if quiet {
            Ctx::quiet(&mut dice, events)
        } else {
            Ctx::new(&mut dice, events)
        };
        rules.apply_unchecked(&mut state, &legal[i], &mut ctx);
        n += 1;
    }
    n
}

fn checked_playout<R: Ruleset>(scenario: &Scenario, seed: u64) -> usize {
    let mut game = Game::<R>::new(scenario.clone(), Some(seed)).unwrap();
    let mut pick = Dice::new(seed ^ 0xB0A7);
    while game.rules().outcome(game.state()).is_none() {
        let legal = game.legal_actions();
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        game.apply(legal[i].clone()).unwrap();
    }
    game.log().len()
}

/// The two playout benches of ruleset `R` on the built-in scenario `id`, in a group named
/// after the ruleset.
pub fn playouts<R: Ruleset>(c: &mut Criterion, group: &str, id: &str) {
    let s = scenario(id);
    let rules = R::new(&s).unwrap();
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    let mut seed = 0;
    group.bench_function("playout_unchecked", |b| {
        b.iter(|| {
            seed += 1;
            black_box(fast_playout(&rules, seed, &mut legal, &mut events, false))
        });
    });
    let mut seed = 0;
    group.bench_function("playout_quiet", |b| {
        b.iter(|| {
            seed += 1;
            black_box(fast_playout(&rules, seed, &mut legal, &mut events, true))
        });
    });
    let mut seed = 0;
    group.bench_function("playout_checked_game", |b| {
        b.iter(|| {
            seed += 1;
            black_box(checked_playout::<R>(&s, seed))
        });
    });
    group.finish();
}
