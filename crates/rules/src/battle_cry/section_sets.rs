//! Which pieces stand in which sections, as bit sets of the pieces, kept with the board
//! ([`super::board`]) and moved with its pieces, for the list that would otherwise look
//! up the sections of every piece's hex each time it is asked: the orders a section card
//! can still give (BC-SEC-3). Nothing here decides a rule.

use super::units::Kind;
use super::BattleCry;

/// Pieces a binding may have for its sets to be kept: the bits of a `u64`. A binding with
/// more asks each piece, as before.
pub(crate) const MOST_PIECES: usize = 64;

/// The pieces of one placing, as bit sets (bit `i` for piece `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SectionSets {
    /// Per side, per set of sections `m` as that side names them (bit 0 its left, 1 the
    /// centre, 2 its right: [`super::sections::for_side`]): the pieces of either side standing in
    /// a hex of exactly the sections of `m`. Every piece with a hex is in one set of each
    /// side's (a hex off the map in set 0); a piece off the battlefield in none.
    pub by_mask: [[u64; 8]; 2],
    /// Per side: its pieces.
    pub side: [u64; 2],
    /// Per type, in [`Kind::ALL`] order: the pieces of that type.
    pub kind: [u64; 4],
}

impl SectionSets {
    /// Starts the sets of a binding's pieces, none of them placed: the sides' and the
    /// types' sets filled, those by section empty.
    pub(crate) fn bind(&mut self, rules: &BattleCry) {
        *self = SectionSets::default();
        for (i, piece) in rules.pieces.iter().enumerate().take(MOST_PIECES) {
            self.side[usize::from(piece.side & 1)] |= 1 << i;
            self.kind[piece.kind as usize] |= 1 << i;
        }
    }

    /// Puts piece `i`, standing in a hex of map index `at` (`None` for a hex off the
    /// map), in the sets of that hex's sections ([`super::sections::for_side`]).
    #[inline]
    pub(crate) fn place(&mut self, rules: &BattleCry, i: usize, at: Option<usize>) {
        if i < MOST_PIECES {
            for (side, m) in masks(rules, at).into_iter().enumerate() {
                self.by_mask[side][m] |= 1 << i;
            }
        }
    }

    /// Takes piece `i`, placed in the hex of map index `at` ([`SectionSets::place`]), out
    /// of its sets.
    #[inline]
    pub(crate) fn lift(&mut self, rules: &BattleCry, i: usize, at: Option<usize>) {
        if i < MOST_PIECES {
            for (side, m) in masks(rules, at).into_iter().enumerate() {
                self.by_mask[side][m] &= !(1 << i);
            }
        }
    }

    /// The pieces with a hex (on the battlefield).
    #[inline]
    pub(crate) fn placed(&self) -> u64 {
        self.by_mask[0].iter().fold(0, |a, &b| a | b)
    }

    /// The pieces of the types of `kinds` ([`super::cards::kind_bit`]).
    #[inline]
    pub(crate) fn of_kinds(&self, kinds: u8) -> u64 {
        Kind::ALL
            .into_iter()
            .filter(|&k| kinds & super::cards::kind_bit(k) != 0)
            .fold(0, |a, k| a | self.kind[k as usize])
    }
}

/// The sections of the hex of map index `at` as each side names them
/// ([`super::sections::for_side`]); none for a hex off the map.
#[inline]
fn masks(rules: &BattleCry, at: Option<usize>) -> [usize; 2] {
    [0, 1].map(|side| at.map_or(0, |at| usize::from(rules.sections[side][at] & 7)))
}
