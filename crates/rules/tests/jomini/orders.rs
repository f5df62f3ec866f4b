//! Order tokens and manoeuvre orders (a test per rule ID).

use super::harness::{Pos, LETTER, U};
use grognard_rules::jomini::{Action, OrderKind, Phase};

const GEN: U<'static> = ("b-gen", "blue", "officer", "0707", "weight = \"light\"");

fn order(p: &Pos, order: OrderKind, unit: Option<&str>, hexes: Option<u8>) -> Action {
    Action::Order {
        order,
        unit: unit.map(|u| p.id(u)),
        hexes,
    }
}

#[test]
fn jo_ord_1_tokens_start_at_the_commanders_level() {
    let b = grognard_rules::builtin::find("passage-of-the-saale").unwrap();
    let s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .unwrap();
    let p = Pos::at_start(&s);
    assert_eq!(p.state.tokens, [3, 2]);
    let mut q = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
        ],
        "",
    );
    q.state.tokens[0] = 1;
    q.activate(&["b-gen", "b-a"]);
    q.refused_first(
        &order(&q, OrderKind::ForcedMarch, Some("b-a"), None),
        "JO-ORD-1",
    );
    q.refused_first(
        &order(&q, OrderKind::GeneralAssault, None, None),
        "JO-ORD-1",
    );
}

#[test]
fn jo_ord_2_each_order_letter_rolled_is_a_token() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0606", "weight = \"light\""),
            ("r-a", "red", "infantry", "0605", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    let before = p.state.tokens[0];
    p.apply(&p.attack("b-a", "r-a"), &[LETTER, LETTER, LETTER]);
    assert_eq!(p.state.tokens[0], before + 3);
}

#[test]
fn jo_ord_3_one_manoeuvre_order_a_turn_in_the_command_phase() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
            ("b-b", "blue", "infantry", "0806", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a", "b-b"]);
    p.allows(
        &order(&p, OrderKind::ForcedMarch, Some("b-a"), None),
        "JO-ORD-3",
    );
    p.ok(&order(&p, OrderKind::ForcedMarch, Some("b-a"), None));
    p.refused_first(
        &order(&p, OrderKind::ForcedMarch, Some("b-b"), None),
        "JO-ORD-3",
    );
    p.state.ordered = false;
    p.phase(Phase::Movement);
    p.refused_first(
        &order(&p, OrderKind::ForcedMarch, Some("b-b"), None),
        "JO-ORD-3",
    );
}

#[test]
fn jo_ord_4_mount_or_dismount() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            (
                "b-d",
                "blue",
                "infantry",
                "0706",
                "weight = \"light\", mounts = \"horses\"",
            ),
            ("b-a", "blue", "infantry", "0806", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-d", "b-a"]);
    p.refused_first(&order(&p, OrderKind::Mount, Some("b-a"), None), "JO-ORD-4");
    // A unit id no scenario has (a forged request) is refused, not a panic.
    let forged = Action::Order {
        order: OrderKind::Mount,
        unit: Some(grognard_engine::UnitId(999)),
        hexes: None,
    };
    p.refused_first(&forged, "JO-ORD-4");
    p.allows(&order(&p, OrderKind::Mount, Some("b-d"), None), "JO-ORD-4");
    let before = p.state.tokens[0];
    p.ok(&order(&p, OrderKind::Mount, Some("b-d"), None));
    assert!(p.state.pieces[p.id("b-d").index()].mounted);
    assert_eq!(p.state.tokens[0], before - 1);
}

#[test]
fn jo_ord_5_reconnaissance_a_light_unit_scouts() {
    let mut p = Pos::new(
        &[],
        &[
            ("b-lt", "blue", "cavalry", "0206", "weight = \"light\""),
            ("b-hv", "blue", "cavalry", "0306", "weight = \"heavy\""),
            ("r-a", "red", "infantry", "0204", "weight = \"light\""),
        ],
        "",
    );
    p.refused_first(
        &order(&p, OrderKind::Reconnaissance, Some("b-hv"), None),
        "JO-ORD-5",
    );
    p.ok(&order(&p, OrderKind::Reconnaissance, Some("b-lt"), None));
    p.ok(&Action::EndCommand);
    p.ok(&p.mv("b-lt", "0205"));
    p.ok(&Action::EndMovement);
    p.refused_first(&p.attack("b-lt", "r-a"), "JO-ORD-5");
}

#[test]
fn jo_ord_6_forced_march_one_more_hex_and_it_may_fight() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0607", "weight = \"medium\""),
            ("r-a", "red", "infantry", "0603", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    p.ok(&order(&p, OrderKind::ForcedMarch, Some("b-a"), None));
    p.ok(&Action::EndCommand);
    p.allows(&p.mv("b-a", "0605"), "JO-ORD-6");
    assert!(
        p.reach("b-a").contains(&"0604".to_owned()),
        "1/2 + 1 = 3 hexes"
    );
    p.ok(&p.mv("b-a", "0605"));
    p.ok(&Action::EndMovement);
    p.allows(&p.attack("b-a", "r-a"), "JO-COM-2");
}

#[test]
fn jo_ord_7_woods_runner_difficult_terrain_as_clear() {
    let woods = ["", "", "", "", "", "wwwwwwwwwwwww", "", "", ""];
    let mut p = Pos::new(
        &woods,
        &[
            GEN,
            ("b-a", "blue", "infantry", "0607", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    let before = p.state.tokens[0];
    p.allows(
        &order(&p, OrderKind::WoodsRunner, Some("b-a"), Some(1)),
        "JO-ORD-7",
    );
    p.refused_first(
        &order(&p, OrderKind::WoodsRunner, Some("b-a"), None),
        "JO-ORD-7",
    );
    p.ok(&order(&p, OrderKind::WoodsRunner, Some("b-a"), Some(1)));
    assert_eq!(p.state.tokens[0], before - 2);
    p.ok(&Action::EndCommand);
    assert!(
        p.reach("b-a").contains(&"0605".to_owned()),
        "through the woods: {:?}",
        p.reach("b-a")
    );
    p.allows(&p.mv("b-a", "0605"), "JO-ORD-7");
}

#[test]
fn jo_ord_8_courier_activates_one_more_unit_of_any_kind_anywhere() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
            ("b-far", "blue", "cavalry", "0102", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    p.allows(
        &order(&p, OrderKind::Courier, Some("b-far"), None),
        "JO-ORD-8",
    );
    p.ok(&order(&p, OrderKind::Courier, Some("b-far"), None));
    p.ok(&Action::EndCommand);
    p.ok(&p.mv("b-far", "0202"));
}

#[test]
fn jo_ord_9_combined_attack_mixes_kinds() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
            ("b-cav", "blue", "cavalry", "0806", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    p.refused_first(
        &Action::Activate {
            unit: p.id("b-cav"),
        },
        "JO-CMD-2",
    );
    p.ok(&order(&p, OrderKind::CombinedAttack, Some("b-gen"), None));
    p.allows(
        &Action::Activate {
            unit: p.id("b-cav"),
        },
        "JO-ORD-9",
    );
}

#[test]
fn jo_ord_10_manoeuvre_units_anywhere() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-far", "blue", "infantry", "0102", "weight = \"light\""),
        ],
        "",
    );
    p.activate(&["b-gen"]);
    p.refused_first(
        &Action::Activate {
            unit: p.id("b-far"),
        },
        "JO-CMD-3",
    );
    p.refused_first(
        &order(&p, OrderKind::Manoeuvre, Some("b-far"), None),
        "JO-ORD-10",
    );
    p.ok(&order(&p, OrderKind::Manoeuvre, Some("b-gen"), None));
    p.allows(
        &Action::Activate {
            unit: p.id("b-far"),
        },
        "JO-ORD-10",
    );
}

#[test]
fn jo_ord_11_forward_march_for_all_the_officers_units() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0607", "weight = \"medium\""),
            ("b-b", "blue", "infantry", "0807", "weight = \"medium\""),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    p.ok(&order(&p, OrderKind::ForwardMarch, Some("b-gen"), None));
    p.ok(&Action::Activate { unit: p.id("b-b") });
    p.ok(&Action::EndCommand);
    let from = p.hex("0807");
    assert!(p.reach("b-b").iter().any(|l| from.distance(p.hex(l)) == 3));
    p.allows(&p.mv("b-a", "0605"), "JO-ORD-11");
}

#[test]
fn jo_ord_12_general_assault_a_second_command_phase() {
    let mut p = Pos::new(
        &[],
        &[
            GEN,
            ("b-a", "blue", "infantry", "0706", "weight = \"light\""),
            ("b-gen2", "blue", "officer", "0103", "weight = \"light\""),
            ("b-b", "blue", "infantry", "0203", "weight = \"light\""),
        ],
        "",
    );
    p.ok(&order(&p, OrderKind::GeneralAssault, None, None));
    assert_eq!(p.state.tokens[0], 10);
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p.allows(&Action::EndTurn, "JO-ORD-12");
    p.ok(&Action::EndTurn);
    assert_eq!(p.state.phase, Phase::Command);
    assert_eq!(p.state.active, 0, "still blue's turn");
    p.refused_first(&Action::Activate { unit: p.id("b-a") }, "JO-CMD-4");
    p.activate(&["b-gen2", "b-b"]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p.ok(&Action::EndTurn);
    assert_eq!(p.state.active, 1);
}
