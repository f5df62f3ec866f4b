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

impl Lobby {
    /// The 404 for a game not here: one that expired says so.
    pub(super) fn missing(&self, id: &str) -> ApiError {
        let expired = self
            .expired
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(id);
        if expired {
            let days = self
                .expire_after
                .map_or(0.0, |d| d.as_secs_f64() / 86_400.0);
            ApiError::NotFound(format!(
                "game `{id}` expired: it saw no action for {days} days and was removed \
                 (finished games are kept)"
            ))
        } else {
            ApiError::NotFound(format!("no game `{id}`"))
        }
    }

    /// Expires every unfinished game that saw no action for the expiry time before
    /// `now_ms` (milliseconds since 1970): removes it from memory and from the file,
    /// and keeps its id so that a request for it says it expired. Returns their ids.
    /// The periodic sweep calls it with the time; tests with a time of their own.
    ///
    /// # Errors
    /// The database failed or writes no more; nothing expired then.
    pub async fn expire_idle(&self, now_ms: u64) -> Result<Vec<String>, ApiError> {
        let Some(after) = self.expire_after else {
            return Ok(Vec::new());
        };
        let cutoff = now_ms.saturating_sub(u64::try_from(after.as_millis()).unwrap_or(u64::MAX));
        let idle = |t: &Table| t.active_ms() < cutoff && t.game().outcome().is_none();
        let candidates: Vec<Arc<Table>> = self
            .tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .filter(|t| idle(t))
            .cloned()
            .collect();
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        // Each candidate's turn is held while it expires, so that no action of it
        // commits meanwhile; one that did since it was chosen is left alone.
        let mut held = Vec::new();
        for t in &candidates {
            let turn = t.turn.lock().await;
            if idle(t) {
                held.push((t, turn));
            }
        }
        let ids = held.iter().map(|(t, _)| t.id.clone()).collect();
        let gone = self.store.expire(ids, cutoff).await?;
        {
            let mut tables = self.tables.write().unwrap_or_else(PoisonError::into_inner);
            let mut expired = self.expired.write().unwrap_or_else(PoisonError::into_inner);
            for id in &gone {
                if let Some(t) = tables.remove(id) {
                    t.mark_expired();
                }
                expired.insert(id.clone());
            }
        }
        drop(held);
        if !gone.is_empty() {
            println!(
                "grognard: {} game(s) expired after {} days without an action",
                gone.len(),
                after.as_secs_f64() / 86_400.0
            );
        }
        Ok(gone)
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
