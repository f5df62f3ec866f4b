//! What the computer opponent judges alike in the Commands & Colors family (not rules:
//! heuristics for `Ruleset::evaluate`, which Battle Cry's and JOMINI's `ai.rs` weigh
//! each with its own values).

use super::dice::at_range;
use grognard_engine::Outcome;
use grognard_hex::Hex;

/// A finished game's score for `side`: far above any position's worth for a win, as far
/// below for a loss, nothing for a draw.
#[must_use]
pub fn final_score(outcome: &Outcome, side: &str) -> f64 {
    match &outcome.winner {
        Some(w) if w == side => 1e3,
        Some(_) => -1e3,
        None => 0.0,
    }
}

/// The share of the expected damage a side may deal next turn that counts: the side to
/// act rolls first, the other only after a whole turn of the enemy's.
#[must_use]
pub fn threat_share(side: u8, active: u8) -> f64 {
    if side == active {
        0.5
    } else {
        0.25
    }
}

/// A unit's worth by the figures or stands it has `left` of its `full` number, `worth`
/// at full strength: concave, so that the last ones weigh most (a unit nearly gone is
/// nearly a point for the enemy).
#[must_use]
pub fn unit_value(worth: f64, left: f64, full: f64) -> f64 {
    if left <= 0.0 {
        0.0
    } else {
        worth * (left / full.max(1.0)).min(1.0).sqrt()
    }
}

/// The most a unit at `from`, rolling the dice of its range `table`, may gain next turn:
/// the best `worth` among the `targets` (each a hex and the target there) its dice reach,
/// counting only adjacent ones while there is one (BC-BAT-2, JO-COM-4). `worth` gets the
/// target's hex, the target and the dice at that range.
pub fn best_target<T>(
    table: &[u8],
    from: Hex,
    targets: impl IntoIterator<Item = (Hex, T)>,
    mut worth: impl FnMut(Hex, T, u8) -> f64,
) -> f64 {
    let mut best = 0.0_f64;
    let mut adjacent = false;
    for (to, target) in targets {
        let d = from.distance(to);
        let Some(dice) = at_range(table, d) else {
            continue;
        };
        if d == 1 && !adjacent {
            adjacent = true;
            best = 0.0;
        } else if d > 1 && adjacent {
            continue;
        }
        best = best.max(worth(to, target, dice));
    }
    best
}
