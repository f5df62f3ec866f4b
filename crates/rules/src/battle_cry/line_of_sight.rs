//! Line of sight: a unit must see the enemy it battles.

use super::units::Board;
use super::BattleCry;
use grognard_engine::Reason;
use grognard_hex::los::{steps, visible, LineStep};
use grognard_hex::Hex;

/// Whether a hex between the battling unit and its target obstructs the line: a unit or
/// general, friend or foe (BC-LOS-1), or blocking terrain (BC-LOS-2, BC-TER-5).
fn obstructs(rules: &BattleCry, board: &Board, h: Hex) -> bool {
    board.occupied(rules, h) || rules.blocks_sight(h)
}

/// BC-LOS-1, BC-LOS-2, BC-LOS-3: whether `from` sees `to`. The line runs from centre to
/// centre; a hex it passes through between the two, even in part, blocks it when it holds
/// an obstruction; the target's own hex never does; where the line runs along a hexside,
/// it is blocked only when the hexes on both sides obstruct.
pub(crate) fn sees(rules: &BattleCry, board: &Board, from: Hex, to: Hex) -> bool {
    visible(from, to, |h| obstructs(rules, board, h))
}

/// Why `from` does not see `to`: the first obstruction, as a refusal reason.
pub(crate) fn blocked_by(rules: &BattleCry, board: &Board, from: Hex, to: Hex) -> Reason {
    for s in steps(from, to) {
        match s {
            LineStep::Hex(h) if h != from && h != to && obstructs(rules, board, h) => {
                return if board.occupied(rules, h) {
                    Reason::new(
                        "BC-LOS-1",
                        format!(
                            "the line of sight passes through {}, where a unit or general stands",
                            rules.label(h)
                        ),
                    )
                } else {
                    Reason::new(
                        "BC-LOS-2",
                        format!(
                            "the line of sight passes through {} in {}",
                            rules.terrain_name(h),
                            rules.label(h)
                        ),
                    )
                };
            }
            LineStep::Edge(a, b) if obstructs(rules, board, a) && obstructs(rules, board, b) => {
                return Reason::new(
                    "BC-LOS-3",
                    format!(
                        "the line of sight runs between {} and {}, both obstructed",
                        rules.label(a),
                        rules.label(b)
                    ),
                );
            }
            _ => {}
        }
    }
    Reason::new("BC-LOS-1", "the line of sight is blocked")
}
