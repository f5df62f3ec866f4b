//! MP-CMB-29: the odds shown before the roll name the die faces behind each result
//! (bug 16: a result that several faces give is one line, "3-5", not "die 3").

use super::combat::strike;
use super::harness::{clear, T};
use grognard_engine::Ruleset;
use grognard_rules::morne_plaine::{Event, Phase};

/// Infantry o-a at 0303 (CS and MV `a`) against b-a at 0304 (CS and MV `d`), at orange's
/// combat phase.
fn duel(a: (u8, u8), d: (u8, u8)) -> T {
    let mut t = clear(6, 6)
        .inf("o-a", "0303", a.0, a.1)
        .inf("b-a", "0304", d.0, d.1)
        .game();
    t.to("orange", Phase::Combat);
    t
}

fn result_of(ev: &[Event]) -> serde_json::Value {
    ev.iter()
        .find_map(|e| match e {
            Event::Attacked { result, .. } => serde_json::to_value(result).ok(),
            _ => None,
        })
        .expect("an attacked event")
}

#[test]
fn mp_cmb_29_preview_lists_the_die_faces_of_each_result() {
    // Even odds with no modifier, and morale 1 against 8 (-3 to the die: faces 1 to 3
    // all read row 0, so one result comes from several faces).
    for (a, d) in [((5, 4), (5, 4)), ((5, 1), (5, 8)), ((12, 8), (3, 2))] {
        let base = duel(a, d);
        let action = base.attack_action("o-a", "b-a");
        let p = base.rules.preview(base.state(), &action).unwrap();
        let mut seen = Vec::new();
        for o in &p.outcomes {
            let dice: Vec<u32> =
                serde_json::from_value(o.result["dice"].clone()).expect("a dice list");
            assert_eq!(
                dice.len() as u64,
                o.num,
                "{a:?} against {d:?}: {}",
                o.result
            );
            assert!(
                dice.windows(2).all(|w| w[0] < w[1]),
                "faces in order: {dice:?}"
            );
            for &face in &dice {
                let mut t = base.clone();
                let r = result_of(&strike(&mut t, "o-a", "b-a", face));
                assert_eq!(r, o.result["result"], "{a:?} against {d:?}, face {face}");
            }
            seen.extend(dice);
        }
        seen.sort_unstable();
        assert_eq!(seen, (1..=6).collect::<Vec<u32>>(), "every face once");
    }
    // The case of bug 16: one result given by three faces.
    let t = duel((5, 1), (5, 8));
    let p = t
        .rules
        .preview(t.state(), &t.attack_action("o-a", "b-a"))
        .unwrap();
    assert!(p
        .outcomes
        .iter()
        .any(|o| o.num >= 3 && o.result["dice"].as_array().map_or(0, Vec::len) >= 3));
}
