//! Whose turn it is after an action (issue 16): the player of the side now to act is
//! told, when it is another side than the one that acted and a person plays it. The
//! notice is queued after the action is in the file; sending it never holds up the
//! action.

use super::*;
use crate::accounts::notify::{Notice, NoticeKind};
use tokio::sync::mpsc::UnboundedSender;

impl Lobby {
    /// Where notices of a turn passed go (set once, by the server).
    pub fn on_turn(&self, tx: UnboundedSender<Notice>) {
        let _ = self.turns.set(tx);
    }

    /// Queues a notice for the side now to act in `table`, when `acted` has passed it
    /// the turn.
    pub(super) fn turn_passed(&self, table: &Table, acted: &str) {
        let Some(tx) = self.turns.get() else {
            return;
        };
        if table.hotseat {
            return;
        }
        let Some(d) = table.game().to_act() else {
            return;
        };
        if d.side == acted || table.is_ai(&d.side) {
            return;
        }
        let side_name = side_name(table, &d.side);
        let _ = tx.send(Notice {
            game: table.id.clone(),
            side: d.side,
            side_name,
            kind: NoticeKind::Turn,
            deadline_ms: None,
        });
    }
}

/// A side's name in the game's scenario, as players read it.
pub(crate) fn side_name(table: &Table, side: &str) -> String {
    table
        .game()
        .scenario()
        .sides
        .iter()
        .find(|s| s.id == side)
        .map_or_else(|| side.to_owned(), |s| s.name.clone())
}
