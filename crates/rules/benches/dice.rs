//! The dice's two generators side by side, in the same run (issue 19, item 6): the cost
//! of one d6 roll from SplitMix64 and from ChaCha20, then complete random playouts of
//! Battle Cry and Morne Plaine through the checked `Game::apply` with each generator.
//!
//! `cargo bench -p grognard-rules --bench dice`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grognard_engine::dice_stream::{DiceKey, Generator};
use grognard_engine::scenario::Scenario;
use grognard_engine::{Dice, Game, Ruleset};
use grognard_rules::battle_cry::BattleCry;
use grognard_rules::morne_plaine::MornePlaine;
use std::hint::black_box;

/// Rolls a batch, so that the loop's cost is spread over many rolls.
const ROLLS: u64 = 1_000;

const KEY: DiceKey = DiceKey([0x5a; 32]);

fn scenario(id: &str) -> Scenario {
    let b = grognard_rules::builtin::find(id).unwrap();
    grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .unwrap()
}

fn rolls(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    group.throughput(Throughput::Elements(ROLLS));
    for (name, mut dice) in [
        ("d6_splitmix64", Dice::new(1)),
        ("d6_chacha20", Dice::chacha20(&KEY)),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for _ in 0..ROLLS {
                    sum += dice.next(black_box(6)).0;
                }
                black_box(sum)
            });
        });
    }
    group.finish();
}

/// One game to its end with random legal actions through `Game::apply`; its length.
fn playout<R: Ruleset>(scenario: &Scenario, seed: u64, generator: &Generator) -> usize {
    let mut game =
        Game::<R>::with_generator(scenario.clone(), Some(seed), generator.clone()).unwrap();
    let mut pick = Dice::new(seed ^ 0xB0A7);
    while game.rules().outcome(game.state()).is_none() {
        let legal = game.legal_actions();
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        game.apply(legal[i].clone()).unwrap();
    }
    game.log().len()
}

fn playouts_of<R: Ruleset>(c: &mut Criterion, group: &str, id: &str) {
    let s = scenario(id);
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    for (name, generator) in [
        ("playout_splitmix64", Generator::SplitMix64),
        ("playout_chacha20", Generator::ChaCha20 { key: KEY }),
    ] {
        let mut seed = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                black_box(playout::<R>(&s, seed, &generator))
            });
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    playouts_of::<BattleCry>(c, "dice_battle_cry", "crossing-at-hollins-ford");
    playouts_of::<MornePlaine>(c, "dice_morne_plaine", "bridge-at-morne");
}

criterion_group!(benches, rolls, playouts);
criterion_main!(benches);
