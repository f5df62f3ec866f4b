//! The morale phase (`docs/rules/skirmish.md`, recovered: its recovered order and the dazed
//! recovery; panic and berserk numbers are provisional data).

use super::harness::{apart, face_to_face, has, open, with, T};
use grognard_rules::skirmish::{Event, Phase};

/// Red's melee phase ended: the morale phase's events.
fn morale(t: &mut T, dice: &[u32]) -> Vec<Event> {
    t.force(dice);
    let ev = t.to("blue", Phase::Movement);
    assert!(t.dice.forced().is_empty(), "every forced die used: {ev:?}");
    ev
}

fn checks(ev: &[Event]) -> Vec<(String, String, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Checked {
                unit,
                check,
                result,
                ..
            } => Some((format!("{}", unit.0), check.to_string(), result.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn sk_mor_1_the_morale_phase_in_its_order() {
    // r-a (0) and b-a (1) wounded; r-p (2) and b-p (3) panicked; r-s (4) shaken.
    let mut t = open(9, 9)
        .sword("r-a", "0808", "n")
        .sword("b-a", "0801", "s")
        .sword("r-p", "0108", "n")
        .sword("b-p", "0101", "s")
        .sword("r-s", "0508", "n")
        .game();
    t.set("r-a", |c| c.damage = 3);
    t.set("b-a", |c| c.damage = 3);
    // r-p has moved already this phase: it has no flight left to make.
    t.set("r-p", |c| {
        c.panicked = true;
        c.done = true;
    });
    t.set("b-p", |c| c.panicked = true);
    t.set("r-s", |c| c.shaken = true);
    // Panic recovery r-p, b-p; panic check r-s; dazed recovery r-a, b-a.
    let ev = morale(&mut t, &[6, 1, 6, 6, 1]);
    let dazed_first = ev
        .iter()
        .position(|e| matches!(e, Event::Status { status, on: true, .. } if status == "dazed"))
        .unwrap();
    let first_check = ev
        .iter()
        .position(|e| matches!(e, Event::Checked { .. }))
        .unwrap();
    assert!(
        dazed_first < first_check,
        "Wounded characters are Dazed before any roll"
    );
    let c = checks(&ev);
    let order: Vec<(&str, &str)> = c.iter().map(|x| (x.0.as_str(), x.1.as_str())).collect();
    assert_eq!(
        order,
        [
            ("2", "panic_recovery"),
            ("3", "panic_recovery"),
            ("4", "panic_check"),
            ("0", "dazed_recovery"),
            ("1", "dazed_recovery"),
        ]
    );
}

#[test]
fn sk_mor_2_dazed_recovery() {
    // die + Morale 2 - 3: 0 or less stays, 1 to 3 recovers with CA and QA spent, 4+ recovers.
    for (die, dazed, spent) in [
        (1, true, false),
        (2, false, true),
        (4, false, true),
        (5, false, false),
    ] {
        let mut t = apart().game();
        t.set("b-a", |c| c.dazed = true);
        morale(&mut t, &[die]);
        assert_eq!(t.c("b-a").dazed, dazed, "die {die}");
        // Blue's turn began: a partial recovery left its actions spent.
        assert_eq!(!t.c("b-a").quick && !t.c("b-a").complex, spent, "die {die}");
    }
    // Wounded: 2 more off. A 5 makes 2: recovered, actions spent; then Dazed again next phase.
    let mut t = apart().game();
    t.set("b-a", |c| c.damage = 3);
    let ev = morale(&mut t, &[5]);
    assert!(
        has(&ev, |e| matches!(e, Event::Checked { total: 2, .. })),
        "{ev:?}"
    );
    assert!(!t.c("b-a").dazed && !t.c("b-a").quick);
}

#[test]
fn sk_mor_3_panic_checks() {
    // die + Morale 2: 5 or more holds.
    for (die, panics) in [(2, true), (3, false)] {
        let mut t = apart().game();
        t.set("b-a", |c| c.shaken = true);
        morale(&mut t, &[die]);
        assert_eq!(t.c("b-a").panicked, panics, "die {die}");
        assert!(!t.c("b-a").shaken);
    }
    // A wound shakes.
    let mut t = face_to_face(8).game();
    t.end();
    t.set("b-a", |c| c.ripostes = 1);
    t.force(&[6]);
    t.attack("r-a", "b-a").unwrap();
    assert!(t.c("b-a").shaken);
}

#[test]
fn sk_mor_4_panic_recovery() {
    for (die, recovers) in [(3, false), (4, true)] {
        let mut t = apart().game();
        t.set("b-a", |c| c.panicked = true);
        morale(&mut t, &[die]);
        assert_eq!(!t.c("b-a").panicked, recovers, "die {die}");
    }
}

#[test]
fn sk_mor_5_berserkers() {
    // A berserker that fails its panic check goes Berserk, not Panicked; then rolls to
    // calm down at once (4 + Morale 2 = 6: calms).
    let mut t = open(8, 8)
        .sword("r-a", "0707", "n")
        .ch("b-a", "0101", "s", &with("berserker = true"))
        .game();
    t.set("b-a", |c| c.shaken = true);
    morale(&mut t, &[1, 3]);
    assert!(t.c("b-a").berserk && !t.c("b-a").panicked);
    // A Berserk character ignores panic; blue's own morale phase (its melee phase has
    // nobody in reach and passes).
    t.set("b-a", |c| c.shaken = true);
    t.force(&[4]);
    let ev = t.end();
    assert!(!checks(&ev).iter().any(|c| c.1 == "panic_check"));
    assert!(!t.c("b-a").berserk, "calmed: {ev:?}");
}

#[test]
fn sk_mor_6_defending_ends_in_the_next_turns_morale_phase() {
    let mut t = apart().game();
    t.act(&grognard_rules::skirmish::Action::Defend { unit: t.id("r-a") })
        .unwrap();
    t.to("blue", Phase::Movement);
    assert!(t.has_status("r-a", "defending"), "through the enemy's turn");
    let ev = t.to("red", Phase::Movement);
    assert!(!t.has_status("r-a", "defending"));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Status { status, on: false, rule, .. } if status == "defending" && rule == "SK-MOR-6")
    ));
}
