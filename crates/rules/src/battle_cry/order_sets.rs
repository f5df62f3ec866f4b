//! The pieces' orders as bit sets, kept with the state ([`OrderSets`]) for the lists that
//! would otherwise walk every piece's order: the orders a card can still give, the
//! pieces that may move and those that may battle. Every change of a piece's order goes
//! through [`State::set_order`] (or [`clear`] at the end of a turn), as every change of
//! its hex goes through [`super::stamp::place`]. Nothing here decides a rule.

use super::section_sets::MOST_PIECES;
use super::{BattleCry, Order, State};
use grognard_engine::UnitId;

/// The pieces ordered by the card (bit `i` for piece `i`: [`Order::Card`]) and those
/// ordered through their general ([`Order::General`]), for a binding of at most
/// [`MOST_PIECES`] pieces. `known` is false for a state whose sets were never worked out
/// (read from a file) or that has more pieces than a set holds: its readers ask every
/// piece, as before.
///
/// Never part of the game: two states compare equal whatever their sets, and nothing of
/// it is written or shown. Code that changes an order by hand, not through
/// [`State::set_order`], leaves the sets stale: debug builds check every reading against
/// the pieces, so a stale set fails there.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OrderSets {
    card: u64,
    general: u64,
    known: bool,
}

impl PartialEq for OrderSets {
    fn eq(&self, _: &OrderSets) -> bool {
        true
    }
}

impl Eq for OrderSets {}

impl OrderSets {
    /// The sets of `pieces` pieces, none of them ordered: known when a set holds them.
    pub(crate) fn none_ordered(pieces: usize) -> OrderSets {
        OrderSets {
            card: 0,
            general: 0,
            known: pieces <= MOST_PIECES,
        }
    }

    /// The pieces ordered by the card, and those ordered in any way; `None` when the
    /// sets are not known (the pieces are asked instead).
    #[inline]
    pub(crate) fn get(state: &State) -> Option<(u64, u64)> {
        let sets = &state.orders;
        if !sets.known {
            return None;
        }
        #[cfg(debug_assertions)]
        {
            // Debug builds (the tests) check the sets against every piece's order.
            debug_assert_eq!(
                (sets.card, sets.general),
                OrderSets::of_pieces(state),
                "the kept orders (an order changed without `State::set_order`?)"
            );
        }
        Some((sets.card, sets.card | sets.general))
    }
}

impl OrderSets {
    /// The pieces ordered by the card and those ordered through their general, read
    /// from every piece's order, for a state of at most [`MOST_PIECES`] pieces.
    pub(crate) fn of_pieces(state: &State) -> (u64, u64) {
        let (mut card, mut general) = (0u64, 0u64);
        for (i, p) in state.pieces.iter().enumerate().take(MOST_PIECES) {
            match p.order {
                Order::None => {}
                Order::Card => card |= 1 << i,
                Order::General(_) => general |= 1 << i,
            }
        }
        (card, general)
    }
}

impl State {
    /// Gives piece `u` order `order` (`Order::None` takes its order away): every change
    /// of a piece's order goes through here, so that the sets the lists read follow it.
    pub fn set_order(&mut self, u: UnitId, order: Order) {
        self.pieces[u.index()].order = order;
        let sets = &mut self.orders;
        if u.index() >= MOST_PIECES {
            sets.known = false;
            return;
        }
        let bit = 1u64 << u.index();
        sets.card &= !bit;
        sets.general &= !bit;
        match order {
            Order::None => {}
            Order::Card => sets.card |= bit,
            Order::General(_) => sets.general |= bit,
        }
    }
}

/// Takes every piece's order away: the end of a turn (BC-TURN-2: orders are announced
/// for the turn). The sets are known again, whatever they were.
pub(crate) fn clear(state: &mut State) {
    if let Some((_, ordered)) = OrderSets::get(state) {
        // A few pieces: those the sets name.
        let mut left = ordered;
        while left != 0 {
            state.pieces[left.trailing_zeros() as usize].order = Order::None;
            left &= left - 1;
        }
    } else {
        for p in &mut state.pieces {
            p.order = Order::None;
        }
    }
    state.orders = OrderSets::none_ordered(state.pieces.len());
}

/// The pieces of one side that have an order (by the card or through their general), in
/// scenario order: read from the kept sets when known, else from every piece of the
/// side. The lists of moves and battles ask their other gates of these alone (BC-ORD-1:
/// only ordered pieces move or battle).
pub(crate) struct Ordered<'a> {
    rules: &'a BattleCry,
    state: &'a State,
    side: u8,
    /// The ordered pieces not yet given, when the sets are known.
    left: u64,
    /// The side's pieces not yet asked, when they are not.
    walk: Option<std::slice::Iter<'a, UnitId>>,
}

/// [`Ordered`]: the pieces of `side` with an order.
#[inline]
pub(crate) fn ordered_of<'a>(rules: &'a BattleCry, state: &'a State, side: u8) -> Ordered<'a> {
    let (left, walk) = match OrderSets::get(state) {
        Some((_, ordered)) => (ordered, None),
        // The side's pieces, walked when the sets are not known.
        None => (0, Some(side_pieces(rules, side).iter())),
    };
    Ordered {
        rules,
        state,
        side,
        left,
        walk,
    }
}

/// The pieces of side `side`, in scenario order.
fn side_pieces(rules: &BattleCry, side: u8) -> &[UnitId] {
    rules
        .side_pieces
        .get(usize::from(side))
        .map_or(&[][..], Vec::as_slice)
}

impl Iterator for Ordered<'_> {
    type Item = UnitId;

    #[inline]
    fn next(&mut self) -> Option<UnitId> {
        if let Some(walk) = &mut self.walk {
            return walk
                .find(|u| self.state.pieces[u.index()].order != Order::None)
                .copied();
        }
        while self.left != 0 {
            let u = UnitId(self.left.trailing_zeros() as u16);
            self.left &= self.left - 1;
            if self.rules.side_of(u) == self.side {
                return Some(u);
            }
        }
        None
    }
}
