//! Retreats (a test per rule ID).

use super::harness::{Pos, CAV, FLAG, LETTER, U};
use grognard_rules::jomini::{Action, Pending};

const GEN: U<'static> = ("b-gen", "blue", "officer", "0707", "weight = \"light\"");

fn fighting(units: &[U<'_>], attacker: &str) -> Pos {
    let mut all = vec![GEN];
    all.extend_from_slice(units);
    let mut p = Pos::new(&[], &all, "");
    p.activate(&["b-gen", attacker]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p
}

#[test]
fn jo_ret_1_one_hex_a_flag_on_foot_two_mounted() {
    let mut p = fighting(
        &[
            ("b-a", "blue", "infantry", "0606", "weight = \"medium\""),
            ("r-a", "red", "infantry", "0605", "weight = \"medium\""),
        ],
        "b-a",
    );
    p.apply(&p.attack("b-a", "r-a"), &[FLAG, LETTER, LETTER]);
    assert!(matches!(
        p.state.pending,
        Some(Pending::Retreat { hexes: 1, .. })
    ));
    let mut q = fighting(
        &[
            ("b-a", "blue", "infantry", "0606", "weight = \"medium\""),
            ("r-c", "red", "cavalry", "0605", "weight = \"light\""),
        ],
        "b-a",
    );
    q.apply(&q.attack("b-a", "r-c"), &[FLAG, LETTER, LETTER]);
    assert!(matches!(
        q.state.pending,
        Some(Pending::Retreat { hexes: 2, .. })
    ));
    let to = Action::Retreat {
        unit: q.id("r-c"),
        to: q.hex("0603"),
    };
    q.allows(&to, "JO-RET-1");
    q.ok(&to);
    assert_eq!(q.strength("r-c"), 3);
    let _ = CAV;
}

#[test]
fn jo_ret_2_toward_its_own_edge_the_owner_choosing() {
    let mut p = fighting(
        &[
            ("b-a", "blue", "infantry", "0606", "weight = \"medium\""),
            ("r-a", "red", "infantry", "0605", "weight = \"medium\""),
            ("r-b", "red", "infantry", "0604", "weight = \"medium\""),
        ],
        "b-a",
    );
    p.apply(&p.attack("b-a", "r-a"), &[FLAG, LETTER, LETTER]);
    let decision = p.to_act().unwrap();
    assert_eq!(
        (
            decision.side.as_str(),
            decision.kind.as_str(),
            decision.reaction
        ),
        ("red", "retreat", true)
    );
    // North of 0605 (odd row): 0504 and 0604; 0604 is held.
    p.refused_first(
        &Action::Retreat {
            unit: p.id("r-a"),
            to: p.hex("0604"),
        },
        "JO-RET-2",
    );
    p.refused_first(
        &Action::Retreat {
            unit: p.id("r-a"),
            to: p.hex("0606"),
        },
        "JO-RET-2",
    );
    p.refused_first(&Action::EndTurn, "JO-RET-2");
    p.ok(&Action::Retreat {
        unit: p.id("r-a"),
        to: p.hex("0504"),
    });
    assert_eq!(p.at("r-a").as_deref(), Some("0504"));
}
