//! Which state a [`State`] is, as the kept boards ([`super::board`]) follow it: the
//! [`Stamp`] every action gives the state, and [`place`], through which every change of
//! a piece's hex goes. Nothing here decides a rule.

use super::State;
use crate::common::stamp::next_id;
use grognard_engine::UnitId;
use grognard_hex::Hex;

/// Where the pieces of a [`State`] stand: a number no other placing of the process
/// carries, and, when the state is one action from another, that state's number and the
/// pieces whose hex the action changed. Actions that move no piece (cards, orders, the
/// ends of steps) keep the number. A kept board remembers the number of the state it was last brought up
/// to date with; asked again for the same state it has nothing to do, and asked for the
/// state one action further it looks at the pieces named instead of comparing every
/// piece's hex.
///
/// Every action goes through `turn::apply`, which stamps the state anew when it is done;
/// every change of a piece's hex goes through [`place`], which names the piece, and
/// makes the state one of unknown number until the action is done (a board built in
/// the middle of an action compares every piece). A clone keeps its stamp, which is
/// right, being the same position. A state of unknown history (new, or read from a file)
/// has number 0, which no board trusts. Code that changes a state's pieces by hand
/// afterwards (the tests) must not leave a stamp on it that a board has seen: debug
/// builds check every board against a fresh build, so a stale one fails there.
///
/// Never part of the game: two states compare equal whatever their stamps, and nothing
/// of it is written or shown.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stamp {
    /// This state's number; 0 for one of unknown history.
    pub id: u64,
    /// The number of the state one action before; 0 when unknown, or when the action
    /// moved more pieces than `moved` holds.
    pub parent: u64,
    /// The pieces whose hex the action from `parent` changed, the first `count`.
    moved: [u16; MOST_MOVED],
    count: u8,
    /// The same, for the action being applied to the state, until it is done; `overflow`
    /// when it moved more pieces than they hold.
    moving: [u16; MOST_MOVED],
    moving_count: u8,
    overflow: bool,
}

/// Pieces a stamp names; an action that moves more leaves its state's parent unknown.
const MOST_MOVED: usize = 6;

impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true
    }
}

impl Eq for Stamp {}

impl Stamp {
    /// Starts an action on the state: no piece has changed hex yet. The state keeps its
    /// number until one does. Returns the number, for [`Stamp::end`].
    pub(crate) fn begin(&mut self) -> u64 {
        self.moving_count = 0;
        self.overflow = false;
        self.id
    }

    /// Ends the action begun on the state numbered `before`: when it changed a piece's
    /// hex, the state gets a new number, with `before` as its parent when the pieces moved
    /// are all named. An action that moved no piece leaves the stamp as it was: the
    /// number names where the pieces stand, which is all a board is made of.
    pub(crate) fn end(&mut self, before: u64) {
        if self.moving_count == 0 && !self.overflow {
            return;
        }
        self.id = next_id();
        self.parent = if self.overflow { 0 } else { before };
        self.moved = self.moving;
        self.count = self.moving_count;
    }

    /// The pieces named as moved by the action from the parent.
    pub(crate) fn moved(&self) -> &[u16] {
        &self.moved[..usize::from(self.count)]
    }

    /// Notes that piece `u` changed hex: the state's number is unknown until the action
    /// ends.
    fn note(&mut self, u: UnitId) {
        self.id = 0;
        let n = usize::from(self.moving_count);
        if self.moving[..n].contains(&u.0) {
            return;
        }
        if n == MOST_MOVED {
            self.overflow = true;
        } else {
            self.moving[n] = u.0;
            self.moving_count += 1;
        }
    }
}

/// Puts piece `u` in `hex` (`None`: off the battlefield), noting it in the state's
/// [`Stamp`]: every change of a piece's hex goes through here.
pub(crate) fn place(state: &mut State, u: UnitId, hex: Option<Hex>) {
    state.pieces[u.index()].hex = hex;
    state.stamp.note(u);
}

// A state's text leaves out its [`Stamp`]: the text of a state is its game alone.
crate::common::state::debug_without_stamp!(
    State: turn, active, phase, pieces, deck, hands, discard, played, fight_back, flags,
    pending, outcome; kept: orders
);
