//! Charges (SK-CHG-1 to SK-CHG-14 in `docs/rules/skirmish.md`: preconditions, charge path, charge
//! attack, formations).
//!
//! The usual field: red's charger `r-c` at 0410 facing north, blue's target `b-t` at
//! 0404 facing south, six hexes up the same column: the only shortest route runs
//! 0409, 0408, 0407, 0406 to 0405, next to the target.

use super::harness::{has, open, with, Sk, T};
use grognard_rules::skirmish::{Action, AttackKind, Event, Phase, Window};

fn field(add: impl FnOnce(Sk) -> Sk) -> T {
    add(open(8, 12)
        .sword("r-c", "0410", "n")
        .sword("b-t", "0404", "s"))
    .game()
}

fn attacks(ev: &[Event]) -> Vec<(String, AttackKind, u8)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Attacked {
                unit, kind, damage, ..
            } => Some((format!("{}", unit.0), *kind, *damage)),
            _ => None,
        })
        .collect()
}

#[test]
fn sk_chg_1_who_can_move_can_charge() {
    let mut t = field(|s| s);
    assert!(t.legal().contains(&t.charge_action("r-c", "b-t")));
    t.set("r-c", |c| c.dazed = true);
    let a = t.charge_action("r-c", "b-t");
    let e = t.explain(&a);
    assert_eq!(e.reasons[0].rule, "SK-CHG-1");
    assert_eq!(e.reasons[1].rule, "SK-MOV-5");
    assert_eq!(t.refused(a), "SK-CHG-1");
}

#[test]
fn sk_chg_2_declared_with_its_target_at_the_start() {
    let mut t = field(|s| s.sword("r-f", "0210", "n"));
    let a = t.charge_action("r-c", "r-f");
    assert_eq!(t.refused(a), "SK-CHG-2");
    t.walk("r-c", &["0409"]);
    let b = t.charge_action("r-c", "b-t");
    assert_eq!(t.refused(b), "SK-CHG-2");
}

#[test]
fn sk_chg_3_morale_extra_points() {
    let mut t = field(|s| s);
    let ev = t.charge("r-c", "b-t").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::ChargeDeclared { mp: 8, .. })),
        "6 + Morale 2: {ev:?}"
    );
    assert_eq!(t.mp("r-c"), 8);
}

#[test]
fn sk_chg_4_target_three_hexes_away_and_reachable() {
    let mut near = open(8, 12)
        .sword("r-c", "0406", "n")
        .sword("b-t", "0404", "s")
        .game();
    let a = near.charge_action("r-c", "b-t");
    assert_eq!(near.refused(a), "SK-CHG-4");
    let mut three = open(8, 12)
        .sword("r-c", "0407", "n")
        .sword("b-t", "0404", "s")
        .game();
    assert!(three.charge("r-c", "b-t").is_ok());
    // Finesse 0: 3 + Morale 2 = 5 points for a route of 5: just reachable; with Morale 1,
    // not.
    let slow = open(8, 12)
        .ch("r-c", "0410", "n", &with("finesse = 0"))
        .sword("b-t", "0404", "s")
        .game();
    assert!(slow.legal().contains(&slow.charge_action("r-c", "b-t")));
    let mut slower = open(8, 12)
        .ch("r-c", "0410", "n", &with("finesse = 0, morale = 1"))
        .sword("b-t", "0404", "s")
        .game();
    let a = slower.charge_action("r-c", "b-t");
    assert_eq!(slower.refused(a), "SK-CHG-4");
    // Walled in by rock: unreachable.
    let mut walled = super::harness::map(
        ". . . . . .
         . r r r . .
         . r . r . .
         . r r r . .
         . . . . . .
         . . . . . .
         . . . . . .",
    )
    .sword("r-c", "0307", "n")
    .sword("b-t", "0303", "s")
    .game();
    let a = walled.charge_action("r-c", "b-t");
    assert_eq!(walled.refused(a), "SK-CHG-4");
}

#[test]
fn sk_chg_5_the_shortest_route_to_optimal_reach_ignoring_zones() {
    // A blue bystander next to the route does not stop the charge.
    let mut t = field(|s| s.sword("b-z", "0308", "s"));
    t.charge("r-c", "b-t").unwrap();
    // Only the charger's route steps are legal.
    let legal = t.legal();
    assert_eq!(legal, vec![t.step("r-c", "0409")]);
    assert_eq!(t.refused_step("r-c", "0510"), "SK-CHG-5");
    assert_eq!(t.refused(Action::EndPhase), "SK-CHG-5");
    let ev = t.run_charge();
    assert!(!has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "SK-MOV-8")
    ));
    assert_eq!(t.at("r-c").as_deref(), Some("0405"));
    assert!(has(&ev, |e| matches!(
        e,
        Event::Attacked {
            kind: AttackKind::Charge,
            ..
        }
    )));
}

#[test]
fn sk_chg_6_no_evasive_charge() {
    let mut t = field(|s| s);
    t.charge("r-c", "b-t").unwrap();
    let a = Action::Move {
        unit: t.id("r-c"),
        to: t.hex("0409"),
        evasive: true,
    };
    assert_eq!(t.refused(a), "SK-CHG-6");
}

#[test]
fn sk_chg_7_others_strike_the_charger_once_the_target_does_not() {
    // b-z at 0308 controls 0408 and 0407: leaving 0408 provokes it, leaving 0407 not again.
    let mut t = field(|s| s.sword("b-z", "0308", "s"));
    t.charge("r-c", "b-t").unwrap();
    t.walk("r-c", &["0409", "0408"]);
    t.go("r-c", "0407").unwrap();
    assert!(matches!(t.window(), Some(Window::Opportunity { .. })));
    assert_eq!(t.deciding().1, "opportunity");
    t.force(&[1]);
    t.opportunity("b-z", "r-c").unwrap();
    t.pass_all();
    let ev = t.go("r-c", "0406").unwrap();
    assert!(!has(
        &ev,
        |e| matches!(e, Event::WindowOpened { kind, .. } if kind == "opportunity")
    ));
    // A dagger charger leaves the hex next to its target for the target's own hex: the
    // target gets no attack of opportunity.
    let mut d = open(8, 12)
        .ch("r-c", "0410", "n", &with("weapon = \"dagger\""))
        .sword("b-t", "0404", "s")
        .game();
    d.charge("r-c", "b-t").unwrap();
    let ev = d.run_charge();
    assert!(
        !has(
            &ev,
            |e| matches!(e, Event::WindowOpened { kind, .. } if kind == "opportunity")
        ),
        "{ev:?}"
    );
}

#[test]
fn sk_chg_8_dazed_breaks_the_charge_but_not_by_the_counter() {
    let mut t = field(|s| s.sword("b-z", "0308", "s"));
    t.charge("r-c", "b-t").unwrap();
    t.walk("r-c", &["0409", "0408"]);
    t.go("r-c", "0407").unwrap();
    t.force(&[6]);
    let ev = t.opportunity("b-z", "r-c").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::ChargeEnded { rule, .. } if rule == "SK-CHG-8")
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("r-c").as_deref(), Some("0408"));
    assert!(t.state().charge.is_none());
    assert!(!has(&ev, |e| matches!(
        e,
        Event::Attacked {
            kind: AttackKind::Charge,
            ..
        }
    )));
    // Dazed by the target's counter (a spear strikes first), the charger still strikes.
    let mut u = open(8, 12)
        .sword("r-c", "0410", "n")
        .ch("b-t", "0404", "s", &with("weapon = \"spear\""))
        .game();
    u.charge("r-c", "b-t").unwrap();
    u.walk("r-c", &["0409", "0408", "0407", "0406"]);
    u.force(&[6, 4]);
    let ev = u.go("r-c", "0405").unwrap();
    assert!(u.c("r-c").dazed);
    let a = attacks(&ev);
    assert_eq!(
        a.iter().map(|x| x.1).collect::<Vec<_>>(),
        [AttackKind::Counter, AttackKind::Charge],
        "{ev:?}"
    );
}

#[test]
fn sk_chg_9_a_reach_0_charge_enters_close_quarters() {
    let mut t = open(8, 12)
        .ch("r-c", "0410", "n", &with("weapon = \"dagger\""))
        .sword("b-t", "0404", "s")
        .game();
    let e = t.explain(&t.charge_action("r-c", "b-t"));
    assert!(e.reasons.iter().any(|r| r.rule == "SK-CHG-9"));
    t.charge("r-c", "b-t").unwrap();
    let ev = t.run_charge();
    assert_eq!(t.at("r-c"), t.at("b-t"), "Close Quarters: {ev:?}");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Moved { rules, .. } if rules.iter().any(|r| r == "SK-CHG-9"))
    ));
    // A sword charger stops next to its target.
    let mut s = field(|s| s);
    s.charge("r-c", "b-t").unwrap();
    s.run_charge();
    assert_eq!(s.at("r-c").as_deref(), Some("0405"));
}

#[test]
fn sk_chg_10_the_charge_attack_strikes_at_once_with_two_more_damage() {
    let mut t = field(|s| s);
    t.charge("r-c", "b-t").unwrap();
    t.walk("r-c", &["0409", "0408", "0407", "0406"]);
    // Sword on sword: 4 against 5; a 4 makes 3, a hit for 2, +2 charging; the counter
    // (equal reach: at the same time) misses on a 1.
    t.force(&[4, 1]);
    let ev = t.go("r-c", "0405").unwrap();
    assert_eq!(attacks(&ev)[0].1, AttackKind::Charge);
    assert_eq!(attacks(&ev)[0].2, 4);
    assert_eq!(t.c("b-t").damage, 4);
    assert!(has(
        &ev,
        |e| matches!(e, Event::ChargeEnded { rule, .. } if rule == "SK-CHG-10")
    ));
    assert!(t.c("r-c").done);
    // In addition to an attack in the melee phase.
    t.to("red", Phase::Melee);
    assert!(t.legal().contains(&t.attack_action("r-c", "b-t")));
}

#[test]
fn sk_chg_11_the_counter_comes_first_with_longer_reach() {
    let run = |target: &str, charger: &str, dice: &[u32]| {
        let mut t = open(8, 12)
            .ch("r-c", "0410", "n", &with(charger))
            .ch("b-t", "0404", "s", &with(target))
            .game();
        t.charge("r-c", "b-t").unwrap();
        t.pass_all();
        t.force(dice);
        t.run_charge()
    };
    // Spear (reach 2) against a sword at 1: first.
    let ev = run("weapon = \"spear\"", "weapon = \"sword\"", &[1, 1]);
    assert_eq!(
        attacks(&ev).iter().map(|x| x.1).collect::<Vec<_>>(),
        [AttackKind::Counter, AttackKind::Charge]
    );
    // Sword against sword: at the same time (the charge attack is rolled first, both land).
    let ev = run("weapon = \"sword\"", "weapon = \"sword\"", &[6, 6]);
    assert_eq!(
        attacks(&ev).iter().map(|x| x.1).collect::<Vec<_>>(),
        [AttackKind::Charge, AttackKind::Counter]
    );
    // Each with +2 damage: a 6 makes 5, 3 damage, +2.
    assert!(attacks(&ev).iter().all(|x| x.2 == 5), "{ev:?}");
    // A dagger cannot reach a spear charging from two hexes: no counter.
    let ev = run("weapon = \"dagger\"", "weapon = \"spear\"", &[1]);
    assert_eq!(
        attacks(&ev).iter().map(|x| x.1).collect::<Vec<_>>(),
        [AttackKind::Charge]
    );
}

#[test]
fn sk_chg_12_one_riposte_per_melee_action() {
    // b-t strikes r-x leaving its zone, then cannot counter r-c's charge.
    let mut t = field(|s| s.sword("r-x", "0505", "n"));
    t.go("r-x", "0506").unwrap();
    t.force(&[1]);
    t.opportunity("b-t", "r-x").unwrap();
    t.pass_all();
    assert_eq!(t.c("b-t").ripostes, 1);
    assert!(t.c("b-t").melee, "a riposte does not use the Melee Action");
    t.charge("r-c", "b-t").unwrap();
    t.force(&[1]);
    let ev = t.run_charge();
    assert_eq!(
        attacks(&ev).iter().map(|x| x.1).collect::<Vec<_>>(),
        [AttackKind::Charge]
    );
    // A Dazed character has no Melee Action, so no riposte at all.
    let mut u = field(|s| s);
    u.set("b-t", |c| c.dazed = true);
    u.charge("r-c", "b-t").unwrap();
    u.force(&[1]);
    let ev = u.run_charge();
    assert_eq!(attacks(&ev).len(), 1);
}

#[test]
fn sk_chg_13_a_formation_charges_together() {
    let line = "formation = \"line\"";
    let mut t = open(8, 12)
        .ch("r-c", "0410", "n", &with(line))
        .ch("r-d", "0510", "n", &with(line))
        .ch("r-e", "0110", "n", &with("formation = \"other\""))
        .sword("b-t", "0404", "s")
        .sword("b-z", "0608", "s")
        .game();
    let a = Action::Charge {
        unit: t.id("r-c"),
        target: t.id("b-t"),
        together: true,
    };
    let ev = t.act(&a).unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::ChargeDeclared { with, .. } if with == &vec![t.id("r-d")])
        ),
        "{ev:?}"
    );
    // They take turns, a hex each.
    let mut movers = Vec::new();
    for _ in 0..4 {
        t.pass_all();
        let step = t
            .legal()
            .into_iter()
            .find(|a| matches!(a, Action::Move { .. }))
            .unwrap();
        if let Action::Move { unit, .. } = step {
            movers.push(unit);
        }
        t.force(&[1, 1]);
        t.act(&step).unwrap();
    }
    assert_eq!(movers, [t.id("r-c"), t.id("r-d"), t.id("r-c"), t.id("r-d")]);
    // A member dazed on the way runs on: the break waits for the end of the charge.
    t.set("r-d", |c| c.dazed = true);
    t.force(&[1; 8]);
    let ev = t.run_charge();
    assert_eq!(
        attacks(&ev)
            .iter()
            .filter(|x| x.1 == AttackKind::Charge)
            .count(),
        2,
        "{ev:?}"
    );
    assert!(t.state().charge.is_none());
    // Alone in its formation: no formation charge.
    let b = Action::Charge {
        unit: t.id("r-e"),
        target: t.id("b-t"),
        together: true,
    };
    let _ = b;
    let mut u = open(8, 12)
        .ch("r-e", "0110", "n", &with("formation = \"other\""))
        .sword("b-t", "0404", "s")
        .game();
    let b = Action::Charge {
        unit: u.id("r-e"),
        target: u.id("b-t"),
        together: true,
    };
    assert_eq!(u.refused(b), "SK-CHG-13");
}

#[test]
fn sk_chg_14_a_charger_runs_facing_its_route_and_stops_when_it_closes() {
    // Charging north-east: the charger turns to face each step.
    let mut t = open(8, 12)
        .sword("r-c", "0210", "n")
        .sword("b-t", "0606", "s")
        .game();
    t.charge("r-c", "b-t").unwrap();
    let step = t.legal().into_iter().next().unwrap();
    let Action::Move { to, .. } = step else {
        panic!()
    };
    t.act(&step).unwrap();
    let d = t.hex("0210").direction_to(to).unwrap();
    assert_eq!(t.c("r-c").facing, d);
    // The target steps back out of reach of the points left: the charge ends.
    let mut u = open(8, 12)
        .ch("r-c", "0410", "n", &with("finesse = 0"))
        .ch("b-t", "0404", "s", &with("finesse = 4"))
        .game();
    u.charge("r-c", "b-t").unwrap();
    assert_eq!(u.mp("r-c"), 5);
    u.go("r-c", "0409").unwrap();
    let ev = u.react("b-t", "0403", "s").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::ChargeEnded { rule, .. } if rule == "SK-CHG-14")
        ),
        "{ev:?}"
    );
    assert!(u.state().charge.is_none());
    assert!(u.c("r-c").done);
}

#[test]
fn sk_mov_12_an_engaged_friend_passed_spends_its_quick_action_or_is_dazed() {
    // r-f at 0408 is Engaged with b-z at 0308; the charge runs through its hex.
    let mut t = field(|s| s.sword("r-f", "0408", "n").sword("b-z", "0308", "s"));
    t.charge("r-c", "b-t").unwrap();
    t.walk("r-c", &["0409"]);
    let ev = t.go("r-c", "0408").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Spent { unit, rule, .. } if *unit == t.id("r-f") && rule == "SK-MOV-12")
    ));
    assert!(!t.c("r-f").quick);
    let mut u = field(|s| s.sword("r-f", "0408", "n").sword("b-z", "0308", "s"));
    u.set("r-f", |c| c.quick = false);
    u.charge("r-c", "b-t").unwrap();
    u.walk("r-c", &["0409"]);
    let ev = u.go("r-c", "0408").unwrap();
    assert!(u.c("r-f").dazed, "{ev:?}");
    // A friend not Engaged loses nothing.
    let mut v = field(|s| s.sword("r-f", "0408", "n"));
    v.charge("r-c", "b-t").unwrap();
    v.walk("r-c", &["0409", "0408"]);
    assert!(v.c("r-f").quick && !v.c("r-f").dazed);
}

#[test]
fn preview_of_the_step_that_completes_a_charge() {
    let mut t = field(|s| s);
    t.charge("r-c", "b-t").unwrap();
    t.walk("r-c", &["0409", "0408", "0407", "0406"]);
    let p = t.preview(&t.step("r-c", "0405"));
    let total: f64 = p.outcomes.iter().map(|o| o.p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!(p.roll.contains("2d6"), "{}", p.roll);
    // Both miss: 1 in 2 each, at the same time.
    let none = p
        .outcomes
        .iter()
        .find(|o| o.result == serde_json::json!({ "r-c": { "at": "0405" } }))
        .unwrap();
    assert_eq!((none.num, none.den), (1, 4));
}

#[test]
fn sk_chg_10_a_declared_charge_previews_the_strike_at_its_end() {
    // Declared six hexes away, the charge rolls nothing yet; its preview runs it along the
    // only shortest route to 0405 and gives the odds of the strike there, the same as the
    // preview of the step that completes it.
    let mut t = field(|s| s);
    let declared = t.preview(&t.charge_action("r-c", "b-t"));
    assert_eq!(declared.inputs["strike_from"], serde_json::json!("0405"));
    assert!(declared.inputs["attack"].is_object(), "{}", declared.inputs);
    assert!(
        declared
            .reasons
            .iter()
            .any(|r| r.rule == "SK-CHG-10" && r.message.contains("0405")),
        "{:?}",
        declared.reasons
    );
    t.charge("r-c", "b-t").unwrap();
    t.walk("r-c", &["0409", "0408", "0407", "0406"]);
    let arrived = t.preview(&t.step("r-c", "0405"));
    let odds = |p: &grognard_engine::Preview| {
        let mut v: Vec<_> = p
            .outcomes
            .iter()
            .map(|o| (o.result.to_string(), o.num, o.den, o.text.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(odds(&declared), odds(&arrived));
    assert_eq!(declared.roll, arrived.roll);
}
