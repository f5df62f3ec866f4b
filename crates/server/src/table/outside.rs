//! What changes a table from outside its log (issue 16): the game ended by a
//! resignation or a loss on time, and the seats the computer took on time.

use super::Table;
use grognard_engine::AnyGame;
use std::collections::BTreeSet;
use std::sync::PoisonError;

impl Table {
    /// The table, with the computer in the seats of `sides` (as the file records them).
    #[must_use]
    pub fn with_stand_ins(self, sides: BTreeSet<String>) -> Table {
        *self
            .stand_ins
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = sides;
        self
    }

    /// Whether the computer took `side`'s human seat when its player's time ran out.
    #[must_use]
    pub fn is_stand_in(&self, side: &str) -> bool {
        self.stand_ins
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(side)
    }

    /// Puts the computer in `side`'s seat (recorded in the file before).
    pub(crate) fn stand_in(&self, side: &str) {
        let game = self.game_mut();
        self.stand_ins
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(side.to_owned());
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        drop(game);
    }

    /// Puts `ended`, the game ended from outside its rules (recorded in the file
    /// before), in place of the game. Its `n` is the game's, so the objects built
    /// before are forgotten under the game's lock: no reader serves one again.
    pub(crate) fn end_with(&self, ended: Box<dyn AnyGame>) {
        let mut game = self.game_mut();
        *game = ended;
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        drop(game);
        let _ = self.changed.send(self.committed() as u64);
    }
}
