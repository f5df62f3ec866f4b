//! One game at The Broken Cairn, traced: the characters at the start of every phase
//! and, once few are left, each decision of a searched side with its candidates.
//!
//!     cargo run --release -p grognard-ai --example cairn_trace -- [SEED] [RED] [BLUE] [FEW]

use grognard_ai::player::Memory;
use grognard_ai::Player;
use grognard_engine::{Game, Ruleset};
use grognard_rules::skirmish::Skirmish;

mod trace;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let players: [Player; 2] = [2, 3].map(|i| {
        args.get(i)
            .map_or(
                if i == 2 { "easy" } else { "mcts-sims:1000" },
                String::as_str,
            )
            .parse()
            .expect("player")
    });
    // Decisions are traced once this few characters are left on each side or fewer.
    let few: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(2);
    let traced = players.map(|p| !matches!(p, Player::Easy | Player::Random));
    let b = grognard_rules::builtin::find("broken-cairn").expect("built in");
    let scenario = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("loads");
    let ids: Vec<String> = scenario.units.iter().map(|u| u.id.clone()).collect();
    let mut game = Game::<Skirmish>::new(scenario, Some(seed)).expect("starts");
    let rules = game.rules_arc();
    let mut memories = [Memory::default(), Memory::default()];
    let mut k = 0u64;
    let mut last = String::new();
    while let Some(d) = game.to_act() {
        let s = usize::from(d.side != "red");
        let state = game.state();
        let head = format!(
            "turn {} {:?} active {}",
            state.turn, state.phase, state.active
        );
        let left = |side: char| {
            state
                .chars
                .iter()
                .zip(&ids)
                .filter(|(c, id)| c.hex.is_some() && id.starts_with(side))
                .count()
        };
        let endgame = left('r') <= few && left('b') <= few;
        if head != last {
            last = head.clone();
            let mut line = String::new();
            for (c, id) in state.chars.iter().zip(&ids) {
                if let Some(h) = c.hex {
                    line += &format!(
                        " {}@{}/{:?} d{}{}{}",
                        id,
                        rules.names().label(h),
                        c.facing,
                        c.damage,
                        if c.dazed { " dazed" } else { "" },
                        if c.panicked { " panicked" } else { "" }
                    );
                }
            }
            println!("== {head}:{line}");
        }
        k += 1;
        let c = trace::decide(&*rules, state, players[s], (seed, k), &mut memories[s]);
        if endgame && traced[s] && c.weighed.len() > 1 {
            trace::searched(&d.kind, "", &c, 5);
        } else if endgame {
            println!("  [{}] {:?}", d.side, c.plan.steps);
        }
        trace::play(&mut game, c);
    }
    println!("{:?}", game.outcome());
}
