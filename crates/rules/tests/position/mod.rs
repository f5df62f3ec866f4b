//! Positions as scenario files (issue 19, item 4): the position a game writes loads
//! into a game that offers the same actions and shows every seat the same view.

mod mutate;
mod validate;

use grognard_engine::{AnyGame, Seat};
use serde_json::Value;
use std::collections::BTreeMap;

/// A view without its log (a position starts a new log).
fn without_log(mut v: Value) -> Value {
    if let Value::Object(fields) = &mut v {
        fields.remove("log");
    }
    v
}

/// Every seat of the game: each side, the spectator, the referee.
fn seats(game: &dyn AnyGame) -> Vec<Seat> {
    let mut seats: Vec<Seat> = game
        .scenario()
        .sides
        .iter()
        .map(|s| Seat::Side(s.id.clone()))
        .collect();
    seats.push(Seat::Spectator);
    seats.push(Seat::Omniscient);
    seats
}

/// Whether a position holds something under way between two actions: a pending
/// decision inside a battle, a window, a charge, a move a charge may continue.
fn under_way(text: &str) -> bool {
    text.contains("\nmoving = ") || in_battle(text)
}

/// Whether a position holds a decision inside a battle, a window, a charge or a
/// character's move: rarer than a step a charge may continue, each is checked.
fn in_battle(text: &str) -> bool {
    let keys = [
        "[position.pending",
        "[position.window",
        "[position.charge",
        "[position.moving",
    ];
    text.lines().any(|l| keys.iter().any(|k| l.starts_with(k)))
}

/// Loads the game's position and checks that it is the same game for every seat;
/// answers whether something was under way.
fn assert_round_trip(game: &dyn AnyGame, at: &str) -> bool {
    let registry = grognard_rules::registry();
    let text = game.position();
    let scenario = registry
        .load_scenario("position.toml", &text)
        .unwrap_or_else(|p| panic!("{at}: the position does not load:\n{p}\n{text}"));
    let again = registry
        .new_game(scenario, Some(99))
        .unwrap_or_else(|e| panic!("{at}: {e}\n{text}"));
    assert_eq!(
        again.legal(),
        game.legal(),
        "{at}: legal actions differ\n{text}"
    );
    assert_eq!(again.to_act(), game.to_act(), "{at}: decision differs");
    for seat in seats(game) {
        assert_eq!(
            without_log(again.view(&seat)),
            without_log(game.view(&seat)),
            "{at}: the view of {seat:?} differs\n{text}"
        );
    }
    assert_eq!(
        again.position(),
        text,
        "{at}: a position writes itself back the same"
    );
    under_way(&text)
}

/// A small deterministic generator for the playouts' choices.
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

#[test]
fn position_round_trip_gives_same_legal_and_views_in_random_playouts_of_every_ruleset() {
    let registry = grognard_rules::registry();
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    let mut pending: BTreeMap<String, usize> = BTreeMap::new();
    for b in grognard_rules::builtin::SCENARIOS {
        // JOMINI's games are short at random: more of them.
        let games = if b.id == "passage-of-the-saale" {
            20
        } else {
            5
        };
        for seed in 1..=games {
            let s = registry.load_scenario(b.path, b.text).expect("built-in");
            let mut game = registry.new_game(s, Some(seed)).expect("game");
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for n in 0..2000 {
                // Every fifth action, and every state in the middle of a battle.
                if n % 5 == 0 || game.outcome().is_some() || in_battle(&game.position()) {
                    let at = format!("{} seed {seed} action {n}", b.id);
                    if assert_round_trip(game.as_ref(), &at) {
                        *pending.entry(game.ruleset().to_owned()).or_default() += 1;
                    }
                    *checked.entry(game.ruleset().to_owned()).or_default() += 1;
                }
                let legal = game.legal();
                if legal.is_empty() {
                    break;
                }
                let pick = usize::try_from(next(&mut x) % legal.len() as u64).unwrap_or(0);
                game.apply(&legal[pick]).expect("a legal action applies");
            }
        }
    }
    println!("position round trips checked per ruleset: {checked:?}");
    println!("of which with something under way between two actions: {pending:?}");
    assert_eq!(checked.len(), 4, "every ruleset: {checked:?}");
}
