//! Moving units and generals, attached generals, and terrain in movement.

use super::harness::{self, labels, Pos};
use grognard_engine::Ruleset;
use grognard_hex::Direction;
use grognard_rules::battle_cry::{Action, Event, Phase};

/// `units` ordered by the section card `card`, in blue's movement step.
fn moving(terrain: &[&str], units: &[Piece<'_>], ordered: &[&str]) -> Pos {
    let mut p = Pos::new(terrain, units, "");
    p.set("blue", Phase::Movement, Some("assault_centre"), ordered);
    p
}

/// A piece: (id, side, type, hex, figures or 0 for full strength).
type Piece<'a> = (&'a str, &'a str, &'a str, &'a str, u8);

/// Full-strength blue infantry, cavalry, artillery and generals.
fn inf<'a>(id: &'a str, hex: &'a str) -> Piece<'a> {
    (id, "blue", "infantry", hex, 0)
}

fn cav<'a>(id: &'a str, hex: &'a str) -> Piece<'a> {
    (id, "blue", "cavalry", hex, 0)
}

fn art<'a>(id: &'a str, hex: &'a str) -> Piece<'a> {
    (id, "blue", "artillery", hex, 0)
}

fn gen<'a>(id: &'a str, hex: &'a str) -> Piece<'a> {
    (id, "blue", "general", hex, 0)
}

/// A full-strength grey piece.
fn grey<'a>(id: &'a str, kind: &'a str, hex: &'a str) -> Piece<'a> {
    (id, "grey", kind, hex, 0)
}

/// Blue infantry `inf` with its general `gen` at `hex`, blue ordering with Scout Centre
/// (one order).
fn scouting(hex: &str) -> Pos {
    let mut p = Pos::new(&harness::CLEAR, &[inf("inf", hex), gen("gen", hex)], "");
    p.hand("blue", &["scout_centre"]);
    let card = grognard_rules::battle_cry::Card::from_id("scout_centre").unwrap();
    p.apply(&Action::PlayCard { card }, &[]);
    p
}

fn moved_rules(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .find_map(|e| match e {
            Event::Moved { rules, .. } => Some(rules.iter().map(ToString::to_string).collect()),
            _ => None,
        })
        .unwrap()
}

#[test]
fn bc_mov_1_each_move_is_whole() {
    let mut p = moving(
        &[],
        &[cav("cav", "0507"), inf("inf", "0307")],
        &["cav", "inf"],
    );
    let ev = p.apply(&p.mv("cav", "0807"), &[]);
    let Event::Moved { path, from, to, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (p.label(*from), p.label(*to)),
        ("0507".into(), "0807".into())
    );
    assert_eq!(
        path.iter().map(|h| p.label(*h)).collect::<Vec<_>>(),
        ["0607", "0707", "0807"]
    );
    p.apply(&p.mv("inf", "0407"), &[]);
    assert_eq!(p.at("cav").as_deref(), Some("0807"));
    assert_eq!(p.at("inf").as_deref(), Some("0407"));
}

#[test]
fn bc_mov_2_moves_before_battles() {
    let mut p = moving(
        &[],
        &[inf("inf", "0507"), grey("foe", "infantry", "0506")],
        &["inf"],
    );
    p.refuses(&p.battle("inf", "foe"), "BC-MOV-2");
    p.apply(&Action::DoneMoving, &[]);
    p.refuses(&p.mv("inf", "0407"), "BC-MOV-2");
}

#[test]
fn bc_mov_3_infantry_moves_one_and_battles() {
    let mut p = moving(
        &[],
        &[inf("inf", "0507"), grey("foe", "infantry", "0504")],
        &["inf"],
    );
    assert_eq!(
        p.reach("inf"),
        labels(&["0406", "0506", "0407", "0607", "0408", "0508"])
    );
    p.refuses(&p.mv("inf", "0505"), "BC-MOV-3");
    p.apply(&p.mv("inf", "0506"), &[]);
    p.apply(&Action::DoneMoving, &[]);
    assert!(p.is_legal(&p.battle("inf", "foe")));
}

#[test]
fn bc_mov_4_cavalry_moves_three_and_battles() {
    let mut p = moving(
        &[],
        &[cav("cav", "0705"), grey("foe", "infantry", "0702")],
        &["cav"],
    );
    // Every hex within 3 but the enemy's and the cavalry's own.
    assert_eq!(p.reach("cav").len(), 36 - 1);
    p.refuses(&p.mv("cav", "1105"), "BC-MOV-4");
    p.apply(&p.mv("cav", "0703"), &[]);
    p.apply(&Action::DoneMoving, &[]);
    assert!(p.is_legal(&p.battle("cav", "foe")));
}

#[test]
fn bc_mov_5_artillery_moves_or_battles() {
    let mut p = moving(
        &[],
        &[
            art("art", "0507"),
            art("art2", "0707"),
            grey("foe", "infantry", "0504"),
        ],
        &["art", "art2"],
    );
    assert_eq!(p.reach("art").len(), 6);
    p.refuses(&p.mv("art", "0505"), "BC-MOV-5");
    p.allows(&p.mv("art", "0506"), "BC-MOV-5");
    p.apply(&p.mv("art", "0506"), &[]);
    p.apply(&Action::DoneMoving, &[]);
    p.refuses(&p.battle("art", "foe"), "BC-MOV-5");
    assert!(p.is_legal(&p.battle("art2", "foe")));
}

#[test]
fn bc_mov_6_generals_move_three() {
    let p = moving(&[], &[gen("gen", "0705")], &["gen"]);
    assert_eq!(p.reach("gen").len(), 36);
    p.refuses(&p.mv("gen", "1105"), "BC-MOV-6");
    p.allows(&p.mv("gen", "1005"), "BC-MOV-6");
}

#[test]
fn bc_mov_7_once_a_turn() {
    let mut p = moving(
        &[],
        &[cav("cav", "0507"), inf("inf", "0307"), gen("gen", "0307")],
        &["cav", "inf", "gen"],
    );
    p.apply(&p.mv("cav", "0607"), &[]);
    p.refuses(&p.mv("cav", "0707"), "BC-MOV-7");
    // A general that moved with its unit has moved.
    p.apply(&p.mv("inf", "0306"), &[]);
    assert_eq!(p.at("gen").as_deref(), Some("0306"));
    p.refuses(&p.mv("gen", "0206"), "BC-MOV-7");
}

#[test]
fn bc_mov_8_units_do_not_pass_units_or_enemy_generals() {
    // In the corner 0101, whose only neighbours are 0201 and 0102.
    let p = moving(
        &[],
        &[
            cav("cav", "0101"),
            inf("inf", "0201"),
            grey("enemy-gen", "general", "0102"),
            grey("foe", "infantry", "0401"),
        ],
        &["cav"],
    );
    assert!(p.reach("cav").is_empty());
    p.refuses(&p.mv("cav", "0201"), "BC-MOV-8");
    p.refuses(&p.mv("cav", "0102"), "BC-MOV-8");
    p.refuses(&p.mv("cav", "0301"), "BC-MOV-8");
    // The enemy unit is not entered either.
    let q = moving(
        &[],
        &[cav("cav", "0301"), grey("foe", "infantry", "0401")],
        &["cav"],
    );
    q.refuses(&q.mv("cav", "0401"), "BC-MOV-8");
    assert!(q.reach("cav").contains(&"0501".to_owned()), "around it");
}

#[test]
fn bc_mov_9_a_unit_stops_on_a_lone_general_who_attaches() {
    let mut p = moving(
        &[],
        &[cav("cav", "0101"), gen("gen", "0201"), inf("inf", "0102")],
        &["cav"],
    );
    assert_eq!(p.reach("cav"), labels(&["0201"]), "it stops on the general");
    let ev = p.apply(&p.mv("cav", "0201"), &[]);
    assert!(moved_rules(&ev).contains(&"BC-MOV-9".to_owned()));
    assert!(ev.iter().any(|e| matches!(e, Event::Attached { general, unit, rule } if *general == p.id("gen") && *unit == p.id("cav") && rule == "BC-MOV-9")));
    // A unit with a general of its own may not join another.
    let q = moving(
        &[],
        &[inf("inf", "0507"), gen("g1", "0507"), gen("g2", "0607")],
        &["inf"],
    );
    q.refuses(&q.mv("inf", "0607"), "BC-MOV-9");
}

#[test]
fn bc_mov_10_no_leaving_the_battlefield() {
    let p = moving(
        &[],
        &[cav("cav", "0101"), gen("gen", "0109")],
        &["cav", "gen"],
    );
    let off = p.hex("0101").neighbor(Direction::N);
    assert!(!p.rules.names().map().contains(off));
    p.refuses(
        &Action::Move {
            unit: p.id("cav"),
            to: off,
        },
        "BC-MOV-10",
    );
    let off = p.hex("0109").neighbor(Direction::S);
    p.refuses(
        &Action::Move {
            unit: p.id("gen"),
            to: off,
        },
        "BC-MOV-10",
    );
    for r in p.rules.reachable(&p.state, p.id("cav")).unwrap() {
        assert!(r.path.iter().all(|&h| p.rules.names().map().contains(h)));
    }
}

#[test]
fn bc_mov_11_units_never_combine() {
    let p = moving(
        &[],
        &[
            ("a", "blue", "infantry", "0507", 2),
            ("b", "blue", "infantry", "0607", 2),
        ],
        &["a", "b"],
    );
    p.refuses(&p.mv("a", "0607"), "BC-MOV-11");
    assert!(!p.reach("a").contains(&"0607".to_owned()));
}

#[test]
fn bc_gen_1_generals_move_through_friends() {
    let mut p = moving(
        &[],
        &[
            gen("gen", "0101"),
            inf("inf", "0201"),
            gen("other", "0301"),
            inf("blocker", "0102"),
        ],
        &["gen"],
    );
    // Through the unit and the other general to 0401.
    assert!(
        p.reach("gen").contains(&"0401".to_owned()),
        "{:?}",
        p.reach("gen")
    );
    p.allows(&p.mv("gen", "0401"), "BC-GEN-1");
    let ev = p.apply(&p.mv("gen", "0401"), &[]);
    let Event::Moved { path, .. } = &ev[0] else {
        panic!()
    };
    assert_eq!(path.len(), 3);
    // And through a unit with a general attached.
    let q = moving(
        &[],
        &[
            gen("gen", "0101"),
            inf("inf", "0201"),
            gen("g2", "0201"),
            inf("blocker", "0102"),
        ],
        &["gen"],
    );
    let r = q.rules.reachable(&q.state, q.id("gen")).unwrap();
    let through = r.iter().find(|r| q.label(r.hex) == "0301").unwrap();
    assert_eq!(through.cost, 2, "straight through the unit and its general");
}

#[test]
fn bc_gen_2_a_general_ends_on_a_unit_without_a_general() {
    let mut p = moving(
        &[],
        &[
            gen("gen", "0505"),
            inf("inf", "0605"),
            inf("inf2", "0405"),
            gen("g2", "0405"),
            gen("g3", "0504"),
        ],
        &["gen"],
    );
    p.refuses(&p.mv("gen", "0405"), "BC-GEN-2");
    p.refuses(&p.mv("gen", "0504"), "BC-GEN-2");
    p.allows(&p.mv("gen", "0605"), "BC-GEN-2");
    let ev = p.apply(&p.mv("gen", "0605"), &[]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Attached { rule, .. } if rule == "BC-GEN-2")));
}

#[test]
fn bc_gen_3_generals_do_not_pass_enemies() {
    let p = moving(
        &[],
        &[
            gen("gen", "0101"),
            grey("foe", "infantry", "0201"),
            grey("foe-gen", "general", "0102"),
        ],
        &["gen"],
    );
    assert!(p.reach("gen").is_empty());
    p.refuses(&p.mv("gen", "0201"), "BC-GEN-3");
    p.refuses(&p.mv("gen", "0102"), "BC-GEN-3");
    p.refuses(&p.mv("gen", "0301"), "BC-GEN-3");
}

#[test]
fn bc_att_1_one_general_to_a_unit() {
    let p = moving(
        &[],
        &[
            inf("inf", "0507"),
            gen("g1", "0507"),
            gen("g2", "0607"),
            gen("g3", "0407"),
        ],
        &["inf", "g3"],
    );
    p.refuses(&p.mv("inf", "0607"), "BC-ATT-1");
    p.refuses(&p.mv("g3", "0507"), "BC-ATT-1");
    let v = p.rules.view(&p.state, &grognard_engine::Seat::Omniscient);
    let inf = v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "inf")
        .unwrap();
    assert_eq!(inf["attached"], "g1");
}

#[test]
fn bc_att_2_the_general_moves_with_its_unit() {
    let mut p = scouting("0507");
    p.apply(&p.order("inf"), &[]);
    // One order for both: the card's one order is used.
    assert_eq!(p.legal(), vec![Action::DoneOrdering]);
    p.apply(&Action::DoneOrdering, &[]);
    p.allows(&p.mv("inf", "0506"), "BC-ATT-2");
    let ev = p.apply(&p.mv("inf", "0506"), &[]);
    assert!(matches!(&ev[0], Event::Moved { general: Some(g), .. } if *g == p.id("gen")));
    assert_eq!(p.at("gen").as_deref(), Some("0506"));
}

#[test]
fn bc_att_3_a_general_leaving_its_unit_costs_its_own_order() {
    let mut p = scouting("0607");
    p.apply(&p.order("gen"), &[]);
    p.refuses(&p.order("inf"), "BC-SEC-3");
    p.apply(&Action::DoneOrdering, &[]);
    p.allows(&p.mv("gen", "0807"), "BC-ATT-3");
    p.apply(&p.mv("gen", "0807"), &[]);
    assert_eq!(p.at("inf").as_deref(), Some("0607"));
    p.refuses(&p.mv("inf", "0606"), "BC-ORD-1");
}

#[test]
fn bc_att_4_joining_a_unit_does_not_order_it() {
    let mut p = moving(
        &[],
        &[inf("a", "0507"), gen("gen", "0507"), inf("b", "0707")],
        &["gen"],
    );
    p.allows(&p.mv("gen", "0707"), "BC-ATT-4");
    let ev = p.apply(&p.mv("gen", "0707"), &[]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Attached { unit, .. } if *unit == p.id("b"))));
    p.refuses(&p.mv("b", "0706"), "BC-ORD-1");
}

#[test]
fn bc_att_5_a_general_that_joined_does_not_move_again() {
    let mut p = moving(&[], &[gen("gen", "0507"), inf("b", "0707")], &["gen", "b"]);
    p.apply(&p.mv("gen", "0707"), &[]);
    p.allows(&p.mv("b", "0706"), "BC-ATT-5");
    let ev = p.apply(&p.mv("b", "0706"), &[]);
    assert!(matches!(&ev[0], Event::Moved { general: None, .. }));
    assert_eq!(
        p.at("gen").as_deref(),
        Some("0707"),
        "the general stays behind"
    );
}

#[test]
fn bc_ter_1_stopping_terrain() {
    // Row 07: woods at 0607, town at 0707... ; the cavalry at 0507 stops on entering.
    for code in ['w', 't', 'm', 'd'] {
        let row: String = format!("....{code}{code}.......");
        let rows = ["", "", "", "", "", "", &row];
        let p = moving(
            &rows,
            &[cav("cav", "0407"), gen("gen", "0408")],
            &["cav", "gen"],
        );
        assert!(p.reach("cav").contains(&"0507".to_owned()));
        p.allows(&p.mv("cav", "0507"), "BC-TER-1");
        // No move passes through it.
        let stops = [p.hex("0507"), p.hex("0607")];
        for r in p.rules.reachable(&p.state, p.id("cav")).unwrap() {
            assert!(
                r.path[..r.path.len() - 1]
                    .iter()
                    .all(|h| !stops.contains(h)),
                "{code}: {:?}",
                r.path
            );
            assert_eq!(r.stop, stops.contains(&r.hex) || r.hex == p.hex("0408"));
        }
        assert!(p
            .rules
            .reachable(&p.state, p.id("gen"))
            .unwrap()
            .iter()
            .any(|r| p.label(r.hex) == "0507" && r.stop));
    }
}

#[test]
fn bc_ter_2_impassable_terrain() {
    let p = moving(
        &["", "", "", "", "", "", "....rx......."],
        &[cav("cav", "0407"), gen("gen", "0408")],
        &["cav", "gen"],
    );
    p.refuses(&p.mv("cav", "0507"), "BC-TER-2");
    p.refuses(&p.mv("cav", "0607"), "BC-TER-2");
    p.refuses(&p.mv("gen", "0507"), "BC-TER-2");
    assert!(p.reach("cav").contains(&"0606".to_owned()), "around");
    assert!(
        !p.reach("cav").contains(&"0707".to_owned()),
        "three hexes straight, four around"
    );
}

#[test]
fn bc_ter_6_no_battle_after_wading() {
    let mut p = moving(
        &["", "", "", "", "", "", "....d........"],
        &[
            inf("inf", "0407"),
            inf("inf2", "0607"),
            grey("foe", "infantry", "0506"),
        ],
        &["inf", "inf2"],
    );
    p.allows(&p.mv("inf", "0507"), "BC-TER-6");
    p.apply(&p.mv("inf", "0507"), &[]);
    p.apply(&Action::DoneMoving, &[]);
    p.refuses(&p.battle("inf", "foe"), "BC-TER-6");
    assert!(p.is_legal(&p.battle("inf2", "foe")));
}
