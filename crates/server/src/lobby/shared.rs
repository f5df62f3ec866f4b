//! Several servers over one PostgreSQL database (issue 17): any of them serves any
//! game, so a game in one server's memory falls behind when another appends to its
//! log. The database's key `(game_id, n)` decides who wins each action; a server whose
//! append lost reads the actions it missed and applies them to its copy, in order,
//! before it answers again. Pushes from the other servers do the same on arrival.

use super::*;

impl Lobby {
    /// Brings `table`'s game up to its stored log: applies the actions appended by
    /// another server since this one last wrote or read it, tells the table's
    /// listeners, and returns how many actions the game now holds. The caller holds
    /// the table's `turn`, so no action of this server is taken meanwhile. When
    /// another server took actions back (the stored count of undos is not the
    /// table's, or the log is shorter than the game in memory), the table's game is
    /// loaded again from the database in place, so that the WebSockets following the
    /// table push the game as it now stands.
    ///
    /// # Errors
    /// The database cannot be read (500, 503), or a stored action does not apply
    /// (500: the table is dropped from memory and loads afresh).
    pub(crate) async fn catch_up(&self, table: &Table) -> Result<u64, ApiError> {
        let have = table.game().len() as u64;
        let (store, id) = (self.store.clone(), table.id.clone());
        let (stored, undos, rows) = tokio::task::spawn_blocking(move || {
            store.read(|c| {
                let r = c.query_one(
                    "SELECT (SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?1),
                            (SELECT COUNT(*) FROM undone WHERE game_id = ?1)",
                    crate::db::params![&id],
                )?;
                let (stored, undos) = (r.get::<i64>(0)?, r.get::<i64>(1)?);
                let rows = store::read::log_from(c, &id, have + 1)?;
                Ok((
                    u64::try_from(stored).unwrap_or(0),
                    u64::try_from(undos).unwrap_or(0),
                    rows,
                ))
            })
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the reading task failed: {e}")))??;
        if stored < have || undos != table.undos() {
            return self.reload(table).await;
        }
        let rows = rows.map_err(|why| ApiError::Internal(format!("game {}: {why}", table.id)))?;
        if rows.is_empty() {
            return Ok(have);
        }
        let mut n = have;
        {
            let mut game = table.game_mut();
            for row in &rows {
                if row.n != n + 1 || game.apply(&row.action).is_err() {
                    drop(game);
                    self.forget(&table.id);
                    return Err(ApiError::Internal(format!(
                        "game {}: stored action {} does not follow the game in memory",
                        table.id, row.n
                    )));
                }
                n = row.n;
            }
        }
        table.record_commit(usize::try_from(n).unwrap_or(usize::MAX), store::now_ms());
        let _ = table.changed.send(n);
        Ok(n)
    }

    /// Loads `table`'s game again from the database and puts it in the table's place
    /// (another server took actions back): the table's listeners are told, and its
    /// WebSockets push the game as it now stands. The caller holds the table's `turn`.
    ///
    /// # Errors
    /// The database cannot be read (500, 503), or the game does not load (500: the
    /// table is dropped from memory).
    async fn reload(&self, table: &Table) -> Result<u64, ApiError> {
        let (store, id) = (self.store.clone(), table.id.clone());
        let stored = tokio::task::spawn_blocking(move || {
            let stored = store.read(|c| store::read::load(c, &id))?;
            let outside = store.read(|c| store::outside::read(c, &id))?;
            Ok::<_, ApiError>((stored, outside))
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the reading task failed: {e}")))??;
        // Replayed here: an undo made on another server is rare, and its game short
        // enough to replay between two requests.
        let fresh = match stored {
            (store::Load::Game { row, log, .. }, outside) => {
                super::load::rebuild(&self.registry, &self.hidden_rulesets, *row, log, outside)
                    .map_err(|(id, why)| format!("game {id} does not load: {why}"))
            }
            _ => Err(format!("game {} is no longer in the database", table.id)),
        };
        let fresh = match fresh {
            Ok(fresh) => fresh,
            Err(why) => {
                self.forget(&table.id);
                return Err(ApiError::Internal(why));
            }
        };
        let n = table.replace_with(fresh, store::now_ms());
        let _ = table.changed.send(n as u64);
        Ok(n as u64)
    }

    /// Drops game `id` from memory: the next request for it loads it from the
    /// database.
    pub(crate) fn forget(&self, id: &str) {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
    }
}

impl Lobby {
    /// Follows what the other servers over the same PostgreSQL database write: each
    /// game of theirs that this server holds in memory catches up, and its WebSockets
    /// push the change. Nothing on a SQLite file. Runs until the store closes.
    pub fn follow_others(self: &Arc<Lobby>) {
        let mut notes = match self.store.follow() {
            Ok(Some(rx)) => rx,
            Ok(None) => return,
            Err(e) => {
                eprintln!(
                    "grognard: {e}: games played on other servers are read when next acted on"
                );
                return;
            }
        };
        let lobby = Arc::clone(self);
        tokio::spawn(async move {
            while let Some((id, n)) = notes.recv().await {
                let table = lobby
                    .tables
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .peek(&id);
                let Some(table) = table else {
                    continue;
                };
                if table.game().len() as u64 == n {
                    continue;
                }
                let _turn = table.turn.lock().await;
                // This server's own action may have been applied meanwhile.
                if table.game().len() as u64 == n {
                    continue;
                }
                if let Err(e) = lobby.catch_up(&table).await {
                    eprintln!("grognard: game {id} could not catch up with another server: {e}");
                }
            }
        });
    }
}
