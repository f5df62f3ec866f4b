//! Golden legal-action counts of the built-in scenario: how many actions are legal at
//! the start, after each first action (perft 2), and along a fixed random game, with the
//! decision kind at each step. Any change in what is legal changes this file.
//!
//! Regenerate with `GOLDEN_UPDATE=1 cargo test -p grognard-rules skirmish::golden` and
//! review the diff.

use crate::common;
use grognard_engine::{Ctx, Dice, Ruleset};
use grognard_rules::skirmish::{Skirmish, State};
use std::fmt::Write as _;
use std::path::Path;

fn legal(rules: &Skirmish, state: &State) -> Vec<grognard_rules::skirmish::Action> {
    let mut out = Vec::new();
    rules.legal_actions(state, &mut out);
    out
}

fn play(rules: &Skirmish, state: &State, a: &grognard_rules::skirmish::Action, seed: u64) -> State {
    let mut s = state.clone();
    let mut dice = Dice::new(seed);
    let mut events = Vec::new();
    let mut ctx = Ctx::new(&mut dice, &mut events);
    rules.apply(&mut s, a, &mut ctx).expect("legal");
    s
}

fn counts() -> String {
    let rules = Skirmish::new(&common::builtin("broken-cairn")).unwrap();
    let start = rules.initial_state();
    let mut out = String::from(
        "# Legal-action counts of the built-in skirmish `broken-cairn` (see golden.rs).\n",
    );
    let first = legal(&rules, &start);
    let mut perft2 = 0;
    for (i, a) in first.iter().enumerate() {
        let s = play(&rules, &start, a, i as u64);
        perft2 += legal(&rules, &s)
            .len()
            .max(usize::from(s.outcome.is_some()));
    }
    writeln!(out, "perft 1 {}", first.len()).unwrap();
    writeln!(out, "perft 2 {perft2}").unwrap();
    // A fixed random game: step, side, decision kind, legal actions.
    let mut state = start;
    let mut pick = Dice::new(2024);
    for n in 0..400 {
        let Some(d) = rules.to_act(&state) else {
            writeln!(out, "{n} over").unwrap();
            break;
        };
        let l = legal(&rules, &state);
        writeln!(out, "{n} {} {} {}", d.side, d.kind, l.len()).unwrap();
        let i = (pick.next(u32::try_from(l.len()).unwrap()).0 - 1) as usize;
        state = play(&rules, &state, &l[i], n);
    }
    out
}

#[test]
fn golden_legal_action_counts() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/skirmish/golden.txt");
    let now = counts();
    if std::env::var("GOLDEN_UPDATE").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let was = std::fs::read_to_string(&path).expect("golden.txt (GOLDEN_UPDATE=1 writes it)");
    if was != now {
        let diff: Vec<String> = was
            .lines()
            .zip(now.lines())
            .filter(|(a, b)| a != b)
            .take(10)
            .map(|(a, b)| format!("- {a}\n+ {b}"))
            .collect();
        panic!(
            "legal-action counts changed (GOLDEN_UPDATE=1 to accept):\n{}",
            diff.join("\n")
        );
    }
}
