//! Exact line of sight geometry (to be written).
use crate::Hex;

/// One step of a centre-to-centre line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineStep {
    /// The line passes through the interior of this hex.
    Hex(Hex),
    /// The line runs exactly along the hexside between these two hexes.
    Edge(Hex, Hex),
}

/// The hexes the centre-to-centre line from `a` to `b` crosses (stub).
#[must_use]
pub fn line(a: Hex, b: Hex) -> Vec<LineStep> {
    let _ = b;
    vec![LineStep::Hex(a)]
}
