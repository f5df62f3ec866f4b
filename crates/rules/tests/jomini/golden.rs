//! Golden legal-action counts: from fixed positions of the built-in scenario, how many
//! action sequences of each depth there are (fresh dice seeded 0 for every action), in
//! the kit's one format (`common::golden`). `GOLDEN_UPDATE=1 cargo test -p grognard-rules
//! jomini::golden` rewrites `golden.txt` after a deliberate change.

use super::harness;
use crate::common::golden;
use grognard_engine::Game;
use grognard_rules::jomini::Jomini;

/// The game after `n` random actions (seed `seed`).
pub(super) fn position(seed: u64, n: usize) -> Game<Jomini> {
    let g = Game::<Jomini>::new(harness::builtin(), Some(seed)).unwrap();
    golden::played_on(g, seed + 100, n)
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
    golden::check_positions(
        "JOMINI: legal action sequences from fixed positions (see golden.rs)",
        "jomini/golden.txt",
        &POSITIONS,
        position,
    );
}
