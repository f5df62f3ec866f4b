//! Facing (SK-FAC-1, SK-FAC-2): which hexsides are a character's front, flanks and rear,
//! for the price of a step (SK-MOV-16) and the bonus of an attack (SK-MEL-1).

use grognard_hex::{Direction, Hex};
use serde::Serialize;

/// Where something lies relative to a character's facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arc {
    /// The three hexsides ahead (with the data's `front_turns` of 1).
    Front,
    /// The two hexsides beside the rear.
    Flank,
    /// The hexside behind.
    Rear,
}

impl Arc {
    /// The word for players.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Arc::Front => "front",
            Arc::Flank => "flank",
            Arc::Rear => "rear",
        }
    }
}

/// SK-FAC-1: the arc of a direction for a character facing `facing`.
///
/// ```
/// use grognard_hex::Direction;
/// use grognard_rules::skirmish::facing::{arc, Arc};
/// assert_eq!(arc(Direction::N, Direction::NE, 1), Arc::Front);
/// assert_eq!(arc(Direction::N, Direction::SE, 1), Arc::Flank);
/// assert_eq!(arc(Direction::N, Direction::S, 1), Arc::Rear);
/// ```
#[must_use]
pub fn arc(facing: Direction, dir: Direction, front_turns: u8) -> Arc {
    match facing.turns_to(dir) {
        t if t <= front_turns => Arc::Front,
        3 => Arc::Rear,
        _ => Arc::Flank,
    }
}

fn cube_dot(q: i32, r: i32, d: Direction) -> i32 {
    let (dq, dr) = d.delta();
    let s = -q - r;
    q * dq + r * dr + s * (-dq - dr)
}

/// The directions of the 60-degree sectors `to` lies in, seen from `from`: one
/// direction, or two when `to` lies exactly between them. Empty when they are the
/// same hex.
///
/// ```
/// use grognard_hex::{Direction, Hex};
/// use grognard_rules::skirmish::facing::sectors;
/// let o = Hex::ORIGIN;
/// assert_eq!(sectors(o, Hex::new(0, -2)), vec![Direction::N]);
/// // (1, -2) lies between north and north-east.
/// assert_eq!(sectors(o, Hex::new(1, -2)), vec![Direction::NE, Direction::N]);
/// ```
#[must_use]
pub fn sectors(from: Hex, to: Hex) -> Vec<Direction> {
    let (dirs, n) = sector_dirs(from, to);
    dirs[..n].to_vec()
}

/// [`sectors`] without a list: up to two directions, in [`Direction::ALL`]'s order,
/// and how many there are.
fn sector_dirs(from: Hex, to: Hex) -> ([Direction; 2], usize) {
    let mut out = [Direction::N; 2];
    if from == to {
        return (out, 0);
    }
    let (q, r) = (to.q - from.q, to.r - from.r);
    // Each product once: the evaluation asks this of every pair of enemies in reach.
    let dots = Direction::ALL.map(|d| cube_dot(q, r, d));
    let best = dots.iter().copied().max().unwrap_or(0);
    let mut n = 0;
    for (d, dot) in Direction::ALL.into_iter().zip(dots) {
        if dot == best && n < 2 {
            out[n] = d;
            n += 1;
        }
    }
    (out, n)
}

/// SK-FAC-2: the arc of a target facing `facing` at `target` from which an attacker at
/// `from` strikes. An attacker exactly between two sectors counts in the one better for
/// the target; one in the same hex (Close Quarters) strikes at its front.
#[must_use]
pub fn attack_arc(target: Hex, facing: Direction, from: Hex, front_turns: u8) -> Arc {
    let (dirs, n) = sector_dirs(target, from);
    dirs[..n]
        .iter()
        .map(|&d| arc(facing, d, front_turns))
        .min()
        .unwrap_or(Arc::Front)
}

/// The direction to face to look at `to` from `from` (the first sector; `fallback` for
/// the same hex).
#[must_use]
pub fn toward(from: Hex, to: Hex, fallback: Direction) -> Direction {
    let (dirs, n) = sector_dirs(from, to);
    if n == 0 {
        fallback
    } else {
        dirs[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At most two sectors tie (a hex exactly between two directions), so the lists
    /// kept in two slots are the sectors found over all six directions, everywhere
    /// within six hexes.
    #[test]
    fn sk_fac_2_at_most_two_sectors_and_the_same_ones() {
        let o = Hex::ORIGIN;
        for q in -6..=6 {
            for r in -6..=6 {
                let to = Hex::new(q, r);
                let all: Vec<Direction> = if to == o {
                    Vec::new()
                } else {
                    let best = Direction::ALL
                        .iter()
                        .map(|&d| cube_dot(q, r, d))
                        .max()
                        .unwrap_or(0);
                    Direction::ALL
                        .into_iter()
                        .filter(|&d| cube_dot(q, r, d) == best)
                        .collect()
                };
                assert!(all.len() <= 2, "{to:?}");
                assert_eq!(sectors(o, to), all, "{to:?}");
            }
        }
    }
}
