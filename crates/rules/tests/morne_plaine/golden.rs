//! Golden legal-action counts: from fixed positions, how many action sequences of each
//! depth there are (summed over every sequence, like chess perft; dice are the
//! position's seeded dice, cloned down every branch), in the kit's one format
//! (`common::golden`). Any change in what is legal shows up as a diff of `golden.txt`. Regenerate with
//! `GOLDEN_UPDATE=1 cargo test -p grognard-rules golden`.

use super::charge::usual_charge;
use super::harness::{clear, map, T};
use crate::common;
use crate::common::golden::{Counts, DiceDown};
use grognard_engine::Ruleset;
use grognard_rules::morne_plaine::Action;

/// A position: a table (its rules, state and dice) and the depth to count to.
pub(super) struct Position {
    pub(super) name: &'static str,
    pub(super) game: T,
    depth: u32,
}

fn builtin(id: &str, seed: u64) -> T {
    T::of_scenario(&common::builtin(id), seed)
}

fn played(mut t: T, steps: impl FnOnce(&mut T)) -> T {
    steps(&mut t);
    t
}

pub(super) fn positions() -> Vec<Position> {
    // A few actions of the built-in scenario, with forced dice where they roll.
    let mut opening = builtin("heights-of-aubrac", 5);
    let names = opening.rules.names().clone();
    for json in [
        r#"{"type": "move", "unit": "b-lancers", "to": "1804"}"#,
        r#"{"type": "move", "unit": "b-2-foot", "to": "1012"}"#,
        r#"{"type": "move", "unit": "b-1-foot", "to": "0812"}"#,
        r#"{"type": "end_phase"}"#,
    ] {
        let a: Action = names.scope(|| serde_json::from_str(json)).unwrap();
        // Forced results the action does not roll stay queued on the position's dice.
        opening.force(&[3, 9]);
        opening.act(&a).unwrap_or_else(|r| panic!("{json}: {r}"));
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
            game: usual_charge(
                clear(6, 8)
                    .inf("o-i", "0405", 5, 4)
                    .art("b-g", "0507", 3, 2),
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
    let mut counts =
        Counts::new("Morne Plaine legal-action counts from fixed positions (see golden.rs)");
    for p in positions() {
        let dice = DiceDown::Carried(p.game.dice.clone());
        counts.position(p.name, &*p.game.rules, &p.game.state, &dice, p.depth);
    }
    counts.check("morne_plaine/golden.txt");
}
