//! `reachable` is exactly what the steps reach (issue 15): on random positions of the
//! built-in scenario, every listed hex is reached by stepping along its path (each step
//! a listed, plain move: SK-MOV-3, not evasive, SK-MOV-14; the other side's windows
//! passed, SK-MOV-9, SK-MIS-4) at its cost in movement points, and every hex the
//! character's listed steps reach is listed at its least cost. During a charge or a
//! panicked flight `reachable` lists the next steps only (SK-CHG-5, SK-STA-2), and so
//! is checked against them; a friend's hex, passed through but never a move's end
//! (SK-MOV-11), is not listed.

use crate::common;
use crate::common::reach::{assert_reachable_in_play, Mover};
use grognard_engine::Game;
use grognard_rules::skirmish::{Action, Skirmish};

const MOVER: Mover<Skirmish> = Mover {
    hex: |_, s, u| s.chars.get(u.index()).and_then(|c| c.hex),
    step: |a| match *a {
        Action::Move {
            unit,
            to,
            evasive: false,
        } => Some((unit, to)),
        _ => None,
    },
    action: |unit, to| Action::Move {
        unit,
        to,
        evasive: false,
    },
    whole: false,
    points: Some(|_, s, u| s.chars.get(u.index()).map_or(0, |c| u32::from(c.mp))),
    lucky: &[],
    forget: |_, s, u| {
        if let Some(c) = s.chars.get_mut(u.index()) {
            c.mp = 0;
        }
    },
    pass: |legal| legal.iter().find(|a| **a == Action::Pass).cloned(),
    next_only: |_, s, u| s.charge.is_some() || s.chars.get(u.index()).is_some_and(|c| c.panicked),
    // SK-MOV-11: a walk passes through friends but never ends in their hex.
    may_end: |_, s, u| {
        let here = s.chars.get(u.index()).and_then(|c| c.hex);
        !s.chars
            .iter()
            .enumerate()
            .any(|(i, c)| i != u.index() && c.hex.is_some() && c.hex == here)
    },
};

#[test]
fn reachable_is_exactly_what_the_steps_reach() {
    let n = assert_reachable_in_play(
        0..3,
        |s| Game::new(common::builtin("broken-cairn"), Some(s)).unwrap(),
        7,
        600,
        &MOVER,
    );
    assert!(n > 100, "only {n} hexes checked");
}
