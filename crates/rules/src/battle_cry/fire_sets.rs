//! The lines of fire of a small map as bit sets of its hexes, worked out once for a
//! binding: which hexes lie within each range of a hex, and, for each pair of hexes within
//! the longest range, the hexes and hexsides a line of sight between them passes (BC-LOS-1
//! to BC-LOS-3), its length and the fence it crosses into the target's hex (BC-TER-3).
//! With the board's sets of the hexes each side holds ([`super::board`]), a battle's dice
//! and the targets in range are read in a few instructions instead of walking the line hex
//! by hex. Nothing here decides a rule: [`super::dice`] and [`super::line_of_sight`] do,
//! and debug builds compare every answer read here with theirs.

use super::board::read_bit;
use super::BattleCry;
use grognard_hex::los::LineStep;

/// Hexes a map may have for its sets to be kept: the bits of a `u128`. A larger map asks
/// each hex and each line, as before.
pub(crate) const MOST_HEXES: usize = 128;

/// What a line of fire from one hex to another within the longest range reads.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fire {
    /// The hexes the line passes through between the two, which block it when they hold
    /// an obstruction (BC-LOS-1, BC-LOS-2).
    pub line: u128,
    /// Its hexsides ([`FireSets::edges`]): `edges.0..edges.1`.
    edges: (u32, u32),
    /// Hexes from one to the other.
    pub distance: u8,
    /// The fence's protection the line crosses into the target's hex (BC-TER-3).
    pub fence: u8,
}

/// The lines of fire of a map of at most [`MOST_HEXES`] hexes.
#[derive(Debug, Default)]
pub(crate) struct FireSets {
    /// The map's hexes.
    n: usize,
    /// The longest range of the unit types: the pairs kept are those this far apart.
    range: usize,
    /// Per map index `at` and range `d` up to the longest, at `at * (range + 1) + d`: the
    /// hexes from 1 to `d` hexes from it.
    within: Vec<u128>,
    /// Per pair of map indices `(from, to)`, at `from * n + to`: the index of its line in
    /// `fires` plus one, 0 for a pair farther apart than the longest range (or the same
    /// hex).
    pairs: Vec<u32>,
    fires: Vec<Fire>,
    /// The hexsides lines run along, each as the two hexes beside it: the line is blocked
    /// there only when both obstruct (BC-LOS-3).
    edges: Vec<(u128, u128)>,
    /// The hexes whose terrain blocks line of sight (BC-LOS-2, BC-TER-5).
    pub blocks_sight: u128,
}

impl FireSets {
    /// The sets of `rules`' map; `None` for a map of more than [`MOST_HEXES`] hexes, or a
    /// line the table of lines does not hold.
    pub(crate) fn of(rules: &BattleCry) -> Option<FireSets> {
        let n = rules.map.len();
        if n > MOST_HEXES {
            return None;
        }
        let range = rules.unit_rows.iter().map(|r| r.dice.len()).max()?;
        let mut sets = FireSets {
            n,
            range,
            within: vec![0; n * (range + 1)],
            pairs: vec![0; n * n],
            ..FireSets::default()
        };
        let index = |h| rules.index(h).and_then(|i| u32::try_from(i).ok());
        for at in 0..n {
            if rules.hexes[at].blocks_sight {
                sets.blocks_sight |= read_bit(u32::try_from(at).ok()?);
            }
        }
        for (from_at, &from) in rules.hex_of.iter().enumerate() {
            for (to_at, &to) in rules.hex_of.iter().enumerate() {
                let distance = from.distance(to) as usize;
                if distance == 0 || distance > range {
                    continue;
                }
                let bit = read_bit(u32::try_from(to_at).ok()?);
                for d in distance..=range {
                    sets.within[from_at * (range + 1) + d] |= bit;
                }
                // As `line_of_sight::sees` reads the line, and
                // `BattleCry::protection_parts` the fence.
                let mut fire = Fire {
                    distance: u8::try_from(distance).ok()?,
                    ..Fire::default()
                };
                let start = u32::try_from(sets.edges.len()).ok()?;
                // A line to a neighbour is never read (no hex lies between, BC-BAT-2).
                if distance > 1 {
                    for step in rules.lines.line(from, to)? {
                        match step {
                            LineStep::Hex(h) if h != from && h != to => {
                                fire.line |= index(h).map_or(0, read_bit);
                            }
                            LineStep::Hex(_) => {}
                            LineStep::Edge(a, b) => sets
                                .edges
                                .push((index(a).map_or(0, read_bit), index(b).map_or(0, read_bit))),
                        }
                    }
                }
                fire.edges = (start, u32::try_from(sets.edges.len()).ok()?);
                fire.fence = rules
                    .lines
                    .entry_sides(from, to)?
                    .into_iter()
                    .flatten()
                    .map(|d| rules.side_protection[to_at * 6 + d.index()])
                    .max()
                    .unwrap_or(0);
                sets.fires.push(fire);
                sets.pairs[from_at * n + to_at] = u32::try_from(sets.fires.len()).ok()?;
            }
        }
        Some(sets)
    }

    /// The hexes 1 to `d` hexes from the hex of map index `at` (the longest range when
    /// `d` is longer).
    #[inline]
    pub(crate) fn within(&self, at: usize, d: usize) -> u128 {
        self.within
            .get(at * (self.range + 1) + d.min(self.range))
            .copied()
            .unwrap_or(0)
    }

    /// The line of fire between the hexes of map indices `from` and `to`, when they are
    /// 1 to the longest range apart.
    #[inline]
    pub(crate) fn fire(&self, from: usize, to: usize) -> Option<&Fire> {
        let i = *self.pairs.get(from * self.n + to)?;
        self.fires.get((i as usize).checked_sub(1)?)
    }

    /// Whether `fire`'s line is clear of the obstructions `obstructs` (the hexes holding a
    /// piece or blocking terrain): no hex it passes through obstructs, and no hexside it
    /// runs along has both its hexes obstructing (BC-LOS-1 to BC-LOS-3).
    #[inline]
    pub(crate) fn clear(&self, fire: &Fire, obstructs: u128) -> bool {
        fire.line & obstructs == 0
            && self
                .edges
                .get(fire.edges.0 as usize..fire.edges.1 as usize)
                .is_none_or(|e| {
                    e.iter()
                        .all(|&(a, b)| a & obstructs == 0 || b & obstructs == 0)
                })
    }
}

impl BattleCry {
    /// The lines of fire of the map as bit sets, worked out the first time a battle asks
    /// for them; `None` for a map of more than [`MOST_HEXES`] hexes.
    #[inline]
    pub(crate) fn fire_sets(&self) -> Option<&FireSets> {
        self.fire_sets.get_or_init(|| FireSets::of(self)).as_ref()
    }
}
