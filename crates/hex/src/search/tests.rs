//! Unit tests of the search.

use super::*;
use crate::Shove;

fn map(cols: u32, rows: u32) -> MapShape {
    MapShape::new(Orientation::FlatTop, Shove::Even, cols, rows).unwrap()
}

#[test]
fn open_ground_reaches_a_hexagon() {
    let shape = map(30, 30);
    let mut search = Search::new(shape, 1);
    let centre = shape.from_offset(15, 15);
    let reach = search.run(centre, 0, 5, |_, _, _, _| Step::enter(1, 0));
    assert_eq!(reach.len(), 91);
    for (hex, cost) in reach.hexes() {
        assert_eq!(cost, centre.distance(hex));
    }
}

#[test]
fn off_map_hexes_are_never_asked_about() {
    for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
        for shove in [Shove::Even, Shove::Odd] {
            let shape = MapShape::new(orientation, shove, 5, 4).unwrap();
            // Two modes, so that no step is skipped as settled.
            let mut search = Search::new(shape, 2);
            let mut calls = 0;
            let reach = search.run(shape.hex_at(0), 0, 100, |from, _, to, dir| {
                assert!(shape.contains(from) && shape.contains(to));
                assert_eq!(from.neighbor(dir), to);
                calls += 1;
                Step::enter(1, 0)
            });
            assert_eq!(reach.len(), 20);
            // Every on-map adjacency is asked about exactly once per direction.
            let adjacent: usize = shape
                .hexes()
                .map(|h| h.neighbors().iter().filter(|n| shape.contains(**n)).count())
                .sum();
            assert_eq!(calls, adjacent);
        }
    }
}

#[test]
fn zero_cost_roads() {
    // Pointy-top, so that axial row r = 1 is printed row 02 all the way along.
    let shape = MapShape::new(Orientation::PointyTop, Shove::Even, 12, 3).unwrap();
    let mut search = Search::new(shape, 2);
    // A road along row r = 1 from q = 0 eastwards (direction SE on axial q+1).
    let on_road = |h: Hex| h.r == 1 && h.q >= 0;
    let reach = search.run(Hex::new(0, 1), 1, 1, |from, mode, to, dir| {
        if on_road(from) && on_road(to) && dir == Direction::SE {
            Step::enter(u32::from(mode != 1), 1)
        } else {
            Step::enter(1, 0)
        }
    });
    assert_eq!(reach.cost(Hex::new(11, 1)), Some(0));
    assert_eq!(reach.state_cost(Hex::new(11, 1), 0), None);
    assert_eq!(reach.path(Hex::new(11, 1)).unwrap().len(), 12);
}

#[test]
fn stop_does_not_hide_a_dearer_arrival_that_goes_on() {
    // Entering (1, 0) from the start stops the unit (say, across a river), but
    // entering it the long way round does not.
    let shape = map(6, 6);
    let mut search = Search::new(shape, 1);
    let start = Hex::new(0, 1);
    let ford = Hex::new(1, 0);
    let reach = search.run(start, 0, 5, |from, _, to, _| {
        if from == start && to == ford {
            Step::enter_and_stop(1, 0)
        } else {
            Step::enter(1, 0)
        }
    });
    assert_eq!(reach.cost(ford), Some(1));
    assert!(reach.can_go_on(ford, 0));
    // Beyond the ford, the way round through (1, 1) still costs only 2.
    assert_eq!(reach.cost(Hex::new(2, 0)), Some(2));
}

#[test]
fn overflow_window_handles_large_costs() {
    let shape = map(8, 1);
    let mut search = Search::new(shape, 1);
    let reach = search.run(Hex::ORIGIN, 0, 10_000, |_, _, to, _| {
        Step::enter(if to.q % 2 == 1 { 3000 } else { 1 }, 0)
    });
    let costs: Vec<_> = (0..8)
        .map(|q| reach.cost(shape.from_offset(q, 0)))
        .collect();
    assert_eq!(
        costs,
        [
            Some(0),
            Some(3000),
            Some(3001),
            Some(6001),
            Some(6002),
            Some(9002),
            Some(9003),
            None
        ]
    );
}

#[test]
fn reused_buffers_forget_the_previous_run() {
    let shape = map(10, 10);
    let mut search = Search::new(shape, 1);
    search.run(Hex::new(5, 0), 0, 9, |_, _, _, _| Step::enter(1, 0));
    let reach = search.run(Hex::ORIGIN, 0, 1, |_, _, _, _| Step::enter(1, 0));
    assert_eq!(reach.cost(Hex::new(5, 0)), None);
    assert_eq!(reach.len(), 3);
    assert_eq!(reach.states().count(), 3);
}

#[test]
fn stamp_wrap_resets() {
    let shape = map(4, 4);
    let mut search = Search::new(shape, 1);
    search.run(Hex::ORIGIN, 0, 5, |_, _, _, _| Step::enter(1, 0));
    search.stamp = u32::MAX;
    let reach = search.run(Hex::ORIGIN, 0, 0, |_, _, _, _| Step::enter(1, 0));
    assert_eq!(reach.len(), 1);
    assert_eq!(reach.cost(Hex::new(1, 0)), None);
}

#[test]
fn a_run_cut_short_by_a_panic_leaves_nothing_behind() {
    let shape = map(8, 8);
    let mut search = Search::new(shape, 1);
    let cut = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        search.run(Hex::new(3, 3), 0, 6, |_, _, to, _| {
            assert!(to != Hex::new(5, 3), "the ruleset fails");
            Step::enter(1, 0)
        });
    }));
    assert!(cut.is_err());
    // Entries the cut run left queued (at costs 1 and 2, around (3, 3)) must not
    // leak into the next run.
    let reach = search.run(Hex::ORIGIN, 0, 3, |_, _, _, _| Step::enter(1, 0));
    for (hex, cost) in reach.hexes() {
        assert_eq!(cost, hex.distance(Hex::ORIGIN), "{hex:?}");
    }
    let within = shape
        .hexes()
        .filter(|h| h.distance(Hex::ORIGIN) <= 3)
        .count();
    assert_eq!(reach.len(), within);
}

#[test]
#[should_panic(expected = "off the map")]
fn start_off_the_map_panics() {
    let mut search = Search::new(map(4, 4), 1);
    let _ = search.run(Hex::new(-1, 0), 0, 1, |_, _, _, _| Step::Blocked);
}

#[test]
#[should_panic(expected = "not below")]
fn mode_out_of_range_panics() {
    let mut search = Search::new(map(4, 4), 2);
    let _ = search.run(Hex::ORIGIN, 0, 1, |_, _, _, _| Step::enter(1, 2));
}
