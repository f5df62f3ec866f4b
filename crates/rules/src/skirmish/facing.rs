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
    if from == to {
        return Vec::new();
    }
    let (q, r) = (to.q - from.q, to.r - from.r);
    let best = Direction::ALL
        .iter()
        .map(|&d| cube_dot(q, r, d))
        .max()
        .unwrap_or(0);
    Direction::ALL
        .into_iter()
        .filter(|&d| cube_dot(q, r, d) == best)
        .collect()
}

/// SK-FAC-2: the arc of a target facing `facing` at `target` from which an attacker at
/// `from` strikes. An attacker exactly between two sectors counts in the one better for
/// the target; one in the same hex (Close Quarters) strikes at its front.
#[must_use]
pub fn attack_arc(target: Hex, facing: Direction, from: Hex, front_turns: u8) -> Arc {
    sectors(target, from)
        .into_iter()
        .map(|d| arc(facing, d, front_turns))
        .min()
        .unwrap_or(Arc::Front)
}

/// The direction to face to look at `to` from `from` (the first sector; `fallback` for
/// the same hex).
#[must_use]
pub fn toward(from: Hex, to: Hex, fallback: Direction) -> Direction {
    sectors(from, to).first().copied().unwrap_or(fallback)
}
