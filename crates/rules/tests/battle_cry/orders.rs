//! Sections and orders.

use super::harness::{self, Pos};
use grognard_engine::Ruleset;
use grognard_rules::battle_cry::{Action, Card, Event, Phase};

fn play(p: &mut Pos, id: &str) {
    p.hand("blue", &[id]);
    p.apply(
        &Action::PlayCard {
            card: Card::from_id(id).unwrap(),
        },
        &[],
    );
}

#[test]
fn bc_sec_1_hexes_on_a_dividing_line_belong_to_both_sections() {
    let p = Pos::new(&harness::CLEAR, &[], "");
    let sections = |l: &str| p.rules.sections_of(0, p.hex(l));
    // Rows 01, 03, ...: the lines run through the centres of columns 05 and 09.
    assert_eq!(sections("0101"), 0b001);
    assert_eq!(sections("0401"), 0b001);
    assert_eq!(sections("0501"), 0b011, "on the left line: left and centre");
    assert_eq!(sections("0701"), 0b010);
    assert_eq!(
        sections("0901"),
        0b110,
        "on the right line: centre and right"
    );
    assert_eq!(sections("1301"), 0b100);
    // Rows 02, 04, ... are shoved half a hex: the lines run between two hexes.
    assert_eq!(sections("0402"), 0b001);
    assert_eq!(sections("0502"), 0b010);
    assert_eq!(sections("0802"), 0b010);
    assert_eq!(sections("0902"), 0b100);
    // Every hex is in at least one section.
    for c in 1..=13 {
        for r in 1..=9 {
            assert_ne!(sections(&format!("{c:02}{r:02}")), 0);
        }
    }
}

#[test]
fn bc_sec_2_left_is_each_sides_own_left() {
    let p = Pos::new(&harness::CLEAR, &[], "");
    let (blue, grey) = (p.side("blue"), p.side("grey"));
    assert_eq!(
        p.rules.sections_of(blue, p.hex("0105")),
        0b001,
        "blue faces north: the west is its left"
    );
    assert_eq!(
        p.rules.sections_of(grey, p.hex("0105")),
        0b100,
        "grey faces south: the west is its right"
    );
    assert_eq!(p.rules.sections_of(grey, p.hex("0501")), 0b110);
    // Grey's left flank card orders in the east.
    let mut q = Pos::new(
        &harness::CLEAR,
        &[
            ("g-w", "grey", "infantry", "0103", 0),
            ("g-e", "grey", "infantry", "1003", 0),
        ],
        "",
    );
    q.set("grey", Phase::Command, None, &[]);
    q.hand("grey", &["scout_left"]);
    q.apply(
        &Action::PlayCard {
            card: Card::from_id("scout_left").unwrap(),
        },
        &[],
    );
    q.allows(&q.order("g-e"), "BC-SEC-3");
    q.refuses(&q.order("g-w"), "BC-SEC-3");
}

#[test]
fn bc_sec_3_section_cards_order_in_their_sections() {
    let units = [
        ("a", "blue", "infantry", "0107", 0),
        ("b", "blue", "infantry", "0507", 0),
        ("c", "blue", "infantry", "0707", 0),
        ("d", "blue", "infantry", "0207", 0),
    ];
    let mut p = Pos::new(&harness::CLEAR, &units, "");
    play(&mut p, "probe_left");
    p.refuses(&p.order("c"), "BC-SEC-3");
    p.apply(&p.order("a"), &[]);
    p.allows(&p.order("b"), "BC-SEC-3");
    p.apply(&p.order("b"), &[]);
    // Two orders given: the third is lost.
    p.refuses(&p.order("d"), "BC-SEC-3");
    assert_eq!(p.legal(), vec![Action::DoneOrdering]);
    // A piece on the line counts for either section: with one left and one centre order
    // (here two of each), b takes the centre's when the left's are used.
    let mut q = Pos::new(&harness::CLEAR, &units, "");
    play(&mut q, "general_advance");
    for u in ["a", "d", "b", "c"] {
        q.apply(&q.order(u), &[]);
    }
    let mut r = Pos::new(&harness::CLEAR, &units, "");
    play(&mut r, "attack_centre");
    r.allows(&r.order("b"), "BC-SEC-3");
    r.refuses(&r.order("a"), "BC-SEC-3");
}

#[test]
fn bc_sec_4_units_move_across_sections() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[("cav", "blue", "cavalry", "0407", 0)],
        "",
    );
    play(&mut p, "scout_left");
    p.apply(&p.order("cav"), &[]);
    p.apply(&Action::DoneOrdering, &[]);
    assert_eq!(p.rules.sections_of(0, p.hex("0707")), 0b010);
    p.allows(&p.mv("cav", "0707"), "BC-SEC-4");
    let ev = p.apply(&p.mv("cav", "0707"), &[]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Moved { rules, .. } if rules.iter().any(|r| r == "BC-SEC-4"))));
}

#[test]
fn bc_ord_1_only_ordered_pieces_act() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("inf2", "blue", "infantry", "0707", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        "",
    );
    play(&mut p, "attack_centre");
    p.refuses(&p.order("foe"), "BC-ORD-1");
    p.apply(&p.order("inf2"), &[]);
    p.apply(&Action::DoneOrdering, &[]);
    p.refuses(&p.mv("inf", "0407"), "BC-ORD-1");
    p.allows(&p.mv("inf2", "0607"), "BC-MOV-3");
    p.apply(&Action::DoneMoving, &[]);
    p.refuses(&p.battle("inf", "foe"), "BC-ORD-1");
    assert!(p.rules.reachable(&p.state, p.id("inf")).is_err());
}

#[test]
fn bc_ord_2_one_order_per_piece() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[("inf", "blue", "infantry", "0507", 0)],
        "",
    );
    play(&mut p, "attack_centre");
    p.apply(&p.order("inf"), &[]);
    p.refuses(&p.order("inf"), "BC-ORD-2");
    assert_eq!(p.legal(), vec![Action::DoneOrdering]);
}

#[test]
fn bc_ord_3_ordered_pieces_need_not_move() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        "",
    );
    play(&mut p, "scout_centre");
    p.apply(&p.order("inf"), &[]);
    p.apply(&Action::DoneOrdering, &[]);
    p.refuses(&p.mv("inf", "0507"), "BC-ORD-3");
    p.apply(&Action::DoneMoving, &[]);
    assert!(
        p.is_legal(&p.battle("inf", "foe")),
        "it battles where it stands"
    );
}
