//! The random playouts the criterion benches play (`benches/common/mod.rs`: seeds 1 to N,
//! the same dice and picks), counted: the mean length of a game in each built-in
//! scenario, so that games a second read as actions a second, and any game that does
//! not end within a cap, named by its seed.
//!
//!     cargo run --release -p grognard-rules --example playout_lengths -- 2000
//!     cargo run --release -p grognard-rules --example playout_lengths -- 100 broken-cairn
//!
//! A second argument plays that scenario only (a fixed workload for `valgrind
//! --tool=callgrind`, whose instruction counts do not move with the machine's load); a
//! third, `quiet`, plays it in quiet contexts, as the benches' `playout_quiet` and the
//! searches' simulations do:
//!
//!     cargo run --release -p grognard-rules --example playout_lengths -- 200 crossing-at-hollins-ford quiet

mod common;

use common::{Watch, CAP};
use grognard_engine::Ruleset;

/// Actions over the games of the scenario being played.
struct Lengths(u64);

impl Watch for Lengths {
    fn action<R: Ruleset>(&mut self, _: &[R::Action], _: &[R::Event], _: &R::State) {}

    fn game(&mut self, id: &str, seed: u64, actions: u64) {
        if actions == CAP {
            println!("{id}: seed {seed} has not ended after {CAP} actions");
        }
        self.0 += actions;
    }

    fn scenario(&mut self, id: &str, games: u64) {
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let mean = self.0 as f64 / games as f64;
        println!("{id}: {mean:.1} actions a game over {games} games");
        self.0 = 0;
    }
}

fn main() {
    common::run(1_000, &mut Lengths(0));
}
