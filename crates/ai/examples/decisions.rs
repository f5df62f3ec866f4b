//! The search's decisions at a fixed count of simulations, from the start of each
//! built-in scenario, with a digest of every plan chosen and the time they took: the
//! check that a change to the search's speed leaves its choices as they were (the same
//! digest) and the measure of what it gained (the time, the simulations a second).
//!
//!     cargo run --release -p grognard-ai --example decisions -- [SIMULATIONS] [DECISIONS] [SCENARIO-ID|all] [PLAYER]
//!
//! Each scenario plays `DECISIONS` decisions (default 40) of the search at
//! `SIMULATIONS` (default 300) on both sides, seed 1, one thread, and the game goes on
//! with the plans chosen. `PLAYER` (default `normal`) is any player of the arena that
//! searches, its count of simulations from the name when it has one
//! (`mcts-samples-sims:300`): two settings of the search compared at one count.

use grognard_ai::player::{decide, Memory, Options};
use grognard_ai::Player;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Game, Ruleset, RulesetVisitor};
use std::time::Instant;

struct Run {
    player: Player,
    simulations: u64,
    decisions: u32,
    scenarios: Vec<Scenario>,
}

/// FNV-1a over the text of each plan chosen.
fn fold(digest: &mut u64, text: &str) {
    for b in text.bytes() {
        *digest ^= u64::from(b);
        *digest = digest.wrapping_mul(0x0100_0000_01b3);
    }
}

impl RulesetVisitor for Run {
    fn visit<R: Ruleset>(&mut self) {
        for s in self.scenarios.iter().filter(|s| s.ruleset == R::NAME) {
            let Ok(mut game) = Game::<R>::new(s.clone(), Some(1)) else {
                continue;
            };
            let rules = game.rules_arc();
            let mut memories: std::collections::HashMap<String, Memory> =
                std::collections::HashMap::new();
            let mut digest = 0xcbf2_9ce4_8422_2325_u64;
            let mut simulations = 0u64;
            let mut made = 0u32;
            let start = Instant::now();
            while made < self.decisions {
                let Some(to_act) = rules.to_act(game.state()) else {
                    break;
                };
                let options = Options {
                    simulations: Some(self.simulations),
                    threads: 1,
                    ..Options::default()
                };
                let Some(choice) = decide(
                    &*rules,
                    game.state(),
                    self.player,
                    u64::from(made) + 1,
                    options,
                    memories.entry(to_act.side.to_string()).or_default(),
                ) else {
                    break;
                };
                simulations += choice.simulations;
                fold(&mut digest, &format!("{:?}", choice.plan.steps));
                for step in choice.plan.steps {
                    if game.apply(step).is_err() {
                        break;
                    }
                }
                made += 1;
            }
            let secs = start.elapsed().as_secs_f64();
            #[expect(clippy::cast_precision_loss, reason = "a count of simulations")]
            let rate = simulations as f64 / secs;
            println!(
                "{:<26} {made} decisions, {simulations} simulations in {secs:.2} s = {rate:.0}/s, digest {digest:016x}",
                s.id
            );
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let simulations = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let decisions = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let only = args.next().filter(|a| a != "all");
    let player = match args.next() {
        Some(p) => p.parse().unwrap_or_else(|e| panic!("{e}")),
        None => Player::Normal,
    };
    let registry = grognard_rules::registry();
    let scenarios = grognard_rules::builtin::SCENARIOS
        .iter()
        .filter_map(|b| registry.load_scenario(b.path, b.text).ok())
        .filter(|s| only.as_ref().is_none_or(|o| *o == s.id))
        .collect();
    grognard_rules::visit_all(&mut Run {
        player,
        simulations,
        decisions,
        scenarios,
    });
}
