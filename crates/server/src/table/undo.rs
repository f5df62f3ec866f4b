//! What a seat may take back at a table (issue 15): its own last action, in its own
//! turn, as far as the engine allows.

use super::Table;
use crate::error::ApiError;
use grognard_engine::{AnyGame, Seat};
use std::sync::PoisonError;

fn forbidden(rule: &str, message: String) -> ApiError {
    ApiError::Forbidden {
        rule: rule.into(),
        message,
    }
}

impl Table {
    /// Records that `side` made the last action of the game as it now is (at `n`).
    pub(crate) fn record_actor(&self, n: usize, side: &str) {
        *self
            .last_actor
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(((self.undos(), n), Some(side.into())));
    }

    /// Who made the last action of `game` (this table's game): known from its commit, or
    /// found once by replaying the log without it. `None` when nobody was to act (no
    /// action), or the engine cannot take the action back to tell.
    fn last_actor(&self, game: &dyn AnyGame) -> Option<String> {
        let at = (self.undos(), game.len());
        if let Some((known, actor)) = &*self
            .last_actor
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
        {
            if *known == at {
                return actor.clone();
            }
        }
        let mut before = game.boxed_clone();
        let actor = before
            .undo()
            .ok()
            .and_then(|()| before.to_act())
            .map(|d| d.side);
        *self
            .last_actor
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some((at, actor.clone()));
        actor
    }

    /// Whether `side` may take back the last action of `game` (this table's game, whose
    /// guard the caller holds).
    ///
    /// A seat takes back only its own actions, in its own turn, and only as far as the
    /// engine allows: never an action that rolled dice (the engine's undo stops at the
    /// last random result, and a card drawn is one), nor, where seats see different
    /// things, one whose events some seat may not see whole (hidden information
    /// revealed).
    ///
    /// # Errors
    /// 403 `turn` when the game is over or `side` is not to act; 400 `undo` when
    /// nothing was played, the last action rolled dice or revealed what some seat may
    /// not see; 403 `seat` when the last action was another seat's or the computer's.
    pub fn may_undo(&self, game: &dyn AnyGame, side: &str) -> Result<(), ApiError> {
        match game.to_act() {
            None => {
                return Err(forbidden(
                    "turn",
                    "the game is over: nothing can be taken back".into(),
                ))
            }
            Some(d) if d.side != side => {
                return Err(forbidden(
                    "turn",
                    format!(
                        "it is {}'s decision, not {side}'s: a seat takes back its own actions \
                         in its own turn",
                        d.side
                    ),
                ))
            }
            Some(_) => {}
        }
        game.can_undo()?;
        let n = game.len();
        match self.last_actor(game) {
            Some(actor) if actor == side => {}
            actor => {
                let who = match actor {
                    Some(a) if self.is_ai(&a) => format!("the computer's ({a})"),
                    Some(a) => format!("{a}'s"),
                    None => "nobody's".into(),
                };
                return Err(forbidden(
                    "seat",
                    format!(
                        "action {n} was {who}, not {side}'s: a seat takes back only its own \
                         actions"
                    ),
                ));
            }
        }
        if self.hidden && self.last_is_hidden(game) {
            return Err(ApiError::BadRequest {
                rule: "undo".into(),
                message: format!(
                    "action {n} showed one seat what another may not see: undo stops at \
                     hidden information revealed"
                ),
            });
        }
        Ok(())
    }

    /// [`Table::may_undo`], then the game without its last action.
    ///
    /// # Errors
    /// As [`Table::may_undo`].
    pub fn undoable(&self, game: &dyn AnyGame, side: &str) -> Result<Box<dyn AnyGame>, ApiError> {
        self.may_undo(game, side)?;
        let mut before = game.boxed_clone();
        before.undo()?;
        Ok(before)
    }

    /// Whether the last entry of the log is not the same for every side and the
    /// spectators: something in it is hidden from someone. (What no side may see is a
    /// roll's, which the engine's rule has refused already.)
    fn last_is_hidden(&self, game: &dyn AnyGame) -> bool {
        let spectator = game.log_tail(&Seat::Spectator, 1);
        self.seats
            .keys()
            .any(|s| game.log_tail(&Seat::Side(s.clone()), 1) != spectator)
    }
}
