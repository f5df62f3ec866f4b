//! Undo: a seat takes back its own last action, in its own turn, as far as the engine
//! allows ([`Table::undoable`]), by the same durable path as an action: the file first,
//! then the game in memory, then a push to every socket of the game.

use super::*;

impl Lobby {
    /// Takes back the last action of `table`'s game for `side`, at `expect` (the
    /// game's `n`), and makes it durable; returns the action taken back (`{"n",
    /// "action"}`) and the new game object for `side` (as JSON text, in `form`).
    ///
    /// The work runs in its own task, so a client that hangs up mid-request cannot
    /// leave the file and the memory disagreeing.
    ///
    /// # Errors
    /// 409 when the game is not at `expect`; 403 `turn` when the game is over or
    /// `side` is not to act; 403 `seat` when the last action was not `side`'s; 400
    /// `undo` when there is none, it rolled dice or revealed hidden information;
    /// 500 or 503 when the database fails (nothing changes).
    pub async fn undo(
        self: &Arc<Lobby>,
        table: &Arc<Table>,
        side: String,
        expect: u64,
        form: crate::table::Form,
    ) -> Result<(Value, Arc<str>), ApiError> {
        let (lobby, t) = (Arc::clone(self), Arc::clone(table));
        let result = tokio::spawn(async move { lobby.take_back(&t, &side, expect, form).await })
            .await
            .map_err(|e| ApiError::Internal(format!("the undo task failed: {e}")))?;
        if result.is_ok() {
            self.wake_ai(table);
        }
        result
    }

    async fn take_back(
        &self,
        table: &Table,
        side: &str,
        expect: u64,
        form: crate::table::Form,
    ) -> Result<(Value, Arc<str>), ApiError> {
        let _turn = table.turn.lock().await;
        if table.is_expired() {
            return Err(self.expired(&table.id));
        }
        let (before, undone) = {
            let game = table.game();
            let n = game.len() as u64;
            if n != expect {
                return Err(ApiError::Conflict {
                    expected: expect,
                    actual: n,
                });
            }
            let before = table.undoable(game.as_ref(), side)?;
            let undone = game
                .log_tail(&Seat::Side(side.to_owned()), 1)
                .first()
                .map_or(Value::Null, |e| json!({"n": e["n"], "action": e["action"]}));
            (before, undone)
        };
        let at = store::now_ms();
        let summary = Summary {
            active_ms: at,
            ..table.summary(before.as_ref())
        };
        if !self.store.undo(&table.id, expect, summary).await? {
            // Writers of this game queue on `turn`, so only another process writing
            // the same file can get here.
            return Err(ApiError::Internal(format!(
                "game {}: the database's log does not end at n={expect}; is another server using the file?",
                table.id
            )));
        }
        // Durable: only now does any seat see the game without the action.
        table.take_back(before, at);
        let object = {
            let game = table.game();
            table.object_in(game.as_ref(), &Viewer::Side(side.to_owned()), form)
        };
        let _ = table.changed.send(expect.saturating_sub(1));
        Ok((undone, object))
    }
}
