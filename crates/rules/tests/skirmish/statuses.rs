//! Statuses (`docs/rules/skirmish.md`, recovered: Dazed, Panicked, Berserk, Wounded,
//! Encumbered; out of action).

use super::harness::{face_to_face, has, open, with};
use grognard_rules::skirmish::{Action, Event, Phase};

#[test]
fn sk_sta_1_dazed() {
    let mut t = face_to_face(8).game();
    t.set("r-a", |c| c.dazed = true);
    assert_eq!(t.refused_step("r-a", "0406"), "SK-MOV-5");
    assert_eq!(t.view("r-a")["actions"]["melee"], false);
    // Nobody else can attack: red's melee phase passes by itself; the morale phase
    // leaves r-a Dazed on a 1 (1 + 2 - 3 = 0).
    t.force(&[1]);
    t.end();
    assert!(t.c("r-a").dazed);
    assert_eq!(t.active(), "blue");
    // In blue's turn the Dazed r-a neither strikes b-a leaving its zone nor reacts.
    let ev = t.go("b-a", "0403").unwrap();
    assert!(
        !has(&ev, |e| matches!(e, Event::WindowOpened { .. })),
        "a Dazed character neither strikes nor reacts: {ev:?}"
    );
}

#[test]
fn sk_sta_2_panicked_flee_by_the_shortest_route() {
    // b-p panicked at 0403: blue's home edge is north, three rows up.
    let mut t = open(8, 8)
        .sword("r-a", "0707", "n")
        .sword("b-p", "0403", "s")
        .sword("b-b", "0203", "s")
        .game();
    t.set("b-p", |c| c.panicked = true);
    // Red's morale phase: b-p stays Panicked on a 1.
    t.force(&[1]);
    t.to("blue", Phase::Movement);
    assert_eq!(t.mp("b-p"), 8, "Finesse + 3 + Morale");
    assert_eq!(t.refused(Action::EndPhase), "SK-STA-2");
    assert_eq!(t.refused_step("b-b", "0202"), "SK-STA-2");
    assert_eq!(
        t.refused_step("b-p", "0404"),
        "SK-STA-2",
        "away from the edge"
    );
    let a = Action::Move {
        unit: t.id("b-p"),
        to: t.hex("0402"),
        evasive: true,
    };
    assert_eq!(t.refused(a), "SK-MOV-15");
    t.walk("b-p", &["0402"]);
    assert_eq!(t.facing("b-p"), "n", "it runs facing its route");
    t.walk("b-p", &["0401"]);
    let ev = t.act(&Action::Flee { unit: t.id("b-p") }).unwrap();
    assert!(has(&ev, |e| matches!(e, Event::Fled { .. })));
    assert_eq!(t.at("b-p"), None);
    assert!(t.has_status("b-p", "fled"));
    assert!(t.go("b-b", "0202").is_ok());
    let v = grognard_engine::Ruleset::view(&*t.rules, t.state(), &grognard_engine::Seat::Spectator);
    assert_eq!(v["points"]["red"], 1);
}

#[test]
fn sk_sta_3_berserk() {
    let mut t = open(8, 8)
        .sword("r-a", "0405", "n")
        .sword("b-near", "0404", "s")
        .ch("b-far", "0604", "s", &with("weapon = \"spear\""))
        .game();
    t.set("r-a", |c| c.berserk = true);
    t.end();
    // It must attack the nearest enemy, before the phase may end.
    let far = t.attack_action("r-a", "b-far");
    assert_eq!(t.refused(far), "SK-STA-3");
    assert_eq!(t.refused(Action::EndPhase), "SK-STA-3");
    // +1 to its attack, -2 to its defense.
    let p = t.preview(&t.attack_action("r-a", "b-near"));
    assert_eq!(p.inputs["attack"]["attack"], 5);
    assert_eq!(p.inputs["counter"]["defense"], 3, "{}", p.inputs);
    // Never Dazed: a 4-point blow (a 6 makes 4 + 6 - 3 = 7) does not daze it.
    t.force(&[1, 6]);
    t.attack("r-a", "b-near").unwrap();
    assert_eq!(t.c("r-a").damage, 4);
    assert!(!t.c("r-a").dazed);
    assert!(!t.end().is_empty());
}

#[test]
fn sk_sta_4_wounded() {
    let mut t = face_to_face(8).game();
    t.end();
    t.set("b-a", |c| c.ripostes = 1);
    // A 6: 3 damage of 6: Wounded (and Dazed by the blow).
    t.force(&[6]);
    let ev = t.attack("r-a", "b-a").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Status { status, on: true, rule, .. } if status == "wounded" && rule == "SK-STA-4")
    ));
    assert!(t.has_status("b-a", "wounded"));
    assert_eq!(t.view("b-a")["allowance"], 4);
    let v = t.view("b-a");
    assert_eq!(v["health"], 6);
}

#[test]
fn sk_sta_5_encumbered() {
    let mut t = open(8, 8)
        .ch("r-a", "0405", "n", &with("encumbered = true"))
        .sword("b-a", "0404", "s")
        .game();
    assert_eq!(t.mp("r-a"), 4);
    assert!(t.has_status("r-a", "encumbered"));
    t.end();
    let p = t.preview(&t.attack_action("r-a", "b-a"));
    assert_eq!(p.inputs["attack"]["attack"], 3);
    assert_eq!(p.inputs["counter"]["defense"], 4);
}

#[test]
fn sk_sta_7_out_of_action() {
    let mut t = face_to_face(9)
        .sword("b-near", "0602", "s")
        .sword("b-far", "0901", "s")
        .game();
    t.set("b-a", |c| {
        c.damage = 4;
        c.ripostes = 1;
    });
    t.end();
    t.force(&[4]);
    let ev = t.attack("r-a", "b-a").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::OutOfAction { rule, .. } if rule == "SK-STA-7")
    ));
    assert_eq!(t.at("b-a"), None);
    assert!(t.c("b-near").shaken, "a friend within 3 hexes saw it fall");
    assert!(!t.c("b-far").shaken);
}
