//! The hexes a piece can reach with its move (BC-MOV-1), and the way to each: the search
//! behind the legal moves, a move's check and its path.

use super::board::{read_bit, Search, SearchKey, NONE};
use super::units::{Board, Kind};
use super::{cards, BattleCry, Path, State, OFF_MAP};
use grognard_engine::UnitId;
use grognard_hex::Hex;
use std::cell::RefCell;

/// A hex a piece can end its move in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    pub hex: Hex,
    /// The hexes entered, the last being `hex`.
    pub path: Path,
    /// The move must end there (BC-TER-1, BC-MOV-9).
    pub stop: bool,
}

/// The general that moves with unit `u` if it moves now: its attached general, unless
/// that general has moved already this turn (BC-ATT-2, BC-ATT-5).
pub(crate) fn carried(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
) -> Option<UnitId> {
    if !rules.kind(u).is_unit() {
        return None;
    }
    let hex = state.pieces[u.index()].hex?;
    board
        .general_at(rules, hex)
        .filter(|g| !state.pieces[g.index()].moved)
}

/// Hexes an ordered piece may move: its type's (BC-MOV-3 to BC-MOV-6), plus the card's.
#[inline]
pub(crate) fn allowance(rules: &BattleCry, state: &State, u: UnitId) -> u8 {
    rules.row(u).moves + cards::bonus_moves(rules, state, u)
}

/// Every hex piece `u` may end a move in, by the fewest hexes, with a path there.
///
/// A unit may not enter or pass through a unit or an enemy general (BC-MOV-8); it may end
/// on a friendly general alone in its hex, and stops there, unless a general moves with
/// it (BC-MOV-9, BC-ATT-1). A general passes through friendly pieces (BC-GEN-1), ends on
/// an empty hex or a friendly unit without a general (BC-GEN-2), and never enters an enemy
/// (BC-GEN-3). Neither leaves the map (BC-MOV-10) nor enters impassable terrain
/// (BC-TER-2), and both stop on entering stopping terrain (BC-TER-1).
pub(crate) fn reach(rules: &BattleCry, state: &State, board: &Board, u: UnitId) -> Vec<Reach> {
    search(rules, state, board, u, |f| {
        f.ends
            .iter()
            .map(|&(at, stop)| f.reach(rules, at, stop))
            .collect()
    })
}

/// [`reach`] to hex `to` only, when the piece can end its move there.
pub(crate) fn reach_to(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    to: Hex,
) -> Option<Reach> {
    let to_at = u32::try_from(rules.index(to)?).ok()?;
    search(rules, state, board, u, |f| {
        f.ends
            .iter()
            .find(|&&(at, _)| at == to_at)
            .map(|&(at, stop)| f.reach(rules, at, stop))
    })
}

/// The hexes a search found, and the way to each.
struct Found<'a> {
    /// The map indices of the hexes the piece may end in, in the order found, with
    /// whether it must stop there.
    ends: &'a [(u32, bool)],
    /// Each map index the search entered, with the map index it was entered from.
    seen: &'a [(u32, u32)],
    /// The map index the piece starts from.
    start: u32,
}

impl Found<'_> {
    /// The end at map index `at`, with its path.
    fn reach(&self, rules: &BattleCry, at: u32, stop: bool) -> Reach {
        let hex_of = |i: u32| rules.hex_of[i as usize];
        let parent = |i: u32| {
            self.seen
                .iter()
                .find(|&&(h, _)| h == i)
                .map_or(self.start, |&(_, p)| p)
        };
        let mut path = Path::new();
        path.push(hex_of(at));
        let mut i = parent(at);
        while i != self.start {
            path.push(hex_of(i));
            i = parent(i);
        }
        path.reverse();
        Reach {
            hex: hex_of(at),
            path,
            stop,
        }
    }

    /// The hexes entered on the way to the end at map index `at`: [`Found::reach`]'s
    /// path, walked back from the end through the hexes entered before it.
    fn path(&self, rules: &BattleCry, at: u32) -> Path {
        /// Hexes walked back in place; a longer way is found the long way.
        const MOST: usize = 8;
        let mut back = [0u32; MOST];
        let mut n = 0;
        let mut i = at;
        // Where the search looks for the hex entered before `i`: each hex is entered
        // after the one it was entered from.
        let mut before = self.seen.len();
        while i != self.start {
            if n == MOST {
                return self.reach(rules, at, false).path;
            }
            back[n] = i;
            n += 1;
            match self.seen[..before].iter().rposition(|&(h, _)| h == i) {
                Some(p) => {
                    before = p;
                    i = self.seen[p].1;
                }
                None => break,
            }
        }
        let mut hexes = [Hex::default(); MOST];
        for (h, &i) in hexes.iter_mut().zip(back[..n].iter().rev()) {
            *h = rules.hex_of[i as usize];
        }
        let path = Path::of(&hexes[..n]);
        debug_assert_eq!(path, self.reach(rules, at, false).path, "the way back");
        path
    }
}

/// The buffers of the move search, kept per thread: the search runs for every piece
/// that may move, each time the legal moves are listed.
#[derive(Default)]
struct Scratch {
    /// Per map index: the number of the last search that saw the hex.
    seen: Vec<u32>,
    /// The number of the current search.
    stamp: u32,
    /// The hexes entered that the search goes on from, layer after layer (those reached
    /// with one move more than the layer before).
    queue: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            seen: Vec::new(),
            stamp: 0,
            queue: Vec::new(),
        })
    };
}

/// The key of piece `u`'s move search ([`SearchKey`]), with the general that moves with
/// it ([`carried`]): its hex's map index looked up once for both.
#[inline]
pub(crate) fn search_key(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
) -> (SearchKey, Option<UnitId>) {
    let at = board.index_of(u);
    debug_assert_eq!(at, state.pieces[u.index()].hex.and_then(|h| rules.index(h)));
    let general = match at {
        // The general in the unit's hex, as `carried` finds it.
        Some(at) if rules.kind(u).is_unit() => board
            .general_at_index(at)
            .filter(|g| !state.pieces[g.index()].moved),
        _ => None,
    };
    debug_assert_eq!(
        general,
        carried(rules, state, board, u),
        "the general carried"
    );
    let key = SearchKey {
        start: at.and_then(|i| u32::try_from(i).ok()).unwrap_or(OFF_MAP),
        budget: allowance(rules, state, u),
        with_general: general.is_some(),
    };
    (key, general)
}

/// The search of [`reach`] of piece `u`, breadth first from its hex, kept with the board
/// ([`Board::search`]); `visit` sees what it found.
fn search<T>(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    visit: impl FnOnce(Found<'_>) -> T,
) -> T {
    search_keyed(rules, board, u, search_key(rules, state, board, u).0, visit)
}

/// [`search`] with its key worked out ([`search_key`]).
fn search_keyed<T>(
    rules: &BattleCry,
    board: &Board,
    u: UnitId,
    key: SearchKey,
    visit: impl FnOnce(Found<'_>) -> T,
) -> T {
    let found = board.search(u, key, |out| {
        let mut out = Some(out);
        let _ = SCRATCH.try_with(|c| {
            if let (Ok(mut s), Some(out)) = (c.try_borrow_mut(), out.take()) {
                s.run(rules, board, u, key, out);
            }
        });
        // On a thread being torn down, buffers of its own.
        if let Some(out) = out {
            Scratch::default().run(rules, board, u, key, out);
        }
    });
    visit(Found {
        ends: &found.ends,
        seen: &found.seen,
        start: key.start,
    })
}

/// The end of piece `u`'s move at map index `to_at`, searched under `key`
/// ([`search_key`]), when the piece can end its move there: whether it must stop there,
/// and, when `with_path`, the hexes entered (the move's event's alone).
pub(crate) fn end_at(
    rules: &BattleCry,
    board: &Board,
    u: UnitId,
    key: SearchKey,
    to_at: u32,
    with_path: bool,
) -> Option<(bool, Option<Path>)> {
    search_keyed(rules, board, u, key, |f| {
        f.ends
            .iter()
            .find(|&&(at, _)| at == to_at)
            .map(|&(at, stop)| (stop, with_path.then(|| f.path(rules, at))))
    })
}

impl Scratch {
    /// Fills `out`'s ends and the hexes seen for piece `u`, from `key`'s start with its
    /// allowance.
    fn run(
        &mut self,
        rules: &BattleCry,
        board: &Board,
        u: UnitId,
        key: SearchKey,
        out: &mut Search,
    ) {
        out.ends.clear();
        out.seen.clear();
        out.read = 0;
        let start = key.start;
        if start == OFF_MAP {
            return;
        }
        let side = rules.side_of(u);
        let general = rules.kind(u) == Kind::General;
        let with_general = key.with_general;
        let budget = key.budget;
        let n = rules.map.len();
        if self.seen.len() != n {
            self.seen.clear();
            self.seen.resize(n, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        // The tables read by map index, each cut to the map's length: an index found
        // within one is within all, so each is read without a bounds check of its own.
        let seen = &mut self.seen[..n];
        let cells = &board.cells()[..n];
        let hexes = &rules.hexes[..n];
        let neighbors = &rules.neighbors[..n];
        seen[start as usize] = stamp;
        out.read |= read_bit(start);
        let queue = &mut self.queue;
        queue.clear();
        queue.push(start);
        let enemy = |p: u16| p != NONE && rules.side_of(UnitId(p)) != side;
        // The layer of the hexes reached with the moves made so far: `queue[layer..]`.
        let mut layer = 0;
        for step in 1..=budget {
            // No hex is entered after the last move: its layer is not kept.
            let last = step == budget;
            let end = queue.len();
            for i in layer..end {
                let h = queue[i];
                // Neighbour `y` of hex `h` looked at: the six written out in order, in
                // place of a loop over them.
                macro_rules! look_at {
                    ($y:expr) => {
                        'look: {
                            let y: u32 = $y;
                            let at = y as usize;
                            // Off the map and impassable hexes are OFF_MAP in the table.
                            if y == OFF_MAP || seen[at] == stamp {
                                break 'look;
                            }
                            // Seen whether entered or refused: a hex refused is refused
                            // again from any hex (its own terrain and pieces decide), so
                            // it is looked at once.
                            seen[at] = stamp;
                            out.read |= read_bit(y);
                            let stops = hexes[at].stop;
                            let [unit, gen] = cells[at];
                            // An empty hex, the most common: either piece may end there,
                            // and stops if its terrain stops (the cases below with no
                            // piece).
                            let (can_end, stop) = if unit == NONE && gen == NONE {
                                (true, stops)
                            } else if general {
                                if enemy(unit) || enemy(gen) {
                                    break 'look;
                                }
                                let can_end = gen == NONE;
                                if stops && !can_end {
                                    break 'look;
                                }
                                (can_end, stops)
                            } else {
                                if unit != NONE || enemy(gen) {
                                    break 'look;
                                }
                                if gen != NONE {
                                    if with_general {
                                        break 'look;
                                    }
                                    (true, true)
                                } else {
                                    (true, stops)
                                }
                            };
                            out.seen.push((y, h));
                            if can_end {
                                out.ends.push((y, stop));
                            }
                            if !stop && !last {
                                queue.push(y);
                            }
                        }
                    };
                }
                let [a, b, c, d, e, f] = neighbors[h as usize];
                look_at!(a);
                look_at!(b);
                look_at!(c);
                look_at!(d);
                look_at!(e);
                look_at!(f);
            }
            layer = end;
        }
    }
}

/// A move of piece `u` to each end of [`reach`], in order, without the paths (the legal
/// moves), added to `out` at once.
pub(crate) fn moves_into(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    out: &mut Vec<super::Action>,
) {
    search(rules, state, board, u, |found| {
        out.extend(found.ends.iter().map(|&(at, _)| super::Action::Move {
            unit: u,
            to: rules.hex_of[at as usize],
        }));
    });
}
