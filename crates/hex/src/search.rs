//! Least-cost movement search.
//!
//! The engine knows nothing of terrain or zones of control; a ruleset describes a
//! move one step at a time with a closure, and [`Search`] finds the least cost of
//! every hex a unit can reach within its movement allowance.
//!
//! A search state is a hex plus a small ruleset-defined `mode` (0 to `modes - 1`):
//! "arrived along this road", a facing, "has crossed a river". The step closure is
//! asked, for each state the search expands and each neighbouring hex on the map,
//! what entering that neighbour costs, in which mode the unit arrives, and whether
//! movement must end there ([`Step`]).
//!
//! ```
//! use grognard_hex::search::{Search, Step};
//! use grognard_hex::{Hex, MapShape, Orientation, Shove};
//!
//! let map = MapShape::new(Orientation::FlatTop, Shove::Even, 10, 10).unwrap();
//! let mut search = Search::new(map, 1);
//! let marsh = Hex::new(2, 1);
//! let reach = search.run(Hex::new(1, 1), 0, 3, |_from, _mode, to, _dir| {
//!     if to == marsh {
//!         Step::Blocked
//!     } else {
//!         Step::enter(1, 0)
//!     }
//! });
//! assert_eq!(reach.cost(Hex::new(3, 1)), Some(3)); // one more, around the marsh
//! assert_eq!(reach.cost(marsh), None);
//! assert_eq!(reach.path(Hex::new(1, 3)).unwrap().len(), 3);
//! ```
//!
//! # Algorithm
//!
//! Dial's algorithm: Dijkstra with a queue of buckets keyed by cost, which suits the
//! small integer costs of wargames and allows zero-cost steps (roads). All buffers
//! live in the [`Search`] and are reused from run to run; a generation stamp marks
//! which entries belong to the current run, so nothing is cleared between runs.

mod reach;

use crate::{Direction, Hex, MapShape, Orientation};
pub use reach::Reach;

/// What entering a neighbouring hex means, as the ruleset's step closure says.
///
/// ```
/// use grognard_hex::search::Step;
/// assert_eq!(Step::enter(2, 0), Step::Enter { cost: 2, stop: false, mode: 0 });
/// assert_eq!(Step::enter_and_stop(1, 0), Step::Enter { cost: 1, stop: true, mode: 0 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The unit may not make this step.
    Blocked,
    /// The unit may make this step.
    Enter {
        /// What the step costs (0 is allowed, e.g. along a road).
        cost: u32,
        /// Movement must end on entering (e.g. an enemy zone of control).
        stop: bool,
        /// The mode the unit is in after the step; below the search's `modes`.
        mode: u8,
    },
}

impl Step {
    /// Enter at `cost`, arriving in `mode`, free to go on.
    ///
    /// ```
    /// use grognard_hex::search::Step;
    /// assert!(matches!(Step::enter(3, 1), Step::Enter { cost: 3, stop: false, mode: 1 }));
    /// ```
    #[must_use]
    pub const fn enter(cost: u32, mode: u8) -> Step {
        Step::Enter {
            cost,
            stop: false,
            mode,
        }
    }

    /// Enter at `cost`, arriving in `mode`, and end movement there.
    ///
    /// ```
    /// use grognard_hex::search::Step;
    /// assert!(matches!(Step::enter_and_stop(1, 0), Step::Enter { stop: true, .. }));
    /// ```
    #[must_use]
    pub const fn enter_and_stop(cost: u32, mode: u8) -> Step {
        Step::Enter {
            cost,
            stop: true,
            mode,
        }
    }
}

/// One step the search asks about, for [`Search::run_indexed`]: from `from` (in
/// `from_mode`) to its neighbour `to` in direction `dir`, with the dense indices
/// ([`MapShape::index`]) of both hexes.
///
/// ```
/// use grognard_hex::search::{Move, Search, Step};
/// use grognard_hex::{Hex, MapShape, Orientation, Shove};
/// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 4).unwrap();
/// let mut asked: Vec<Move> = Vec::new();
/// Search::new(map, 1).run_indexed(Hex::ORIGIN, 0, 1, |m| {
///     asked.push(m);
///     Step::Blocked
/// });
/// assert!(asked.iter().all(|m| map.index(m.to) == Some(m.to_index)));
/// assert_eq!(asked.len(), 2); // (0, 0) is a corner hex
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The hex moved from.
    pub from: Hex,
    /// Its dense index.
    pub from_index: usize,
    /// The mode the unit is in there.
    pub from_mode: u8,
    /// The neighbour moved to; always on the map.
    pub to: Hex,
    /// Its dense index.
    pub to_index: usize,
    /// The direction from `from` to `to`.
    pub dir: Direction,
}

/// No node: the parent of the start.
const NONE: u32 = u32::MAX;

/// The widest bucket window; costs further ahead wait in an overflow list.
const MAX_WINDOW: usize = 1024;

/// A queued node, with the printed column and row of its hex (so that expanding
/// it needs no division).
#[derive(Clone, Copy, Debug)]
struct Entry {
    node: u32,
    col: u16,
    row: u16,
}

/// The mutable state of one run of Dial's algorithm.
struct Frontier<'s> {
    stamp: u32,
    nodes: &'s mut [Node],
    best: &'s mut [Best],
    reached: &'s mut Vec<u32>,
    buckets: &'s mut [Vec<Entry>],
    overflow: &'s mut Vec<(u32, Entry)>,
    /// The cost of `buckets[0]`.
    base: u32,
}

impl Frontier<'_> {
    /// Offers `target` (a node of hex `to_hex`) at cost `total` from `parent`;
    /// queues it when cheaper than before and `expand`.
    #[inline]
    fn relax(&mut self, parent: u32, to_hex: u32, to: Entry, total: u32, expand: bool) {
        let target = to.node;
        let stamp = self.stamp;
        let slot = &mut self.nodes[target as usize];
        if slot.stamp == stamp && slot.cost <= total {
            return;
        }
        *slot = Node {
            stamp,
            cost: total,
            parent,
        };
        let b = &mut self.best[to_hex as usize];
        if b.stamp != stamp {
            *b = Best {
                stamp,
                cost: total,
                node: target,
            };
            self.reached.push(to_hex);
        } else if total < b.cost {
            b.cost = total;
            b.node = target;
        }
        if expand {
            let ahead = (total - self.base) as usize;
            if ahead < self.buckets.len() {
                self.buckets[ahead].push(to);
            } else {
                self.overflow.push((total, to));
            }
        }
    }

    /// Moves the window on to the cheapest entry waiting in the overflow; false
    /// when none waits.
    fn next_window(&mut self) -> bool {
        let Some(base) = self.overflow.iter().map(|&(c, _)| c).min() else {
            return false;
        };
        self.base = base;
        let buckets = &mut *self.buckets;
        self.overflow.retain(|&(c, n)| {
            let ahead = (c - base) as usize;
            if ahead < buckets.len() {
                buckets[ahead].push(n);
                false
            } else {
                true
            }
        });
        true
    }
}

/// One search node: a (hex, mode) state, either free to move on or stopped.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The run that last wrote this node; other values are stale.
    stamp: u32,
    /// Least cost found so far in that run.
    cost: u32,
    /// The node it was reached from, or [`NONE`].
    parent: u32,
}

/// The cheapest node of a hex.
#[derive(Clone, Copy, Debug, Default)]
struct Best {
    stamp: u32,
    cost: u32,
    node: u32,
}

/// A reusable least-cost movement search over one map.
///
/// Holds every buffer a run needs, sized for the map when built: searching again
/// allocates nothing (beyond growing the queue the first time it is needed).
///
/// Each (hex, mode) state has two nodes: one from which the unit may go on, and one
/// where its movement has ended (entered with `stop`). The stopped node is never
/// expanded, and a state's cost is the lesser of the two; so a cheap arrival that
/// must stop never hides a dearer one that may go on.
///
/// ```
/// use grognard_hex::search::{Search, Step};
/// use grognard_hex::{Hex, MapShape, Orientation, Shove};
///
/// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 8, 8).unwrap();
/// let mut search = Search::new(map, 1);
/// let n = search.run(Hex::new(3, 2), 0, 2, |_, _, _, _| Step::enter(1, 0)).hexes().count();
/// assert_eq!(n, 19);
/// // Reusing the buffers for another unit.
/// let n = search.run(Hex::new(3, 2), 0, 1, |_, _, _, _| Step::enter(1, 0)).hexes().count();
/// assert_eq!(n, 7);
/// ```
#[derive(Clone)]
pub struct Search {
    shape: MapShape,
    modes: u8,
    /// `(dcol, drow)` of each direction, for even and odd columns (flat-top) or rows
    /// (pointy-top).
    deltas: [[(i32, i32); 6]; 2],
    nodes: Vec<Node>,
    best: Vec<Best>,
    /// Hexes reached in this run, in the order first reached.
    reached: Vec<u32>,
    buckets: Vec<Vec<Entry>>,
    overflow: Vec<(u32, Entry)>,
    /// Buckets in use in this run.
    window: usize,
    stamp: u32,
    start: Hex,
    budget: u32,
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("shape", &self.shape)
            .field("modes", &self.modes)
            .field("nodes", &self.nodes.len())
            .field("start", &self.start)
            .field("budget", &self.budget)
            .field("reached", &self.reached.len())
            .finish_non_exhaustive()
    }
}

impl Search {
    /// A search over `shape` with `modes` modes per hex (1 when the ruleset needs
    /// none). Allocates `2 * modes` nodes of 12 bytes per hex.
    ///
    /// # Panics
    /// When `modes` is 0, or the map has `2 * modes * hexes` of 2^32 or more.
    ///
    /// ```
    /// use grognard_hex::search::Search;
    /// use grognard_hex::{MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::PointyTop, Shove::Odd, 20, 15).unwrap();
    /// let search = Search::new(map, 2); // e.g. "arrived by road" or not
    /// assert_eq!(search.modes(), 2);
    /// ```
    #[must_use]
    pub fn new(shape: MapShape, modes: u8) -> Search {
        assert!(modes > 0, "a search needs at least one mode");
        let parity_line = |p: i32| -> Hex {
            // A hex whose column (flat-top) or row (pointy-top) has parity `p`.
            shape.from_offset(p, p)
        };
        let deltas = [0, 1].map(|p| {
            let base = parity_line(p);
            let (c0, r0) = shape.to_offset(base);
            Direction::ALL.map(|d| {
                let (c, r) = shape.to_offset(base.neighbor(d));
                (c - c0, r - r0)
            })
        });
        let states = shape.len() * usize::from(modes) * 2;
        assert!(
            u32::try_from(states).is_ok_and(|n| n < NONE),
            "{states} search nodes do not fit in u32 indices"
        );
        Search {
            shape,
            modes,
            deltas,
            nodes: vec![Node::default(); states],
            best: vec![Best::default(); shape.len()],
            reached: Vec::new(),
            buckets: Vec::new(),
            overflow: Vec::new(),
            window: 0,
            stamp: 0,
            start: Hex::ORIGIN,
            budget: 0,
        }
    }

    /// The map searched.
    ///
    /// ```
    /// use grognard_hex::search::Search;
    /// use grognard_hex::{MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 4).unwrap();
    /// assert_eq!(Search::new(map, 1).shape(), &map);
    /// ```
    #[must_use]
    pub fn shape(&self) -> &MapShape {
        &self.shape
    }

    /// The number of modes per hex.
    ///
    /// ```
    /// use grognard_hex::search::Search;
    /// use grognard_hex::{MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 4).unwrap();
    /// assert_eq!(Search::new(map, 6).modes(), 6); // e.g. a facing
    /// ```
    #[must_use]
    pub fn modes(&self) -> u8 {
        self.modes
    }

    /// Finds the least cost of every state reachable from `start` in `start_mode`
    /// for at most `budget`.
    ///
    /// `step(from, from_mode, to, dir)` says what moving from `from` (in
    /// `from_mode`) to its neighbour `to` in direction `dir` means. It is called only
    /// for neighbours on the map, only from states the unit may move on from, and
    /// (with one mode) not for a neighbour already reached as cheaply as `from`,
    /// from which the unit may go on: such a step could change no answer. The step
    /// should therefore be a pure function of its arguments. The start is reached at
    /// cost 0 and is never a stop.
    ///
    /// # Panics
    /// When `start` is off the map, or `start_mode` or a mode returned by `step` is
    /// not below [`Search::modes`].
    ///
    /// ```
    /// use grognard_hex::search::{Search, Step};
    /// use grognard_hex::{Direction, Hex, MapShape, Orientation, Shove};
    ///
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 10, 10).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let zoc = Hex::new(3, 0).neighbors();
    /// let reach = search.run(Hex::new(1, 1), 0, 4, |_, _, to, _| {
    ///     if zoc.contains(&to) {
    ///         Step::enter_and_stop(1, 0)
    ///     } else {
    ///         Step::enter(1, 0)
    ///     }
    /// });
    /// // (2, 1) is next to the enemy at (3, 0): the unit stops there, and (4, 1)
    /// // beyond it costs the long way round, outside the zone.
    /// assert_eq!(reach.cost(Hex::new(2, 1)), Some(1));
    /// assert_eq!(reach.cost(Hex::new(4, 1)), Some(4));
    /// ```
    pub fn run<F>(&mut self, start: Hex, start_mode: u8, budget: u32, mut step: F) -> Reach<'_>
    where
        F: FnMut(Hex, u8, Hex, Direction) -> Step,
    {
        self.run_indexed(start, start_mode, budget, |m| {
            step(m.from, m.from_mode, m.to, m.dir)
        })
    }

    /// [`Search::run`] with a step closure that also gets the dense indices of both
    /// hexes ([`Move`]), so that a ruleset reads its [`crate::Grid`]s and
    /// [`crate::SideGrid`]s without converting hexes to indices again.
    ///
    /// # Panics
    /// As [`Search::run`].
    ///
    /// ```
    /// use grognard_hex::search::{Search, Step};
    /// use grognard_hex::{Grid, Hex, MapShape, Orientation, Shove, SideGrid};
    ///
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 10, 10).unwrap();
    /// let terrain = Grid::from_fn(map, |h| if h.q == 3 { 2u32 } else { 1 });
    /// let rivers = SideGrid::new(map, 0u32);
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run_indexed(Hex::new(1, 1), 0, 4, |m| {
    ///     Step::enter(terrain[m.to_index] + rivers.get_at(m.from_index, m.dir), 0)
    /// });
    /// assert_eq!(reach.cost(Hex::new(4, 1)), Some(4));
    /// ```
    pub fn run_indexed<F>(
        &mut self,
        start: Hex,
        start_mode: u8,
        budget: u32,
        mut step: F,
    ) -> Reach<'_>
    where
        F: FnMut(Move) -> Step,
    {
        self.begin(start, start_mode, budget);
        self.explore(&mut step);
        Reach { search: self }
    }

    /// Checks the start, opens a new generation and queues the start node.
    fn begin(&mut self, start: Hex, start_mode: u8, budget: u32) {
        let start_index = self
            .shape
            .index(start)
            .unwrap_or_else(|| panic!("search start {start:?} is off the map"));
        assert!(
            start_mode < self.modes,
            "start mode {start_mode} is not below the search's {} modes",
            self.modes
        );
        if self.stamp == u32::MAX {
            // Stamps are about to wrap: forget every old run once.
            self.nodes.fill(Node::default());
            self.best.fill(Best::default());
            self.stamp = 0;
        }
        self.stamp += 1;
        self.start = start;
        self.budget = budget;
        self.reached.clear();
        // Empty after a finished run, but not after one a panicking step cut short.
        self.overflow.clear();
        for b in &mut self.buckets {
            b.clear();
        }
        let window = (budget as usize).saturating_add(1).min(MAX_WINDOW);
        if self.buckets.len() < window {
            self.buckets.resize_with(window, Vec::new);
        }
        self.window = window;

        #[expect(clippy::cast_possible_truncation, reason = "checked in Search::new")]
        let hex = start_index as u32;
        let node = (hex * u32::from(self.modes) + u32::from(start_mode)) * 2;
        self.nodes[node as usize] = Node {
            stamp: self.stamp,
            cost: 0,
            parent: NONE,
        };
        self.best[start_index] = Best {
            stamp: self.stamp,
            cost: 0,
            node,
        };
        self.reached.push(hex);
        let (col, row) = self.shape.to_offset(start);
        self.buckets[0].push(Entry {
            node,
            col: u16::try_from(col).expect("map sides are at most 999"),
            row: u16::try_from(row).expect("map sides are at most 999"),
        });
    }

    /// Dial's algorithm from the queued start to the end of the budget.
    fn explore<F>(&mut self, step: &mut F)
    where
        F: FnMut(Move) -> Step,
    {
        let stamp = self.stamp;
        let budget = self.budget;
        let window = self.window;
        let modes = u32::from(self.modes);
        let (cols, rows) = (self.shape.cols(), self.shape.rows());
        let flat = self.shape.orientation() == Orientation::FlatTop;
        let deltas = self.deltas;
        let shape = self.shape;
        let mut frontier = Frontier {
            stamp,
            nodes: &mut self.nodes,
            best: &mut self.best,
            reached: &mut self.reached,
            buckets: &mut self.buckets[..window],
            overflow: &mut self.overflow,
            base: 0,
        };

        // Costs in [base, base + window) sit in buckets[cost - base]; dearer ones wait
        // in `overflow` until the window moves on to them.
        'windows: loop {
            for level in 0..window {
                #[expect(clippy::cast_possible_truncation, reason = "window <= MAX_WINDOW")]
                let Some(cur) = frontier
                    .base
                    .checked_add(level as u32)
                    .filter(|&c| c <= budget)
                else {
                    break 'windows;
                };
                while let Some(Entry { node, col, row }) = frontier.buckets[level].pop() {
                    if frontier.nodes[node as usize].cost != cur {
                        continue; // Superseded by a cheaper entry.
                    }
                    let (col, row) = (u32::from(col), u32::from(row));
                    let hex = row * cols + col;
                    let mode = u8::try_from((node >> 1) - hex * modes).expect("modes fit in u8");
                    #[expect(clippy::cast_possible_wrap, reason = "map sides are at most 999")]
                    let (ci, ri) = (col as i32, row as i32);
                    let from = shape.from_offset(ci, ri);
                    let parity = if flat { col & 1 } else { row & 1 } as usize;
                    for (d, &(dc, dr)) in deltas[parity].iter().enumerate() {
                        #[expect(
                            clippy::cast_sign_loss,
                            reason = "off-map negatives wrap past the bound and are skipped"
                        )]
                        let (nc, nr) = ((ci + dc) as u32, (ri + dr) as u32);
                        if nc >= cols || nr >= rows {
                            continue;
                        }
                        let to_hex = nr * cols + nc;
                        if modes == 1 {
                            // With one mode the target state is known before asking:
                            // when the unit may already go on from `to` for no more
                            // than `cur`, no step from here can change any answer.
                            let free = frontier.nodes[(to_hex * 2) as usize];
                            if free.stamp == stamp && free.cost <= cur {
                                continue;
                            }
                        }
                        let dir = Direction::from_index(d);
                        let Step::Enter {
                            cost,
                            stop,
                            mode: to_mode,
                        } = step(Move {
                            from,
                            from_index: hex as usize,
                            from_mode: mode,
                            to: from.neighbor(dir),
                            to_index: to_hex as usize,
                            dir,
                        })
                        else {
                            continue;
                        };
                        assert!(
                            u32::from(to_mode) < modes,
                            "step returned mode {to_mode}, not below the search's {modes} modes"
                        );
                        if let Some(total) = cur.checked_add(cost).filter(|&t| t <= budget) {
                            #[expect(
                                clippy::cast_possible_truncation,
                                reason = "map sides are at most 999"
                            )]
                            let to = Entry {
                                node: (to_hex * modes + u32::from(to_mode)) * 2 + u32::from(stop),
                                col: nc as u16,
                                row: nr as u16,
                            };
                            frontier.relax(node, to_hex, to, total, !stop);
                        }
                    }
                }
            }
            if !frontier.next_window() {
                break;
            }
        }
    }

    /// The result of the last [`Search::run`], or `None` before the first.
    ///
    /// ```
    /// use grognard_hex::search::{Search, Step};
    /// use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 4).unwrap();
    /// let mut search = Search::new(map, 1);
    /// assert!(search.reach().is_none());
    /// search.run(Hex::ORIGIN, 0, 1, |_, _, _, _| Step::enter(1, 0));
    /// assert_eq!(search.reach().unwrap().cost(Hex::new(1, 0)), Some(1));
    /// ```
    #[must_use]
    pub fn reach(&self) -> Option<Reach<'_>> {
        (self.stamp > 0).then_some(Reach { search: self })
    }

    fn node_cost(&self, node: usize) -> Option<u32> {
        let n = self.nodes[node];
        (n.stamp == self.stamp).then_some(n.cost)
    }

    fn node_state(&self, node: u32) -> (Hex, u8) {
        let modes = u32::from(self.modes);
        let hex = self.shape.hex_at((node / 2 / modes) as usize);
        let mode = u8::try_from(node / 2 % modes).expect("modes fit in u8");
        (hex, mode)
    }
}

#[cfg(test)]
mod tests;
