//! The movement phase (SK-MOV-1 to SK-MOV-19 in `docs/rules/skirmish.md`), zones of control, and the hexes a character can reach.

use super::harness::{costs, face_to_face, has, map, open, with, SWORD};
use grognard_engine::Ruleset;
use grognard_rules::skirmish::{Action, AttackKind, Event, Phase, Window};

#[test]
fn sk_mov_1_the_active_side_moves_its_characters() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0402", "s")
        .game();
    assert_eq!(t.deciding(), ("red".into(), "movement".into(), false));
    assert_eq!(t.refused_step("b-a", "0403"), "SK-MOV-1");
    t.walk("r-a", &["0405"]);
    t.to("blue", Phase::Movement);
    assert_eq!(t.refused_step("r-a", "0404"), "SK-MOV-1");
    t.walk("b-a", &["0403"]);
    // Not outside the movement phase: blue's melee phase passes (nobody in reach), so
    // end it from red's next melee phase.
    t.to("red", Phase::Melee);
    assert_eq!(t.refused_step("r-a", "0404"), "SK-MOV-1");
}

#[test]
fn sk_mov_2_after_each_hex_the_passive_side_may_react() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0402", "s")
        .game();
    let ev = t.go("r-a", "0405").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::WindowOpened { kind, .. } if kind == "reaction")
    ));
    assert_eq!(t.deciding(), ("blue".into(), "reaction".into(), true));
    let legal = t.legal();
    assert!(legal.contains(&Action::Pass));
    assert!(legal
        .iter()
        .all(|a| matches!(a, Action::ShortMove { .. } | Action::Pass)));
    assert_eq!(t.refused_step("r-a", "0404"), "SK-MOV-2");
    // Any number of characters may react: the window stays open until passed.
    t.react("b-a", "0402", "sw").unwrap();
    assert!(!t.c("b-a").quick, "the reaction spends the Quick Action");
    // Nobody else can react: the window closed by itself.
    assert!(t.window().is_none());
    // With no Quick Action left, the next hex opens no window.
    let ev = t.go("r-a", "0404").unwrap();
    assert!(!has(&ev, |e| matches!(e, Event::WindowOpened { .. })));
    assert_eq!(t.deciding(), ("red".into(), "movement".into(), false));
}

#[test]
fn sk_mov_3_one_point_a_hex_in_open_ground() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0801", "s")
        .game();
    assert_eq!(t.mp("r-a"), 6);
    let ev = t.walk("r-a", &["0405"]);
    assert_eq!(costs(&ev), [1]);
    assert_eq!(t.mp("r-a"), 5);
    // One hex at a time.
    assert_eq!(t.refused_step("r-a", "0403"), "SK-MOV-3");
    // Straight ahead the reachable hexes cost their distance.
    assert_eq!(t.reach_cost("r-a", "0402"), Some(3));
}

#[test]
fn sk_mov_4_finesse_plus_three_less_two_when_hindered() {
    let t = open(8, 8)
        .ch("r-quick", "0207", "n", &with("finesse = 5"))
        .ch("r-laden", "0407", "n", &with("encumbered = true"))
        .sword("r-hurt", "0607", "n")
        .sword("b-a", "0801", "s")
        .game();
    assert_eq!(t.mp("r-quick"), 8);
    assert_eq!(t.mp("r-laden"), 4, "Encumbered: -2");
    let mut u = t.clone();
    u.set("r-hurt", |c| c.damage = 3);
    assert_eq!(u.view("r-hurt")["allowance"], 4, "Wounded (3 of 6): -2");
    // Both at once take only 2 off.
    u.set("r-laden", |c| c.damage = 3);
    assert_eq!(u.view("r-laden")["allowance"], 4);
}

#[test]
fn sk_mov_5_dazed_or_complex_action_cannot_move() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("r-b", "0606", "n")
        .sword("b-a", "0801", "s")
        .game();
    t.set("r-a", |c| c.dazed = true);
    assert_eq!(t.refused_step("r-a", "0405"), "SK-MOV-5");
    t.act(&Action::Defend { unit: t.id("r-b") }).unwrap();
    assert_eq!(t.refused_step("r-b", "0605"), "SK-MOV-5");
}

#[test]
fn sk_mov_6_never_more_than_its_points() {
    let mut t = open(6, 12)
        .sword("r-a", "0311", "n")
        .sword("b-a", "0601", "s")
        .game();
    t.walk("r-a", &["0310", "0309", "0308", "0307", "0306"]);
    assert_eq!(t.mp("r-a"), 1);
    // Backward costs 2.
    assert_eq!(t.refused_step("r-a", "0307"), "SK-MOV-6");
    assert!(t.go("r-a", "0305").is_ok());
}

#[test]
fn sk_mov_7_one_character_moves_at_a_time() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("r-b", "0606", "n")
        .sword("b-a", "0801", "s")
        .game();
    t.walk("r-a", &["0405"]);
    let ev = t.walk("r-b", &["0605"]);
    assert!(has(
        &ev,
        |e| matches!(e, Event::Halted { unit, rule, .. } if *unit == t.id("r-a") && rule == "SK-MOV-7")
    ));
    assert_eq!(t.refused_step("r-a", "0404"), "SK-MOV-7");
    assert!(t.c("r-a").done);
}

#[test]
fn sk_mov_8_entering_a_zone_of_control_ends_the_movement() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0403", "s")
        .game();
    let ev = t.walk("r-a", &["0405", "0404"]);
    assert!(has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "SK-MOV-8")
    ));
    assert!(t.c("r-a").done);
    assert_eq!(t.mp("r-a"), 4, "points left, but the movement is over");
    assert_eq!(t.refused_step("r-a", "0504"), "SK-MOV-7");
}

#[test]
fn sk_mov_8_a_step_inside_a_zone_it_is_already_in_does_not_end_the_movement() {
    // r-a at 0405 starts in b-a's zone (b-a at 0404). 0505 and then 0504 are next to
    // b-a too: the zone is not entered again, so the movement goes on; leaving 0405
    // gives b-a its attack of opportunity, once in the movement (SK-MOV-9).
    let mut t = face_to_face(8).game();
    let ev = t.go("r-a", "0505").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::WindowOpened { kind, .. } if kind == "opportunity")
        ),
        "{ev:?}"
    );
    let ev = t.pass_all();
    assert!(!has(&ev, |e| matches!(e, Event::Halted { .. })), "{ev:?}");
    assert_eq!(t.at("r-a").as_deref(), Some("0505"));
    assert!(!t.c("r-a").done, "the movement goes on");
    let ev = t.go("r-a", "0504").unwrap();
    assert!(
        !has(
            &ev,
            |e| matches!(e, Event::WindowOpened { kind, .. } if kind == "opportunity")
        ),
        "b-a is not asked twice in one movement: {ev:?}"
    );
    t.pass_all();
    assert_eq!(t.at("r-a").as_deref(), Some("0504"));
    assert!(!t.c("r-a").done);
}

#[test]
fn sk_mov_9_leaving_a_zone_provokes_once_and_a_daze_aborts() {
    let base = face_to_face(8).game();
    // Stepping away from b-a opens the opportunity window for blue.
    let mut t = base.clone();
    let ev = t.go("r-a", "0406").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::WindowOpened { kind, .. } if kind == "opportunity")
    ));
    assert_eq!(t.deciding(), ("blue".into(), "opportunity".into(), true));
    assert_eq!(t.at("r-a").as_deref(), Some("0405"), "not moved yet");
    let Some(Window::Opportunity { eligible, .. }) = t.window() else {
        panic!()
    };
    assert_eq!(eligible, &vec![t.id("b-a")]);
    // A 6 hits for 3 (from the rear: the mover faces north, away... it faces b-a):
    // enough to daze: the movement is aborted where it stands.
    t.force(&[6]);
    let ev = t.opportunity("b-a", "r-a").unwrap();
    assert!(t.c("r-a").dazed, "{ev:?}");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "SK-MOV-9")
    ));
    assert_eq!(t.at("r-a").as_deref(), Some("0405"));
    assert!(t.c("r-a").done);
    // A miss: the step is made.
    let mut u = base.clone();
    u.go("r-a", "0406").unwrap();
    u.force(&[1]);
    u.opportunity("b-a", "r-a").unwrap();
    u.pass_all();
    assert_eq!(u.at("r-a").as_deref(), Some("0406"));
    // Declining: the step is made, no die rolled.
    let mut v = base.clone();
    v.go("r-a", "0406").unwrap();
    let ev = v.pass().unwrap();
    assert!(!has(&ev, |e| matches!(e, Event::Roll(_))));
    assert_eq!(v.at("r-a").as_deref(), Some("0406"));
    // Once per movement: b-a is not asked again in this movement.
    assert!(v
        .state()
        .moving
        .as_ref()
        .unwrap()
        .provoked
        .contains(&v.id("b-a")));
}

#[test]
fn sk_mov_10_no_stacking_but_close_quarters() {
    let mut t = face_to_face(8).game();
    assert_eq!(t.refused_step("r-a", "0404"), "SK-MOV-10");
}

#[test]
fn sk_mov_11_through_a_friend_but_never_ending_there() {
    let mut t = open(8, 10)
        .sword("r-a", "0408", "n")
        .sword("r-b", "0407", "n")
        .sword("r-c", "0208", "n")
        .sword("b-a", "0801", "s")
        .game();
    let ev = t.go("r-a", "0407").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Moved { rules, .. } if rules.iter().any(|r| r == "SK-MOV-11"))
    ));
    t.pass_all();
    assert_eq!(t.at("r-a"), t.at("r-b"));
    // It must go on: no ending the phase, no other character moving.
    assert_eq!(t.refused(Action::EndPhase), "SK-MOV-11");
    assert_eq!(t.refused_step("r-c", "0207"), "SK-MOV-11");
    t.walk("r-a", &["0406"]);
    t.end();
    // With a single point left a friend's hex is out of bounds.
    let mut u = open(8, 10)
        .ch("r-a", "0408", "n", &with("finesse = 0"))
        .sword("r-b", "0406", "n")
        .sword("b-a", "0801", "s")
        .game();
    u.walk("r-a", &["0407"]);
    u.walk("r-a", &["0406"]).len();
    assert_eq!(
        u.at("r-a").as_deref(),
        Some("0406"),
        "2 of 3 points spent, one left to go on"
    );
    let mut w = open(8, 10)
        .ch("r-a", "0408", "n", &with("finesse = 0"))
        .sword("r-b", "0405", "n")
        .sword("b-a", "0801", "s")
        .game();
    w.walk("r-a", &["0407", "0406"]);
    assert_eq!(w.refused_step("r-a", "0405"), "SK-MOV-11");
    // A friend's hex in an enemy's zone is passed like any other (SK-MOV-12's test).
}

#[test]
fn sk_mov_12_an_engaged_friend_is_passed_in_a_walk_and_a_short_move_alike() {
    // r-b at 0408 is Engaged with b-a at 0407. r-a walks through r-b's hex: entering a
    // friend's hex in an enemy's zone does not end the movement (it may not end there);
    // r-b spends its Quick Action; r-a goes on and stops in the first hex of the zone.
    let mut t = open(8, 10)
        .sword("r-a", "0409", "n")
        .sword("r-b", "0408", "n")
        .sword("b-a", "0407", "s")
        .game();
    let ev = t.go("r-a", "0408").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Spent { unit, rule, .. } if *unit == t.id("r-b") && rule == "SK-MOV-12")
        ),
        "{ev:?}"
    );
    assert!(!has(&ev, |e| matches!(e, Event::Halted { .. })), "{ev:?}");
    t.pass_all();
    assert_eq!(t.refused(Action::EndPhase), "SK-MOV-11");
    // Leaving the friend's hex, in b-a's zone, gives b-a its attack of opportunity.
    t.go("r-a", "0508").unwrap();
    assert!(matches!(t.window(), Some(Window::Opportunity { .. })));
    let ev = t.pass_all();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Halted { unit, rule, .. } if *unit == t.id("r-a") && rule == "SK-MOV-8")
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("r-a").as_deref(), Some("0508"));
    // With no Quick Action left, the Engaged friend is Dazed.
    let mut u = open(8, 10)
        .sword("r-a", "0409", "n")
        .sword("r-b", "0408", "n")
        .sword("b-a", "0407", "s")
        .game();
    u.set("r-b", |c| c.quick = false);
    u.go("r-a", "0408").unwrap();
    assert!(u.c("r-b").dazed);
    // A short move passes a friend too: blue's b-s (2 points) reacts through b-f, who is
    // Engaged with red's r-e, to the hex beyond; r-e strikes b-s at once as it leaves.
    let mut w = open(8, 10)
        .sword("r-m", "0109", "n")
        .sword("r-e", "0305", "n")
        .ch("b-s", "0403", "s", &with("finesse = 4"))
        .sword("b-f", "0404", "s")
        .game();
    w.go("r-m", "0108").unwrap();
    let a = w.short("b-s", "0405", "s");
    assert!(w.legal().contains(&a));
    w.force(&[1]);
    let ev = w.react("b-s", "0405", "s").unwrap();
    assert_eq!(w.at("b-s").as_deref(), Some("0405"), "{ev:?}");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Spent { unit, rule, .. } if *unit == w.id("b-f") && rule == "SK-MOV-12")
    ));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Attacked { unit, kind: AttackKind::Opportunity, .. } if *unit == w.id("r-e"))
    ));
}

#[test]
fn sk_mov_13_brush_costs_two_rock_is_impassable() {
    let mut t = map(". . . . .
         . . . . .
         . . r . .
         . . b . .
         . . . . .
         . . . . .")
    .sword("r-a", "0305", "n")
    .sword("b-a", "0501", "s")
    .game();
    let ev = t.walk("r-a", &["0304"]);
    assert_eq!(costs(&ev), [2]);
    assert_eq!(t.refused_step("r-a", "0303"), "SK-MOV-13");
}

#[test]
fn sk_mov_14_evasive_movement_costs_a_point_more() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0801", "s")
        .game();
    let ev = t.go_evasive("r-a", "0405").unwrap();
    assert_eq!(costs(&ev), [2]);
    assert!(t.has_status("r-a", "evasive"));
    t.pass_all();
    // A plain step ends the benefit.
    t.walk("r-a", &["0404"]);
    assert!(!t.has_status("r-a", "evasive"));
}

#[test]
fn sk_mov_15_dazed_panicked_berserk_never_evasive() {
    let mut t = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("r-b", "0606", "n")
        .sword("b-a", "0801", "s")
        .game();
    t.set("r-a", |c| c.berserk = true);
    let a = Action::Move {
        unit: t.id("r-a"),
        to: t.hex("0405"),
        evasive: true,
    };
    assert_eq!(t.refused(a), "SK-MOV-15");
    // An evasive character that is dazed loses the benefit at once.
    t.set("r-b", |c| c.encumbered = true);
    t.go_evasive("r-b", "0605").unwrap();
    t.pass_all();
    assert!(t.has_status("r-b", "evasive"));
    // The morale phase dazes the Encumbered character.
    let ev = t.to("blue", Phase::Movement);
    assert!(
        t.c("r-b").dazed
            || has(
                &ev,
                |e| matches!(e, Event::Status { status, on: false, rule, .. } if status == "evasive" && rule == "SK-MOV-15")
            )
    );
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Status { status, on: false, rule, .. } if status == "evasive" && rule == "SK-MOV-15")
        ),
        "{ev:?}"
    );
}

#[test]
fn sk_mov_16_sideways_and_backward_at_double_cost() {
    let t = open(8, 8)
        .sword("r-a", "0405", "n")
        .sword("b-a", "0801", "s")
        .game();
    // Facing north: north, north-east and north-west are the front; south-east and
    // south-west the flanks; south the rear.
    for (d, cost) in [
        ("n", 1),
        ("ne", 1),
        ("nw", 1),
        ("se", 2),
        ("sw", 2),
        ("s", 2),
    ] {
        let mut u = t.clone();
        let to = u.nb("0405", d);
        let ev = u.walk("r-a", &[&to]);
        assert_eq!(costs(&ev), [cost], "{d}");
        assert_eq!(u.facing("r-a"), "n", "facing unchanged");
    }
    // Turning first (free) makes the same step cost 1.
    let mut v = t.clone();
    v.face("r-a", "s").unwrap();
    assert_eq!(costs(&v.walk("r-a", &["0406"])), [1]);
    // The reachable hexes follow the facing.
    assert_eq!(t.reach_cost("r-a", "0406"), Some(2));
    assert_eq!(t.reach_cost("r-a", "0404"), Some(1));
    assert_eq!(t.reach_cost("r-a", "0407"), Some(4));
}

#[test]
fn sk_mov_17_backing_into_brush_calls_a_finesse_check() {
    let field = map(". . . . .
         . . . . .
         . . . . .
         . . . . .
         . . b . .
         . . . . .")
    .sword("r-a", "0304", "n")
    .sword("b-a", "0501", "s");
    // Finesse 3 - base cost 2 + 2: passes on 3 or less.
    let mut t = field.game();
    t.force(&[3]);
    let ev = t.go("r-a", "0305").unwrap();
    assert_eq!(costs(&ev), [4], "brush doubled");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Checked { check, result, .. } if check == "difficult_terrain" && result == "passed")
    ));
    assert!(!t.c("r-a").dazed);
    let mut u = field.game();
    u.force(&[4]);
    u.go("r-a", "0305").unwrap();
    assert!(u.c("r-a").dazed);
    assert_eq!(u.at("r-a").as_deref(), Some("0305"));
    // The exact odds before the die: 3 in 6.
    let p = field.game().preview(&field.game().step("r-a", "0305"));
    assert_eq!(p.outcomes.len(), 2);
    assert!(p.outcomes.iter().all(|o| (o.num, o.den) == (1, 2)));
    // Forward into brush: no check.
    let mut w = map(". . .\n. b .\n. . .\n. . .")
        .sword("r-a", "0203", "n")
        .sword("b-a", "0301", "s")
        .game();
    let ev = w.go("r-a", "0202").unwrap();
    assert!(!has(&ev, |e| matches!(e, Event::Roll(_))));
}

#[test]
fn sk_mov_18_a_movement_cut_short_in_a_friends_hex_steps_back() {
    // Backing into a friend's hex in brush and failing the check: Dazed there, the
    // character goes back to the hex it came from.
    let mut t = map(". . . . .
         . . . . .
         . . . . .
         . . . . .
         . . b . .
         . . . . .")
    .sword("r-a", "0304", "n")
    .sword("r-b", "0305", "n")
    .sword("b-a", "0501", "s")
    .game();
    t.force(&[6]);
    let ev = t.go("r-a", "0305").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Moved { rules, to, .. } if rules == &vec!["SK-MOV-18".to_owned()] && *to == t.hex("0304"))
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("r-a").as_deref(), Some("0304"));
    assert!(t.c("r-a").dazed && t.c("r-a").done);
}

#[test]
fn sk_zoc_1_a_character_controls_its_hex_and_the_six_around() {
    let t = open(9, 9)
        .sword("r-a", "0509", "n")
        .sword("b-a", "0504", "s")
        .game();
    let reach = t.reachable("r-a");
    for r in &reach {
        let d = r.hex.distance(t.hex("0504"));
        assert_eq!(r.stop, d <= 1, "{}", t.label(r.hex));
    }
    assert!(reach.iter().any(|r| r.stop), "the zone is within reach");
}

#[test]
fn sk_zoc_2_engaged_means_in_an_enemy_zone() {
    let t = open(8, 8)
        .sword("r-a", "0405", "n")
        .sword("r-b", "0407", "n")
        .sword("b-a", "0404", "s")
        .game();
    assert!(t.has_status("r-a", "engaged"));
    assert!(t.has_status("b-a", "engaged"));
    assert!(!t.has_status("r-b", "engaged"));
}

#[test]
fn reachable_paths_avoid_rock_and_friends_and_stop_in_zones() {
    let t = map(". . . . .
         . . . . .
         . . r . .
         . . . . .
         . . . . .")
    .sword("r-a", "0305", "n")
    .sword("r-b", "0304", "n")
    .sword("b-a", "0501", "s")
    .game();
    let reach = t.reachable("r-a");
    assert!(reach
        .iter()
        .all(|r| r.hex != t.hex("0303") && r.hex != t.hex("0304")));
    // Through the friend to the hex beyond the rock's side.
    let r = reach
        .iter()
        .find(|r| r.hex == t.hex("0302"))
        .expect("round the rock");
    assert_eq!(r.path.last(), Some(&t.hex("0302")));
    assert!(u32::try_from(r.path.len()).unwrap() <= r.cost);
    let _ = SWORD;
    let _ = t.rules.to_act(t.state());
}

#[test]
fn sk_mov_18_a_flight_into_a_friends_hex_with_no_way_on_is_not_reached() {
    // b-p is Panicked at 0402 and flees north: its one step toward the edge is into
    // b-b's hex, 0401, from which no step goes on, so the flight would be put back
    // where it started (SK-MOV-18) and reachable does not list 0401.
    // Rock at 0302 and 0502 leaves b-p that one step.
    let mut t = map(". . . . . . . .
         . . r . r . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .")
    .sword("r-a", "0707", "n")
    .sword("b-p", "0402", "s")
    .sword("b-b", "0401", "s")
    .game();
    t.set("b-p", |c| c.panicked = true);
    // Red's morale phase: b-p stays Panicked on a 1.
    t.force(&[1]);
    t.to("blue", Phase::Movement);
    let reach = t.reachable("b-p");
    assert!(
        reach.iter().all(|r| r.hex != t.hex("0401")),
        "the friend's hex is listed: {reach:?}"
    );
    // The step stays legal, and the computer is offered it (its only one here).
    let step = Action::Move {
        unit: t.id("b-p"),
        to: t.hex("0401"),
        evasive: false,
    };
    let steps: Vec<Action> = t
        .legal()
        .into_iter()
        .filter(|a| matches!(a, Action::Move { unit, .. } if *unit == t.id("b-p")))
        .collect();
    assert_eq!(steps, vec![step.clone()], "b-p's steps");
    let mut plans = Vec::new();
    t.rules.plans(t.state(), &mut plans);
    assert!(
        plans.iter().any(|p| p.steps == vec![step.clone()]),
        "no plan takes the step: {plans:?}"
    );
    let ev = t.go("b-p", "0401").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Moved { rules, to, .. } if rules == &vec!["SK-MOV-18".to_owned()] && *to == t.hex("0402"))
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("b-p").as_deref(), Some("0402"));
}
