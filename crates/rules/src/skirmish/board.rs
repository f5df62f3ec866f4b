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
    /// The queue of the least-cost fields, kept between questions.
    static HEAP: RefCell<BinaryHeap<Reverse<(u32, usize)>>> =
        const { RefCell::new(BinaryHeap::new()) };
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
    HEAP.with(|heap| {
        let mut heap = heap.borrow_mut();
        heap.clear();
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
    });
    dist
}

/// Least cost from `from` to every hex, paying `cost(hex)` to enter each and going on
/// only from hexes `through` allows (any hex may end a route): the same costs as
/// [`field`] read the other way, one search for all goals. Exact up to `limit`; above
/// it a hex holds more than `limit` or `u32::MAX`.
pub(crate) fn reach(
    map: &MapShape,
    from: Hex,
    limit: u32,
    through: impl Fn(Hex) -> bool,
    cost: impl Fn(Hex) -> u32,
) -> Vec<u32> {
    let mut dist = vec![u32::MAX; map.len()];
    let Some(s) = map.index(from) else {
        return dist;
    };
    HEAP.with(|heap| {
        let mut heap = heap.borrow_mut();
        heap.clear();
        dist[s] = 0;
        heap.push(Reverse((0u32, s)));
        while let Some(Reverse((d, i))) = heap.pop() {
            if d > dist[i] {
                continue;
            }
            if d > limit {
                break;
            }
            let v = map.hex_at(i);
            if i != s && !through(v) {
                continue;
            }
            for n in v.neighbors() {
                let Some(j) = map.index(n) else { continue };
                let nd = d.saturating_add(cost(n));
                if nd < dist[j] {
                    dist[j] = nd;
                    heap.push(Reverse((nd, j)));
                }
            }
        }
        heap.clear();
    });
    dist
}

/// Who stands where, counted once for many questions: per hex of the map, how many
/// characters and a bit per side present.
pub(crate) struct Occupancy {
    count: Vec<u8>,
    sides: Vec<u8>,
}

impl Occupancy {
    /// The occupancy of `map` by characters standing at `(hex, side)`.
    pub(crate) fn new(map: &MapShape, standing: impl Iterator<Item = (Hex, u8)>) -> Occupancy {
        let mut o = Occupancy {
            count: vec![0; map.len()],
            sides: vec![0; map.len()],
        };
        for (h, side) in standing {
            if let Some(i) = map.index(h) {
                o.count[i] = o.count[i].saturating_add(1);
                o.sides[i] |= 1 << (side & 7);
            }
        }
        o
    }

    /// Whether the hex at `i` holds fewer than two characters, none of a side other than
    /// `side`.
    pub(crate) fn open_to(&self, i: usize, side: u8) -> bool {
        self.count[i] < 2 && self.sides[i] & !(1 << (side & 7)) == 0
    }
}

/// The [`reach`] of each character, computed when first asked and kept for the rest of
/// one list of legal actions (a state does not change while its list is drawn up).
#[derive(Default)]
pub(crate) struct Reaches {
    fields: Vec<Option<Vec<u32>>>,
}

impl Reaches {
    /// The reach of character `i`, computed by `make` on first asking.
    pub(crate) fn get(&mut self, i: usize, make: impl FnOnce() -> Vec<u32>) -> &[u32] {
        if self.fields.len() <= i {
            self.fields.resize_with(i + 1, || None);
        }
        self.fields[i].get_or_insert_with(make)
    }
}
