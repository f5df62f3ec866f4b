//! Games loaded when first asked for: a game not in memory is read from the file (its
//! row and log) and rebuilt by replaying its log, on a blocking thread, once however
//! many requests ask for it at once; the recently used stay in a bounded cache.

use super::*;
use crate::store::outside::{self, Outside};
use crate::store::Load;

/// Rebuilds a stored game by replaying its log, then ends it or seats the computer as
/// the file records from outside the log; the game's id and why on failure.
pub(super) fn rebuild(
    registry: &Registry,
    hidden_rulesets: &HashSet<String>,
    row: GameRow,
    log: Vec<ActionRow>,
    outside: Outside,
) -> Result<Table, (String, String)> {
    let fail = |e: String| (row.id.clone(), e);
    let scenario: Scenario = serde_json::from_value(row.scenario.clone())
        .map_err(|e| fail(format!("its scenario does not read: {e}")))?;
    for (i, a) in log.iter().enumerate() {
        if a.n != i as u64 + 1 {
            return Err(fail(format!("its log skips from {} to {}", i, a.n)));
        }
    }
    let saved = SavedGame {
        format: SAVE_FORMAT.into(),
        ruleset: row.ruleset.clone(),
        scenario,
        seed: row.seed,
        log: log
            .into_iter()
            .map(|a| SavedAction {
                action: a.action,
                forced: a.forced,
            })
            .collect(),
        pending_forced: Vec::new(),
        generator: row.generator.clone(),
        ending: outside.ending,
    };
    let game = registry
        .load_game(&saved)
        .map_err(|e| fail(e.to_string()))?;
    let hidden = hidden_rulesets.contains(game.ruleset()) || views_differ(game.as_ref());
    Ok(Table::new(
        row.id,
        row.scenario_id,
        row.seats,
        row.created,
        hidden,
        game,
        row.active_ms,
    )
    .with_undos(row.undos)
    .with_stand_ins(outside.stand_ins))
}

/// The most characters of a game id looked up in the file (ids are 16).
const MAX_ID: usize = 64;

impl Lobby {
    /// The table of a game: from memory, or else loaded from the file (its row and
    /// log read and replayed on a blocking thread) and cached. Two requests for one
    /// game not in memory load it once. A game that does not load is reported on
    /// standard error the first time, and answered 404 from then on.
    ///
    /// # Errors
    /// 404 when there is no such game, with a message that says so when it expired or
    /// does not load; 500 or 503 when the file cannot be read.
    pub async fn table(self: &Arc<Lobby>, id: &str) -> Result<Arc<Table>, ApiError> {
        if let Some(table) = self.cached_table(id) {
            return Ok(table);
        }
        if id.len() > MAX_ID {
            return Err(ApiError::NotFound(format!("no game `{id}`")));
        }
        // The gate is closed for newcomers however this ends, a request given up
        // midway included.
        struct Gate<'a>(&'a Lobby, &'a str, Arc<tokio::sync::Mutex<()>>);
        impl Drop for Gate<'_> {
            fn drop(&mut self) {
                self.0.ungate(self.1, &self.2);
            }
        }
        let gate = Gate(self, id, self.gate(id));
        let _loading = gate.2.lock().await;
        // Whoever held the gate before may have loaded it.
        match self.cached_table(id) {
            Some(table) => Ok(table),
            None => self.load(id).await,
        }
    }

    /// The table of `id` if it is in memory and has not expired.
    fn cached_table(&self, id: &str) -> Option<Arc<Table>> {
        let table = self
            .tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)?;
        (!table.is_expired()).then_some(table)
    }

    /// Loads game `id` from the file and caches it; the caller holds its gate.
    async fn load(self: &Arc<Lobby>, id: &str) -> Result<Arc<Table>, ApiError> {
        if self.is_broken(id) {
            return Err(not_loading(id));
        }
        let (lobby, key) = (Arc::clone(self), id.to_owned());
        // Reading and replaying a log is blocking work: off the async workers.
        let loaded = tokio::task::spawn_blocking(move || {
            let stored = lobby.store.read(|c| store::read::load(c, &key))?;
            let (row, log, summarised) = match stored {
                Load::Game {
                    row,
                    log,
                    summarised,
                } => (*row, log, summarised),
                Load::Expired => return Err(lobby.expired(&key)),
                Load::Missing => return Err(ApiError::NotFound(format!("no game `{key}`"))),
                Load::Unreadable(why) => return Ok(Err(why)),
            };
            let outside = lobby.store.read(|c| outside::read(c, &key))?;
            lobby.loads.fetch_add(1, Ordering::Relaxed);
            Ok(
                match rebuild(&lobby.registry, &lobby.hidden_rulesets, row, log, outside) {
                    Ok(table) => Ok((table, summarised)),
                    Err((_, why)) => Err(why),
                },
            )
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the loading task failed: {e}")))??;
        let (table, summarised) = match loaded {
            Ok(loaded) => loaded,
            Err(why) => {
                // Reported once: the game stays in the file, not served.
                eprintln!("grognard: game {id} does not load and is not served: {why}");
                let e = not_loading(id);
                self.broken
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(id.to_owned(), why);
                return Err(e);
            }
        };
        let table = Arc::new(table);
        if !summarised {
            // A game that had no line of the lobby (it did not load when its file was
            // migrated) gets one now; the list is no worse without it.
            let summary = table.summary(table.game().as_ref());
            if let Err(e) = self.store.write_summaries(vec![summary]).await {
                eprintln!("grognard: game {id}: its line of the lobby was not written: {e}");
            }
        }
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, Arc::clone(&table));
        // The computer picks up where it was to act.
        self.wake_ai(&table);
        Ok(table)
    }

    /// The gate of game `id`, made if none is open.
    pub(super) fn gate(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        Arc::clone(
            self.loading
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(id.to_owned())
                .or_default(),
        )
    }

    /// Closes `gate` of game `id` for newcomers; those already waiting on it go on
    /// and find the table in memory.
    pub(super) fn ungate(&self, id: &str, gate: &Arc<tokio::sync::Mutex<()>>) {
        let mut loading = self.loading.lock().unwrap_or_else(PoisonError::into_inner);
        if loading.get(id).is_some_and(|g| Arc::ptr_eq(g, gate)) {
            loading.remove(id);
        }
    }

    /// How many tables the cache holds (at most `--cache-games`).
    #[must_use]
    pub fn cached(&self) -> usize {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// How many tables are in memory: the cache's, and those dropped from it but still
    /// held (by a WebSocket, the computer, a hint or a request in flight).
    #[must_use]
    pub fn in_memory(&self) -> usize {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .alive()
    }

    /// How many games the file holds.
    #[must_use]
    pub fn games(&self) -> usize {
        self.games.load(Ordering::Acquire)
    }

    /// How many games have been loaded from the file (and replayed) since the start.
    #[must_use]
    pub fn loads(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
    }

    /// The games of the file found not to load so far (at the start, or when first
    /// asked for), each reported once on standard error.
    #[must_use]
    pub fn skipped(&self) -> Vec<String> {
        self.broken
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }

    /// Whether game `id` is known not to load.
    #[must_use]
    pub fn is_broken(&self, id: &str) -> bool {
        self.broken
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(id)
    }

    /// The store, for reading the lobby's lines.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }
}

/// The 404 for a game in the file that does not load (why is on standard error).
fn not_loading(id: &str) -> ApiError {
    ApiError::NotFound(format!(
        "game `{id}` is stored but does not load, and is not served (the server's log says why)"
    ))
}
