//! `position` (issue 19, item 4) on the largest built-in scenario, Heights of Aubrac:
//! writing the scenario file that starts where a game stands, after 60 actions, and
//! reading it back into a game.
//!
//! `cargo bench -p grognard-rules --bench position`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn position(c: &mut Criterion) {
    let registry = grognard_rules::registry();
    let b = grognard_rules::builtin::find("heights-of-aubrac").expect("built-in");
    let scenario = registry.load_scenario(b.path, b.text).expect("valid");
    let mut game = registry.new_game(scenario, Some(1)).expect("game");
    for n in 0..60 {
        let legal = game.legal();
        let Some(action) = legal.get(n * 7 % legal.len().max(1)) else {
            break;
        };
        game.apply(action).expect("legal");
    }
    c.bench_function("position_write_heights_of_aubrac", |bench| {
        bench.iter(|| black_box(game.position()));
    });
    let text = game.position();
    c.bench_function("position_load_heights_of_aubrac", |bench| {
        bench.iter(|| {
            let s = registry
                .load_scenario("position.toml", black_box(&text))
                .expect("valid");
            black_box(registry.new_game(s, Some(2)).expect("game"))
        });
    });
}

criterion_group!(benches, position);
criterion_main!(benches);
