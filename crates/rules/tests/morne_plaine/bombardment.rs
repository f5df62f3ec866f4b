//! The bombardment phase (docs/rules/morne-plaine.md, MP-BMB-*: recovered; results
//! provisional).

use super::harness::{clear, has, map, T};
use grognard_engine::Ruleset;
use grognard_hex::los::{line, LineStep};
use grognard_rules::morne_plaine::data::{Data, Source};
use grognard_rules::morne_plaine::{Action, Event, Phase};

fn fires(t: &T) -> Vec<Action> {
    t.legal()
        .into_iter()
        .filter(|a| matches!(a, Action::Bombard { .. }))
        .collect()
}

#[test]
fn mp_bmb_1_each_battery_fires_once_at_a_hex_in_range() {
    let mut t = clear(8, 8)
        .art("o-g", "0401", 4, 3)
        .inf("o-i", "0101", 5, 4)
        .inf("b-near", "0404", 5, 4)
        .inf("b-far", "0405", 5, 4)
        .game();
    assert_eq!(t.phase(), (Phase::Bombardment, "orange"));
    assert_eq!(
        fires(&t),
        vec![Action::Bombard {
            unit: t.id("o-g"),
            target: t.hex("0404")
        }]
    );
    assert_eq!(
        t.fire("o-g", "0405").unwrap_err().rule(),
        "MP-BMB-1",
        "out of range"
    );
    assert_eq!(
        t.fire("o-g", "0101").unwrap_err().rule(),
        "MP-BMB-1",
        "a friend"
    );
    assert_eq!(
        t.fire("o-i", "0404").unwrap_err().rule(),
        "MP-BMB-1",
        "not a battery"
    );
    t.force(&[1]);
    t.fire("o-g", "0404").unwrap();
    assert_eq!(
        t.fire("o-g", "0404").unwrap_err().rule(),
        "MP-BMB-1",
        "once a phase"
    );
}

#[test]
fn mp_bmb_2_line_of_sight_blockers() {
    // Battery at 0301, target at 0304: the line crosses 0302 and 0303.
    for (code, blocks) in [
        ("w", true),
        ("t", true),
        ("v", true),
        ("f", true),
        ("d", true),
        ("p", true),
        ("m", false),
        ("r", false),
        (".", false),
    ] {
        let terrain = format!(". . . . .\n. . {code} . .\n. . . . .\n. . . . .\n. . . . .");
        let t = map(&terrain)
            .art("o-g", "0301", 4, 3)
            .inf("b-t", "0304", 5, 4)
            .game();
        assert_eq!(fires(&t).is_empty(), blocks, "{code}");
    }
    // Units never block.
    let t = clear(5, 5)
        .art("o-g", "0301", 4, 3)
        .inf("o-i", "0302", 5, 4)
        .inf("b-t", "0304", 5, 4)
        .game();
    assert_eq!(fires(&t).len(), 1);
    // A hill between, higher than both ends, does.
    let t = clear(5, 5)
        .elevation("0 0 0 0 0\n0 0 1 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0")
        .art("o-g", "0301", 4, 3)
        .inf("b-t", "0304", 5, 4)
        .inf("b-v", "0201", 5, 4)
        .game();
    let mut u = t.clone();
    assert_eq!(fires(&t).len(), 1, "only b-v, next door");
    assert_eq!(u.fire("o-g", "0304").unwrap_err().rule(), "MP-BMB-2");
}

#[test]
fn mp_bmb_3_along_a_hexside_blocked_only_when_both_sides_block() {
    // 0102 to 0302 runs along the hexside between 0201 and 0202.
    let t0 = clear(4, 4)
        .art("o-g", "0102", 4, 3)
        .inf("b-t", "0302", 5, 4)
        .game();
    let steps = line(t0.hex("0102"), t0.hex("0302"));
    assert!(
        steps.iter().any(|s| matches!(s, LineStep::Edge(a, b) if {
            let mut l = [t0.label(*a), t0.label(*b)];
            l.sort();
            l == ["0201".to_owned(), "0202".to_owned()]
        })),
        "{steps:?}"
    );
    for (a, b, blocked) in [
        (".", ".", false),
        ("w", ".", false),
        (".", "w", false),
        ("w", "w", true),
    ] {
        let terrain = format!(". {a} . .\n. {b} . .\n. . . .\n. . . .");
        let t = map(&terrain)
            .art("o-g", "0102", 4, 3)
            .inf("b-t", "0302", 5, 4)
            .game();
        assert_eq!(fires(&t).is_empty(), blocked, "{a} {b}");
    }
}

#[test]
fn mp_bmb_4_a_battery_that_fired_does_not_move() {
    let mut t = clear(8, 8)
        .art("o-g", "0401", 4, 3)
        .art("o-h", "0101", 4, 1)
        .inf("b-near", "0404", 5, 4)
        .game();
    t.force(&[1]);
    t.fire("o-g", "0404").unwrap();
    t.end();
    assert_eq!(t.phase(), (Phase::Movement, "orange"));
    assert_eq!(t.refused_step("o-g", "0402"), "MP-BMB-4");
    assert!(
        t.go("o-h", "0102").is_ok(),
        "the battery that did not fire moves"
    );
    // In its next turn (not firing) it moves again.
    t.end();
    t.to("orange", Phase::Movement);
    assert_eq!(t.state().turn, 2);
    let r = t.go("o-g", "0402");
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn mp_bmb_5_results_table() {
    let data = Data::shipped();
    assert_eq!(data.bombardment.source, Source::Provisional);
    // BV 4 at range 3: final = d6 + 1. 6+ loses a morale point, 7 a strength point.
    let base = clear(8, 8)
        .art("o-g", "0401", 4, 3)
        .inf("b-t", "0404", 5, 4)
        .game();
    let p = base
        .rules
        .preview(
            base.state(),
            &Action::Bombard {
                unit: base.id("o-g"),
                target: base.hex("0404"),
            },
        )
        .unwrap();
    let nums: Vec<u64> = p.outcomes.iter().map(|o| o.num).collect();
    assert_eq!(nums, vec![1, 2, 3]);
    for (roll, cs, mv) in [(3, 5, 4), (4, 5, 3), (5, 5, 3), (6, 4, 4)] {
        let mut t = base.clone();
        t.force(&[roll]);
        let ev = t.fire("o-g", "0404").unwrap();
        assert!(has(&ev, |e| matches!(e, Event::Bombarded { .. })));
        assert_eq!((t.cs("b-t"), t.mv("b-t")), (cs, mv), "roll {roll}");
    }
}
