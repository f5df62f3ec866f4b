//! Who may take a game's position home to study (issue 19, item 4): anyone once the
//! game is over, when nothing is left to hide; while it runs, its players, and only
//! while nothing is hidden from either seat (no hand of cards dealt).

use super::{Table, Viewer};
use crate::error::ApiError;
use grognard_engine::{AnyGame, Seat};

impl Table {
    /// Whether `viewer` may have the position of `game` (this table's game) now.
    ///
    /// # Errors
    /// 401 for a running game asked without a seat's token; 403 (rule `hidden`) for
    /// a running game whose seats see different things.
    pub fn may_study(&self, game: &dyn AnyGame, viewer: &Viewer) -> Result<(), ApiError> {
        if game.outcome().is_some() {
            return Ok(());
        }
        if matches!(viewer, Viewer::Spectator) {
            return Err(ApiError::Unauthorized(
                "the position of a running game is for its players: send `Authorization: \
                 Bearer TOKEN`; anyone may have it once the game is over"
                    .into(),
            ));
        }
        // A ruleset that never hides anything needs no look at the views.
        if self.hidden && self.views_differ(game) {
            return Err(ApiError::Forbidden {
                rule: "hidden".into(),
                message: "this game hides something from a seat now (a hand of cards): its \
                          position is given out once the game is over"
                    .into(),
            });
        }
        Ok(())
    }

    /// Whether the seats of `game` (this table's game) see different things now
    /// ([`crate::lobby::views_differ`]), from the views as text that the objects
    /// share ([`Table::view_text`]): each seat's view is built once an action for
    /// this and for its object, not once a request.
    fn views_differ(&self, game: &dyn AnyGame) -> bool {
        if let Some(known) = game.views_differ() {
            return known;
        }
        let spectator = self.view_text(game, &Seat::Spectator);
        game.scenario()
            .sides
            .iter()
            .any(|s| self.view_text(game, &Seat::Side(s.id.clone())) != spectator)
    }
}
