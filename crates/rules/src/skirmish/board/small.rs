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
/// (by index). `None` on a map of more than 128 hexes (then the general search serves).
pub(crate) fn search_fixed(
    (map, cells): (&MapShape, &Cells),
    from: usize,
    facing: Direction,
    budget: u8,
    mut step: impl FnMut((usize, usize), Direction, Direction) -> Option<Entered>,
    keep: impl Fn(usize) -> bool,
) -> Option<Ends> {
    cells.bits.as_ref()?;
    let node = |hex: usize, stop: bool| -> Node {
        u8::try_from(hex * 2 + usize::from(stop)).expect("at most 128 hexes")
    };
    // The nodes written in this search, a bit each, with their least cost and parent;
    // each hex's cheapest node, and the hexes in the order first reached.
    let mut seen = [0u128; 2];
    let mut cost = [0u8; 256];
    let mut parent = [0u8; 256];
    let mut best_seen = 0u128;
    let mut best = [0u8; 128];
    let (mut reached, mut count) = ([0u8; 128], 1);
    let is_seen = |seen: &[u128; 2], n: Node| seen[usize::from(n & 1)] >> (n >> 1) & 1 == 1;
    let start = node(from, false);
    seen[0] |= 1 << from;
    best_seen |= 1 << from;
    best[from] = start;
    reached[0] = start >> 1;
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
                if cost[usize::from(n)] != cur {
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
                    if is_seen(&seen, free) && cost[usize::from(free)] <= cur {
                        continue;
                    }
                    let Some(e) = step((hex, j), Direction::from_index(d), facing) else {
                        continue;
                    };
                    let Some(total) = u32::from(cur)
                        .checked_add(e.cost)
                        .filter(|&t| t <= u32::from(budget))
                    else {
                        continue;
                    };
                    let total = u8::try_from(total).expect("within the budget");
                    let target = node(j, e.stop);
                    if is_seen(&seen, target) && cost[usize::from(target)] <= total {
                        continue;
                    }
                    seen[usize::from(e.stop)] |= 1 << j;
                    cost[usize::from(target)] = total;
                    parent[usize::from(target)] = n;
                    if best_seen >> j & 1 == 0 {
                        best_seen |= 1 << j;
                        best[j] = target;
                        reached[count] = free >> 1;
                        count += 1;
                    } else if total < cost[usize::from(best[j])] {
                        best[j] = target;
                    }
                    if !e.stop {
                        buckets[usize::from(total)].push(target);
                    }
                }
            }
        }
    });
    let mut out = Ends {
        ends: Vec::with_capacity(count),
        steps: Vec::with_capacity(count * 2),
    };
    for &h in &reached[..count] {
        let h = usize::from(h);
        if !keep(h) {
            continue;
        }
        // The nodes from the hex back to the start, the start left out, then turned
        // round.
        let begin = out.steps.len();
        let mut n = best[h];
        while n != start {
            out.steps.push(map.hex_at(usize::from(n >> 1)));
            n = parent[usize::from(n)];
        }
        out.steps[begin..].reverse();
        out.end(map.hex_at(h), u32::from(cost[usize::from(best[h])]), begin);
    }
    Some(out)
}

/// A node of [`search_turning`]: its hex's index times twelve, plus its facing's index
/// times two, plus one where the movement stopped on entering (SK-MOV-8); the general
/// search numbers its nodes so. 1,536 of them on 128 hexes.
type TurningNode = u16;

thread_local! {
    /// The buckets of [`search_turning`]'s queue, kept between searches.
    static TURNING: RefCell<Vec<Vec<TurningNode>>> = const { RefCell::new(Vec::new()) };
}

/// The least-cost search of [`super::search_moves`] with the facing as its mode
/// (SK-MOV-16: a step may turn the character), on the dense indices of maps of at most
/// 128 hexes: from the hex at `from` facing `facing`, within `budget` points, each step
/// priced by `step((i, j), dir, facing)` from the hex at `i` into its neighbour at `j`
/// toward `dir`, `facing` held before it; `keep` chooses the hexes returned (by index),
/// ordered by cost and then by index. The same Dial's algorithm as the general search
/// (every neighbour asked, in the same order; each cost's bucket popped last in first
/// out; a node relaxed only for less, a hex's cheapest node changed only for less), so
/// the same least costs and the same paths, laid end to end in one vector. `None` on a
/// map of more than 128 hexes (then the general search serves).
pub(crate) fn search_turning(
    (map, cells): (&MapShape, &Cells),
    from: usize,
    facing: Direction,
    budget: u8,
    mut step: impl FnMut((usize, usize), Direction, Direction) -> Option<Entered>,
    keep: impl Fn(usize) -> bool,
) -> Option<Ends> {
    let bits = cells.bits.as_ref()?;
    if from >= 128 || bits.hexes.len() != map.len() {
        return None;
    }
    let node = |hex: usize, facing: Direction, stop: bool| -> TurningNode {
        u16::try_from((hex * 6 + facing.index()) * 2 + usize::from(stop)).expect("128 hexes")
    };
    // The nodes written in this search, a bit a hex for each facing and stop, with
    // their least cost and parent; each hex's cheapest node, and the hexes reached.
    let mut seen = [0u128; 12];
    let mut cost = [0u8; 1536];
    let mut parent = [0u16; 1536];
    let mut best_seen = 0u128;
    let mut best = [0u16; 128];
    let slot = |n: TurningNode| (usize::from(n % 12), usize::from(n / 12));
    let start = node(from, facing, false);
    seen[usize::from(start % 12)] |= 1 << from;
    best_seen |= 1 << from;
    best[from] = start;
    TURNING.with(|b| {
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
                if cost[usize::from(n)] != cur {
                    continue; // Superseded by a cheaper entry.
                }
                let hex = usize::from(n / 12);
                let held = Direction::from_index(usize::from(n % 12 / 2));
                for (d, &j) in cells.nbr[hex].iter().enumerate() {
                    if j == NONE {
                        continue;
                    }
                    let j = j as usize;
                    let Some(e) = step((hex, j), Direction::from_index(d), held) else {
                        continue;
                    };
                    let Some(total) = u32::from(cur)
                        .checked_add(e.cost)
                        .filter(|&t| t <= u32::from(budget))
                    else {
                        continue;
                    };
                    let total = u8::try_from(total).expect("within the budget");
                    let target = node(j, e.facing, e.stop);
                    let (s, h) = slot(target);
                    if seen[s] >> h & 1 == 1 && cost[usize::from(target)] <= total {
                        continue;
                    }
                    seen[s] |= 1 << h;
                    cost[usize::from(target)] = total;
                    parent[usize::from(target)] = n;
                    if best_seen >> j & 1 == 0 {
                        best_seen |= 1 << j;
                        best[j] = target;
                    } else if total < cost[usize::from(best[j])] {
                        best[j] = target;
                    }
                    if !e.stop {
                        buckets[usize::from(total)].push(target);
                    }
                }
            }
        }
    });
    // The hexes kept, by cost and then by index: each a key of its cost above its
    // index, all different.
    let mut keys = [0u16; 128];
    let mut count = 0;
    let mut left = best_seen;
    while left != 0 {
        let h = left.trailing_zeros() as usize;
        left &= left - 1;
        if keep(h) {
            keys[count] =
                u16::from(cost[usize::from(best[h])]) << 7 | u16::try_from(h).expect("below 128");
            count += 1;
        }
    }
    keys[..count].sort_unstable();
    let mut out = Ends {
        ends: Vec::with_capacity(count),
        steps: Vec::with_capacity(count * 3),
    };
    for &key in &keys[..count] {
        let h = usize::from(key & 127);
        // The nodes from the hex back to the start, the start left out, then turned
        // round.
        let begin = out.steps.len();
        let mut n = best[h];
        while n != start {
            out.steps.push(bits.hexes[usize::from(n / 12)]);
            n = parent[usize::from(n)];
        }
        out.steps[begin..].reverse();
        out.end(bits.hexes[h], u32::from(key >> 7), begin);
    }
    Some(out)
}
