//! The command phase: activations (a test per rule ID).

use super::harness::{Pos, U};
use grognard_rules::jomini::command::activations;
use grognard_rules::jomini::Action;

fn inf<'a>(id: &'a str, hex: &'a str) -> U<'a> {
    (id, "blue", "infantry", hex, "weight = \"medium\"")
}

#[test]
fn jo_cmd_1_activations_by_army_size() {
    // 2 blue units (the reserves) + 7 = 9: one activation of 3.
    let small: Vec<U<'_>> = ["0606", "0706", "0806", "0506", "0607", "0807", "0507"]
        .iter()
        .enumerate()
        .map(|(i, h)| {
            (
                ["b1", "b2", "b3", "b4", "b5", "b6", "b7"][i],
                "blue",
                "infantry",
                *h,
                "weight = \"medium\"",
            )
        })
        .chain([("b-gen", "blue", "officer", "0707", "weight = \"light\"")])
        .collect();
    let mut p = Pos::new(&[], &small, "");
    assert_eq!(activations(&p.rules, &p.state, 0), (1, 3));
    p.activate(&["b-gen", "b1", "b2", "b3"]);
    p.refused_first(&Action::Activate { unit: p.id("b4") }, "JO-CMD-1");
    // A second officer: no second activation for an army of 9.
    let mut more = small.clone();
    more.push(("b-gen2", "blue", "officer", "0708", "weight = \"light\""));
    more.push(inf("b8", "0808"));
    let mut q = Pos::new(&[], &more, "");
    assert_eq!(activations(&q.rules, &q.state, 0), (1, 4));
    q.activate(&["b-gen"]);
    q.refused_first(
        &Action::Activate {
            unit: q.id("b-gen2"),
        },
        "JO-CMD-1",
    );
    let data = grognard_rules::jomini::data::Data::shipped();
    assert_eq!(
        (
            data.command.armies[2].activations,
            data.command.armies[2].units
        ),
        (2, 3)
    );
}

#[test]
fn jo_cmd_2_one_kind_of_troops_per_activation() {
    let units = [
        ("b-gen", "blue", "officer", "0707", "weight = \"light\""),
        inf("b-inf", "0706"),
        (
            "b-guns",
            "blue",
            "foot_artillery",
            "0606",
            "weight = \"light\"",
        ),
        ("b-cav", "blue", "cavalry", "0806", "weight = \"light\""),
        (
            "b-hg",
            "blue",
            "horse_artillery",
            "0808",
            "weight = \"light\"",
        ),
    ];
    let mut p = Pos::new(&[], &units, "");
    p.activate(&["b-gen", "b-inf"]);
    p.allows(
        &Action::Activate {
            unit: p.id("b-guns"),
        },
        "JO-CMD-2",
    );
    p.refused_first(
        &Action::Activate {
            unit: p.id("b-cav"),
        },
        "JO-CMD-2",
    );
    let mut q = Pos::new(&[], &units, "");
    q.activate(&["b-gen", "b-cav", "b-hg"]);
    q.refused_first(
        &Action::Activate {
            unit: q.id("b-inf"),
        },
        "JO-CMD-2",
    );
    let mut r = Pos::new(&[], &units, "");
    r.activate(&["b-gen", "b-guns", "b-hg"]);
}

#[test]
fn jo_cmd_3_an_officer_leads_units_within_its_radius() {
    let units = [
        ("b-gen", "blue", "officer", "0707", "weight = \"light\""),
        inf("b-near", "0704"),
        inf("b-far", "0703"),
    ];
    let mut p = Pos::new(&[], &units, "");
    let msg = p.refused_first(
        &Action::Activate {
            unit: p.id("b-near"),
        },
        "JO-CMD-3",
    );
    assert!(msg.contains("officer first"), "{msg}");
    p.allows(
        &Action::Activate {
            unit: p.id("b-gen"),
        },
        "JO-CMD-3",
    );
    p.activate(&["b-gen", "b-near"]);
    p.refused_first(
        &Action::Activate {
            unit: p.id("b-far"),
        },
        "JO-CMD-3",
    );
}

#[test]
fn jo_cmd_4_once_activated_a_turn() {
    let mut p = Pos::new(
        &[],
        &[
            ("b-gen", "blue", "officer", "0707", "weight = \"light\""),
            inf("b-a", "0706"),
        ],
        "",
    );
    p.activate(&["b-gen", "b-a"]);
    p.refused_first(&Action::Activate { unit: p.id("b-a") }, "JO-CMD-4");
    p.refused_first(
        &Action::Activate {
            unit: p.id("b-gen"),
        },
        "JO-CMD-4",
    );
}
