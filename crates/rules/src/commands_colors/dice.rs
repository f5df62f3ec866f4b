//! Symbol dice: the dice a unit rolls by range, the enemy in contact that forbids firing
//! further, and counting the symbols rolled.

use crate::common::lookup::ids;
use grognard_engine::UnitId;
use grognard_hex::Hex;

/// BC-RNG-1 to BC-RNG-3, JO-COM-2: the dice of a type's table at `distance` hexes (the
/// first entry is for an adjacent target); `None` beyond its range.
#[must_use]
pub fn at_range(table: &[u8], distance: u32) -> Option<u8> {
    usize::try_from(distance)
        .ok()
        .and_then(|d| d.checked_sub(1))
        .and_then(|d| table.get(d))
        .copied()
}

/// BC-BAT-2, JO-COM-4: the enemy unit next to `from`, which a unit must fight rather than
/// a more distant one; `enemy_at` gives the enemy unit in a hex.
pub fn adjacent_enemy(from: Hex, enemy_at: impl Fn(Hex) -> Option<UnitId>) -> Option<UnitId> {
    from.neighbors().into_iter().find_map(enemy_at)
}

/// BC-BAT-1, JO-COM-1: every battle a side may fight: each unit that `may_fight`
/// (whatever its target) against each target it `fights` (a target for it, within reach
/// of its dice), among the `pieces` of the scenario, in scenario order.
pub fn battles(
    pieces: usize,
    may_fight: impl Fn(UnitId) -> bool,
    fights: impl Fn(UnitId, UnitId) -> bool,
    mut found: impl FnMut(UnitId, UnitId),
) {
    // Plain loops: this runs for every legal list of a battle step.
    for u in ids(pieces) {
        if !may_fight(u) {
            continue;
        }
        for t in ids(pieces) {
            if fights(u, t) {
                found(u, t);
            }
        }
    }
}

/// BC-DIE-1, JO-DIE-1: how many of the faces rolled show a symbol that `counts`.
///
/// # Panics
/// If more than 255 dice were rolled (a battle rolls a handful).
pub fn tally<F: Copy>(faces: &[F], counts: impl Fn(F) -> bool) -> u8 {
    u8::try_from(faces.iter().filter(|&&f| counts(f)).count()).expect("few dice")
}
