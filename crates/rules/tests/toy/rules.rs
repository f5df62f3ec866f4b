//! A test per rule ID, named after it, through the kit's table.

use super::duel::Action;
use super::table;
use grognard_engine::Ruleset;

#[test]
fn toy_mov_1_a_step_goes_to_an_adjacent_empty_hex() {
    let mut t = table();
    let red = t.id("red-duellist");
    t.allows(
        &Action::Move {
            unit: red,
            to: t.hex("0201"),
        },
        "TOY-MOV-1",
    );
    t.refuses(
        &Action::Move {
            unit: red,
            to: t.hex("0301"),
        },
        "TOY-MOV-1",
    );
    let blue = t.id("blue-duellist");
    t.refuses(
        &Action::Move {
            unit: blue,
            to: t.hex("0401"),
        },
        "TOY-MOV-1",
    );
    t.apply(
        &Action::Move {
            unit: red,
            to: t.hex("0201"),
        },
        &[],
    );
    assert_eq!(t.reach("blue-duellist"), ["0401"]);
}

#[test]
fn toy_str_1_a_strike_hits_the_adjacent_enemy_on_5_or_6() {
    let mut t = table();
    let (red, blue) = (t.id("red-duellist"), t.id("blue-duellist"));
    t.refuses(&Action::Strike { unit: red }, "TOY-STR-1");
    t.state.at = [t.hex("0201"), t.hex("0301")];
    t.allows(&Action::Strike { unit: red }, "TOY-STR-1");
    t.apply(&Action::Strike { unit: red }, &[4]);
    assert!(t.state.outcome.is_none(), "4 misses");
    t.apply(&Action::Strike { unit: blue }, &[5]);
    let outcome = t.rules.outcome(&t.state).expect("a hit ends the duel");
    assert_eq!(outcome.winner.as_deref(), Some("blue"));
}

#[test]
fn toy_turn_1_the_sides_alternate_and_the_last_turn_draws() {
    let mut t = table();
    let ends = ["0201", "0401", "0101", "0501"];
    for n in 0..12 {
        let side = usize::from(t.state.active);
        assert_eq!(side, n % 2, "the sides alternate");
        let unit = t.id(["red-duellist", "blue-duellist"][side]);
        let to = t.hex(ends[(n / 2 % 2) * 2 + side]);
        t.apply(&Action::Move { unit, to }, &[]);
    }
    let outcome = t.to_act().map(|d| d.side);
    assert_eq!(outcome, None, "the game is over after turn 6");
    assert_eq!(
        t.state.outcome.as_ref().unwrap().rule.as_deref(),
        Some("TOY-TURN-1")
    );
    assert_eq!(t.legal(), []);
}
