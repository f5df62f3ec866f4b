//! The combat phase: the die, dice by troop type, line of fire, terrain, support, losses
//! and the exact preview (a test per rule ID).

use super::harness::{Pos, ADV, ART, CAV, FLAG, INF, LETTER, U};
use grognard_engine::Ruleset;
use grognard_rules::jomini::data::{Data, Face};
use grognard_rules::jomini::{Action, Event};

const GEN: U<'static> = ("b-gen", "blue", "officer", "0707", "weight = \"light\"");

/// Blue's `attacker` activated, in the combat phase, against `units`.
fn fighting(terrain: &[&str], units: &[U<'_>], attacker: &str) -> Pos {
    let mut all = vec![GEN];
    all.extend_from_slice(units);
    let mut p = Pos::new(terrain, &all, "");
    p.activate(&["b-gen", attacker]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p
}

/// Blue's infantry `b-a` at 0606 activated, in the combat phase, against `units`.
fn b_a_against(terrain: &[&str], units: &[U<'_>]) -> Pos {
    let mut all = vec![inf("b-a", "blue", "0606")];
    all.extend_from_slice(units);
    fighting(terrain, &all, "b-a")
}

fn inf<'a>(id: &'a str, side: &'a str, hex: &'a str) -> U<'a> {
    (id, side, "infantry", hex, "weight = \"medium\"")
}

/// A light foot battery.
fn battery<'a>(id: &'a str, side: &'a str, hex: &'a str) -> U<'a> {
    (id, side, "foot_artillery", hex, "weight = \"light\"")
}

/// The dice an attack would roll, from its preview.
fn roll(p: &Pos, unit: &str, target: &str) -> String {
    p.rules
        .preview(&p.state, &p.attack(unit, target))
        .unwrap()
        .roll
}

#[test]
fn jo_die_1_six_symbols_rolled_through_the_engine() {
    let d = Data::shipped();
    assert_eq!(
        d.die.faces,
        [
            Face::Infantry,
            Face::Cavalry,
            Face::Artillery,
            Face::Flag,
            Face::Letter,
            Face::Advantage
        ]
    );
    let mut p = b_a_against(&[], &[inf("r-a", "red", "0605")]);
    p.apply(&p.attack("b-a", "r-a"), &[ART, CAV, LETTER]);
    let rolls = p
        .events
        .iter()
        .filter(
            |e| matches!(e, Event::Roll(r) if r.sides == 6 && r.purpose.starts_with("JO-DIE-1")),
        )
        .count();
    assert_eq!(rolls, 3);
    let Some(Event::Attacked { faces, .. }) = p
        .events
        .iter()
        .find(|e| matches!(e, Event::Attacked { .. }))
    else {
        panic!()
    };
    assert_eq!(faces, &[Face::Artillery, Face::Cavalry, Face::Letter]);
}

#[test]
fn jo_com_1_activated_units_attack_once_officers_never() {
    let mut p = b_a_against(
        &[],
        &[
            inf("b-idle", "blue", "0806"),
            inf("r-a", "red", "0605"),
            inf("r-b", "red", "0805"),
        ],
    );
    p.refused_first(&p.attack("b-idle", "r-b"), "JO-COM-1");
    p.refused_first(
        &Action::Attack {
            unit: p.id("b-gen"),
            target: p.id("r-a"),
        },
        "JO-COM-1",
    );
    p.refused_first(&p.attack("b-a", "b-idle"), "JO-COM-1");
    p.apply(&p.attack("b-a", "r-a"), &[LETTER, LETTER, LETTER]);
    p.refused_first(&p.attack("b-a", "r-a"), "JO-COM-1");
}

#[test]
fn jo_com_2_dice_by_troop_type_and_distance() {
    let p = b_a_against(
        &[],
        &[
            inf("r-near", "red", "0605"),
            inf("r-2", "red", "0804"),
            inf("r-3", "red", "0603"),
        ],
    );
    assert_eq!(roll(&p, "b-a", "r-near"), "3 combat dice");
    let q = b_a_against(&[], &[inf("r-2", "red", "0604"), inf("r-3", "red", "0603")]);
    assert_eq!(roll(&q, "b-a", "r-2"), "2 combat dice");
    q.refused_first(&q.attack("b-a", "r-3"), "JO-COM-2");
}

#[test]
fn jo_com_3_a_line_of_fire_is_blocked_by_woods_and_units() {
    let p = fighting(
        &["", "", "", "", "", "", "", "", ""],
        &[
            battery("b-g", "blue", "0406"),
            inf("b-x", "blue", "0506"),
            inf("r-a", "red", "0606"),
        ],
        "b-g",
    );
    p.refused_first(&p.attack("b-g", "r-a"), "JO-COM-3");
    let q = fighting(
        &["", "", "", "", "", "wwwwwwwwwwwww", "", "", ""],
        &[battery("b-g", "blue", "0608"), inf("r-a", "red", "0604")],
        "b-g",
    );
    q.refused_first(&q.attack("b-g", "r-a"), "JO-COM-3");
    let r = fighting(
        &[],
        &[battery("b-g", "blue", "0608"), inf("r-a", "red", "0604")],
        "b-g",
    );
    r.allows(&r.attack("b-g", "r-a"), "JO-COM-3");
}

#[test]
fn jo_com_4_a_unit_in_contact_fights_the_enemy_in_contact() {
    let p = b_a_against(
        &[],
        &[inf("r-near", "red", "0506"), inf("r-far", "red", "0604")],
    );
    p.refused_first(&p.attack("b-a", "r-far"), "JO-COM-4");
    p.allows(&p.attack("b-a", "r-near"), "JO-COM-2");
}

#[test]
fn jo_com_5_terrain_shelters_the_target() {
    let p = b_a_against(
        &["", "", "", "", "......w", "", "", "", ""],
        &[inf("r-a", "red", "0605"), inf("r-w", "red", "0705")],
    );
    p.allows(&p.attack("b-a", "r-w"), "JO-COM-5");
    assert_eq!(roll(&p, "b-a", "r-w"), "2 combat dice");
}

#[test]
fn jo_com_6_hits_by_symbol_and_tactical_advantage_at_close_quarters() {
    let mut p = b_a_against(&[], &[inf("r-a", "red", "0605")]);
    p.apply(&p.attack("b-a", "r-a"), &[INF, ADV, CAV]);
    assert_eq!(p.strength("r-a"), 2);
    // At range, tactical advantage does not hit.
    let mut q = b_a_against(&[], &[inf("r-a", "red", "0604")]);
    q.apply(&q.attack("b-a", "r-a"), &[ADV, INF]);
    assert_eq!(q.strength("r-a"), 3);
    // An officer alone is hit by tactical advantage only.
    let mut r = b_a_against(
        &[],
        &[("r-gen", "red", "officer", "0605", "weight = \"light\"")],
    );
    r.allows(&r.attack("b-a", "r-gen"), "JO-COM-2");
    r.apply(&r.attack("b-a", "r-gen"), &[INF, INF, ADV]);
    assert_eq!(r.at("r-gen"), None);
    assert_eq!(r.state.eliminated, [0, 0], "an officer is not a unit");
}

#[test]
fn jo_com_7_losses_and_elimination() {
    let mut p = b_a_against(&[], &[battery("r-g", "red", "0605")]);
    p.apply(&p.attack("b-a", "r-g"), &[ART, ART, ART]);
    assert_eq!(p.at("r-g"), None);
    assert_eq!(p.state.eliminated[0], 1);
    assert!(p
        .events
        .iter()
        .any(|e| matches!(e, Event::Eliminated { rule, .. } if rule == "JO-COM-7")));
}

#[test]
fn jo_com_9_two_adjacent_friends_support_a_unit() {
    let mut p = b_a_against(
        &[],
        &[
            inf("r-a", "red", "0605"),
            inf("r-b", "red", "0505"),
            inf("r-c", "red", "0705"),
        ],
    );
    p.allows(&p.attack("b-a", "r-a"), "JO-COM-9");
    p.apply(&p.attack("b-a", "r-a"), &[FLAG, LETTER, LETTER]);
    assert!(p.state.pending.is_none(), "the only flag is ignored");
    assert_eq!(p.at("r-a").as_deref(), Some("0605"));
}

#[test]
fn jo_com_10_infantry_in_a_built_up_area_is_always_supported() {
    let mut p = b_a_against(
        &["", "", "", "", "......v", "", "", "", ""],
        &[inf("r-a", "red", "0705")],
    );
    p.allows(&p.attack("b-a", "r-a"), "JO-COM-10");
    p.apply(&p.attack("b-a", "r-a"), &[FLAG, LETTER]);
    assert!(p.state.pending.is_none());
}

#[test]
fn jo_com_11_the_preview_is_the_exact_distribution() {
    let p = b_a_against(&[], &[inf("r-a", "red", "0605")]);
    let pre = p.rules.preview(&p.state, &p.attack("b-a", "r-a")).unwrap();
    // 3 dice; against infantry at close quarters 2 faces hit (infantry, advantage).
    // No hit, no flag, no letter: 2 faces (cavalry, artillery) on each die: 8 / 216.
    let quiet = pre
        .outcomes
        .iter()
        .find(|c| c.result["lost"] == 0 && c.result["flags"] == 0 && c.result["tokens"] == 0)
        .unwrap();
    assert_eq!((quiet.num, quiet.den), (1, 27));
    let total: f64 = pre.outcomes.iter().map(|c| c.p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!(p.rules.preview(&p.state, &Action::EndTurn).is_err());
}
