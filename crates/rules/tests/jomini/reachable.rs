//! `reachable` is exactly what the moves reach (issue 15): on random positions of the
//! built-in scenario, every listed hex is the destination of a listed move that puts the
//! unit there, along a path of adjacent hexes as long as its cost (counted in hexes
//! moved, JO-MOV-1), and every destination of a listed move is listed.

use super::harness;
use crate::common::reach::{assert_reachable_in_play, Mover};
use grognard_engine::Game;
use grognard_rules::jomini::{Action, Jomini};

const MOVER: Mover<Jomini> = Mover {
    hex: |_, s, u| s.pieces.get(u.index()).and_then(|p| p.hex),
    step: |a| match *a {
        Action::Move { unit, to } => Some((unit, to)),
        _ => None,
    },
    action: |unit, to| Action::Move { unit, to },
    whole: true,
    points: None,
    lucky: &[],
    forget: |_, _, _| {},
    pass: |_| None,
    next_only: |_, _, _| false,
    may_end: |_, _, _| true,
};

#[test]
fn reachable_is_exactly_what_the_moves_reach() {
    let n = assert_reachable_in_play(
        0..4,
        |s| Game::new(harness::builtin(), Some(s)).unwrap(),
        3,
        usize::MAX,
        &MOVER,
    );
    assert!(n > 100, "only {n} hexes checked");
}
