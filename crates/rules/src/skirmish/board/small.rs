//! The search of [`super::search_moves`] for one facing held throughout, on the dense
//! indices of maps of at most 128 hexes: the same Dial's algorithm (the same steps
//! asked in the same order, the same least costs and parents, the hexes in the order
//! first reached), without the general search's offset coordinates, stamps and modes,
//! and with the paths laid out in one vector rather than one a hex. A short move
//! (SK-SHM-2, SK-SHM-3) searches a point or two around a character: the search's own
//! bookkeeping was most of its price.

use super::{Cells, Entered, NONE};
use grognard_hex::{Direction, Hex, MapShape};
use std::cell::RefCell;
use std::ops::Range;

thread_local! {
    /// The buckets of the queue (one stack a cost, popped last in first out as the
    /// general search's are), kept between searches.
    static BUCKETS: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// A hex a [`search_fixed`] reached and kept: its least cost, and where its path (its start
/// left out) lies in [`Ends::steps`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct End {
    pub hex: Hex,
    pub cost: u32,
    path: Range<u16>,
}

/// What a [`search_fixed`] found: the hexes kept, in the order first reached, and their paths
/// laid end to end. Two are equal when they hold the same hexes, costs and paths in the
/// same order (the paths laid out alike).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ends {
    ends: Vec<End>,
    steps: Vec<Hex>,
}

impl Ends {
    /// Laid out from hexes with their costs and paths (the general search's answer).
    pub(crate) fn from_found(found: Vec<super::Found>) -> Ends {
        let mut out = Ends::default();
        for f in found {
            out.push(f.hex, f.cost, f.path.into_iter());
        }
        out
    }

    fn push(&mut self, hex: Hex, cost: u32, path: impl Iterator<Item = Hex>) {
        let start = self.steps.len();
        self.steps.extend(path);
        self.end(hex, cost, start);
    }

    /// Keeps `hex`, its path being the steps from `start` on.
    fn end(&mut self, hex: Hex, cost: u32, start: usize) {
        let span = |n: usize| u16::try_from(n).expect("short paths");
        self.ends.push(End {
            hex,
            cost,
            path: span(start)..span(self.steps.len()),
        });
    }

    /// How many hexes were kept.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The `i`th hex kept.
    pub(crate) fn hex(&self, i: usize) -> Hex {
        self.ends[i].hex
    }

    /// The hexes kept, in the order first reached.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &End> {
        self.ends.iter()
    }

    /// The path to `end` (its start left out).
    pub(crate) fn path(&self, end: &End) -> &[Hex] {
        &self.steps[usize::from(end.path.start)..usize::from(end.path.end)]
    }

    /// The path to the `i`th hex kept (its start left out).
    pub(crate) fn path_at(&self, i: usize) -> &[Hex] {
        self.path(&self.ends[i])
    }
}

/// Nodes as the general search numbers them: a hex's, times two, plus one where the
/// movement stopped on entering (SK-MOV-8). 256 of them on 128 hexes.
type Node = u8;

/// The least-cost search from the hex at `from` within `budget` points, each step
/// priced by `step((i, j), dir, facing)`: from the hex at `i` into its neighbour at `j`
/// toward `dir`, the facing `facing` held throughout; `keep` chooses the hexes returned
/// (by index), in the order first reached. `None` on a map of more than 128 hexes (then
/// the general search serves).
pub(crate) fn search_fixed(
    (map, cells): (&MapShape, &Cells),
    from: usize,
    facing: Direction,
    budget: u8,
    step: impl FnMut((usize, usize), Direction, Direction) -> Option<Entered>,
    keep: impl Fn(usize) -> bool,
) -> Option<Ends> {
    let mut tree = Tree::new();
    let hexes = grow(&mut tree, (map, cells), from, facing, budget, step)?;
    let order = tree.reached[..tree.count].iter().map(|&h| usize::from(h));
    Some(tree.lay_out(hexes, order.filter(|&h| keep(h))))
}

/// [`search_fixed`] with the hexes returned ordered by their cost and then by their
/// index (as the walks' reach orders them, `step::walk_reach`), rather than first
/// reached.
pub(crate) fn search_fixed_by_cost(
    (map, cells): (&MapShape, &Cells),
    from: usize,
    facing: Direction,
    budget: u8,
    step: impl FnMut((usize, usize), Direction, Direction) -> Option<Entered>,
    keep: impl Fn(usize) -> bool,
) -> Option<Ends> {
    let mut tree = Tree::new();
    let hexes = grow(&mut tree, (map, cells), from, facing, budget, step)?;
    // Each hex kept as a key of its cost above its index: all different.
    let mut keys = [0u16; 128];
    let mut n = 0;
    for &h in &tree.reached[..tree.count] {
        if keep(usize::from(h)) {
            keys[n] =
                u16::from(tree.cost[usize::from(tree.best[usize::from(h)])]) << 7 | u16::from(h);
            n += 1;
        }
    }
    keys[..n].sort_unstable();
    Some(tree.lay_out(hexes, keys[..n].iter().map(|&k| usize::from(k & 127))))
}

/// What [`grow`] finds: each node's least cost and parent (those written), each hex's
/// cheapest node, and the hexes in the order first reached.
struct Tree {
    cost: [u8; 256],
    parent: [Node; 256],
    best: [Node; 128],
    reached: [u8; 128],
    count: usize,
    start: Node,
}

impl Tree {
    /// Nothing written yet.
    fn new() -> Tree {
        Tree {
            cost: [0; 256],
            parent: [0; 256],
            best: [0; 128],
            reached: [0; 128],
            count: 1,
            start: 0,
        }
    }

    /// The hexes of `order` with their costs and paths, laid end to end.
    fn lay_out(&self, hexes: &[Hex], order: impl Iterator<Item = usize>) -> Ends {
        let mut out = Ends {
            ends: Vec::with_capacity(self.count),
            steps: Vec::with_capacity(self.count * 2),
        };
        for h in order {
            // The nodes from the hex back to the start, the start left out, then turned
            // round.
            let begin = out.steps.len();
            let mut n = self.best[h];
            while n != self.start {
                out.steps.push(hexes[usize::from(n >> 1)]);
                n = self.parent[usize::from(n)];
            }
            out.steps[begin..].reverse();
            out.end(
                hexes[h],
                u32::from(self.cost[usize::from(self.best[h])]),
                begin,
            );
        }
        out
    }
}

/// The search of [`search_fixed`], written in `t` (as [`Tree::new`] made it); the hex
/// at each index.
fn grow<'c>(
    t: &mut Tree,
    (map, cells): (&MapShape, &'c Cells),
    from: usize,
    facing: Direction,
    budget: u8,
    mut step: impl FnMut((usize, usize), Direction, Direction) -> Option<Entered>,
) -> Option<&'c [Hex]> {
    let hexes = &cells.bits.as_ref()?.hexes;
    if hexes.len() != map.len() || from >= hexes.len() {
        return None;
    }
    let node = |hex: usize, stop: bool| -> Node {
        u8::try_from(hex * 2 + usize::from(stop)).expect("at most 128 hexes")
    };
    // The nodes written in this search, a bit each, with their least cost and parent;
    // each hex's cheapest node, and the hexes in the order first reached.
    let mut seen = [0u128; 2];
    let start = node(from, false);
    t.start = start;
    let mut best_seen = 0u128;
    let is_seen = |seen: &[u128; 2], n: Node| seen[usize::from(n & 1)] >> (n >> 1) & 1 == 1;
    seen[0] |= 1 << from;
    best_seen |= 1 << from;
    t.best[from] = start;
    t.reached[0] = start >> 1;
    BUCKETS.with(|b| {
        let mut buckets = b.borrow_mut();
        let levels = usize::from(budget) + 1;
        if buckets.len() < levels {
            buckets.resize_with(levels, Vec::new);
        }
        for q in buckets.iter_mut() {
            q.clear();
        }
        buckets[0].push(start);
        for cur in 0..=budget {
            while let Some(n) = buckets[usize::from(cur)].pop() {
                if t.cost[usize::from(n)] != cur {
                    continue; // Superseded by a cheaper entry.
                }
                let hex = usize::from(n >> 1);
                for (d, &j) in cells.nbr[hex].iter().enumerate() {
                    if j == NONE {
                        continue;
                    }
                    let j = j as usize;
                    // When the unit may already go on from there for no more, no step
                    // from here can change any answer.
                    let free = node(j, false);
                    if is_seen(&seen, free) && t.cost[usize::from(free)] <= cur {
                        continue;
                    }
                    let Some(e) = step((hex, j), Direction::from_index(d), facing) else {
                        continue;
                    };
                    let Some(total) = u32::from(cur)
                        .checked_add(e.cost)
                        .filter(|&c| c <= u32::from(budget))
                    else {
                        continue;
                    };
                    let total = u8::try_from(total).expect("within the budget");
                    let target = node(j, e.stop);
                    if is_seen(&seen, target) && t.cost[usize::from(target)] <= total {
                        continue;
                    }
                    seen[usize::from(e.stop)] |= 1 << j;
                    t.cost[usize::from(target)] = total;
                    t.parent[usize::from(target)] = n;
                    if best_seen >> j & 1 == 0 {
                        best_seen |= 1 << j;
                        t.best[j] = target;
                        t.reached[t.count] = free >> 1;
                        t.count += 1;
                    } else if total < t.cost[usize::from(t.best[j])] {
                        t.best[j] = target;
                    }
                    if !e.stop {
                        buckets[usize::from(total)].push(target);
                    }
                }
            }
        }
    });
    Some(hexes)
}
