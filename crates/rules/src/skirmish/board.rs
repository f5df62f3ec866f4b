//! Search machinery, not rules: the reusable route searches (one per thread, kept between
//! questions) and the least-cost field. The rules come in as cost closures: the chapters
//! price each step (`movement.rs`), this file only walks the map with those prices.

use grognard_hex::search::{Search, Step};
use grognard_hex::{Direction, Hex, MapShape};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

thread_local! {
    /// The facing-aware search: its mode is the facing.
    static FACING: RefCell<Option<Search>> = const { RefCell::new(None) };
    /// The search for a fixed facing (one mode).
    static FIXED: RefCell<Option<Search>> = const { RefCell::new(None) };
}

/// A step as the rules price it: its cost, whether the movement stops on entering, and
/// the facing after it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entered {
    pub cost: u32,
    pub stop: bool,
    pub facing: Direction,
}

/// A hex a search reached: its least cost and a path to it (its start left out).
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub hex: Hex,
    pub cost: u32,
    pub path: Vec<Hex>,
}

/// Whether a search's facing changes along the way (its mode is then the facing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Turns {
    /// The facing changes as the step says.
    Yes,
    /// The facing held at the start is held all the way.
    No,
}

/// Runs a search on `map` from `from` within `budget`. When it turns, the mode of the
/// search is the facing (`step` is asked with the facing held before the step); without,
/// the facing stays `facing` throughout. `keep` chooses the hexes returned.
pub(crate) fn search(
    map: &MapShape,
    from: Hex,
    facing: Direction,
    budget: u32,
    turns: Turns,
    mut step: impl FnMut(Hex, Direction, Hex) -> Option<Entered>,
    keep: impl Fn(Hex) -> bool,
) -> Vec<Found> {
    let turns = turns == Turns::Yes;
    let cell = if turns { &FACING } else { &FIXED };
    let modes = if turns { 6 } else { 1 };
    cell.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|s| s.shape() != map) {
            *slot = Some(Search::new(*map, modes));
        }
        let search = slot.as_mut().expect("just set");
        #[expect(clippy::cast_possible_truncation, reason = "six directions")]
        let mode_of = |d: Direction| if turns { d.index() as u8 } else { 0 };
        let reach = search.run(from, mode_of(facing), budget, |h, mode, to, _dir| {
            let f = if turns {
                Direction::from_index(usize::from(mode))
            } else {
                facing
            };
            match step(h, f, to) {
                Some(e) => Step::Enter {
                    cost: e.cost,
                    stop: e.stop,
                    mode: mode_of(e.facing),
                },
                None => Step::Blocked,
            }
        });
        reach
            .hexes()
            .filter(|&(h, _)| keep(h))
            .map(|(hex, cost)| {
                let mut path = reach.path(hex).unwrap_or_default();
                if path.first() == Some(&from) {
                    path.remove(0);
                }
                Found { hex, cost, path }
            })
            .collect()
    })
}

/// Least cost from every hex to the nearest of `goals`, stepping through hexes
/// `through` allows and paying `cost(hex)` to enter each; `u32::MAX` where none.
pub(crate) fn field(
    map: &MapShape,
    goals: &[Hex],
    through: impl Fn(Hex) -> bool,
    cost: impl Fn(Hex) -> u32,
) -> Vec<u32> {
    let mut dist = vec![u32::MAX; map.len()];
    let mut heap = BinaryHeap::new();
    for &g in goals {
        if let Some(i) = map.index(g) {
            dist[i] = 0;
            heap.push(Reverse((0u32, i)));
        }
    }
    while let Some(Reverse((d, i))) = heap.pop() {
        if d > dist[i] {
            continue;
        }
        let v = map.hex_at(i);
        let step = cost(v);
        for n in v.neighbors() {
            let Some(j) = map.index(n) else { continue };
            if !through(n) {
                continue;
            }
            let nd = d.saturating_add(step);
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(Reverse((nd, j)));
            }
        }
    }
    dist
}
