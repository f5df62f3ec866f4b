//! Retreats toward a map edge, as the Commands & Colors family makes them: one hex
//! nearer the side's own edge for each retreat move, the owner choosing the hexes.
//!
//! The ruleset says what each hex means for the retreating piece ([`Enter`]); [`ends`]
//! finds every hex a retreat of N moves can end in, and how many moves it makes
//! there, so that moves it cannot make can be paid for as the rules say.
//!
//! ```
//! use grognard_engine::retreat::{ends, toward_edge, Enter};
//! use grognard_engine::scenario::Edge;
//! use grognard_hex::{Hex, Orientation};
//!
//! let north = toward_edge(Orientation::PointyTop, Edge::North);
//! let start = Hex::new(3, 3);
//! // Nothing in the way: two moves toward the north edge end on one of three hexes.
//! let free = ends(start, 2, north, true, |_| Enter::Through);
//! assert_eq!(free.len(), 3);
//! assert!(free.iter().all(|e| e.steps == 2 && start.distance(e.hex) == 2));
//! // Walled in: the retreat ends where it is, having made no move at all.
//! assert!(ends(start, 2, north, true, |_| Enter::Blocked).is_empty());
//! ```

use crate::scenario::Edge;
use grognard_hex::{Direction, Hex, Orientation};

/// What entering a hex means for a retreating piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enter {
    /// It may not enter (off the map, impassable, another unit).
    Blocked,
    /// It may enter and go on.
    Through,
    /// It may enter, and its retreat ends there.
    Stop,
}

/// Where a retreat can end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// The hex.
    pub hex: Hex,
    /// Retreat moves made to get there (fewer than owed when the way was blocked).
    pub steps: u8,
    /// It ended on a [`Enter::Stop`] hex.
    pub stopped: bool,
}

/// The directions that take a piece one step nearer `edge`: on pointy-top maps the two
/// hexes of the next row toward the north or south edge, or the three toward east or
/// west; on flat-top maps the reverse.
///
/// ```
/// use grognard_engine::retreat::toward_edge;
/// use grognard_engine::scenario::Edge;
/// use grognard_hex::{Direction, Orientation};
/// assert_eq!(toward_edge(Orientation::PointyTop, Edge::North), [Direction::N, Direction::NE]);
/// assert_eq!(toward_edge(Orientation::FlatTop, Edge::East), [Direction::NE, Direction::SE]);
/// ```
#[must_use]
pub fn toward_edge(orientation: Orientation, edge: Edge) -> &'static [Direction] {
    use Direction::{N, NE, NW, S, SE, SW};
    match (orientation, edge) {
        (Orientation::PointyTop, Edge::North) => &[N, NE],
        (Orientation::PointyTop, Edge::South) => &[S, SW],
        (Orientation::PointyTop, Edge::East) => &[SE, NE, S],
        (Orientation::PointyTop, Edge::West) => &[NW, N, SW],
        (Orientation::FlatTop, Edge::North) => &[N, NE, NW],
        (Orientation::FlatTop, Edge::South) => &[S, SW, SE],
        (Orientation::FlatTop, Edge::East) => &[NE, SE],
        (Orientation::FlatTop, Edge::West) => &[NW, SW],
    }
}

/// Every hex a retreat of `hexes` moves from `start` can end in, each move taking one of
/// `dirs`; `enter` says what each hex means (it is asked about map hexes and off-map
/// ones alike).
///
/// With `partial`, a retreat that cannot go on ends where it is after at least one move,
/// with the moves it made ([`End::steps`] below `hexes`); without, only complete
/// retreats count. A retreat that cannot make its first move has no end: the list is
/// empty and the ruleset applies its penalty. Ends are listed in the order found, each
/// hex once.
#[must_use]
pub fn ends(
    start: Hex,
    hexes: u8,
    dirs: &[Direction],
    partial: bool,
    mut enter: impl FnMut(Hex) -> Enter,
) -> Vec<End> {
    let mut out: Vec<End> = Vec::new();
    let mut frontier = vec![start];
    for k in 1..=hexes {
        let mut next: Vec<Hex> = Vec::new();
        for &x in &frontier {
            let mut moved = false;
            for &d in dirs {
                let y = x.neighbor(d);
                match enter(y) {
                    Enter::Blocked => {}
                    Enter::Stop => {
                        moved = true;
                        if !out.iter().any(|e| e.hex == y) {
                            out.push(End {
                                hex: y,
                                steps: k,
                                stopped: true,
                            });
                        }
                    }
                    Enter::Through => {
                        moved = true;
                        if !next.contains(&y) {
                            next.push(y);
                        }
                    }
                }
            }
            if partial && !moved && k > 1 && !out.iter().any(|e| e.hex == x) {
                out.push(End {
                    hex: x,
                    steps: k - 1,
                    stopped: false,
                });
            }
        }
        frontier = next;
    }
    for hex in frontier {
        if !out.iter().any(|e| e.hex == hex) {
            out.push(End {
                hex,
                steps: hexes,
                stopped: false,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocked_second_move_ends_the_retreat_after_the_first() {
        let dirs = toward_edge(Orientation::PointyTop, Edge::South);
        let start = Hex::new(2, 2);
        let first: Vec<Hex> = dirs.iter().map(|&d| start.neighbor(d)).collect();
        let e = ends(start, 2, dirs, true, |h| {
            if first.contains(&h) {
                Enter::Through
            } else {
                Enter::Blocked
            }
        });
        assert_eq!(e.len(), 2);
        assert!(e.iter().all(|x| x.steps == 1 && !x.stopped));
        let whole = ends(start, 2, dirs, false, |h| {
            if first.contains(&h) {
                Enter::Through
            } else {
                Enter::Blocked
            }
        });
        assert!(whole.is_empty());
    }

    #[test]
    fn a_stop_hex_ends_the_retreat_there() {
        let dirs = toward_edge(Orientation::PointyTop, Edge::North);
        let start = Hex::new(2, 4);
        let stop = start.neighbor(dirs[0]);
        let e = ends(start, 3, dirs, true, |h| {
            if h == stop {
                Enter::Stop
            } else {
                Enter::Through
            }
        });
        assert!(e.contains(&End {
            hex: stop,
            steps: 1,
            stopped: true
        }));
    }
}
