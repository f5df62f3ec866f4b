//! Reactions (SK-MOV-2, SK-SHM-1 to SK-SHM-4 in `docs/rules/skirmish.md`): the
//! passive side's short moves, and the attacks the active side makes on them.

use super::harness::{has, open, with};
use grognard_rules::skirmish::{Action, AttackKind, Event, Phase};

#[test]
fn sk_shm_1_a_short_move_is_a_reaction() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0402", "s")
        .game();
    // Not outside a window.
    let a = t.short("b-a", "0403", "s");
    assert_eq!(t.refused(a), "SK-MOV-2");
    t.go("r-a", "0405").unwrap();
    assert!(t.legal().contains(&t.short("b-a", "0403", "s")));
    // Only the passive side reacts.
    let own = t.short("r-a", "0404", "n");
    assert_eq!(t.refused(own), "SK-MOV-2");
    let ev = t.react("b-a", "0403", "s").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Moved { to, .. } if *to == t.hex("0403"))
    ));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Spent { action, rule, .. } if action == "quick_action" && rule == "SK-MOV-2")
    ));
}

#[test]
fn sk_shm_2_finesse_halved_and_at_least_a_turn() {
    let base = open(9, 9)
        .sword("r-a", "0508", "n")
        .sword("b-three", "0203", "s")
        .ch("b-one", "0503", "s", &with("finesse = 1"))
        .ch("b-four", "0803", "s", &with("finesse = 4"));
    let mut t = base.game();
    t.go("r-a", "0507").unwrap();
    let legal = t.legal();
    let ends = |id: &str| -> Vec<String> {
        let mut v: Vec<String> = legal
            .iter()
            .filter_map(|a| match a {
                Action::ShortMove { unit, to, .. } if *unit == t.id(id) => Some(t.label(*to)),
                _ => None,
            })
            .collect();
        v.sort();
        v.dedup();
        v
    };
    // Finesse 3: 1 point: its own hex (to turn) or a front hex.
    let front: Vec<String> = ["s", "se", "sw"].iter().map(|d| t.nb("0203", d)).collect();
    let mut expect = front.clone();
    expect.push("0203".into());
    expect.sort();
    assert_eq!(ends("b-three"), expect);
    // Finesse 1: no points, it may at least change facing.
    assert_eq!(ends("b-one"), vec!["0503".to_owned()]);
    assert!(t.legal().contains(&t.short("b-one", "0503", "se")));
    assert!(
        !t.legal().contains(&t.short("b-one", "0503", "s")),
        "a reaction that does nothing"
    );
    // Finesse 4: 2 points, two hexes ahead or one behind.
    let four = ends("b-four");
    assert!(four.contains(&"0805".to_owned()), "{four:?}");
    assert!(four.contains(&"0802".to_owned()), "one step back for 2");
    assert!(!four.contains(&"0801".to_owned()));
}

#[test]
fn sk_shm_3_one_action_ending_where_and_how_it_faces() {
    let mut t = open(9, 9)
        .sword("r-a", "0508", "n")
        .ch("b-a", "0503", "s", &with("finesse = 4"))
        .sword("b-b", "0504", "s")
        .sword("b-c", "0303", "s")
        .game();
    t.go("r-a", "0507").unwrap();
    // Through a friend like a walk (SK-MOV-11), never through an enemy, never ending in
    // a friend's hex.
    assert!(t.legal().contains(&t.short("b-a", "0505", "s")));
    let onto = t.short("b-a", "0504", "s");
    assert_eq!(t.refused(onto), "SK-MOV-11");
    // It ends where it is told, facing as it is told.
    t.react("b-a", "0603", "sw").unwrap();
    assert_eq!(
        (t.at("b-a").as_deref(), t.facing("b-a")),
        (Some("0603"), "sw")
    );
    // A Panicked character does not react.
    t.set("b-c", |c| c.panicked = true);
    let a = t.short("b-c", "0304", "s");
    assert_eq!(t.refused(a), "SK-SHM-3");
}

#[test]
fn sk_mov_19_the_active_sides_attacks_on_a_reaction_come_at_once() {
    // b-a stands next to the red guard r-g; when it reacts by stepping away, r-g strikes
    // at once: red is not asked.
    let mut t = open(9, 9)
        .sword("r-a", "0808", "n")
        .sword("r-g", "0305", "n")
        .ch("b-a", "0304", "s", &with("finesse = 4"))
        .game();
    t.go("r-a", "0807").unwrap();
    t.set("b-a", |c| c.facing = grognard_hex::Direction::N);
    t.force(&[1]);
    let ev = t.react("b-a", "0302", "s").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Attacked { unit, kind: AttackKind::Opportunity, .. } if *unit == t.id("r-g"))
        ),
        "{ev:?}"
    );
    assert_eq!(t.c("r-g").ripostes, 1);
    assert_eq!(t.at("b-a").as_deref(), Some("0302"));
    // A daze stops the short move where it is.
    let mut u = open(9, 9)
        .sword("r-a", "0808", "n")
        .sword("r-g", "0305", "n")
        .ch("b-a", "0304", "s", &with("finesse = 4"))
        .game();
    u.go("r-a", "0807").unwrap();
    u.set("b-a", |c| c.facing = grognard_hex::Direction::N);
    u.force(&[6]);
    let ev = u.react("b-a", "0302", "s").unwrap();
    assert!(u.c("b-a").dazed, "{ev:?}");
    assert_eq!(u.at("b-a").as_deref(), Some("0304"));
}

#[test]
fn sk_act_2_the_quick_action_pays_for_one_reaction() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0402", "s")
        .sword("b-b", "0602", "s")
        .game();
    t.go("r-a", "0405").unwrap();
    t.react("b-a", "0402", "se").unwrap();
    // Still open for b-b; b-a has spent its Quick Action.
    let again = t.short("b-a", "0402", "s");
    assert_eq!(t.refused(again), "SK-ACT-2");
    t.pass().unwrap();
    // It comes back at the start of blue's active turn.
    t.end();
    t.to("blue", grognard_rules::skirmish::Phase::Movement);
    assert!(t.c("b-a").quick);
}

#[test]
fn the_computer_reacts_when_a_flank_is_turned() {
    // r-a walks round b-a's flank; the computer, deciding for blue, turns to face it.
    let mut t = open(9, 9)
        .sword("r-a", "0306", "n")
        .sword("b-a", "0504", "n")
        .game();
    t.go("r-a", "0305").unwrap();
    t.pass_all();
    t.go("r-a", "0404").unwrap();
    let (side, kind, _) = t.deciding();
    assert_eq!((side.as_str(), kind.as_str()), ("blue", "reaction"));
    let config = grognard_engine::ai::AiConfig {
        samples: 2,
        budget: std::time::Duration::from_secs(5),
        seed: 1,
    };
    let choice = grognard_engine::ai::choose(&*t.rules, t.state(), config).unwrap();
    assert!(matches!(choice, Action::ShortMove { .. }), "{choice:?}");
}

#[test]
fn sk_shm_4_a_maneuver_spends_the_melee_action_on_a_short_move() {
    // r-a (Finesse 4: 2 points) stands next to b-a; in red's melee phase it steps back
    // out of contact instead of attacking, and b-a strikes it at once as it leaves.
    let mut t = open(8, 8)
        .ch("r-a", "0405", "n", &with("finesse = 4"))
        .sword("r-b", "0108", "n")
        .sword("b-a", "0404", "s")
        .game();
    let back = Action::Maneuver {
        unit: t.id("r-a"),
        to: t.hex("0406"),
    };
    // Not in the movement phase.
    assert_eq!(t.refused(back.clone()), "SK-SHM-4");
    t.to("red", Phase::Melee);
    // Only an Engaged character maneuvers.
    let far = Action::Maneuver {
        unit: t.id("r-b"),
        to: t.hex("0107"),
    };
    assert_eq!(t.refused(far), "SK-SHM-4");
    // A Maneuver moves: turning is free anyway.
    let stay = Action::Maneuver {
        unit: t.id("r-a"),
        to: t.hex("0405"),
    };
    assert_eq!(t.refused(stay), "SK-ACT-4");
    t.force(&[1]);
    let ev = t.act(&back).unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Spent { unit, action, rule } if *unit == t.id("r-a") && action == "melee_action" && rule == "SK-SHM-4")
    ));
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Attacked { unit, kind: AttackKind::Opportunity, .. } if *unit == t.id("b-a"))
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("r-a").as_deref(), Some("0406"));
    assert_eq!(t.facing("r-a"), "n", "it keeps its facing");
    // The Melee Action is spent: no attack, no second Maneuver.
    let hit = t.attack_action("r-a", "b-a");
    assert_eq!(t.refused(hit), "SK-ACT-1");
}
