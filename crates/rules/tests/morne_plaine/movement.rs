//! Movement phase, terrain effects, roads and the recovered movement chart
//! (docs/rules/morne-plaine.md, MP-MOV-*, MP-TER-*, MP-ROAD-*, MP-REF-*).

use super::harness::{clear, has, map, rules_of, T};
use grognard_engine::{Ruleset, UnitId};
use grognard_hex::Direction;
use grognard_rules::morne_plaine::data::{Data, Source};
use grognard_rules::morne_plaine::{Action, Event, Phase};

/// An orange infantry (MA 4) alone with a far blue one, in orange's movement phase.
fn one(terrain: &str, at: &str) -> T {
    map(terrain)
        .inf("o-inf", at, 5, 4)
        .inf("b-far", "0101", 5, 4)
        .game()
}

#[test]
fn mp_mov_1_only_own_units_in_own_movement_phase() {
    let mut t = clear(8, 8)
        .inf("o-a", "0404", 5, 4)
        .inf("b-a", "0808", 5, 4)
        .game();
    assert_eq!(t.phase(), (Phase::Movement, "orange"));
    assert_eq!(t.refused_step("b-a", "0807"), "MP-MOV-1");
    // Some, all or none: ending the phase without moving is legal.
    t.end();
    t.to("blue", Phase::Movement);
    assert_eq!(t.refused_step("o-a", "0403"), "MP-MOV-1");
    assert!(t.go("b-a", "0807").is_ok());
    t.end();
    // Blue's combat phase had nothing to attack and passed: orange's turn 2.
    assert_eq!(t.phase(), (Phase::Movement, "orange"));
    assert_eq!(t.state().turn, 2);
}

#[test]
fn mp_mov_1_no_movement_outside_the_movement_phase() {
    let mut t = clear(8, 8)
        .inf("o-a", "0404", 5, 4)
        .inf("b-a", "0406", 5, 4)
        .game();
    t.go("o-a", "0405").unwrap();
    t.end();
    assert_eq!(t.phase(), (Phase::Combat, "orange"));
    assert_eq!(t.refused_step("o-a", "0404"), "MP-MOV-1");
}

#[test]
fn mp_mov_2_six_directions() {
    let t = clear(7, 7)
        .inf("o-a", "0404", 5, 4)
        .inf("b-far", "0101", 5, 4)
        .game();
    let a = t.id("o-a");
    let from = t.hex("0404");
    let mut to: Vec<_> = t
        .legal()
        .into_iter()
        .filter_map(|x| match x {
            Action::Move { unit, to } if unit == a => Some(to),
            _ => None,
        })
        .collect();
    to.sort_by_key(|h| (h.q, h.r));
    let mut expected: Vec<_> = Direction::ALL.iter().map(|&d| from.neighbor(d)).collect();
    expected.sort_by_key(|h| (h.q, h.r));
    assert_eq!(to, expected, "one step toward each of the six directions");
    let labels: Vec<String> = to.iter().map(|&h| t.label(h)).collect();
    for l in ["0403", "0405", "0504", "0505", "0304", "0305"] {
        assert!(labels.contains(&l.to_owned()), "{l} in {labels:?}");
    }
}

#[test]
fn mp_mov_3_allowance_pays_each_hex() {
    let terrain = "
        . . . . . .
        . . w . . .
        . . . . . .
        . . . . . .";
    let mut t = one(terrain, "0301");
    assert_eq!(t.mp("o-inf"), 4);
    assert_eq!(t.cost("o-inf", "0302"), 2, "woods cost infantry 2");
    assert_eq!(t.cost("o-inf", "0303"), 1);
    assert_eq!(t.mp("o-inf"), 1);
    // The allowance is never exceeded: 1 point left, woods cost 2.
    t.go("o-inf", "0304").unwrap();
    let mut u = one(terrain, "0304");
    u.walk("o-inf", &["0404", "0403", "0303"]);
    assert_eq!(u.mp("o-inf"), 1);
    assert_eq!(u.refused_step("o-inf", "0302"), "MP-MOV-3");
}

#[test]
fn mp_mov_3_the_event_reports_cost_and_points_left() {
    let mut t = one(". . .\n. . .\n. . .", "0202");
    let ev = t.go("o-inf", "0201").unwrap();
    assert!(has(&ev, |e| matches!(
        e,
        Event::Moved {
            cost: 1,
            left: 3,
            ..
        }
    )));
    assert!(rules_of(&ev).contains(&"MP-MOV-3".to_owned()));
}

#[test]
fn mp_mov_4_alternate_between_units() {
    let mut t = clear(8, 8)
        .inf("o-a", "0404", 5, 4)
        .inf("o-b", "0604", 5, 4)
        .inf("b-far", "0101", 5, 4)
        .game();
    t.go("o-a", "0405").unwrap();
    t.go("o-b", "0605").unwrap();
    t.go("o-a", "0406").unwrap();
    t.go("o-b", "0606").unwrap();
    t.walk("o-a", &["0407", "0408"]);
    assert_eq!(t.mp("o-a"), 0);
    assert_eq!(t.refused_step("o-a", "0407"), "MP-MOV-4");
    // The other unit still moves with what it has left.
    t.go("o-b", "0607").unwrap();
}

#[test]
fn mp_mov_5_contiguous_hexes_on_the_map() {
    let mut t = clear(6, 6)
        .inf("o-a", "0101", 5, 4)
        .inf("b-far", "0606", 5, 4)
        .game();
    assert_eq!(t.refused_step("o-a", "0103"), "MP-MOV-5");
    let off = t.hex("0101").neighbor(Direction::N);
    let a = Action::Move {
        unit: t.id("o-a"),
        to: off,
    };
    assert_eq!(t.refused(a), "MP-MOV-5");
    assert!(t.legal().iter().all(|x| match x {
        Action::Move { to, .. } => t.rules.names().map().contains(*to),
        _ => true,
    }));
}

#[test]
fn mp_mov_6_rivers_and_steep_slopes_forbid_movement() {
    let base = || {
        clear(6, 6)
            .elevation(
                "0 0 0 0 0 0
                 0 0 0 0 0 0
                 0 0 0 0 0 0
                 0 0 0 0 0 0
                 0 0 0 0 0 0
                 0 0 0 0 0 2",
            )
            .hexsides("river", &["0303/0304", "0203/0304"])
            .hexsides("major_river", &["0303/0402"])
            .hexsides("double_slope", &["0303/0202"])
            .hexsides("river", &["0303/0403"])
            .hexsides("bridge", &["0303/0403"])
            .hexsides("river", &["0303/0203"])
            .hexsides("ford", &["0303/0203"])
            .inf("o-a", "0303", 5, 4)
            .inf("o-b", "0506", 5, 4)
            .inf("b-far", "0101", 5, 4)
    };
    let mut t = base().game();
    assert_eq!(t.refused_step("o-a", "0304"), "MP-MOV-6", "river");
    assert_eq!(t.refused_step("o-a", "0402"), "MP-MOV-6", "major river");
    assert_eq!(t.refused_step("o-a", "0202"), "MP-MOV-6", "double slope");
    assert_eq!(
        t.refused_step("o-b", "0606"),
        "MP-MOV-6",
        "two levels at once"
    );
    assert!(t.clone().go("o-a", "0403").is_ok(), "bridged river");
    assert!(t.go("o-a", "0203").is_ok(), "forded river");
}

#[test]
fn mp_mov_7_no_entering_occupied_hexes() {
    let mut t = map(". \n . \n . \n . ")
        .inf("o-a", "0101", 5, 4)
        .inf("o-b", "0102", 5, 4)
        .inf("b-far", "0104", 5, 4)
        .game();
    assert_eq!(t.refused_step("o-a", "0102"), "MP-MOV-7");
    // Nor through it: nothing beyond the friend is reachable.
    assert!(t.reachable("o-a").is_empty());
}

#[test]
fn mp_mov_7_enemy_hexes_are_not_entered_either() {
    let mut t = clear(6, 6)
        .inf("o-a", "0303", 5, 4)
        .inf("b-a", "0304", 5, 4)
        .game();
    assert_eq!(t.refused_step("o-a", "0304"), "MP-MOV-7");
}

#[test]
fn mp_mov_8_entering_enemy_zoc_ends_movement() {
    let mut t = clear(8, 8)
        .inf("o-a", "0402", 5, 4)
        .inf("b-a", "0405", 5, 4)
        .game();
    let ev = t.go("o-a", "0403").unwrap();
    assert!(!has(&ev, |e| matches!(e, Event::Halted { .. })));
    let ev = t.go("o-a", "0404").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "MP-MOV-8")
    ));
    assert_eq!(t.mp("o-a"), 2, "points are left, but movement has ended");
    assert_eq!(t.refused_step("o-a", "0303"), "MP-MOV-8");
    assert!(t
        .legal()
        .iter()
        .all(|a| !matches!(a, Action::Move { unit, .. } if *unit == t.id("o-a"))));
}

/// The recovered chart: leader, infantry, cavalry, artillery.
const CHART: [(&str, [u8; 4]); 7] = [
    ("clear", [1, 1, 1, 1]),
    ("rough", [1, 1, 2, 2]),
    ("coppice", [1, 1, 2, 2]),
    ("orchard", [1, 1, 3, 2]),
    ("woods", [2, 2, 3, 3]),
    ("village", [2, 2, 3, 3]),
    ("marsh", [1, 1, 1, 1]),
];

#[test]
fn mp_ter_1_cost_by_terrain_and_class() {
    let codes = [
        ("clear", "."),
        ("rough", "r"),
        ("coppice", "c"),
        ("orchard", "o"),
        ("woods", "w"),
        ("village", "v"),
        ("marsh", "m"),
    ];
    for (name, costs) in CHART {
        let code = codes.iter().find(|c| c.0 == name).unwrap().1;
        let terrain = format!(". . . . .\n. . {code} . .\n. . . . .\n. . . . .");
        for (k, kind) in ["leader", "infantry", "cavalry", "artillery"]
            .into_iter()
            .enumerate()
        {
            let values = match kind {
                "leader" => "cs = 2, ma = 8, stripes = 2",
                "infantry" => "cs = 5, ma = 4, mv = 4",
                "cavalry" => "cs = 3, ma = 8, mv = 4",
                _ => "cs = 2, ma = 3, mv = 3, bv = 3, range = 1",
            };
            let mut t = map(&terrain)
                .unit("o-u", kind, "0301", values)
                .inf("b-far", "0504", 5, 4)
                .game();
            t.to("orange", Phase::Movement);
            assert_eq!(t.cost("o-u", "0302"), costs[k], "{kind} into {name}");
        }
    }
}

#[test]
fn mp_ter_2_costs_add_up() {
    let mut t = map(". . . . .
         . w . . .
         . . . . .
         . . . . .")
    .elevation(
        "0 0 0 0 0
         0 0 0 0 0
         0 0 0 1 0
         0 0 0 0 0",
    )
    .hexsides("stream", &["0201/0202", "0303/0403"])
    .hexsides("slope", &["0303/0403", "0403/0404"])
    .inf("o-a", "0201", 5, 4)
    .inf("o-b", "0303", 5, 6)
    .inf("b-far", "0104", 5, 4)
    .game();
    let ev = t.go("o-a", "0202").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 3, .. })),
        "woods 2 + stream 1: {ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-TER-2".to_owned()));
    // Up a slope across a stream: clear 1 + stream 1 + slope 1; down again: 1.
    assert_eq!(t.cost("o-b", "0403"), 3);
    assert_eq!(t.cost("o-b", "0404"), 1);
}

#[test]
fn mp_ter_3_marsh_across_stream_pays_both() {
    let mut t = map(". . .
         . m .
         . . .")
    .hexsides("stream", &["0201/0202"])
    .inf("o-a", "0201", 5, 4)
    .inf("b-far", "0303", 5, 4)
    .game();
    let ev = t.go("o-a", "0202").unwrap();
    assert!(has(&ev, |e| matches!(e, Event::Moved { cost: 2, .. })));
    assert!(rules_of(&ev).contains(&"MP-TER-3".to_owned()));
}

/// Two roads crossing at 0403 (A: 0203-0303-0403-0503-0603; B: the column 04), woods
/// at 0402, and a blue unit far away.
fn roads() -> super::harness::Mp {
    map(". . . . . . .
         . . . w . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .")
    .path("road", &["0203", "0303", "0403", "0503", "0603"])
    .path("road", &["0401", "0402", "0403", "0404", "0405", "0406"])
    .inf("b-far", "0706", 5, 4)
}

#[test]
fn mp_road_1_road_hex_costs_its_terrain() {
    // Entering the woods road hex 0402 from off the road costs the woods' 2.
    let mut t = roads().inf("o-a", "0302", 5, 4).game();
    assert_eq!(t.cost("o-a", "0402"), 2);
}

#[test]
fn mp_road_2_bonus_only_along_the_same_road() {
    let mut t = roads().inf("o-a", "0203", 5, 4).game();
    t.go("o-a", "0202").unwrap(); // off the road: the first step is spent
    assert_eq!(
        t.cost("o-a", "0203"),
        1,
        "onto the road from off it: clear terrain"
    );
    assert_eq!(t.cost("o-a", "0303"), 0, "along the road");
    assert_eq!(t.cost("o-a", "0403"), 0);
    let ev = t.go("o-a", "0402").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 0, .. })),
        "the woods road hex along the road: {ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-ROAD-2".to_owned()));
}

#[test]
fn mp_road_3_first_step_from_a_road_hex_is_free() {
    // Two roads side by side, never joined: 0303 (road A) to 0304 (road B, woods) is
    // no road step and no crossroads jump, but the first step of the turn from a road
    // hex to a road hex is free.
    let parallel = || {
        map(". . . . . . .
             . . . . . . .
             . . . . . . .
             . . w . . . .
             . . . . . . .
             . . . . . . .")
        .path("road", &["0203", "0303", "0403", "0503"])
        .path("road", &["0204", "0304", "0404", "0504"])
        .inf("b-far", "0706", 5, 4)
    };
    let mut t = parallel().inf("o-a", "0303", 5, 4).game();
    let ev = t.go("o-a", "0304").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 0, .. })),
        "{ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-ROAD-3".to_owned()));
    // The same step later in the turn pays the woods.
    let mut u = parallel().inf("o-a", "0303", 5, 4).game();
    u.go("o-a", "0302").unwrap();
    u.go("o-a", "0303").unwrap();
    assert_eq!(u.cost("o-a", "0304"), 2);
    // Free as a road step is, not more (MP-TER-2): a stream or a slope crossed on the
    // first step is paid like on the next, with the hexside's rule cited.
    let brook = || {
        clear(5, 5)
            .path("road", &["0301", "0302", "0303", "0304"])
            .hexsides("stream", &["0302/0303", "0303/0304"])
            .inf("b-far", "0505", 5, 4)
    };
    let mut v = brook().inf("o-a", "0302", 5, 4).game();
    let ev = v.go("o-a", "0303").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 1, .. })),
        "the first step pays the stream: {ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-TER-2".to_owned()));
    assert_eq!(v.cost("o-a", "0304"), 1, "as the next road step does");
    let mut w = clear(5, 5)
        .elevation("0 0 0 0 0\n0 0 0 0 0\n0 0 1 0 0\n0 0 1 0 0\n0 0 1 0 0")
        .hexsides("slope", &["0302/0303"])
        .path("road", &["0301", "0302", "0303", "0304"])
        .inf("b-far", "0505", 5, 4)
        .inf("o-a", "0302", 5, 4)
        .game();
    assert_eq!(w.cost("o-a", "0303"), 1, "the first step pays the climb");
}

/// MP-TER-4: the texts' towns are the chart's villages: a village is a town wherever
/// the rules ask (zones of control, charge targets, advance ranks and objectives,
/// retreat priority, line of sight), and a hamlet is not.
#[test]
fn mp_ter_4_a_village_is_a_town_everywhere() {
    use super::combat::beat;
    // Zones of control (MP-ZOC-2): a village next to the enemy is not controlled.
    let mut t = map(". . . . .\n. . v . .\n. . . . .\n. . . . .")
        .inf("b-a", "0303", 5, 4)
        .inf("o-a", "0301", 5, 4)
        .game();
    let ev = t.go("o-a", "0302").unwrap();
    assert!(!has(&ev, |e| matches!(e, Event::Halted { .. })), "{ev:?}");
    // Units in a village control nothing (MP-ZOC-3).
    let mut u = map(". . . . .\n. . . . .\n. . v . .\n. . . . .")
        .inf("b-a", "0303", 5, 4)
        .inf("o-a", "0301", 5, 4)
        .game();
    let ev = u.go("o-a", "0302").unwrap();
    assert!(!has(&ev, |e| matches!(e, Event::Halted { .. })), "{ev:?}");
    // Advance after combat (MP-ADV-1): a village is an objective hex like a town, so
    // cavalry (rank 0 there, as on clear ground) does not leave it.
    for code in ["t", "v"] {
        let terrain = format!(". . . .\n. . . .\n. . {code} .\n. . . .\n. . . .");
        let mut c = map(&terrain)
            .unit("o-c", "cavalry", "0303", "cs = 16, ma = 8, mv = 4")
            .inf("b-a", "0304", 4, 4)
            .game();
        c.to("orange", Phase::Combat);
        beat(&mut c, "o-c", "b-a", "defender");
        assert_eq!(c.at("o-c").as_deref(), Some("0303"), "{code}");
    }
    // Retreat (MP-RET-1): "into a village" is into a town; a hamlet is not one, and
    // woods come first (MP-RET-2).
    for (code, to) in [("v", "0304"), ("t", "0304"), ("h", "0504")] {
        let mut rows = [". . . . . . ."; 7];
        let row = format!(". . {code} . w . .");
        rows[3] = &row;
        let mut r = map(&rows.join("\n"))
            .unit("o-a", "infantry", "0403", "cs = 16, ma = 4, mv = 4")
            .inf("b-d", "0404", 4, 4)
            .game();
        r.to("orange", Phase::Combat);
        let ev = beat(&mut r, "o-a", "b-d", "defender");
        assert!(has(&ev, |e| matches!(e, Event::Retreated { .. })));
        assert_eq!(r.at("b-d").as_deref(), Some(to), "{code}");
    }
    // Charge targets (MP-CHG-8): never in a village.
    let mut g = map(". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . v . .\n. . . . .")
        .cav("o-c", "0302", 4, 5)
        .inf("b-t", "0305", 4, 4)
        .game();
    g.go("o-c", "0303").unwrap();
    let a = g.charge_action("o-c", "b-t");
    assert_eq!(g.refused(a), "MP-CHG-8");
}

#[test]
fn mp_road_4_crossroads_jump_pays_the_terrain() {
    let mut t = roads().inf("o-a", "0203", 5, 4).game();
    assert_eq!(t.cost("o-a", "0303"), 0);
    // 0303 to 0402 skips the crossroads 0403: no road bonus, the woods cost 2.
    let ev = t.go("o-a", "0402").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 2, .. })),
        "{ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-ROAD-4".to_owned()));
}

#[test]
fn mp_road_4_a_crossroads_jump_as_the_first_step_pays_the_terrain_too() {
    // The unit starts its turn on the road at 0303: 0303 to 0402 skips the crossroads
    // 0403. The jump is "a special case" (MP-ROAD-4) that the free first step
    // (MP-ROAD-3) does not cover: the woods cost 2.
    let mut t = roads().inf("o-a", "0303", 5, 4).game();
    let ev = t.go("o-a", "0402").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 2, .. })),
        "{ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-ROAD-4".to_owned()));
    assert!(!rules_of(&ev).contains(&"MP-ROAD-3".to_owned()));
}

#[test]
fn mp_road_5_jump_loses_the_next_road_hex_bonus() {
    let mut t = roads().inf("o-a", "0203", 5, 4).game();
    t.walk("o-a", &["0303", "0402"]);
    let ev = t.go("o-a", "0401").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 1, .. })),
        "the next road hex costs its terrain: {ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-ROAD-5".to_owned()));
    assert_eq!(t.cost("o-a", "0402"), 0, "then the road counts again");
}

#[test]
fn mp_road_6_via_the_crossroads_goes_further() {
    // Via the crossroads: 0303, 0403, 0402, 0401 for nothing. Jumping: 0303, 0402 (2),
    // 0401 (1).
    let mut via = roads().inf("o-a", "0203", 5, 4).game();
    via.walk("o-a", &["0303", "0403", "0402", "0401"]);
    let mut jump = roads().inf("o-a", "0203", 5, 4).game();
    jump.walk("o-a", &["0303", "0402", "0401"]);
    assert_eq!(via.mp("o-a"), 4);
    assert_eq!(jump.mp("o-a"), 1);
    assert_eq!(
        roads()
            .inf("o-a", "0203", 5, 4)
            .game()
            .reach_cost("o-a", "0401"),
        Some(0)
    );
}

#[test]
fn mp_road_7_road_track_crossroads_priced_by_the_route() {
    // A road down column 03 and a track along row 03 cross in the woods at 0303.
    let mk = || {
        map(". . . . .
             . . . . .
             . . w . .
             . . . . .
             . . . . .")
        .path("road", &["0301", "0302", "0303", "0304", "0305"])
        .path("track", &["0103", "0203", "0303", "0403", "0503"])
        .inf("b-far", "0505", 5, 4)
    };
    let mut t = mk().inf("o-a", "0203", 5, 4).game();
    let ev = t.go("o-a", "0303").unwrap();
    assert!(
        has(&ev, |e| matches!(e, Event::Moved { cost: 1, .. })),
        "the track's cost, not the woods': {ev:?}"
    );
    assert!(rules_of(&ev).contains(&"MP-ROAD-7".to_owned()));
    let mut u = mk().inf("o-a", "0301", 5, 4).game();
    u.go("o-a", "0302").unwrap();
    assert_eq!(u.cost("o-a", "0303"), 0, "the road's rate");
}

#[test]
fn mp_ref_1_movement_cost_chart() {
    let data = Data::shipped();
    for (name, costs) in CHART {
        let row = &data.terrain[name];
        assert_eq!(row.cost, costs, "{name}");
        assert_eq!(row.source, Source::Recovered, "{name}");
    }
    for (name, row) in &data.terrain {
        if row.source == Source::Provisional {
            assert!(
                row.reason.as_deref().is_some_and(|r| !r.is_empty()),
                "{name} says why"
            );
        }
    }
}

#[test]
fn mp_ref_bog_test_in_marsh() {
    let data = Data::shipped();
    assert_eq!((data.bog.sides, data.bog.stuck), (4, [2, 1, 2, 3]));
    assert_eq!(data.bog.source, Source::Recovered);
    assert_eq!(data.bog.effect_source, Source::Provisional);
    let mk = || {
        map(". m . .\n. m . .\n. . . .")
            .bog()
            .inf("o-a", "0101", 5, 4)
            .cav("o-c", "0102", 3, 4)
            .inf("b-far", "0403", 5, 4)
            .game()
    };
    let mut t = mk();
    // Preview: infantry is stuck on 1 in 4.
    let p = t.rules.preview(t.state(), &t.step("o-a", "0201")).unwrap();
    assert_eq!((p.outcomes[0].num, p.outcomes[0].den), (1, 4));
    t.force(&[1]);
    let ev = t.go("o-a", "0201").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "MP-REF-BOG")
    ));
    assert_eq!(t.refused_step("o-a", "0301"), "MP-MOV-8");
    let mut u = mk();
    u.force(&[2]);
    u.go("o-a", "0201").unwrap();
    assert!(u.go("o-a", "0301").is_ok(), "a 2 frees infantry");
    let mut v = mk();
    v.force(&[2]);
    v.go("o-c", "0202").unwrap();
    assert_eq!(
        v.refused_step("o-c", "0302"),
        "MP-MOV-8",
        "a 2 sticks cavalry"
    );
}

#[test]
fn mp_ref_2_stream_or_ford_adds_one() {
    let data = Data::shipped();
    assert_eq!(data.hexside["stream"].extra, 1);
    assert_eq!(data.hexside["ford"].extra, 1);
    let mut t = clear(4, 4)
        .hexsides("river", &["0202/0203"])
        .hexsides("ford", &["0202/0203"])
        .hexsides("stream", &["0302/0303"])
        .hexsides("ford", &["0302/0303"])
        .inf("o-a", "0202", 5, 4)
        .inf("o-b", "0302", 5, 4)
        .inf("b-far", "0404", 5, 4)
        .game();
    assert_eq!(t.cost("o-a", "0203"), 2, "a ford over a river");
    assert_eq!(
        t.cost("o-b", "0303"),
        2,
        "a ford over a stream: one point, not two"
    );
}

#[test]
fn mp_ref_3_major_river_impassable_except_bridge_or_ford() {
    let data = Data::shipped();
    assert!(data.hexside["major_river"].impassable);
    assert_eq!(data.hexside["major_river"].source, Some(Source::Recovered));
    assert_eq!(data.hexside["river"].source, Some(Source::Provisional));
    let mut t = clear(5, 3)
        .hexsides(
            "major_river",
            &["0101/0102", "0201/0202", "0301/0302", "0401/0402"],
        )
        .hexsides("bridge", &["0201/0202"])
        .hexsides("ford", &["0401/0402"])
        .inf("o-a", "0101", 5, 4)
        .inf("o-b", "0201", 5, 4)
        .inf("o-c", "0401", 5, 4)
        .inf("b-far", "0503", 5, 4)
        .game();
    assert_eq!(t.refused_step("o-a", "0102"), "MP-MOV-6");
    assert_eq!(
        t.cost("o-b", "0202"),
        1,
        "a bridge carries the road over for nothing"
    );
    assert_eq!(t.cost("o-c", "0402"), 2);
}

#[test]
fn mp_ref_4_road_costs_nothing_along_the_same_road() {
    assert_eq!(Data::shipped().path["road"].cost, 0);
    let mut t = roads().inf("o-a", "0401", 5, 1).game();
    t.walk("o-a", &["0402", "0403", "0404", "0405", "0406"]);
    assert_eq!(t.mp("o-a"), 4);
}

#[test]
fn mp_ref_5_track_costs_one() {
    let data = Data::shipped();
    assert_eq!(data.path["track"].cost, 1);
    assert_eq!(data.path["track"].source, Source::Provisional);
    let mut t = map(". w w w .\n. . . . .")
        .path("track", &["0101", "0201", "0301", "0401", "0501"])
        .cav("o-c", "0101", 3, 4)
        .inf("b-far", "0502", 5, 4)
        .game();
    assert_eq!(
        t.cost("o-c", "0201"),
        1,
        "the track through the woods, not 3"
    );
}

#[test]
fn mp_ref_6_slope_costs_and_double_slope() {
    let data = Data::shipped();
    assert_eq!(data.hexside["slope"].extra_uphill, 1);
    assert_eq!(data.hexside["slope"].source, Some(Source::Provisional));
    assert!(data.hexside["double_slope"].impassable);
    let mut t = clear(5, 5)
        .elevation("0 0 0 0 0\n0 1 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0")
        .hexsides("slope", &["0202/0201", "0202/0203"])
        .inf("o-a", "0201", 5, 4)
        .inf("b-far", "0505", 5, 4)
        .game();
    assert_eq!(t.cost("o-a", "0202"), 2, "up");
    assert_eq!(t.cost("o-a", "0203"), 1, "down");
}

#[test]
fn mp_ref_7_leaders_have_no_morale_value() {
    let text = clear(3, 3)
        .unit(
            "o-l",
            "leader",
            "0101",
            "cs = 2, ma = 8, stripes = 2, mv = 4",
        )
        .inf("b-far", "0303", 5, 4)
        .toml();
    let problems = grognard_rules::registry()
        .load_scenario("t.toml", &text)
        .unwrap_err();
    assert!(problems.to_string().contains("mv"), "{problems}");
    let t = clear(3, 3)
        .leader("o-l", "0101", 2, 2)
        .inf("b-far", "0303", 5, 4)
        .game();
    assert_eq!(t.mv("o-l"), 0);
    let view = t.rules.view(t.state(), &grognard_engine::Seat::Omniscient);
    assert_eq!(
        view["units"][0]["demoralised"], false,
        "a leader is never demoralised"
    );
}

#[test]
fn mp_mov_reachable_agrees_with_steps() {
    // Every hex reachable is entered at the cost the search gives, along its path.
    let t = roads()
        .inf("o-a", "0203", 5, 4)
        .cav("o-c", "0101", 3, 4)
        .game();
    for id in ["o-a", "o-c"] {
        for r in t.reachable(id) {
            if r.stop {
                continue;
            }
            let mut g = t.clone();
            let path: Vec<String> = r.path.iter().map(|&h| g.label(h)).collect();
            let refs: Vec<&str> = path.iter().map(String::as_str).collect();
            g.walk(id, &refs);
            let spent = u32::from(t.mp(id) - g.mp(id));
            assert_eq!(spent, r.cost, "{id} to {}", g.label(r.hex));
        }
    }
    let _ = UnitId(0);
}
