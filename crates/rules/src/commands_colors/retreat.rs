//! Retreats toward a side's own edge: the directions a retreat move takes, and the
//! check of the retreating side's choice (a reason code, worded by the ruleset).

use grognard_engine::retreat::toward_edge;
use grognard_engine::scenario::Edge;
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex, Orientation};

/// BC-RET-1, JO-RET-2: the directions a retreat move may take: one row nearer the side's
/// own edge.
#[must_use]
pub fn toward_home(orientation: Orientation, edge: Edge) -> &'static [Direction] {
    toward_edge(orientation, edge)
}

/// Why a retreat choice is refused, before any message is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoRetreat {
    /// No retreat is owed now.
    NotOwed,
    /// Another piece owes the retreat.
    OtherUnit(UnitId),
    /// The chosen hex is not an end of the retreat owed: `hexes` owed.
    NoEnd {
        /// Retreat hexes owed.
        hexes: u8,
    },
}

/// BC-RET-3, JO-RET-2: the end `to` of the retreat `owed` (the piece and its hexes), as
/// chosen for piece `u`, among the `ends` of that retreat; `hex` gives an end's hex.
///
/// # Errors
/// The reason code of a refused choice.
pub fn chosen<T>(
    owed: Option<(UnitId, u8)>,
    u: UnitId,
    to: Hex,
    ends: impl FnOnce(UnitId, u8) -> Vec<T>,
    hex: impl Fn(&T) -> Hex,
) -> Result<(T, u8), NoRetreat> {
    let Some((unit, hexes)) = owed else {
        return Err(NoRetreat::NotOwed);
    };
    if unit != u {
        return Err(NoRetreat::OtherUnit(unit));
    }
    ends(unit, hexes)
        .into_iter()
        .find(|e| hex(e) == to)
        .map(|e| (e, hexes))
        .ok_or(NoRetreat::NoEnd { hexes })
}
