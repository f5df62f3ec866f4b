//! Ranged combat (SK-MIS-1 to SK-MIS-5 in `docs/rules/skirmish.md`; the rule text names "Reaction Fire", ranged attacks and the
//! "Missile Evasion modifier"; the numbers are provisional, in `data.toml`): the missile
//! phase, what a shooter needs, the shot's totals, reaction fire and missile evasion.

use super::harness::{has, map, open, with, T};
use grognard_hex::Direction;
use grognard_rules::skirmish::{Action, AttackKind, Event, Phase};

fn bow() -> String {
    with("missile = \"bow\"")
}

fn shoot(t: &T, id: &str, target: &str) -> Action {
    Action::Shoot {
        unit: t.id(id),
        target: t.id(target),
    }
}

/// The shot's totals as the preview gives them.
fn totals(t: &T, id: &str, target: &str) -> (i64, i64) {
    let p = t.preview(&shoot(t, id, target));
    let s = &p.inputs["shot"];
    (
        s["attack"].as_i64().unwrap(),
        s["defense"].as_i64().unwrap(),
    )
}

#[test]
fn sk_mis_1_the_missile_phase_opens_the_turn_for_those_who_can_shoot() {
    let mut t = open(8, 10)
        .ch("r-bow", "0409", "n", &bow())
        .sword("b-a", "0403", "s")
        .game();
    assert_eq!(t.state().phase, Phase::Missile);
    assert_eq!(t.deciding(), ("red".into(), "missile".into(), false));
    // Nobody moves in the missile phase.
    assert_eq!(t.refused_step("r-bow", "0408"), "SK-MOV-1");
    // Six hexes: long range, die + 3 against 6; a 6 hits for the bow's 2.
    t.force(&[6]);
    let ev = t.act(&shoot(&t, "r-bow", "b-a")).unwrap();
    assert!(
        has(&ev, |e| matches!(
            e,
            Event::Attacked {
                kind: AttackKind::Missile,
                die: 6,
                attack: 3,
                defense: 6,
                hit: true,
                damage: 2,
                ..
            }
        )),
        "{ev:?}"
    );
    assert!(has(
        &ev,
        |e| matches!(e, Event::Spent { action, rule, .. } if action == "quick_action" && rule == "SK-MIS-1")
    ));
    assert_eq!(t.c("b-a").damage, 2);
    // One shot: the Quick Action is spent.
    let again = shoot(&t, "r-bow", "b-a");
    assert_eq!(t.refused(again), "SK-ACT-2");
    t.end();
    assert_eq!(t.state().phase, Phase::Movement);
    let late = shoot(&t, "r-bow", "b-a");
    assert_eq!(t.refused(late), "SK-MIS-1");
    // Blue has nobody who can shoot: its turn opens with the movement phase.
    t.to("blue", Phase::Movement);
    assert_eq!(t.deciding(), ("blue".into(), "movement".into(), false));
    // Red's next turn opens with the missile phase again, the Quick Action back.
    t.to("red", Phase::Missile);
    assert!(t.c("r-bow").quick);
}

#[test]
fn sk_mis_2_what_a_shooter_needs() {
    let game = |add: &dyn Fn(super::harness::Sk) -> super::harness::Sk| -> T {
        let mut t = add(map(". . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . r . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . .
             . . . . . . . ."))
        .game();
        t.edit(|s| s.phase = Phase::Missile);
        t
    };
    // A missile weapon, within its range.
    let mut t = game(&|s| {
        s.ch("r-bow", "0714", "n", &bow())
            .sword("r-s", "0114", "n")
            .sword("b-far", "0703", "s")
            .sword("b-in", "0705", "s")
    });
    let a = shoot(&t, "r-s", "b-in");
    assert_eq!(t.refused(a), "SK-MIS-2");
    let a = shoot(&t, "r-bow", "b-far");
    assert_eq!(t.refused(a), "SK-MIS-2", "11 hexes: beyond the bow's 10");
    assert!(t.legal().contains(&shoot(&t, "r-bow", "b-in")));
    // Line of sight: rock blocks it (0406), and so does a character.
    let mut t = game(&|s| {
        s.ch("r-bow", "0409", "n", &bow())
            .sword("b-hid", "0403", "s")
    });
    let a = shoot(&t, "r-bow", "b-hid");
    assert_eq!(t.refused(a), "SK-MIS-2", "the rock at 0406");
    let mut t = game(&|s| {
        s.ch("r-bow", "0714", "n", &bow())
            .sword("r-f", "0712", "n")
            .sword("b-t", "0709", "s")
    });
    let a = shoot(&t, "r-bow", "b-t");
    assert_eq!(t.refused(a), "SK-MIS-2", "r-f stands in the line");
    let aside = t.hex("0112");
    t.set("r-f", |c| c.hex = Some(aside));
    assert!(t.legal().contains(&shoot(&t, "r-bow", "b-t")));
    // Not Engaged, not Dazed, with a Quick Action.
    let mut t = game(&|s| {
        s.ch("r-bow", "0414", "n", &bow())
            .sword("b-t", "0409", "s")
            .sword("b-near", "0514", "n")
    });
    let a = shoot(&t, "r-bow", "b-t");
    assert_eq!(t.refused(a), "SK-MIS-2", "Engaged with b-near");
    let near = t.hex("0814");
    t.set("b-near", |c| c.hex = Some(near));
    assert!(t.legal().contains(&shoot(&t, "r-bow", "b-t")));
    t.set("r-bow", |c| c.dazed = true);
    let a = shoot(&t, "r-bow", "b-t");
    assert_eq!(t.refused(a), "SK-STA-1");
    t.set("r-bow", |c| {
        c.dazed = false;
        c.quick = false;
    });
    let a = shoot(&t, "r-bow", "b-t");
    assert_eq!(t.refused(a), "SK-ACT-2");
}

#[test]
fn sk_mis_3_the_shot_total() {
    // Finesse 3 + Weapon Skill 2 + bow 0 = 5 against 5 + Evasion 1 = 6.
    let mut t = open(8, 12)
        .ch("r-bow", "0411", "n", &bow())
        .sword("b-a", "0406", "s")
        .ch("b-sh", "0611", "s", &with("shield = \"round\""))
        .game();
    assert_eq!(totals(&t, "r-bow", "b-a"), (5, 6));
    // Beyond short range (8 hexes): -2.
    let far = open(8, 12)
        .ch("r-bow", "0411", "n", &bow())
        .sword("b-long", "0403", "s")
        .game();
    assert_eq!(totals(&far, "r-bow", "b-long"), (3, 6));
    // A round shield counts against a shot from the front, not from a flank.
    assert_eq!(totals(&t, "r-bow", "b-sh"), (5, 8));
    t.set("b-sh", |c| c.facing = Direction::SE);
    assert_eq!(totals(&t, "r-bow", "b-sh"), (5, 6));
    // Dazed -1; Wounded or Encumbered -1 on either side.
    t.set("b-a", |c| c.dazed = true);
    assert_eq!(totals(&t, "r-bow", "b-a"), (5, 5));
    t.set("r-bow", |c| c.encumbered = true);
    assert_eq!(totals(&t, "r-bow", "b-a"), (4, 5));
    // A 4 hits at 5 against 6 (result 3), for the bow's 2; a 3 misses.
    t.set("b-a", |c| c.dazed = false);
    t.set("r-bow", |c| c.encumbered = false);
    t.force(&[4]);
    let ev = t.act(&shoot(&t, "r-bow", "b-a")).unwrap();
    assert!(has(&ev, |e| matches!(
        e,
        Event::Attacked {
            result: 3,
            hit: true,
            damage: 2,
            ..
        }
    )));
    // The exact odds: 3 faces in 6 hit.
    let mut u = open(8, 12)
        .ch("r-bow", "0411", "n", &bow())
        .sword("b-a", "0406", "s")
        .game();
    let p = u.preview(&shoot(&u, "r-bow", "b-a"));
    let hit: f64 = p
        .outcomes
        .iter()
        .filter(|o| o.result.get("b-a").is_some())
        .map(|o| o.p)
        .sum();
    assert!((hit - 0.5).abs() < 1e-9, "{p:?}");
    u.force(&[3]);
    let ev = u.act(&shoot(&u, "r-bow", "b-a")).unwrap();
    assert!(has(&ev, |e| matches!(
        e,
        Event::Attacked { hit: false, .. }
    )));
}

#[test]
fn sk_mis_4_reaction_fire_at_the_character_that_moved() {
    let mut t = open(8, 10)
        .sword("r-a", "0409", "n")
        .sword("r-b", "0209", "n")
        .ch("b-bow", "0402", "s", &bow())
        .game();
    assert_eq!(t.state().phase, Phase::Movement, "red has no shooter");
    t.go("r-a", "0408").unwrap();
    assert_eq!(t.deciding(), ("blue".into(), "reaction".into(), true));
    assert!(t.legal().contains(&shoot(&t, "b-bow", "r-a")));
    // Reaction fire answers the hex just moved.
    let other = shoot(&t, "b-bow", "r-b");
    assert_eq!(t.refused(other), "SK-MIS-4");
    t.force(&[6]);
    let ev = t.act(&shoot(&t, "b-bow", "r-a")).unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Attacked { unit, kind: AttackKind::ReactionFire, hit: true, .. } if *unit == t.id("b-bow"))
        ),
        "{ev:?}"
    );
    assert!(has(
        &ev,
        |e| matches!(e, Event::Spent { rule, .. } if rule == "SK-MIS-4")
    ));
    assert!(t.c("r-a").damage > 0);
    // The Quick Action is spent: no more reactions this turn.
    assert!(t.window().is_none());
    t.go("r-a", "0407").unwrap();
    assert_eq!(t.deciding(), ("red".into(), "movement".into(), false));
}

#[test]
fn sk_mis_5_missile_evasion_against_shots_from_the_front() {
    // r-a walks toward the archer: 5 against 5 + Evasion 1.
    let mut t = open(8, 10)
        .sword("r-a", "0409", "n")
        .ch("b-bow", "0403", "s", &bow())
        .game();
    t.go("r-a", "0408").unwrap();
    assert_eq!(totals(&t, "b-bow", "r-a"), (5, 6));
    // Evasively: +2 against a shot from its front.
    let mut u = open(8, 10)
        .sword("r-a", "0409", "n")
        .ch("b-bow", "0403", "s", &bow())
        .game();
    u.go_evasive("r-a", "0408").unwrap();
    assert_eq!(totals(&u, "b-bow", "r-a"), (5, 8));
    let e = u.explain(&shoot(&u, "b-bow", "r-a"));
    assert!(e.reasons.iter().any(|r| r.rule == "SK-MIS-5"), "{e:?}");
    // Not against a shot from its flank or rear.
    u.set("r-a", |c| c.facing = Direction::S);
    assert_eq!(totals(&u, "b-bow", "r-a"), (5, 6));
    let e = u.explain(&shoot(&u, "b-bow", "r-a"));
    assert!(e.reasons.iter().all(|r| r.rule != "SK-MIS-5"), "{e:?}");
}
