//! The wall-clock time of the computer's decisions at a time budget, to find the ones
//! that overrun it: each built-in scenario (or one) is played from its start by the
//! player on both sides, one thread, and every decision's time is kept.
//!
//!     cargo run --release -p grognard-ai --example overruns -- [MILLIS] [DECISIONS] [SCENARIO-ID|all] [PLAYER]
//!
//! Prints, for each scenario, the decisions made, the median, the 99th centile and
//! the slowest time, and how many took more than 5% and 10% over `MILLIS` (default
//! 1,000; `PLAYER` default `normal`). Each decision over 5% is listed with the engine
//! that made it (`oep` or `tree`) and its simulations. Run it beside a load (say `yes >
//! /dev/null` once per core) to see what a loaded machine does to the budget.

use grognard_ai::oep;
use grognard_ai::player::{decide, Memory, Options};
use grognard_ai::Player;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Game, Ruleset, RulesetVisitor};
use std::time::Instant;

struct Run {
    player: Player,
    millis: u64,
    decisions: u32,
    scenarios: Vec<Scenario>,
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
            let mut times: Vec<f64> = Vec::new();
            let mut slow: Vec<String> = Vec::new();
            let mut made = 0u32;
            while made < self.decisions {
                let Some(to_act) = rules.to_act(game.state()) else {
                    break;
                };
                let options = Options {
                    millis: Some(self.millis),
                    threads: 1,
                    ..Options::default()
                };
                let evolves = self
                    .player
                    .search_in(rules.names().ruleset(), Some(self.millis), None)
                    .is_some_and(|c| {
                        self.player.evolves_in(rules.names().ruleset())
                            && oep::applies(&*rules, game.state(), &c)
                    });
                let asked = Instant::now();
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
                let ms = asked.elapsed().as_secs_f64() * 1e3;
                times.push(ms);
                #[expect(clippy::cast_precision_loss, reason = "milliseconds")]
                if ms > self.millis as f64 * 1.05 {
                    slow.push(format!(
                        "  decision {made}: {ms:.0} ms, {} with {} simulations",
                        if evolves { "oep" } else { "tree" },
                        choice.simulations
                    ));
                }
                for step in choice.plan.steps {
                    if game.apply(step).is_err() {
                        break;
                    }
                }
                made += 1;
            }
            times.sort_by(f64::total_cmp);
            let at = |q: f64| {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    clippy::cast_precision_loss,
                    reason = "an index into a short list"
                )]
                let i = ((times.len().saturating_sub(1)) as f64 * q).round() as usize;
                times.get(i).copied().unwrap_or(0.0)
            };
            #[expect(clippy::cast_precision_loss, reason = "milliseconds")]
            let over = |f: f64| {
                times
                    .iter()
                    .filter(|&&t| t > self.millis as f64 * f)
                    .count()
            };
            println!(
                "{:<26} {made} decisions: median {:.0} ms, 99th {:.0} ms, slowest {:.0} ms; over 5%: {}, over 10%: {}",
                s.id,
                at(0.5),
                at(0.99),
                at(1.0),
                over(1.05),
                over(1.10)
            );
            for line in slow {
                println!("{line}");
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let millis = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000);
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
        millis,
        decisions,
        scenarios,
    });
}
