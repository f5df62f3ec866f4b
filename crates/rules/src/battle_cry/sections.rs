//! The sections of the battlefield: left, centre and right.
//!
//! On a pointy-top map the hex rows run across the board and every other row is shoved
//! half a hex. A dividing line runs straight up the board through the centres of one
//! column's hexes in the rows that are not shoved, and between two hexes in the rows that
//! are: the hexes it crosses belong to both sections it divides (BC-SEC-1).

use super::BattleCry;
use grognard_hex::{Hex, MapShape, Shove};

/// Bit of the west section (the left of a side at the south edge).
pub const WEST: u8 = 1;
/// Bit of the centre section.
pub const CENTRE: u8 = 2;
/// Bit of the east section.
pub const EAST: u8 = 4;

/// Twice a pointy-top hex centre's distance from column 0101's, in hex widths:
/// an integer for every hex, and equal for hexes one above the other.
fn half_columns(hex: Hex) -> i32 {
    2 * hex.q + hex.r
}

/// BC-SEC-1: the sections of each hex, by map index, for dividing lines through the
/// centres of printed columns `dividers` in the rows that are not shoved.
#[must_use]
pub fn geometry(map: &MapShape, dividers: [u32; 2]) -> Vec<u8> {
    let unshoved = match map.shove() {
        Shove::Even => 0,
        Shove::Odd => 1,
    };
    let line = |col: u32| {
        let c = i32::try_from(col).expect("columns fit i32") - 1;
        half_columns(map.from_offset(c, unshoved))
    };
    let (l1, l2) = (line(dividers[0]), line(dividers[1]));
    map.hexes()
        .map(|h| {
            let x = half_columns(h);
            let mut bits = 0;
            if x <= l1 {
                bits |= WEST;
            }
            if (l1..=l2).contains(&x) {
                bits |= CENTRE;
            }
            if x >= l2 {
                bits |= EAST;
            }
            bits
        })
        .collect()
}

/// BC-SEC-2 (provisional): left and right are named from each side's own seat. A side
/// whose home edge is south faces north and has its left to the west; a side at the north
/// edge has its left to the east. Bit 0 is the side's left, 1 the centre, 2 its right.
#[inline]
pub(crate) fn for_side(rules: &BattleCry, side: u8, hex: Hex) -> u8 {
    let Some(i) = rules.index(hex) else {
        return 0;
    };
    rules.sections[usize::from(side)][i]
}

/// [`for_side`] for every hex, worked out when the rules are bound: the sections of each
/// hex of `geometry` (bit 0 west, 1 centre, 2 east) as a side whose home edge is north
/// (`north`) or south names them.
pub(crate) fn as_named(geometry: &[u8], north: bool) -> Vec<u8> {
    geometry
        .iter()
        .map(|&geo| {
            if north {
                ((geo & WEST) << 2) | (geo & CENTRE) | ((geo & EAST) >> 2)
            } else {
                geo
            }
        })
        .collect()
}

/// BC-SEC-3: whether pieces standing in sections `masks` (each a set of the side's left,
/// centre, right) can all be ordered by a card giving `caps` orders in those sections.
///
/// Each piece takes an order from one section it stands in; by Hall's theorem with
/// capacities that is possible exactly when, for every set of sections, the pieces that
/// stand only in that set are no more than the orders it gives.
#[must_use]
pub fn fits(masks: &[u8], caps: [u8; 3]) -> bool {
    let mut counts = [0; 8];
    // A mask with a bit beyond the three sections is in no set of them, and so is never
    // counted against one.
    for m in masks.iter().filter(|&&m| m < 8) {
        counts[usize::from(*m)] += 1;
    }
    fits_counts(&counts, caps)
}

/// [`fits`] with the pieces counted by mask: `counts[m]` pieces stand in the sections of
/// mask `m`.
pub(crate) fn fits_counts(counts: &[usize; 8], caps: [u8; 3]) -> bool {
    if counts[0] > 0 {
        return false;
    }
    (1..8).all(|set: usize| {
        let need: usize = (1..8).filter(|m| m & !set == 0).map(|m| counts[m]).sum();
        let have: usize = (0..3)
            .filter(|b| set & (1 << b) != 0)
            .map(|b| usize::from(caps[b]))
            .sum();
        need <= have
    })
}

/// For pieces counted by mask as in [`fits_counts`]: the masks `m` (as bit `m`) such that
/// one more piece standing in the sections of `m` still fits, worked out for the seven
/// masks at once.
///
/// Hall's condition for the pieces with one more in `m` is the condition for the pieces
/// counted, with one more piece needed by every set of sections containing `m`. So when
/// the pieces counted fit, one more fits in `m` unless `m` lies within a set whose orders
/// the counted pieces use up; when they do not fit, none does.
pub(crate) fn fitting_masks(counts: &[usize; 8], caps: [u8; 3]) -> u8 {
    if counts[0] > 0 {
        return 0;
    }
    // The pieces standing only in each set of sections: the sum of the counts of its
    // subsets, added up one section at a time.
    let mut need = *counts;
    for b in [1, 2, 4] {
        for set in 0..8 {
            if set & b != 0 {
                need[set] += need[set ^ b];
            }
        }
    }
    // The orders each set of sections gives.
    let [left, centre, right] = caps.map(usize::from);
    let have = [
        0,
        left,
        centre,
        left + centre,
        right,
        left + right,
        centre + right,
        left + centre + right,
    ];
    let mut blocked = 1u8; // Mask 0 is in no section: a piece there never fits.
    for set in 1..8 {
        if need[set] > have[set] {
            return 0;
        }
        if need[set] == have[set] {
            blocked |= WITHIN[set];
        }
    }
    !blocked
}

/// Per set of sections: bit `m` for each mask `m` whose sections it holds.
const WITHIN: [u8; 8] = {
    let mut within = [0u8; 8];
    let mut set = 0;
    while set < 8 {
        let mut m = 0;
        while m < 8 {
            if m & !set == 0 {
                within[set] |= 1 << m;
            }
            m += 1;
        }
        set += 1;
    }
    within
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hall_condition_with_shared_hexes() {
        // Two pieces on the left-centre line and one only in the centre: a card with one
        // left and one centre order cannot order all three, but can order two.
        assert!(fits(&[0b011, 0b010], [1, 1, 0]));
        assert!(fits(&[0b011, 0b011], [1, 1, 0]));
        assert!(!fits(&[0b011, 0b011, 0b010], [1, 1, 0]));
        assert!(!fits(&[0b100], [1, 1, 0]));
        assert!(fits(&[0b001, 0b011], [1, 1, 0]));
        assert!(!fits(&[0b001, 0b001], [1, 1, 0]));
    }

    #[test]
    fn the_fitting_masks_are_those_fits_counts_allows_one_more_piece_in() {
        // Every count of up to two pieces a mask, every card of up to two orders a section.
        for n in 0..3usize.pow(8) {
            let mut counts = [0; 8];
            let mut k = n;
            for c in &mut counts {
                *c = k % 3;
                k /= 3;
            }
            for caps in 0..27u8 {
                let caps = [caps % 3, caps / 3 % 3, caps / 9];
                let masks = fitting_masks(&counts, caps);
                for m in 0..8 {
                    let mut trial = counts;
                    trial[m] += 1;
                    assert_eq!(
                        masks >> m & 1 == 1,
                        fits_counts(&trial, caps),
                        "{counts:?} {caps:?} {m}"
                    );
                }
            }
        }
    }
}
