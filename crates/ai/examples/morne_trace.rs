//! One game of a Morne Plaine scenario, traced: the table at the start of every player
//! turn (each unit's hex, strength and morale; the objectives' holders) and each
//! searched decision with its best candidates.
//!
//!     cargo run --release -p grognard-ai --example morne_trace -- [SCENARIO] [SEED] [FIRST] [SECOND]
//!
//! FIRST and SECOND play the scenario's sides in the order of its `[[sides]]`.

use grognard_ai::player::Memory;
use grognard_ai::Player;
use grognard_engine::{Game, Ruleset, UnitId};
use grognard_rules::morne_plaine::MornePlaine;

mod trace;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = args.get(1).map_or("bridge-at-morne", String::as_str);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let spec = |k: usize, default: &str| args.get(k).map_or(default, String::as_str).to_owned();
    let specs = [spec(3, "mcts-sims:200"), spec(4, "easy")];
    let players = specs
        .clone()
        .map(|s| s.parse::<Player>().expect("a player"));
    let traced = specs.map(|s| !matches!(s.as_str(), "easy" | "random"));
    let b = grognard_rules::builtin::find(id).expect("a built-in scenario");
    let scenario = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("loads");
    let mut game = Game::<MornePlaine>::new(scenario.clone(), Some(seed)).expect("starts");
    let rules = game.rules_arc();
    let mut memories = [Memory::default(), Memory::default()];
    let mut k = 0u64;
    let mut last = (0, u8::MAX);
    while let Some(d) = game.to_act() {
        let s = rules.names().side_index(&d.side).expect("side");
        let state = game.state();
        if (state.turn, state.active) != last {
            last = (state.turn, state.active);
            println!("== turn {} ({} to act)", state.turn, d.side);
            let mut line = String::new();
            for (i, u) in state.units.iter().enumerate() {
                if let Some(h) = u.hex {
                    let id = UnitId(u16::try_from(i).expect("fits"));
                    line += &format!(
                        " {}@{}/{}m{}",
                        rules.names().unit_title(id),
                        rules.names().label(h),
                        u.cs,
                        u.mv
                    );
                }
            }
            println!(" {line}");
            let held: Vec<String> = scenario
                .places
                .iter()
                .zip(&state.held)
                .filter(|(p, _)| p.objective)
                .map(|(p, h)| format!("{}:{:?}", p.name, h))
                .collect();
            println!("  held {}", held.join(" "));
        }
        k += 1;
        let c = trace::decide(&*rules, state, players[s], (seed, k), &mut memories[s]);
        if traced[s] && c.weighed.len() > 1 {
            let eval = format!("eval {:+.2} ", rules.evaluate(state, &d.side));
            trace::searched(&d.kind, &eval, &c, 3);
        } else if !traced[s] {
            println!("  [{}] easy: {:?}", d.kind, c.plan.steps);
        }
        trace::play(&mut game, c);
    }
    println!("{:?}", game.outcome());
}
