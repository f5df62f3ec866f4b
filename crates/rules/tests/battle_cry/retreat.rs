//! Retreat: the hexes, the defender's choice, the exceptions for generals, and losses.

use super::harness::{self, labels, Pos, CAV, FLAG, INF};
use grognard_engine::Ruleset;
use grognard_rules::battle_cry::{Action, Event, Pending, Phase};

/// Blue's infantry `att` at `from` attacks, in blue's battle step; `others` include the
/// grey defender.
fn setup(cells: &[(&str, char)], from: &str, others: &[(&str, &str, &str, &str, u8)]) -> Pos {
    let mut units = vec![("att", "blue", "infantry", from, 0)];
    units.extend_from_slice(others);
    let mut p = Pos::new(&harness::terrain(cells), &units, "");
    p.set("blue", Phase::Battle, Some("assault_centre"), &["att"]);
    p
}

fn def() -> (&'static str, &'static str, &'static str, &'static str, u8) {
    ("def", "grey", "infantry", "0506", 0)
}

#[test]
fn bc_ret_1_a_hex_toward_home_per_flag() {
    let mut p = setup(&[], "0507", &[def()]);
    p.apply(&p.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
    assert_eq!(
        p.retreats(),
        labels(&["0404", "0504", "0604"]),
        "grey's edge is north: two rows up"
    );
    let ev = p.apply(&p.retreat("def", "0504"), &[]);
    assert!(matches!(&ev[0], Event::Retreated { hexes: 2, rule, .. } if rule == "BC-RET-1"));
    assert_eq!(p.at("def").as_deref(), Some("0504"));
    // Blue's edge is south.
    let mut q = Pos::new(
        &harness::CLEAR,
        &[
            ("att", "grey", "infantry", "0506", 0),
            ("def", "blue", "infantry", "0507", 0),
        ],
        "",
    );
    q.set("grey", Phase::Battle, Some("assault_centre"), &["att"]);
    q.apply(&q.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    assert_eq!(q.retreats(), labels(&["0408", "0508"]));
}

#[test]
fn bc_ret_2_terrain_does_not_stop_a_retreat() {
    let mut p = setup(&[("0505", 'w'), ("0605", 't')], "0507", &[def()]);
    p.apply(&p.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
    assert_eq!(
        p.retreats(),
        labels(&["0404", "0504", "0604"]),
        "through the woods and the town"
    );
    p.allows(&p.retreat("def", "0404"), "BC-RET-2");
    let mut q = setup(&[("0505", 'r')], "0507", &[def()]);
    q.apply(&q.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
    assert_eq!(
        q.retreats(),
        labels(&["0504", "0604"]),
        "never into the river"
    );
    let mut r = setup(&[("0505", 'r'), ("0605", 'x')], "0507", &[def()]);
    r.apply(&r.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
    assert_eq!(r.figures("def"), 2, "no way back: a figure per hex");
}

#[test]
fn bc_ret_3_the_defender_chooses() {
    let mut p = setup(
        &[],
        "0507",
        &[def(), ("other", "grey", "infantry", "0304", 0)],
    );
    p.apply(&p.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    let d = p.rules.to_act(&p.state).unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("grey", "retreat", true)
    );
    p.refuses(&Action::EndTurn, "BC-RET-3");
    p.refuses(&p.retreat("other", "0303"), "BC-RET-3");
    p.refuses(&p.retreat("def", "0504"), "BC-RET-1");
    assert!(p
        .legal()
        .iter()
        .all(|a| matches!(a, Action::Retreat { .. })));
    p.allows(&p.retreat("def", "0605"), "BC-RET-1");
}

#[test]
fn bc_ret_4_units_block_a_retreat() {
    let mut p = setup(
        &[],
        "0507",
        &[def(), ("friend", "grey", "infantry", "0505", 0)],
    );
    p.apply(&p.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    assert_eq!(p.retreats(), labels(&["0605"]));
    // A friendly unit and an enemy general close both ways: a figure lost instead.
    let mut q = setup(
        &[],
        "0507",
        &[
            def(),
            ("friend", "grey", "infantry", "0505", 0),
            ("bgen", "blue", "general", "0605", 0),
        ],
    );
    let ev = q.apply(&q.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    assert!(q.state.pending.is_none());
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Lost { figures: 1, rule, .. } if rule == "BC-RET-9")));
}

#[test]
fn bc_ret_5_exception_1_onto_a_lone_general() {
    let mut p = setup(
        &[],
        "0507",
        &[def(), ("ggen", "grey", "general", "0505", 0)],
    );
    p.apply(&p.battle("att", "def"), &[FLAG, FLAG, FLAG, CAV]);
    assert_eq!(p.retreats(), labels(&["0503", "0505", "0603", "0703"]));
    p.allows(&p.retreat("def", "0505"), "BC-RET-5");
    let ev = p.apply(&p.retreat("def", "0505"), &[]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Attached { rule, .. } if rule == "BC-RET-5")));
    assert_eq!(p.figures("def"), 4, "the other flags are ignored");
    assert_eq!(p.at("def").as_deref(), Some("0505"));
}

#[test]
fn bc_ret_6_exception_2_generals_retreat_through_friends() {
    let mut p = setup(
        &[],
        "0507",
        &[
            ("ggen", "grey", "general", "0506", 0),
            ("f1", "grey", "infantry", "0505", 0),
            ("f2", "grey", "infantry", "0605", 0),
            ("f3", "grey", "infantry", "0504", 0),
        ],
    );
    // Three flags, one ignored: two hexes, through f1 or f2, onto f3 or beside it.
    p.apply(&p.battle("att", "ggen"), &[FLAG, FLAG, FLAG, CAV]);
    p.apply(&Action::IgnoreFlag, &[]);
    assert_eq!(p.retreats(), labels(&["0404", "0504", "0604"]));
    p.allows(&p.retreat("ggen", "0504"), "BC-RET-6");
    let ev = p.apply(&p.retreat("ggen", "0504"), &[]);
    assert!(ev.iter().any(|e| matches!(e, Event::Attached { unit, rule, .. } if *unit == p.id("f3") && rule == "BC-RET-6")));
}

#[test]
fn bc_ret_7_no_second_general() {
    let units = [
        def(),
        ("ggen", "grey", "general", "0506", 0),
        ("g2", "grey", "general", "0505", 0),
    ];
    let mut p = setup(&[], "0507", &units);
    p.apply(&p.battle("att", "def"), &[FLAG, FLAG, FLAG, CAV]);
    p.apply(&Action::IgnoreFlag, &[]);
    assert_eq!(
        p.retreats(),
        labels(&["0504", "0604"]),
        "not onto the other general at 0505"
    );
}

#[test]
fn bc_ret_8_the_general_retreats_with_or_for_its_unit() {
    let units = [def(), ("ggen", "grey", "general", "0506", 0)];
    let mut p = setup(&[], "0507", &units);
    p.apply(&p.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
    p.apply(&Action::IgnoreFlag, &[]);
    let ev = p.apply(&p.retreat("def", "0505"), &[]);
    assert!(matches!(&ev[0], Event::Retreated { general: Some(g), .. } if *g == p.id("ggen")));
    assert_eq!(p.at("ggen").as_deref(), Some("0505"));
    // Its unit eliminated, the general makes the retreat, and has its unit's choice of
    // ignoring a flag (BC-GEN-5).
    let mut q = setup(&[], "0507", &units);
    q.set_figures("def", 1);
    q.apply(&q.battle("att", "def"), &[INF, FLAG, FLAG, CAV]);
    assert!(
        matches!(q.state.pending, Some(Pending::Embolden { unit, flags: 2, .. }) if unit == q.id("ggen"))
    );
    q.apply(&Action::IgnoreFlag, &[]);
    assert_eq!(
        q.state.pending,
        Some(Pending::Retreat {
            unit: q.id("ggen"),
            hexes: 1,
            attacker: Some(q.id("att")),
            from: q.hex("0506")
        })
    );
    assert_eq!(q.retreats(), labels(&["0505", "0605"]));
}

#[test]
fn bc_ret_9_a_figure_per_move_not_made() {
    // At grey's own edge: no hex to retreat into.
    let mut p = setup(&[], "0502", &[("def", "grey", "infantry", "0501", 0)]);
    let ev = p.apply(&p.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Lost { figures: 2, left: 2, rule, .. } if rule == "BC-RET-9")));
    // One hex of two: one figure.
    let mut q = setup(&[], "0503", &[("def", "grey", "infantry", "0502", 0)]);
    q.apply(&q.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
    assert_eq!(q.retreats(), labels(&["0501", "0601"]));
    q.allows(&q.retreat("def", "0501"), "BC-RET-9");
    q.apply(&q.retreat("def", "0501"), &[]);
    assert_eq!(q.figures("def"), 3);
    // With no figure left, the attached general is the casualty.
    let mut r = setup(
        &[],
        "0502",
        &[
            ("def", "grey", "infantry", "0501", 1),
            ("ggen", "grey", "general", "0501", 0),
        ],
    );
    r.apply(&r.battle("att", "def"), &[FLAG, FLAG, FLAG, CAV]);
    let ev = r.apply(&Action::IgnoreFlag, &[]);
    let eliminated: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Eliminated { unit, rule, .. } if rule == "BC-RET-9" => Some(*unit),
            _ => None,
        })
        .collect();
    assert_eq!(eliminated, [r.id("def"), r.id("ggen")]);
    assert_eq!(r.state.flags, [2, 0]);
}

#[test]
fn bc_ret_10_a_general_that_cannot_retreat_is_eliminated() {
    let mut p = setup(&[], "0502", &[("ggen", "grey", "general", "0501", 0)]);
    p.apply(&p.battle("att", "ggen"), &[FLAG, FLAG, INF, INF]);
    let ev = p.apply(&Action::IgnoreFlag, &[]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Eliminated { rule, .. } if rule == "BC-RET-10")));
    assert_eq!(p.state.flags, [1, 0]);
    // Blocked by enemies as much as by the edge.
    let mut q = setup(
        &[],
        "0507",
        &[
            ("ggen", "grey", "general", "0506", 0),
            ("b1", "blue", "infantry", "0505", 0),
            ("b2", "blue", "infantry", "0605", 0),
        ],
    );
    q.apply(&q.battle("att", "ggen"), &[FLAG, FLAG, INF, INF]);
    q.apply(&Action::IgnoreFlag, &[]);
    assert_eq!(q.at("ggen"), None);
}
