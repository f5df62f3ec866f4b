//! Line of sight: a unit must see the enemy it battles.

use super::units::Board;
use super::BattleCry;
use grognard_engine::Reason;
use grognard_hex::los::{steps, visible, LineStep};
use grognard_hex::{Direction, Hex};

/// Whether a hex between the battling unit and its target obstructs the line: a unit or
/// general, friend or foe (BC-LOS-1), or blocking terrain (BC-LOS-2, BC-TER-5).
fn obstructs(rules: &BattleCry, board: &Board, h: Hex) -> bool {
    rules
        .index(h)
        .is_some_and(|i| board.occupied_at(i) || rules.blocks_sight_at(i))
}

/// BC-LOS-1, BC-LOS-2, BC-LOS-3: whether `from` sees `to`. The line runs from centre to
/// centre; a hex it passes through between the two, even in part, blocks it when it holds
/// an obstruction; the target's own hex never does; where the line runs along a hexside,
/// it is blocked only when the hexes on both sides obstruct.
pub(crate) fn sees(rules: &BattleCry, board: &Board, from: Hex, to: Hex) -> bool {
    let blocks = |h| obstructs(rules, board, h);
    let Some(line) = rules.lines.line(from, to) else {
        return visible(from, to, blocks);
    };
    // The test of `visible`, along the line from the table.
    !line.into_iter().any(|step| match step {
        LineStep::Hex(h) => h != from && h != to && blocks(h),
        LineStep::Edge(h1, h2) => blocks(h1) && blocks(h2),
    })
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

/// Lines longer than this are traced each time rather than kept in the table.
const MOST: u32 = 12;

/// The centre-to-centre lines from a hex to every hex within `radius` of it (the longest
/// range of the unit types), traced once when the rules are bound: a line moved along the
/// grid is the same line moved, so one table of offsets serves every hex of the map. The
/// battles of every legal list look their lines up here.
#[derive(Debug, Default)]
pub(crate) struct Lines {
    radius: i32,
    /// Per offset `(dq, dr)`, at `(dr + radius) * (2 * radius + 1) + dq + radius`: the
    /// range of its steps in `steps`, and the directions, from the far end, of the hexes
    /// the line comes from as it enters it (for a fence, BC-TER-3).
    offsets: Vec<(u32, u32, [Option<Direction>; 2])>,
    /// The steps of every line from the origin.
    steps: Vec<LineStep>,
}

impl Lines {
    /// The lines of every offset within `radius` (at most [`MOST`]).
    pub(crate) fn new(radius: u32) -> Lines {
        let r = i32::try_from(radius.min(MOST)).unwrap_or(0);
        let side = 2 * r + 1;
        let mut lines = Lines {
            radius: r,
            offsets: Vec::new(),
            steps: Vec::new(),
        };
        for dr in -r..=r {
            for dq in -r..=r {
                let to = Hex::new(dq, dr);
                let first = lines.len();
                let mut before = [None, None];
                for s in steps(Hex::ORIGIN, to) {
                    lines.steps.push(s);
                    match s {
                        LineStep::Hex(h) if h == to => {}
                        LineStep::Hex(h) => before = [to.direction_to(h), None],
                        LineStep::Edge(a, b) => before = [to.direction_to(a), to.direction_to(b)],
                    }
                }
                lines.offsets.push((first, lines.len(), before));
            }
        }
        debug_assert_eq!(
            lines.offsets.len(),
            usize::try_from(side * side).unwrap_or(0)
        );
        lines
    }

    fn len(&self) -> u32 {
        u32::try_from(self.steps.len()).unwrap_or(u32::MAX)
    }

    /// The table's entry for the line from `from` to `to`, when it is within the radius.
    fn entry(&self, from: Hex, to: Hex) -> Option<&(u32, u32, [Option<Direction>; 2])> {
        let (dq, dr) = (to.q.checked_sub(from.q)?, to.r.checked_sub(from.r)?);
        if dq.abs() > self.radius || dr.abs() > self.radius {
            return None;
        }
        let side = 2 * self.radius + 1;
        let at = usize::try_from((dr + self.radius) * side + dq + self.radius).ok()?;
        self.offsets.get(at)
    }

    /// The steps of the line from `from` to `to`, as [`steps`] gives them.
    pub(crate) fn line(&self, from: Hex, to: Hex) -> Option<impl Iterator<Item = LineStep> + '_> {
        let &(first, end, _) = self.entry(from, to)?;
        let steps = self.steps.get(first as usize..end as usize)?;
        Some(steps.iter().map(move |s| match *s {
            LineStep::Hex(h) => LineStep::Hex(h + from),
            LineStep::Edge(a, b) => LineStep::Edge(a + from, b + from),
        }))
    }

    /// The directions, from `to`, of the hexes the line from `from` comes from as it
    /// enters `to`: the hex before it, or the two along whose hexside it runs up to a
    /// corner of it.
    pub(crate) fn entry_sides(&self, from: Hex, to: Hex) -> Option<[Option<Direction>; 2]> {
        self.entry(from, to).map(|e| e.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_gives_the_lines_traced() {
        let lines = Lines::new(5);
        let from = Hex::new(3, -7);
        for dq in -6..=6 {
            for dr in -6..=6 {
                let to = Hex::new(from.q + dq, from.r + dr);
                let traced: Vec<LineStep> = steps(from, to).collect();
                match lines.line(from, to) {
                    Some(line) => assert_eq!(line.collect::<Vec<_>>(), traced, "{dq},{dr}"),
                    None => assert!(dq.abs() > 5 || dr.abs() > 5),
                }
            }
        }
    }
}
