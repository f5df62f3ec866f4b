//! Zones of control (docs/rules/morne-plaine.md, MP-ZOC-*).

use super::harness::{clear, has, map, rules_of};
use grognard_hex::Direction;
use grognard_rules::morne_plaine::{Event, Phase};

/// Whether stepping `id` into `to` halts it (the step must be legal).
fn halts(t: &mut super::harness::T, id: &str, to: &str) -> bool {
    let ev = t.go(id, to).unwrap_or_else(|r| panic!("{id} to {to}: {r}"));
    has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "MP-MOV-8"),
    )
}

#[test]
fn mp_zoc_1_six_adjacent_hexes() {
    let t = clear(9, 9)
        .inf("b-a", "0505", 5, 4)
        .unit("o-a", "infantry", "0502", "cs = 3, ma = 12, mv = 4")
        .game();
    let centre = t.hex("0505");
    for d in Direction::ALL {
        let n = t.label(centre.neighbor(d));
        let mut g = t.clone();
        let r = g.reachable("o-a");
        let hit = r.iter().find(|x| g.label(x.hex) == n).unwrap_or_else(|| {
            panic!(
                "{n} not in {:?}",
                r.iter()
                    .map(|x| (g.label(x.hex), x.cost, x.stop))
                    .collect::<Vec<_>>()
            )
        });
        assert!(hit.stop, "{n} is controlled");
        // Walk there and check that the unit stops.
        let path: Vec<String> = hit.path.iter().map(|&h| g.label(h)).collect();
        let (last, before) = path.split_last().unwrap();
        for p in before {
            assert!(!halts(&mut g, "o-a", p));
        }
        assert!(halts(&mut g, "o-a", last), "{n}");
    }
    // Two hexes away is free.
    let mut g = t.clone();
    assert!(!halts(&mut g, "o-a", "0503"));
}

#[test]
fn mp_zoc_2_towns_and_woods_cannot_be_controlled() {
    let mut t = map(". . . . .
         . . w . .
         . . . t .
         . . . . .")
    .inf("b-a", "0303", 5, 4)
    .inf("o-a", "0201", 5, 4)
    .inf("o-b", "0402", 5, 6)
    .game();
    t.go("o-a", "0202").unwrap_or_else(|r| panic!("{r}")); // 0202 is next to 0303: controlled
    assert_eq!(t.refused_step("o-a", "0302"), "MP-MOV-8");
    let mut u = t.clone();
    // Woods (0302) and town (0403) next to the enemy: entered without stopping.
    let mut v = map(". . . . .
         . . w . .
         . . . t .
         . . . . .")
    .inf("b-a", "0303", 5, 4)
    .inf("o-a", "0301", 5, 4)
    .inf("o-b", "0402", 5, 6)
    .game();
    assert!(!halts(&mut v, "o-a", "0302"), "woods");
    assert!(!halts(&mut v, "o-b", "0403"), "town");
    assert!(v.go("o-a", "0301").is_ok(), "and leaves without the +1");
    let _ = &mut u;
    // MP-TER-4: a village is a town; a hamlet is not.
    for (code, controlled) in [("v", false), ("h", true)] {
        let mut w = map(&format!(". . . . .\n. . {code} . .\n. . . . .\n. . . . ."))
            .inf("b-a", "0303", 5, 4)
            .inf("o-a", "0301", 5, 4)
            .game();
        assert_eq!(halts(&mut w, "o-a", "0302"), controlled, "{code}");
    }
}

#[test]
fn mp_zoc_3_units_in_towns_or_woods_control_nothing() {
    // MP-TER-4: a village is a town.
    for code in ["w", "t", "v"] {
        let terrain = format!(". . . . .\n. . . . .\n. . {code} . .\n. . . . .\n. . . . .");
        let mut t = map(&terrain)
            .inf("b-a", "0303", 5, 4)
            .inf("o-a", "0301", 5, 4)
            .game();
        assert!(!halts(&mut t, "o-a", "0302"), "{code}");
        assert!(!halts(&mut t, "o-a", "0402"), "{code}");
    }
}

#[test]
fn mp_zoc_4_not_across_stream_river_or_double_slope() {
    for (feature, extra) in [
        ("stream", None),
        ("river", Some("bridge")),
        ("double_slope", None),
    ] {
        let mut m = clear(5, 5).hexsides(feature, &["0303/0302"]);
        if let Some(x) = extra {
            m = m.hexsides(x, &["0303/0302"]);
        }
        let mut t = m.inf("b-a", "0303", 5, 4).inf("o-a", "0301", 5, 4).game();
        assert!(!halts(&mut t, "o-a", "0302"), "across a {feature}");
        assert!(halts(&mut t, "o-a", "0202"), "but not around it");
    }
}

#[test]
fn mp_zoc_5_artillery_and_demoralised_units_exert_none() {
    let mut t = clear(7, 5)
        .art("b-guns", "0303", 3, 1)
        .inf("b-shaken", "0603", 5, 0)
        .inf("o-a", "0301", 5, 4)
        .inf("o-b", "0601", 5, 4)
        .game();
    assert!(!halts(&mut t, "o-a", "0302"), "artillery");
    assert!(!halts(&mut t, "o-b", "0602"), "demoralised");
}

#[test]
fn mp_zoc_6_an_empty_fort_counts_as_held() {
    let mk = |owner: &str| {
        map(". . . . .
             . . . . .
             . . f . .
             . . . . .")
        .raw(&format!(
            "[[places]]\nname = \"Redoubt\"\nhex = \"0303\"\nowner = \"{owner}\"\n"
        ))
        .inf("o-a", "0301", 5, 4)
        .inf("b-far", "0504", 5, 4)
        .game()
    };
    let mut t = mk("blue");
    assert!(
        halts(&mut t, "o-a", "0302"),
        "an empty blue fort controls its neighbours"
    );
    let mut u = mk("orange");
    assert!(
        !halts(&mut u, "o-a", "0302"),
        "an orange fort does not stop orange units"
    );
}

#[test]
fn mp_zoc_7_units_inside_a_fort_are_not_under_enemy_zoc() {
    let mut t = map(". . . . .
         . . f . .
         . . . . .
         . . . . .")
    .inf("b-a", "0303", 5, 4)
    .inf("o-a", "0301", 5, 4)
    .inf("o-in", "0202", 5, 4)
    .game();
    // Entering the fort next to the enemy does not stop the unit...
    assert!(!halts(&mut t, "o-a", "0302"));
    // ...and leaving it costs no extra point.
    assert_eq!(t.cost("o-a", "0301"), 1);
}

#[test]
fn mp_zoc_8_a_fort_controls_all_adjacent_hexes() {
    // Even across a stream, which stops a unit's zone of control (MP-ZOC-4).
    let mut t = map(". . . . .
         . . . . .
         . . f . .
         . . . . .")
    .hexsides("stream", &["0303/0302"])
    .raw("[[places]]\nname = \"Redoubt\"\nhex = \"0303\"\nowner = \"blue\"\n")
    .inf("b-in", "0303", 5, 4)
    .inf("o-a", "0301", 5, 4)
    .game();
    assert!(halts(&mut t, "o-a", "0302"));
}

#[test]
fn mp_zoc_9_a_retreating_unit_cannot_enter_an_enemy_fort() {
    // The blue defender at 0303 is surrounded by orange units but for the empty orange
    // fort south of it: failing its morale check, it is eliminated rather than enter.
    let mut t = map(". . . . .
         . . . . .
         . . . . .
         . . f . .
         . . . . .")
    .raw("[[places]]\nname = \"Redoubt\"\nhex = \"0304\"\nowner = \"orange\"\n")
    .inf("o-a", "0302", 6, 4)
    .inf("o-1", "0202", 3, 4)
    .inf("o-2", "0203", 3, 4)
    .inf("o-3", "0402", 3, 4)
    .inf("o-4", "0403", 3, 4)
    .inf("b-d", "0303", 6, 4)
    .game();
    t.to("orange", Phase::Combat);
    t.force(&[1, 9]);
    let ev = t.attack("o-a", "b-d").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Eliminated { rule, .. } if rule == "MP-RET-13")
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("b-d"), None);
}

#[test]
fn mp_zoc_10_entering_costs_nothing_more_and_ends_movement() {
    let mut t = clear(6, 6)
        .inf("b-a", "0305", 5, 4)
        .inf("o-a", "0302", 5, 4)
        .game();
    t.go("o-a", "0303").unwrap();
    let ev = t.go("o-a", "0304").unwrap();
    assert!(has(&ev, |e| matches!(e, Event::Moved { cost: 1, .. })));
    assert!(rules_of(&ev).contains(&"MP-ZOC-10".to_owned()));
    assert_eq!(t.refused_step("o-a", "0204"), "MP-MOV-8");
}

#[test]
fn mp_zoc_11_infantry_leaves_only_for_a_free_hex_at_one_more_point() {
    // Blue at 0405 controls 0404, 0406, 0505, 0506, 0306 and 0305.
    let mut t = clear(7, 7)
        .inf("b-a", "0405", 5, 4)
        .inf("o-a", "0404", 5, 4)
        .art("o-g", "0506", 3, 1)
        .game();
    t.to("orange", Phase::Movement);
    assert_eq!(t.refused_step("o-a", "0305"), "MP-ZOC-11");
    assert_eq!(t.refused_step("o-a", "0505"), "MP-ZOC-11");
    let ev = t.go("o-a", "0403").unwrap();
    assert!(has(&ev, |e| matches!(e, Event::Moved { cost: 2, .. })));
    assert!(rules_of(&ev).contains(&"MP-ZOC-11".to_owned()));
    // Artillery likewise.
    assert_eq!(t.refused_step("o-g", "0505"), "MP-ZOC-11");
    assert_eq!(t.cost("o-g", "0606"), 2);
}

#[test]
fn mp_zoc_12_mounted_units_leave_infantry_zoc_freely() {
    let mut t = clear(7, 7)
        .inf("b-a", "0405", 5, 4)
        .cav("o-c", "0404", 3, 4)
        .leader("o-l", "0406", 2, 2)
        .game();
    let ev = t.go("o-c", "0403").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 1, .. })),
        "no extra point: {ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-ZOC-12".to_owned()));
    // Even into another hex the infantry controls (where it then stops).
    assert!(halts(&mut t, "o-l", "0306"));
}

#[test]
fn mp_zoc_13_mounted_leave_mounted_zoc_only_for_a_hex_they_do_not_control() {
    // Blue cavalry at 0405 controls 0305 and 0505 next to the orange cavalry at 0404.
    let mut t = clear(7, 7)
        .cav("b-c", "0405", 3, 4)
        .cav("o-c", "0404", 3, 4)
        .game();
    assert_eq!(t.refused_step("o-c", "0305"), "MP-ZOC-13");
    let ev = t.go("o-c", "0403").unwrap();
    assert!(has(&ev, |e| matches!(e, Event::Moved { cost: 2, .. })));
    assert!(rules_of(&ev).contains(&"MP-ZOC-13".to_owned()));
    // A leader is mounted too.
    let mut u = clear(7, 7)
        .leader("b-l", "0405", 2, 2)
        .cav("o-c", "0404", 3, 4)
        .game();
    assert_eq!(u.refused_step("o-c", "0505"), "MP-ZOC-13");
    // A dromedary unit is not (MP-CHG-2): its zone is left freely.
    let mut v = clear(7, 7)
        .unit(
            "b-d",
            "cavalry",
            "0405",
            "cs = 3, ma = 6, mv = 4, class = \"dromedary\"",
        )
        .cav("o-c", "0404", 3, 4)
        .game();
    assert!(halts(&mut v, "o-c", "0305"));
}

#[test]
fn mp_dem_4_demoralised_units_exert_no_zoc() {
    let mut t = clear(5, 5)
        .cav("b-shaken", "0303", 3, 0)
        .inf("o-a", "0301", 5, 4)
        .game();
    assert!(!halts(&mut t, "o-a", "0302"));
    assert!(!halts(&mut t, "o-a", "0202"));
}
