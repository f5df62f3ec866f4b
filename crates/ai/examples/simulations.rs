//! Simulations a second of the search on one thread, at the first decision of each
//! built-in scenario that offers more than one plan (after a few random plans, so
//! that the position is not the empty opening).
//!
//!     cargo run --release -p grognard-ai --example simulations -- [MILLIS] [SCENARIO-ID]

use grognard_ai::mcts::{search, Budget, Horizon, SearchConfig};
use grognard_ai::player::{decide, Memory, Options};
use grognard_ai::Player;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Game, Ruleset, RulesetVisitor};
use std::time::{Duration, Instant};

struct Rate {
    millis: u64,
    scenarios: Vec<Scenario>,
}

impl RulesetVisitor for Rate {
    fn visit<R: Ruleset>(&mut self) {
        for s in self.scenarios.iter().filter(|s| s.ruleset == R::NAME) {
            let Ok(mut game) = Game::<R>::new(s.clone(), Some(1)) else {
                continue;
            };
            let rules = game.rules_arc();
            let mut memory = Memory::default();
            // A few random plans into the game, to a decision with a choice.
            let mut played = 0;
            while let Some(c) = decide(
                &*rules,
                game.state(),
                Player::Random,
                played,
                Options::default(),
                &mut memory,
            ) {
                let mut plans = Vec::new();
                rules.plans(game.state(), &mut plans);
                if played >= 6 && plans.len() > 1 {
                    break;
                }
                for step in c.plan.steps {
                    if game.apply(step).is_err() {
                        break;
                    }
                }
                played += 1;
            }
            for horizon in [Horizon::OwnTurn, Horizon::EnemyReply] {
                let config = SearchConfig {
                    budget: Budget::Time(Duration::from_millis(self.millis)),
                    horizon,
                    ..SearchConfig::default()
                };
                let start = Instant::now();
                let Some(searched) = search(&*rules, game.state(), &config) else {
                    continue;
                };
                let secs = start.elapsed().as_secs_f64();
                #[expect(clippy::cast_precision_loss, reason = "a count of simulations")]
                let rate = searched.simulations as f64 / secs;
                println!(
                    "{:<26} {:<12} {:?}: {} simulations in {:.2} s = {:.0}/s, {} root plans",
                    s.id,
                    R::NAME,
                    horizon,
                    searched.simulations,
                    secs,
                    rate,
                    searched.weighed.len()
                );
            }
        }
    }
}

fn main() {
    let millis = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let registry = grognard_rules::registry();
    let only = std::env::args().nth(2);
    let scenarios = grognard_rules::builtin::SCENARIOS
        .iter()
        .filter_map(|b| registry.load_scenario(b.path, b.text).ok())
        .filter(|s| only.as_ref().is_none_or(|o| *o == s.id))
        .collect();
    let mut rate = Rate { millis, scenarios };
    grognard_rules::visit_all(&mut rate);
}
