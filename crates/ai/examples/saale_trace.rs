//! One game at The Passage of the Saale, traced: each decision of a side searched
//! with its candidates, and the table at the end of every turn.
//!
//!     cargo run --release -p grognard-ai --example saale_trace -- [SEED] [FRENCH] [PRUSSIAN] [SIMS]

use grognard_ai::player::Memory;
use grognard_ai::Player;
use grognard_engine::{Game, Ruleset};
use grognard_rules::jomini::{victory, Jomini};

mod trace;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let players: [Player; 2] = [
        args.get(2)
            .map_or("mcts-sims:200", String::as_str)
            .parse()
            .expect("player"),
        args.get(3)
            .map_or("easy", String::as_str)
            .parse()
            .expect("player"),
    ];
    // The decisions of a searched seat are traced, not those of `easy` or `random`.
    let traced = [0, 1].map(|s| {
        args.get(2 + s)
            .map_or(s == 0, |a| !matches!(a.as_str(), "easy" | "random"))
    });
    let b = grognard_rules::builtin::find("passage-of-the-saale").expect("built in");
    let scenario = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("loads");
    let mut game = Game::<Jomini>::new(scenario, Some(seed)).expect("starts");
    let rules = game.rules_arc();
    let mut memories = [Memory::default(), Memory::default()];
    let mut k = 0u64;
    let mut last_turn = 0;
    while let Some(d) = game.to_act() {
        let s = rules.side_index(&d.side).expect("side") as usize;
        let state = game.state();
        if state.turn != last_turn {
            last_turn = state.turn;
            let p = [
                victory::points(&rules, state, 0),
                victory::points(&rules, state, 1),
            ];
            println!(
                "== turn {} ({}): points french {} prussian {}; tokens {:?}",
                state.turn, d.side, p[0], p[1], state.tokens
            );
            let mut line = String::new();
            for (i, piece) in rules.pieces().iter().enumerate() {
                let q = &state.pieces[i];
                if let Some(h) = q.hex {
                    line += &format!(" {}@{}/{}", piece.id, rules.names().label(h), q.strength);
                }
            }
            println!("  {line}");
        }
        k += 1;
        let c = trace::decide(&*rules, state, players[s], (seed, k), &mut memories[s]);
        if traced[s] && c.weighed.len() > 1 {
            trace::searched(&d.kind, "", &c, 4);
        }
        trace::play(&mut game, c);
    }
    println!("{:?}", game.outcome());
}
