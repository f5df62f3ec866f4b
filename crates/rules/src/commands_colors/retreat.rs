//! Retreats toward a side's own edge: the directions a retreat move takes, and the
//! check of the retreating side's choice (a reason code, worded by the ruleset).

use grognard_engine::retreat::toward_edge;
use grognard_engine::scenario::Edge;
use grognard_engine::{Refusal, UnitId};
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

/// How a ruleset words a refused retreat choice: its rules and its names for pieces,
/// hexes and distances.
pub trait Words {
    /// The rule that the side owing a retreat chooses it (BC-RET-3, JO-RET-2).
    const OWED: &'static str;
    /// The rule of where a retreat goes (BC-RET-1, JO-RET-2).
    const TOWARD: &'static str;
    /// A piece's name for messages.
    fn piece(&self, u: UnitId) -> String;
    /// A hex's label.
    fn hex(&self, h: Hex) -> String;
    /// "n hexes", in the ruleset's words.
    fn hexes(n: u8) -> String;
}

impl NoRetreat {
    /// The refusal of piece `u`'s choice of `to`, with its message; `ends` gives the hexes
    /// a retreat of so many hexes by `u` can end in.
    pub fn refusal<W: Words>(
        self,
        w: &W,
        u: UnitId,
        to: Hex,
        ends: impl FnOnce(u8) -> Vec<Hex>,
    ) -> Refusal {
        match self {
            NoRetreat::NotOwed => Refusal::new(W::OWED, "no retreat is owed now"),
            NoRetreat::OtherUnit(unit) => Refusal::new(
                W::OWED,
                format!("{} owes the retreat, not {}", w.piece(unit), w.piece(u)),
            ),
            NoRetreat::NoEnd { hexes } => {
                let list: Vec<String> = ends(hexes).into_iter().map(|h| w.hex(h)).collect();
                Refusal::new(
                    W::TOWARD,
                    format!(
                        "{} cannot end a retreat of {} toward its own edge in {}; it can end in {}",
                        w.piece(u),
                        W::hexes(hexes),
                        w.hex(to),
                        list.join(", ")
                    ),
                )
            }
        }
    }
}

/// BC-RET-3, JO-RET-2: the end `to` of the retreat `owed` (the piece and its hexes), as
/// chosen for piece `u`, among the `ends` of that retreat (`hex` gives an end's hex), with
/// the hexes owed.
///
/// # Errors
/// The refusal, worded by the ruleset `w`, of a choice that is not an end of the retreat
/// owed by `u`.
pub fn check_choice<T, W: Words>(
    w: &W,
    owed: Option<(UnitId, u8)>,
    u: UnitId,
    to: Hex,
    ends: impl Fn(UnitId, u8) -> Vec<T>,
    hex: impl Fn(&T) -> Hex,
) -> Result<(T, u8), Refusal> {
    let why = match owed {
        None => NoRetreat::NotOwed,
        Some((unit, _)) if unit != u => NoRetreat::OtherUnit(unit),
        Some((unit, hexes)) => match ends(unit, hexes).into_iter().find(|e| hex(e) == to) {
            Some(end) => return Ok((end, hexes)),
            None => NoRetreat::NoEnd { hexes },
        },
    };
    Err(why.refusal(w, u, to, |n| ends(u, n).iter().map(&hex).collect()))
}
