//! Golden legal-action counts: from fixed positions of the built-in scenario, how many
//! action sequences of each depth there are (fresh dice seeded 0 for every action), in
//! the kit's one format (`common::golden`). `GOLDEN_UPDATE=1 cargo test -p grognard-rules
//! jomini::golden` rewrites `golden.txt` after a deliberate change.

use super::harness;
use crate::common::golden::{Counts, DiceDown};
use grognard_engine::{Dice, Game, Ruleset};
use grognard_rules::jomini::Jomini;

/// The game after `n` random actions (seed `seed`).
pub(super) fn position(seed: u64, n: usize) -> Game<Jomini> {
    let mut g = Game::<Jomini>::new(harness::builtin(), Some(seed)).unwrap();
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
    ("start", 1, 0, 4),
    ("early", 2, 12, 3),
    ("middle", 3, 40, 3),
    ("late", 4, 90, 3),
];

#[test]
fn golden_legal_action_counts() {
    let mut counts =
        Counts::new("JOMINI: legal action sequences from fixed positions (see golden.rs)");
    for (name, seed, n, depth) in POSITIONS {
        let g = position(seed, n);
        let at = format!("{name} (seed {seed}, {n} actions)");
        counts.position(&at, g.rules(), g.state(), &DiceDown::Fresh(0), depth);
    }
    counts.check("jomini/golden.txt");
}
