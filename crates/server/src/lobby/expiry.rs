//! Idle games expire: a game that saw no action for `--expire-days` is removed from
//! memory and from the file by a periodic sweep; a finished game is kept. Its id is
//! kept as a tombstone, so that a request for it says that it expired.

use super::*;
use crate::store::now_ms;

/// Reads `--expire-days`: a number of days, 0 for never.
///
/// # Errors
/// Not a number, or one below 0.
pub fn days(text: &str) -> Result<f64, String> {
    let days: f64 = text
        .trim()
        .parse()
        .map_err(|e| format!("`{text}` is not a number of days: {e}"))?;
    if days.is_finite() && days >= 0.0 {
        Ok(days)
    } else {
        Err(format!(
            "`{text}`: give 0 (never) or a positive number of days"
        ))
    }
}

/// How long a game may go without an action; `None` for 0 (never).
pub(super) fn after(days: f64) -> Result<Option<Duration>, ApiError> {
    if !(days.is_finite() && days >= 0.0) {
        return Err(ApiError::Internal(format!(
            "--expire-days {days}: give 0 (never) or a positive number of days"
        )));
    }
    Ok((days > 0.0).then(|| Duration::from_secs_f64(days * 86_400.0)))
}

/// The most idle games one transaction of the sweep expires.
const SWEEP_BATCH: usize = 500;

impl Lobby {
    /// The 404 for a game that expired.
    pub(super) fn expired(&self, id: &str) -> ApiError {
        let days = self
            .expire_after
            .map_or(0.0, |d| d.as_secs_f64() / 86_400.0);
        ApiError::NotFound(format!(
            "game `{id}` expired: it saw no action for {days} days and was removed \
             (finished games are kept)"
        ))
    }

    /// Expires every unfinished game that saw no action for the expiry time before
    /// `now_ms` (milliseconds since 1970): removes it from the file and from memory,
    /// and keeps its id so that a request for it says it expired. Returns their ids.
    /// The idle games are found in the file (an index on activity), in batches of a
    /// few hundred; no game is loaded for it. The periodic sweep calls it with the
    /// time; tests with a time of their own.
    ///
    /// # Errors
    /// The database failed or writes no more; the games of the batch that failed did
    /// not expire.
    pub async fn expire_idle(&self, now_ms: u64) -> Result<Vec<String>, ApiError> {
        let Some(after) = self.expire_after else {
            return Ok(Vec::new());
        };
        let cutoff = now_ms.saturating_sub(u64::try_from(after.as_millis()).unwrap_or(u64::MAX));
        let mut gone = Vec::new();
        loop {
            let db = self.store.clone();
            let ids = tokio::task::spawn_blocking(move || {
                db.read(|c| store::read::idle(c, cutoff, SWEEP_BATCH))
            })
            .await
            .map_err(|e| ApiError::Internal(format!("the sweep's reading task failed: {e}")))??;
            let full = ids.len() >= SWEEP_BATCH;
            let batch = self.expire_batch(ids, cutoff).await?;
            let more = full && !batch.is_empty();
            gone.extend(batch);
            if !more {
                break;
            }
        }
        if !gone.is_empty() {
            println!(
                "grognard: {} game(s) expired after {} days without an action",
                gone.len(),
                after.as_secs_f64() / 86_400.0
            );
        }
        Ok(gone)
    }

    /// Expires the games of `ids` (sorted) still idle since before `cutoff`.
    async fn expire_batch(
        &self,
        mut ids: Vec<String>,
        cutoff: u64,
    ) -> Result<Vec<String>, ApiError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        ids.sort();
        // Each game's gate is held, so that no request loads it from the file
        // meanwhile (it would hold a table of a game gone); gates are taken in the
        // order of the ids, as every sweep does.
        let gates: Vec<_> = ids.iter().map(|id| self.gate(id)).collect();
        let mut closed = Vec::with_capacity(gates.len());
        for gate in &gates {
            closed.push(gate.lock().await);
        }
        // A game in memory has its turn held too, so that no action of it commits
        // meanwhile; one that did since it was chosen is left alone (the file checks
        // again, in the transaction).
        let held: Vec<Arc<Table>> = {
            let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
            ids.iter().filter_map(|id| tables.peek(id)).collect()
        };
        let mut turns = Vec::with_capacity(held.len());
        let mut busy = HashSet::new();
        for t in &held {
            turns.push(t.turn.lock().await);
            if t.active_ms() >= cutoff || t.game().outcome().is_some() {
                busy.insert(t.id.clone());
            }
        }
        let candidates: Vec<String> = ids
            .iter()
            .filter(|id| !busy.contains(*id))
            .cloned()
            .collect();
        let result = self.store.expire(candidates, cutoff).await;
        if let Ok(gone) = &result {
            let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
            for id in gone {
                if let Some(t) = tables.remove(id) {
                    t.mark_expired();
                }
            }
            self.games
                .fetch_sub(gone.len().min(self.games()), Ordering::AcqRel);
        }
        drop(turns);
        drop(closed);
        for (id, gate) in ids.iter().zip(&gates) {
            self.ungate(id, gate);
        }
        result
    }

    /// Starts the periodic sweep (once): every tenth of the expiry time, at least
    /// every minute, it expires idle games and checks that the database is still the
    /// file at its path (which each commit checks too). It stops with the lobby.
    pub(super) fn start_sweep(self: &Arc<Lobby>) {
        if self.sweeping.swap(true, Ordering::AcqRel) {
            return;
        }
        let minute = Duration::from_secs(60);
        let period = self.expire_after.map_or(minute, |after| {
            (after / 10).clamp(Duration::from_millis(50), minute)
        });
        let lobby = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(period).await;
                let Some(lobby) = lobby.upgrade() else {
                    return;
                };
                if let Err(e) = lobby.expire_idle(now_ms()).await {
                    eprintln!("grognard: the sweep of idle games failed: {e}");
                }
                let _ = lobby.store.check().await;
            }
        });
    }
}
