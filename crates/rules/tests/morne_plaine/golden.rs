//! Golden legal-action counts: from fixed positions, how many action sequences of each
//! depth there are (summed over every sequence, like chess perft; dice are the
//! position's seeded dice, cloned down every branch). `golden.txt` holds the counts; any
//! change in what is legal shows up as a diff. Regenerate with
//! `GOLDEN_UPDATE=1 cargo test -p grognard-rules golden`.

use super::harness::{clear, map, T};
use crate::common;
use grognard_engine::{Ctx, Dice, Game, Ruleset};
use grognard_rules::morne_plaine::{Action, Event, MornePlaine, State};
use std::fmt::Write as _;
use std::path::Path;

fn perft(rules: &MornePlaine, state: &State, dice: &Dice, depth: u32) -> u64 {
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    if depth <= 1 {
        return legal.len() as u64;
    }
    let mut events: Vec<Event> = Vec::new();
    legal
        .iter()
        .map(|a| {
            let mut s = state.clone();
            let mut d = dice.clone();
            events.clear();
            rules.apply_unchecked(&mut s, a, &mut Ctx::new(&mut d, &mut events));
            perft(rules, &s, &d, depth - 1)
        })
        .sum()
}

/// A position: a game and the depth to count to.
pub(super) struct Position {
    pub(super) name: &'static str,
    pub(super) game: Game<MornePlaine>,
    depth: u32,
}

fn builtin(id: &str, seed: u64) -> Game<MornePlaine> {
    Game::new(common::builtin(id), Some(seed)).unwrap()
}

fn played(mut t: T, steps: impl FnOnce(&mut T)) -> Game<MornePlaine> {
    steps(&mut t);
    t.g
}

pub(super) fn positions() -> Vec<Position> {
    // A few actions of the built-in scenario, with forced dice where they roll.
    let mut opening = builtin("heights-of-aubrac", 5);
    let names = opening.rules().names().clone();
    for json in [
        r#"{"type": "move", "unit": "b-lancers", "to": "1804"}"#,
        r#"{"type": "move", "unit": "b-2-foot", "to": "1012"}"#,
        r#"{"type": "move", "unit": "b-1-foot", "to": "0812"}"#,
        r#"{"type": "end_phase"}"#,
    ] {
        let a: Action = names.scope(|| serde_json::from_str(json)).unwrap();
        opening.dice_mut().force([3, 9]);
        opening.apply(a).unwrap_or_else(|r| panic!("{json}: {r}"));
    }
    vec![
        Position {
            name: "heights-of-aubrac start",
            game: builtin("heights-of-aubrac", 1811),
            depth: 3,
        },
        Position {
            name: "bridge-at-morne start",
            game: builtin("bridge-at-morne", 1815),
            depth: 3,
        },
        Position {
            name: "heights-of-aubrac after blue's first moves",
            game: opening,
            depth: 3,
        },
        Position {
            name: "charge run-up",
            game: played(
                clear(6, 8)
                    .cav("o-c", "0302", 4, 5)
                    .inf("o-i", "0405", 5, 4)
                    .inf("b-t", "0305", 4, 4)
                    .art("b-g", "0507", 3, 2)
                    .game(),
                |t| {
                    t.go("o-c", "0303").unwrap();
                },
            ),
            depth: 3,
        },
        Position {
            name: "combat with supports",
            game: played(
                map(". . . . . .\n. . w . . .\n. . . . . .\n. . . v . .\n. . . . . .\n. . . . . .")
                    .inf("o-a", "0303", 6, 4)
                    .inf("o-b", "0204", 4, 4)
                    .cav("o-c", "0404", 3, 4)
                    .inf("b-a", "0304", 5, 4)
                    .inf("b-b", "0403", 5, 4)
                    .leader("b-l", "0305", 2, 2)
                    .game(),
                |t| {
                    t.end();
                },
            ),
            depth: 3,
        },
    ]
}

#[test]
fn golden_legal_action_counts() {
    let mut out = String::from(
        "# Morne Plaine legal-action counts: position | depth | action sequences of that depth\n",
    );
    for p in positions() {
        for depth in 1..=p.depth {
            let n = perft(p.game.rules(), p.game.state(), p.game.dice(), depth);
            writeln!(out, "{} | {depth} | {n}", p.name).unwrap();
        }
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/morne_plaine/golden.txt");
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::write(&file, &out).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(&file).expect("golden.txt (GOLDEN_UPDATE=1 writes it)");
    assert_eq!(
        out, golden,
        "legal-action counts changed; if on purpose, regenerate with GOLDEN_UPDATE=1"
    );
}
