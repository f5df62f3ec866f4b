//! Golden legal-action counts: from fixed positions of the built-in scenario, how many
//! action sequences of each depth there are (dice fixed at every node). Any change in
//! what is legal changes these numbers. `GROGNARD_BLESS=1 cargo test -p grognard-rules
//! battle_cry::golden` rewrites `golden.txt` after a deliberate change.

use super::harness;
use grognard_engine::{Ctx, Dice, Game, Ruleset};
use grognard_rules::battle_cry::{Action, BattleCry, State};
use std::fmt::Write as _;

/// Sequences of `depth` actions from `state`; the dice of every action are `Dice::new(0)`.
fn perft(rules: &BattleCry, state: &State, depth: u32) -> u64 {
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    if depth <= 1 {
        return if depth == 0 { 1 } else { legal.len() as u64 };
    }
    legal
        .iter()
        .map(|a| {
            let mut next = state.clone();
            let (mut dice, mut events) = (Dice::new(0), Vec::new());
            rules.apply_unchecked(&mut next, a, &mut Ctx::new(&mut dice, &mut events));
            perft(rules, &next, depth - 1)
        })
        .sum()
}

/// The game after the deal and `n` random actions (seed `seed`).
pub(super) fn position(seed: u64, n: usize) -> Game<BattleCry> {
    let mut g = Game::<BattleCry>::new(harness::builtin(), Some(seed)).unwrap();
    g.apply(Action::Deal).unwrap();
    let mut pick = Dice::new(seed + 100);
    for _ in 0..n {
        let legal = g.legal_actions();
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        g.apply(legal[i].clone()).unwrap();
    }
    assert!(
        g.rules().outcome(g.state()).is_none(),
        "golden positions are games in progress"
    );
    g
}

/// The fixed positions: name, seed, random actions played, depth counted.
pub(super) const POSITIONS: [(&str, u64, usize, u32); 4] = [
    ("deal", 1, 0, 4),
    ("early", 2, 42, 3),
    ("middle", 3, 208, 3),
    ("late", 2, 324, 3),
];

#[test]
fn golden_legal_action_counts() {
    let mut out =
        String::from("# Battle Cry: legal action sequences from fixed positions (see golden.rs)\n");
    for (name, seed, n, depth) in POSITIONS {
        let g = position(seed, n);
        let decision = g.rules().to_act(g.state()).unwrap();
        for d in 1..=depth {
            let count = perft(g.rules(), g.state(), d);
            writeln!(
                out,
                "{name} (seed {seed}, {n} actions, {} {}) depth {d}: {count}",
                decision.side, decision.kind
            )
            .unwrap();
        }
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/battle_cry/golden.txt");
    if std::env::var_os("GROGNARD_BLESS").is_some() {
        std::fs::write(&path, &out).unwrap();
        return;
    }
    let want =
        std::fs::read_to_string(&path).expect("golden.txt: run with GROGNARD_BLESS=1 to write it");
    assert_eq!(
        out, want,
        "legal action counts changed; if on purpose, rerun with GROGNARD_BLESS=1"
    );
}
