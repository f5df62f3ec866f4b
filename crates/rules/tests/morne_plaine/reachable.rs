//! `reachable` is exactly what the steps reach (issue 15): on random positions of the
//! built-in scenarios, every listed hex is reached by stepping along its path at its
//! cost, and every hex the unit's listed steps reach is listed at its least cost in
//! movement points (MP-MOV-3, MP-MOV-4, MP-ROAD-*, MP-ZOC-10 to MP-ZOC-13, MP-CHG-10).

use super::harness::{clear, map};
use crate::common;
use crate::common::reach::{assert_reachable_in_play, Mover};
use grognard_engine::Game;
use grognard_rules::morne_plaine::{Action, MornePlaine};

const MOVER: Mover<MornePlaine> = Mover {
    hex: |_, s, u| s.units[u.index()].hex,
    step: |a| match *a {
        Action::Move { unit, to } => Some((unit, to)),
        _ => None,
    },
    action: |unit, to| Action::Move { unit, to },
    whole: false,
    points: Some(|_, s, u| u32::from(s.units[u.index()].mp)),
    // MP-REF-BOG: a 4 on the d4 is never stuck.
    lucky: &[4; 8],
    forget: |rules, s, u| {
        s.units[u.index()].mp = 0;
        // Only a mounted unit's run-up can make its next step a charge (MP-CHG-1).
        if !rules.mounted(u) {
            s.moving = None;
        }
    },
    pass: |_| None,
    next_only: |_, _, _| false,
    may_end: |_, _, _| true,
};

fn game(id: &str, seed: u64) -> Game<MornePlaine> {
    Game::new(common::builtin(id), Some(seed)).unwrap()
}

#[test]
fn reachable_is_exactly_what_the_steps_reach_at_the_bridge_at_morne() {
    let n = assert_reachable_in_play(0..2, |s| game("bridge-at-morne", s), 29, 300, &MOVER);
    assert!(n > 100, "only {n} hexes checked");
}

#[test]
fn reachable_is_exactly_what_the_steps_reach_on_the_heights_of_aubrac() {
    let n = assert_reachable_in_play(0..2, |s| game("heights-of-aubrac", s), 29, 300, &MOVER);
    assert!(n > 100, "only {n} hexes checked");
}

/// The roads of the movement tests: one east-west along row 03, one north-south along
/// column 04.
fn roads() -> super::harness::Mp {
    map(". . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .")
    .path("road", &["0203", "0303", "0403", "0503", "0603"])
    .inf("b-far", "0706", 5, 4)
}

#[test]
fn mp_mov_4_reachable_stops_where_the_allowance_is_used_up_even_on_a_free_road() {
    // Issue 15: the search went on along a road that costs nothing (MP-REF-4) after the
    // last point was spent, and the step there was refused (MP-MOV-4).
    let mut t = roads().inf("o-a", "0106", 5, 4).game();
    t.walk("o-a", &["0105", "0104", "0103"]);
    assert_eq!(t.mp("o-a"), 1);
    assert_eq!(t.reach_cost("o-a", "0203"), Some(1));
    assert_eq!(t.reach_cost("o-a", "0303"), None, "{:?}", t.reach("o-a"));
    t.walk("o-a", &["0203"]);
    assert!(t.refused_step("o-a", "0303").contains("MP-MOV-4"));
}

#[test]
fn mp_chg_10_reachable_goes_round_a_step_that_would_be_a_charge() {
    // The step continuing a run on clear terrain toward an enemy in line is a charge,
    // not a move: the hex is reached only the long way round.
    let mut t = clear(5, 5)
        .cav("o-c", "0101", 3, 4)
        .inf("b-x", "0104", 5, 4)
        .game();
    t.walk("o-c", &["0102"]);
    let to = t.hex("0103");
    let r = t
        .reachable("o-c")
        .into_iter()
        .find(|r| r.hex == to)
        .unwrap();
    assert_eq!((r.cost, r.path.len()), (2, 2), "{r:?}");
    assert_eq!(r.path[0], t.hex("0202"));
}

#[test]
fn mp_ref_bog_reachable_takes_a_dry_way_when_one_costs_as_little() {
    // Issue 15: the page walks the listed path step by step, and a bog test on the way
    // may halt the unit short of the hex. 0202 is two steps from 0101, by 0102 or by 0201,
    // clear or marsh at 1 point each for infantry (MP-REF-1): whichever is the marsh, the
    // path takes the other, at the same cost.
    let marsh_at_0102 = ". . . . .
                         m . . . .
                         . . . . .
                         . . . . .
                         . . . . .";
    let marsh_at_0201 = ". m . . .
                         . . . . .
                         . . . . .
                         . . . . .
                         . . . . .";
    for (terrain, marsh, dry) in [
        (marsh_at_0102, "0102", "0201"),
        (marsh_at_0201, "0201", "0102"),
    ] {
        let t = map(terrain)
            .bog()
            .inf("o-a", "0101", 5, 4)
            .inf("b-far", "0505", 5, 4)
            .game();
        let to = t.hex("0202");
        let r = t
            .reachable("o-a")
            .into_iter()
            .find(|r| r.hex == to)
            .unwrap();
        assert_eq!(r.cost, 2, "{r:?}");
        assert_eq!(r.path, vec![t.hex(dry), to], "marsh at {marsh}: {r:?}");
        // The marsh itself is still listed, at its cost.
        assert_eq!(t.reach_cost("o-a", marsh), Some(1));
    }
}
