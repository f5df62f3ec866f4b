//! Lookups by index that every binding of a scenario makes: a side's index from its id,
//! and the ids of the pieces in scenario order.

use grognard_engine::UnitId;

/// The index of the side `id` among `sides` (in play order).
#[must_use]
pub fn side_index(sides: &[String], id: &str) -> Option<u8> {
    sides
        .iter()
        .position(|s| s == id)
        .and_then(|i| u8::try_from(i).ok())
}

/// The ids of `n` pieces, in scenario order.
///
/// # Panics
/// If `n` is over `u16::MAX` (scenarios are checked to fit).
pub fn ids(n: usize) -> impl Iterator<Item = UnitId> {
    (0..n).map(|i| UnitId(u16::try_from(i).expect("unit count fits u16")))
}
