//! Cavalry charges (docs/rules/morne-plaine.md, MP-CHG-1 to MP-CHG-29), with the text's two examples and its demoralised unit.
//!
//! The usual geometry: the charger starts at 0302, runs up to 0303 (south, clear), and
//! its next step south, onto 0304, charges the enemy at 0305.

use super::harness::{clear, has, map, Mp, T};
use grognard_engine::Ruleset;
use grognard_rules::morne_plaine::{Action, Event, Phase};

/// A clear 5 x 8 map with the charger `o-c` (light cavalry, CS `cs`, MV 5) at 0302 and
/// whatever `target` adds.
fn field(cs: u8, target: impl FnOnce(Mp) -> Mp) -> T {
    target(clear(5, 8).cav("o-c", "0302", cs, 5)).game()
}

/// Runs `o-c` up to 0303.
fn run_up(t: &mut T) {
    t.go("o-c", "0303")
        .unwrap_or_else(|r| panic!("run-up: {r}"));
}

/// [`field`] with the charger run up to 0303.
fn charging(cs: u8, target: impl FnOnce(Mp) -> Mp) -> T {
    let mut t = field(cs, target);
    run_up(&mut t);
    t
}

/// The usual charge on `m`'s map: `o-c` (light cavalry, CS 4, MV 5) run up from 0302 to
/// 0303, next-but-one to `b-t` (infantry, CS 4, MV 4) at 0305.
pub(super) fn usual_charge(m: Mp) -> T {
    let mut t = m.cav("o-c", "0302", 4, 5).inf("b-t", "0305", 4, 4).game();
    run_up(&mut t);
    t
}

/// `o-c` charges `target` with `roll` on the die.
fn charge_with(t: &mut T, target: &str, roll: u32) -> Vec<Event> {
    t.force(&[roll]);
    t.charge("o-c", target).unwrap()
}

/// The preview of the one charge offered.
fn charge_preview(t: &T) -> grognard_engine::Preview {
    t.rules.preview(t.state(), &charges(t)[0]).unwrap()
}

/// The attack total of `o-c` attacking `target` with a 1 on the die.
fn attack_total(t: &mut T, target: &str) -> u32 {
    t.force(&[1]);
    let ev = t.attack("o-c", target).unwrap();
    ev.iter()
        .find_map(|e| match e {
            Event::Attacked { attack, .. } => Some(*attack),
            _ => None,
        })
        .expect("an attacked event")
}

fn charged(ev: &[Event]) -> (i32, i32, i32, bool) {
    ev.iter()
        .find_map(|e| match e {
            Event::Charged {
                morale,
                modifier,
                result,
                success,
                ..
            } => Some((*morale, *modifier, *result, *success)),
            _ => None,
        })
        .expect("a charged event")
}

fn charges(t: &T) -> Vec<Action> {
    t.legal()
        .into_iter()
        .filter(|a| matches!(a, Action::Charge { .. }))
        .collect()
}

#[test]
fn mp_chg_1_only_mounted_units_charge() {
    let mut t = clear(5, 8)
        .inf("o-i", "0302", 5, 4)
        .inf("b-t", "0305", 5, 4)
        .game();
    t.go("o-i", "0303").unwrap();
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-i", "b-t");
    assert_eq!(t.refused(a), "MP-CHG-1");
    // Its next step is a plain move into the zone of control.
    assert!(t.go("o-i", "0304").is_ok());
}

#[test]
fn mp_chg_2_dromedaries_are_never_mounted() {
    let mut t = clear(5, 8)
        .unit(
            "o-d",
            "cavalry",
            "0302",
            "cs = 4, ma = 6, mv = 4, class = \"dromedary\"",
        )
        .inf("b-t", "0305", 5, 4)
        .game();
    t.go("o-d", "0303").unwrap();
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-d", "b-t");
    assert_eq!(t.refused(a), "MP-CHG-1");
    let view = t.rules.view(t.state(), &grognard_engine::Seat::Omniscient);
    assert_eq!(view["units"][0]["mounted"], false);
}

#[test]
fn mp_chg_3_a_successful_charge_drives_back_shakes_and_strengthens() {
    let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4));
    let ev = charge_with(&mut t, "b-t", 9);
    assert!(charged(&ev).3);
    assert_eq!(t.at("b-t").as_deref(), Some("0306"), "retreats");
    assert_eq!(t.mv("b-t"), 3, "loses morale");
    assert_eq!(
        t.at("o-c").as_deref(),
        Some("0305"),
        "the charger takes its place"
    );
    t.end();
    assert_eq!(t.phase(), (Phase::Combat, "orange"));
    // 1.5-1, die 1: 1/1, no morale check
    assert_eq!(attack_total(&mut t, "b-t"), 6, "4 x 1.5");
}

#[test]
fn mp_chg_4_target_in_line_with_the_movement() {
    // The enemy at 0405 is next to 0304 but not in line with a southward run.
    let mut t = charging(4, |m| m.inf("b-t", "0405", 4, 4));
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-c", "b-t");
    assert_eq!(t.refused(a), "MP-CHG-4");
    assert!(
        t.go("o-c", "0304").is_ok(),
        "a plain step into its zone of control"
    );
}

#[test]
fn mp_chg_5_crossed_hexes_are_clear_roads_irrelevant() {
    // The second hex rough: no charge.
    let mut t = usual_charge(map(
        ". . . . .\n. . . . .\n. . . . .\n. . r . .\n. . . . .\n. . . . .",
    ));
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-c", "b-t");
    assert_eq!(t.refused(a), "MP-CHG-5");
    // The run-up hex rough: no charge either.
    let u = usual_charge(map(
        ". . . . .\n. . . . .\n. . r . .\n. . . . .\n. . . . .\n. . . . .",
    ));
    assert!(charges(&u).is_empty());
    // A road over clear hexes changes nothing: the charge is on.
    let v =
        usual_charge(clear(5, 8).path("road", &["0301", "0302", "0303", "0304", "0305", "0306"]));
    assert_eq!(charges(&v).len(), 1);
    // The initial hex does not count: a charger starting in woods charges.
    let w = usual_charge(map(
        ". . . . .\n. . w . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .",
    ));
    assert_eq!(charges(&w).len(), 1);
}

#[test]
fn mp_chg_6_a_charging_action_is_two_straight_hexes() {
    // Standing next-but-one to the enemy with no run-up: no charge.
    let mut t = clear(5, 8)
        .cav("o-c", "0303", 4, 5)
        .inf("b-t", "0305", 4, 4)
        .game();
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-c", "b-t");
    assert_eq!(t.refused(a), "MP-CHG-6");
    // A run-up in another direction: no charge southward.
    let mut u = clear(5, 8)
        .cav("o-c", "0202", 4, 5)
        .inf("b-t", "0305", 4, 4)
        .game();
    u.go("o-c", "0303").unwrap(); // south-east
    assert!(charges(&u).is_empty());
    // The charge ends next to the target.
    let mut v = charging(4, |m| m.inf("b-t", "0305", 4, 4));
    v.force(&[1, 1]); // the test held; the reaction fire misses (MP-CHG-29)
    let ev = v.charge("o-c", "b-t").unwrap();
    assert!(has(&ev, |e| matches!(e, Event::Moved { .. })));
    assert_eq!(v.at("o-c").as_deref(), Some("0304"));
}

#[test]
fn mp_chg_7_moving_on_in_the_same_direction_charges() {
    let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4));
    let c = t.id("o-c");
    let step = t.step("o-c", "0304");
    assert!(
        !t.legal().contains(&step),
        "the step is not offered as a move"
    );
    assert!(t.legal().contains(&Action::Charge {
        unit: c,
        target: t.id("b-t")
    }));
    assert_eq!(t.refused_step("o-c", "0304"), "MP-CHG-7");
}

#[test]
fn mp_chg_8_units_in_woods_dunes_palm_groves_towns_cannot_be_charged() {
    // MP-TER-4: a village is a town.
    for code in ["w", "d", "p", "t", "v"] {
        let terrain =
            format!(". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . {code} . .\n. . . . .");
        let mut t = usual_charge(map(&terrain));
        assert!(charges(&t).is_empty(), "{code}");
        let a = t.charge_action("o-c", "b-t");
        assert_eq!(t.refused(a), "MP-CHG-8", "{code}");
    }
}

#[test]
fn mp_chg_9_otherwise_the_targets_terrain_does_not_matter() {
    // Not a village (MP-TER-4: a town, MP-CHG-8); a hamlet is no town.
    for code in [".", "r", "c", "o", "m", "h", "f"] {
        let terrain =
            format!(". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . {code} . .\n. . . . .");
        let t = usual_charge(map(&terrain));
        assert_eq!(charges(&t).len(), 1, "{code}");
        let p = charge_preview(&t);
        assert_eq!(p.inputs["morale"], 4, "{code}: no terrain modifier");
    }
}

/// Every hex of a small mixed board, every direction: a charge is listed exactly when
/// the text's conditions hold, checked by hand.
#[test]
fn mp_chg_10_a_charge_is_offered_exactly_when_valid() {
    let terrain = ". . r . . . .
                   . . . . w . .
                   . . . . . . .
                   . . . v . . .
                   . w . . . . .
                   . . . . . t .
                   . . . . . . .";
    let enemies = [
        ("b-1", "0306"),
        ("b-2", "0601"),
        ("b-3", "0606"),
        ("b-4", "0107"),
    ];
    let mut offered = 0;
    for start in ["0303", "0604", "0603", "0104", "0402", "0405", "0204"] {
        let mut m = map(terrain).unit("o-c", "cavalry", start, "cs = 4, ma = 12, mv = 5");
        for (id, at) in enemies {
            m = m.art(id, at, 2, 1);
        }
        let base = m.game();
        let scenario = m.scenario();
        let rules = &base.rules;
        let names = rules.names();
        for first in base.legal() {
            let Action::Move { to: h1, .. } = first else {
                continue;
            };
            let mut t = base.clone();
            t.act_exactly(&first).unwrap();
            let from = t.hex(start);
            let dir = from.direction_to(h1).unwrap();
            let h2 = h1.neighbor(dir);
            let h3 = h2.neighbor(dir);
            let clear_at = |h| names.map().contains(h) && scenario.terrain_at(h) == Some("clear");
            let enemy = enemies
                .iter()
                .find(|(_, at)| t.hex(at) == h3)
                .map(|(id, _)| t.id(id));
            let sheltered = names.map().contains(h3)
                && ["woods", "town", "village"].contains(&scenario.terrain_at(h3).unwrap_or(""));
            let free = !enemies.iter().any(|(_, at)| t.hex(at) == h2);
            let expect = clear_at(h1) && clear_at(h2) && enemy.is_some() && !sheltered && free;
            let listed = charges(&t);
            assert_eq!(
                !listed.is_empty(),
                expect,
                "from {start} via {}",
                t.label(h1)
            );
            if let Some(target) = enemy.filter(|_| expect) {
                assert_eq!(
                    listed,
                    vec![Action::Charge {
                        unit: t.id("o-c"),
                        target
                    }]
                );
                offered += 1;
            }
        }
    }
    assert!(offered >= 3, "the sweep found {offered} charges");
}

#[test]
fn mp_chg_11_morale_test_one_to_nine_greater_fails() {
    // Equal strengths: no correction; morale 4.
    for (roll, success) in [(4, false), (5, true)] {
        let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4));
        let p = charge_preview(&t);
        assert_eq!(
            (p.outcomes[0].num, p.outcomes[0].den),
            (5, 9),
            "succeeds on 5 to 9"
        );
        if success {
            t.force(&[roll]);
        } else {
            t.force(&[roll, 1]); // a held charge draws a reaction fire that misses
        }
        let ev = t.charge("o-c", "b-t").unwrap();
        assert_eq!(charged(&ev), (4, 0, i32::try_from(roll).unwrap(), success));
    }
}

#[test]
fn mp_chg_12_moving_another_unit_cancels_the_charging_action() {
    let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4).inf("o-i", "0101", 4, 4));
    assert_eq!(charges(&t).len(), 1);
    t.go("o-i", "0102").unwrap();
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-c", "b-t");
    assert_eq!(t.refused(a), "MP-CHG-6");
    assert!(t.clone().go("o-c", "0304").is_ok(), "now a plain step");
}

#[test]
fn mp_chg_13_a_new_charging_action_later_in_the_phase() {
    let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4).inf("o-i", "0101", 4, 4));
    t.go("o-i", "0102").unwrap();
    // Back north and down again: a new run-up.
    t.walk("o-c", &["0302", "0303"]);
    assert_eq!(charges(&t).len(), 1);
    assert!(charged(&charge_with(&mut t, "b-t", 9)).3);
}

#[test]
fn mp_chg_14_carried_out_in_one_piece() {
    // MA 2: the run-up leaves 1 point; the charging step across a stream costs 2.
    let mut t = clear(5, 8)
        .hexsides("stream", &["0303/0304"])
        .unit("o-c", "cavalry", "0302", "cs = 4, ma = 2, mv = 5")
        .inf("b-t", "0305", 4, 4)
        .game();
    run_up(&mut t);
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-c", "b-t");
    assert_eq!(t.refused(a), "MP-CHG-14");
}

#[test]
fn mp_chg_15_example_1_light_cavalry_against_infantry() {
    // CS 3 against MV 4, CS 5: -2; a 6 makes 4, not above 4: the charge has no effect.
    let mut t = charging(3, |m| m.inf("b-t", "0305", 5, 4));
    t.force(&[6, 1]); // and the reaction fire misses (MP-CHG-29)
    let ev = t.charge("o-c", "b-t").unwrap();
    assert_eq!(charged(&ev), (4, -2, 4, false));
    assert_eq!((t.at("b-t").as_deref(), t.mv("b-t")), (Some("0305"), 4));
    // Against CS 3 there is no correction: 6 is above 4 and the charge succeeds.
    let mut u = charging(3, |m| m.inf("b-t", "0305", 3, 4));
    let ev = charge_with(&mut u, "b-t", 6);
    assert_eq!(charged(&ev), (4, 0, 6, true));
}

#[test]
fn mp_chg_15_example_2_the_guard_always_faces_up() {
    // Heavy cavalry CS 5 against the Guard CS 8, MV 6: -3, so even a 9 makes 6.
    let mut t = clear(5, 8)
        .unit(
            "o-c",
            "cavalry",
            "0302",
            "cs = 5, ma = 7, mv = 5, class = \"heavy\"",
        )
        .unit("b-guard", "infantry", "0305", "cs = 8, ma = 4, mv = 6")
        .game();
    run_up(&mut t);
    let p = charge_preview(&t);
    assert_eq!(p.outcomes[0].num, 0, "no roll succeeds");
    t.force(&[9, 1]);
    assert_eq!(
        charged(&t.charge("o-c", "b-guard").unwrap()),
        (6, -3, 6, false)
    );
}

#[test]
fn mp_chg_16_slope_and_stream_modifiers() {
    let slope = |up: bool| {
        let (a, b) = if up { ("0", "1") } else { ("1", "0") };
        let rows: Vec<String> = (1..=8)
            .map(|r| {
                let e = if r == 5 {
                    b
                } else if r <= 4 {
                    a
                } else {
                    "0"
                };
                format!("0 0 {e} 0 0")
            })
            .collect();
        clear(5, 8)
            .elevation(&rows.join("\n"))
            .hexsides("slope", &["0304/0305"])
            .cav("o-c", "0302", 4, 5)
            .inf("b-t", "0305", 4, 4)
            .game()
    };
    for (up, morale) in [(true, 5), (false, 3)] {
        let mut t = slope(up);
        run_up(&mut t);
        t.force(&[1, 1]);
        assert_eq!(
            charged(&t.charge("o-c", "b-t").unwrap()).0,
            morale,
            "uphill {up}"
        );
    }
    let mut s = usual_charge(clear(5, 8).hexsides("stream", &["0304/0305"]));
    s.force(&[1, 1]);
    assert_eq!(
        charged(&s.charge("o-c", "b-t").unwrap()).0,
        5,
        "through a stream"
    );
}

#[test]
fn mp_chg_17_the_charger_takes_the_place_and_strikes_at_one_and_a_half() {
    let mut t = charging(5, |m| {
        m.inf("b-t", "0305", 4, 4).inf("b-other", "0405", 4, 4)
    });
    let ev = charge_with(&mut t, "b-t", 9);
    assert!(has(
        &ev,
        |e| matches!(e, Event::TookHex { rule, .. } if rule == "MP-CHG-17")
    ));
    assert_eq!(t.at("o-c").as_deref(), Some("0305"));
    t.end();
    // Against the charged unit: 5 x 1.5 = 7 (rounded down); against another: 5.
    let mut other = t.clone();
    // 1-1, die 1: 1/0
    assert_eq!(attack_total(&mut other, "b-other"), 5);
    // 1.5-1, die 1: 1/1
    assert_eq!(attack_total(&mut t, "b-t"), 7);
}

#[test]
fn mp_chg_18_a_leaders_morale_is_strength_plus_stripes() {
    let mut t = charging(4, |m| m.leader("b-l", "0305", 2, 3));
    t.force(&[7]);
    // Morale 2 + 3 = 5; correction 4 - 2 = +2; 7 + 2 = 9 > 5.
    assert_eq!(charged(&t.charge("o-c", "b-l").unwrap()), (5, 2, 9, true));
}

#[test]
fn mp_chg_19_retreat_one_hex_lose_one_plus_one_per_other_zoc() {
    let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4));
    let ev = charge_with(&mut t, "b-t", 9);
    assert!(has(&ev, |e| matches!(e, Event::Retreated { zones: 0, .. })));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Shaken { morale: 1, strength: 0, rule, .. } if rule == "MP-CHG-19")
    ));
    assert_eq!((t.at("b-t").as_deref(), t.mv("b-t")), (Some("0306"), 3));
    // Into the zones of two more orange units: 3 points.
    let mut u = charging(4, |m| {
        m.inf("b-t", "0305", 4, 4)
            .inf("o-x", "0307", 4, 4)
            .inf("o-y", "0406", 4, 4)
    });
    let ev = charge_with(&mut u, "b-t", 9);
    assert!(
        has(&ev, |e| matches!(e, Event::Retreated { zones: 2, .. })),
        "{ev:?}"
    );
    assert_eq!(u.mv("b-t"), 1);
}

#[test]
fn mp_chg_20_the_modifiers_cumulate() {
    // Uphill through a slope and a stream: morale 4 + 1 + 1; strengths 6 against 4: +2.
    let rows: Vec<String> = (1..=8)
        .map(|r| format!("0 0 {} 0 0", u8::from(r == 5)))
        .collect();
    let mut t = clear(5, 8)
        .elevation(&rows.join("\n"))
        .hexsides("slope", &["0304/0305"])
        .hexsides("stream", &["0304/0305"])
        .cav("o-c", "0302", 6, 5)
        .inf("b-t", "0305", 4, 4)
        .game();
    run_up(&mut t);
    assert_eq!(charged(&charge_with(&mut t, "b-t", 5)), (6, 2, 7, true));
}

#[test]
fn mp_chg_21_a_unit_that_cannot_retreat_is_eliminated() {
    // On the south edge, hemmed in by its own units.
    let mut t = clear(5, 5)
        .cav("o-c", "0302", 4, 5)
        .inf("b-t", "0305", 4, 4)
        .inf("b-1", "0405", 3, 4)
        .inf("b-2", "0205", 3, 4)
        .inf("b-3", "0404", 3, 4)
        .inf("b-4", "0204", 3, 4)
        .game();
    run_up(&mut t);
    let ev = charge_with(&mut t, "b-t", 9);
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Eliminated { rule, .. } if rule == "MP-CHG-21")
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("b-t"), None);
    assert_eq!(t.at("o-c").as_deref(), Some("0305"));
}

#[test]
fn mp_chg_22_leaders_retreat_their_values_untouched() {
    let mut t = charging(4, |m| {
        m.leader("b-l", "0305", 2, 1).inf("o-x", "0307", 4, 4)
    });
    let ev = charge_with(&mut t, "b-l", 9);
    assert!(
        has(&ev, |e| matches!(e, Event::Retreated { zones: 1, .. })),
        "{ev:?}"
    );
    assert!(!has(&ev, |e| matches!(e, Event::Shaken { .. })));
    assert_eq!((t.at("b-l").as_deref(), t.cs("b-l")), (Some("0306"), 2));
}

#[test]
fn mp_chg_23_artillery_never_retreats_and_is_eliminated() {
    let mut t = charging(4, |m| m.art("b-g", "0305", 3, 2));
    // Morale 3, strengths 4 against 2: a 2 makes 4 > 3.
    let ev = charge_with(&mut t, "b-g", 2);
    assert!(has(
        &ev,
        |e| matches!(e, Event::Eliminated { rule, .. } if rule == "MP-CHG-23")
    ));
    assert!(!has(&ev, |e| matches!(e, Event::Retreated { .. })));
    assert_eq!(t.at("o-c").as_deref(), Some("0305"));
    // Holding, it stays.
    let mut u = charging(4, |m| m.art("b-g", "0305", 3, 2));
    u.force(&[1, 1]);
    u.charge("o-c", "b-g").unwrap();
    assert_eq!(u.at("b-g").as_deref(), Some("0305"));
}

#[test]
fn mp_chg_24_through_a_bridge_over_a_stream_only() {
    let t = usual_charge(
        clear(5, 8)
            .hexsides("stream", &["0303/0304"])
            .hexsides("bridge", &["0303/0304"]),
    );
    assert_eq!(charges(&t).len(), 1, "a bridge over a stream");
    // A ford over a stream is a stream: the charge is on.
    let f = usual_charge(
        clear(5, 8)
            .hexsides("stream", &["0304/0305"])
            .hexsides("ford", &["0304/0305"]),
    );
    assert_eq!(charges(&f).len(), 1, "a ford over a stream");
    // Across a river nowhere: at a bridge or a ford, on the run-up, the charging step
    // or the strike into the target's hex.
    for crossing in ["bridge", "ford"] {
        for side in ["0303/0304", "0302/0303", "0304/0305"] {
            let mut u = usual_charge(
                clear(5, 8)
                    .hexsides("river", &[side])
                    .hexsides(crossing, &[side]),
            );
            assert!(
                charges(&u).is_empty(),
                "a {crossing} over a river at {side}"
            );
            let a = u.charge_action("o-c", "b-t");
            assert_eq!(u.refused(a), "MP-CHG-24", "a {crossing} at {side}");
        }
    }
}

#[test]
fn mp_chg_25_a_failed_charge_has_no_effect_on_the_target() {
    let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4).art("b-g", "0405", 4, 3));
    // The test holds; the reaction fire (MP-CHG-29) misses.
    t.force(&[1, 1]);
    let ev = t.charge("o-c", "b-t").unwrap();
    assert!(!charged(&ev).3);
    assert!(!has(&ev, |e| matches!(
        e,
        Event::Bombarded { .. } | Event::Shaken { .. } | Event::Retreated { .. }
    )));
    assert_eq!(
        (t.at("o-c").as_deref(), t.cs("o-c"), t.mv("o-c")),
        (Some("0304"), 4, 5)
    );
    assert_eq!((t.at("b-t").as_deref(), t.mv("b-t")), (Some("0305"), 4));
}

#[test]
fn mp_chg_26_the_retreat_follows_retreat_after_combat() {
    // A village next to the target (and to the charger) comes first.
    let mut t = usual_charge(map(
        ". . . . .\n. . . . .\n. . . . .\n. . . v .\n. . . . .\n. . . . .\n. . . . .",
    ));
    charge_with(&mut t, "b-t", 9);
    assert_eq!(t.at("b-t").as_deref(), Some("0404"));
}

#[test]
fn mp_chg_27_morale_gone_the_rest_comes_off_strength() {
    // The text's example: MV 1, CS 3, charged; it fails, retreats into the zone of
    // another enemy and loses two points: its morale point, then a strength point.
    let mut t = charging(4, |m| m.inf("b-t", "0305", 3, 1).inf("o-x", "0307", 4, 4));
    let ev = charge_with(&mut t, "b-t", 9);
    assert!(
        has(&ev, |e| matches!(
            e,
            Event::Shaken {
                morale: 1,
                strength: 1,
                ..
            }
        )),
        "{ev:?}"
    );
    assert_eq!((t.mv("b-t"), t.cs("b-t")), (0, 2));
}

#[test]
fn mp_chg_28_the_charger_goes_on_after_a_charge() {
    // Artillery exerts no zone of control (MP-ZOC-5): driven off (eliminated), it
    // leaves the charger free in its hex with 6 of its 8 points; it steps on, runs up
    // again and charges a second battery (MP-CHG-13).
    let mut t = charging(4, |m| m.art("b-g", "0305", 3, 2).art("b-h", "0308", 3, 2));
    let ev = charge_with(&mut t, "b-g", 9);
    assert!(charged(&ev).3);
    assert!(!has(&ev, |e| matches!(e, Event::Halted { .. })), "{ev:?}");
    assert_eq!((t.at("o-c").as_deref(), t.mp("o-c")), (Some("0305"), 6));
    assert!(!t.unit("o-c").stopped);
    t.go("o-c", "0306")
        .unwrap_or_else(|r| panic!("it goes on: {r}"));
    assert_eq!(charges(&t).len(), 1, "a new charging action");
    assert!(charged(&charge_with(&mut t, "b-h", 9)).3);
    assert_eq!(t.at("o-c").as_deref(), Some("0308"));
    // A failed charge against a battery leaves the charger outside any zone of control:
    // it goes on too.
    let mut u = charging(4, |m| m.art("b-g", "0305", 3, 2));
    u.force(&[1, 1]);
    assert!(!charged(&u.charge("o-c", "b-g").unwrap()).3);
    assert!(
        u.go("o-c", "0204").is_ok(),
        "it moves on after a failed charge"
    );
    // Where the charge ends in an enemy zone of control, MP-MOV-8 ends the movement:
    // after a failure next to infantry, and after a success when the beaten unit
    // retreats next to the charger's new hex.
    let mut v = charging(4, |m| m.inf("b-t", "0305", 4, 4));
    v.force(&[1, 1]);
    let ev = v.charge("o-c", "b-t").unwrap();
    assert!(has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "MP-MOV-8")
    ));
    assert_eq!(v.refused_step("o-c", "0303"), "MP-MOV-8");
    let mut w = charging(4, |m| m.inf("b-t", "0305", 4, 4));
    let ev = charge_with(&mut w, "b-t", 9);
    assert_eq!(w.at("b-t").as_deref(), Some("0306"));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Halted { rule, .. } if rule == "MP-MOV-8")
    ));
}

#[test]
fn mp_chg_29_reaction_fire_after_a_failed_charge() {
    // Infantry that holds fires: a 4 misses, a 5 costs a morale point, a 6 a strength
    // point (the provisional table in data.toml).
    for (fire, mv, cs) in [(4, 5, 4), (5, 4, 4), (6, 5, 3)] {
        let mut t = charging(4, |m| m.inf("b-t", "0305", 4, 4));
        let a = charges(&t)[0];
        assert!(t.explain(&a).reasons.iter().any(|r| r.rule == "MP-CHG-29"));
        t.force(&[1, fire]);
        let ev = t.charge("o-c", "b-t").unwrap();
        assert!(!charged(&ev).3);
        let rolls = ev
            .iter()
            .filter(|e| matches!(e, Event::Roll(r) if r.purpose.starts_with("MP-CHG-29")))
            .count();
        assert_eq!(rolls, 1, "{ev:?}");
        assert_eq!((t.mv("o-c"), t.cs("o-c")), (mv, cs), "a {fire}");
        assert_eq!(
            has(
                &ev,
                |e| matches!(e, Event::Shaken { rule, .. } if rule == "MP-CHG-29")
            ),
            fire >= 5
        );
    }
    // Artillery fires too.
    let mut a = charging(4, |m| m.art("b-g", "0305", 3, 2));
    a.force(&[1, 6]);
    a.charge("o-c", "b-g").unwrap();
    assert_eq!(a.cs("o-c"), 3);
    // Cavalry and leaders do not fire; a successful charge draws no fire.
    let fired = |ev: &[Event]| {
        has(
            ev,
            |e| matches!(e, Event::Roll(r) if r.purpose.starts_with("MP-CHG-29")),
        )
    };
    let cavalry = field(4, |m| m.cav("b-k", "0305", 4, 4));
    let leader = field(4, |m| m.leader("b-l", "0305", 9, 3));
    for (id, mut t) in [("b-k", cavalry), ("b-l", leader)] {
        run_up(&mut t);
        t.force(&[1]);
        let ev = t.charge("o-c", id).unwrap();
        assert!(!charged(&ev).3);
        assert!(!fired(&ev), "{id}");
    }
    let mut s = charging(4, |m| m.inf("b-t", "0305", 4, 4));
    assert!(!fired(&charge_with(&mut s, "b-t", 9)));
    // A demoralised unit that holds does not fire (MP-DEM-3): CS 1 against CS 9 takes
    // 8 off the number.
    let mut d = clear(5, 8)
        .cav("o-c", "0302", 1, 5)
        .inf("b-t", "0305", 9, 0)
        .game();
    run_up(&mut d);
    let ev = charge_with(&mut d, "b-t", 1);
    assert!(!charged(&ev).3);
    assert!(!fired(&ev));
}

#[test]
fn mp_dem_5_a_demoralised_unit_cannot_charge() {
    let mut t = clear(5, 8)
        .cav("o-c", "0302", 4, 0)
        .art("b-g", "0305", 3, 2)
        .game();
    run_up(&mut t);
    assert!(charges(&t).is_empty());
    let a = t.charge_action("o-c", "b-g");
    assert_eq!(t.refused(a), "MP-DEM-5");
}
