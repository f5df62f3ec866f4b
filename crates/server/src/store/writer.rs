//! The writer thread: it owns the write connection, commits whatever has queued in one
//! transaction (group commit), and answers each request once the commit returns.

use super::*;

/// The writer thread's own: the write connection and what it watches.
pub(super) struct Writer {
    pub(super) conn: Conn,
    /// A SQLite file's identity, checked before each commit is acknowledged.
    pub(super) identity: Option<Identity>,
    /// Why the store writes no more, once the file is no longer at its path.
    pub(super) gone: Option<String>,
    pub(super) faults: Arc<AtomicU32>,
    pub(super) stats: Arc<Stats>,
}

impl Writer {
    /// Takes what has queued, commits it in one transaction, answers; on a close,
    /// closes the file, then releases the lock, then answers.
    pub(super) fn run(mut self, mut rx: mpsc::UnboundedReceiver<Write>, lock: Option<Lock>) {
        let mut batch = Vec::with_capacity(BATCH);
        let mut closing = Vec::new();
        while let Some(first) = rx.blocking_recv() {
            let mut next = Some(first);
            while let Some(w) = next.take() {
                match w {
                    Write::Close(reply) => closing.push(reply),
                    w => batch.push(w),
                }
                if batch.len() < BATCH {
                    next = rx.try_recv().ok();
                }
            }
            if !batch.is_empty() {
                self.commit(&mut batch);
            }
            if !closing.is_empty() {
                break;
            }
        }
        drop(rx);
        drop(self.conn);
        drop(lock);
        for reply in closing {
            let _ = reply.send(());
        }
    }

    /// The reason the store writes no more, checking the file's identity first.
    fn watch(&mut self) -> Option<String> {
        if let (None, Some(identity)) = (&self.gone, &self.identity) {
            if let Err(why) = identity.check() {
                eprintln!(
                    "grognard: ERROR: {why}. This server accepts no more writes (each gets \
                     503). Stop it, put the database back at its path, and start it again."
                );
                self.gone = Some(format!(
                    "{why}: this server accepts no more writes until it is restarted"
                ));
            }
        }
        self.gone.clone()
    }

    /// Commits a batch and answers each request.
    fn commit(&mut self, batch: &mut Vec<Write>) {
        if let Some(why) = self.watch() {
            for w in batch.drain(..) {
                w.answer(Err(Failure::Closed(why.clone())));
            }
            return;
        }
        let injected = self
            .faults
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |k| k.checked_sub(1))
            .is_ok();
        let now = rfc3339(now_ms());
        let began = std::time::Instant::now();
        let mut synced = std::time::Duration::ZERO;
        let results: Result<Vec<Result<Done, String>>, String> = (|| {
            let mut tx = self.conn.transaction().map_err(|e| e.to_string())?;
            // On PostgreSQL a failed statement spoils its whole transaction: each
            // request gets a savepoint, so that one refused leaves the others whole.
            let savepoints = tx.backend() == db::Backend::Postgres;
            let mut results = Vec::with_capacity(batch.len());
            for w in batch.iter() {
                if savepoints {
                    tx.batch("SAVEPOINT request").map_err(|e| e.to_string())?;
                }
                let r = write_one(&mut tx, w, &now);
                if savepoints {
                    let end = if r.is_ok() {
                        "RELEASE SAVEPOINT request"
                    } else {
                        "ROLLBACK TO SAVEPOINT request"
                    };
                    tx.batch(end).map_err(|e| e.to_string())?;
                }
                // Another instance wrote action `n` first: the insert lost the race on
                // the key `(game_id, n)`, as the count check does on one instance.
                let r = match r {
                    Err(e) if e.unique && matches!(w, Write::Action { .. }) => {
                        Ok(Done::Appended(false))
                    }
                    r => r,
                };
                results.push(r.map_err(|e| e.to_string()));
            }
            if injected {
                // Dropping the transaction rolls it back.
                return Err("disk I/O error (a failure injected for a test)".into());
            }
            let sync = std::time::Instant::now();
            tx.commit().map_err(|e| e.to_string())?;
            synced = sync.elapsed();
            Ok(results)
        })();
        self.stats.time(began.elapsed(), synced);
        // A commit is durable only in the file at the path: one made into a file
        // deleted or moved meanwhile is not acknowledged.
        if let Some(why) = self.watch() {
            for w in batch.drain(..) {
                w.answer(Err(Failure::Closed(why.clone())));
            }
            return;
        }
        match results {
            Ok(results) => {
                self.stats.commits.fetch_add(1, Ordering::Relaxed);
                self.stats
                    .writes
                    .fetch_add(batch.len() as u64, Ordering::Relaxed);
                for (w, r) in batch.drain(..).zip(results) {
                    w.answer(r.map_err(Failure::Failed));
                }
            }
            Err(e) => {
                // Nothing of the batch is durable: every request of it fails.
                let message = format!("the database could not commit: {e}");
                for w in batch.drain(..) {
                    w.answer(Err(Failure::Failed(message.clone())));
                }
            }
        }
    }
}

impl Stats {
    /// Counts a transaction's time and its commit's.
    fn time(&self, busy: std::time::Duration, commit: std::time::Duration) {
        let ns = |d: std::time::Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let (busy, commit) = (ns(busy), ns(commit));
        self.busy_ns.fetch_add(busy, Ordering::Relaxed);
        self.commit_ns.fetch_add(commit, Ordering::Relaxed);
        self.longest_ns.fetch_max(busy, Ordering::Relaxed);
        self.longest_commit_ns.fetch_max(commit, Ordering::Relaxed);
    }
}

fn write_one(tx: &mut Conn, w: &Write, now: &str) -> db::Result<Done> {
    let json = |e: serde_json::Error| db::DbError::new(e.to_string());
    match w {
        Write::Game(game, _) => {
            let (g, summary) = &**game;
            let seats = serde_json::to_string(&g.seats).map_err(json)?;
            tx.execute(
                "INSERT INTO games (id, scenario_id, ruleset, scenario, seed, seats, created, active_ms, dice)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    &g.id,
                    &g.scenario_id,
                    &g.ruleset,
                    g.scenario.to_string(),
                    schema::seed_to_sql(g.seed),
                    seats,
                    &g.created,
                    i64::try_from(g.active_ms).unwrap_or(i64::MAX),
                    schema::generator_to_sql(&g.generator).map_err(json)?,
                ],
            )?;
            schema::write_summary(tx, summary)?;
            Ok(Done::Unit)
        }
        Write::Summaries { rows, .. } => {
            for summary in rows {
                schema::write_summary(tx, summary)?;
            }
            Ok(Done::Unit)
        }
        Write::Action {
            game, row, summary, ..
        } => {
            let n = i64::try_from(row.n).map_err(|e| db::DbError::new(e.to_string()))?;
            let last: i64 = tx
                .query_one(
                    "SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?1",
                    params![game],
                )?
                .get(0)?;
            if last != n - 1 {
                return Ok(Done::Appended(false));
            }
            let forced = serde_json::to_string(&row.forced).map_err(json)?;
            tx.execute(
                "INSERT INTO actions (game_id, n, action, forced) VALUES (?1, ?2, ?3, ?4)",
                params![game, n, row.action.to_string(), forced],
            )?;
            // The game's activity is its summary's `active_ms`: the games row is not
            // touched, a page and an index entry fewer written an action.
            schema::write_summary(tx, summary)?;
            follow::notify(tx, game, row.n)?;
            Ok(Done::Appended(true))
        }
        Write::Undo {
            game, n, summary, ..
        } => {
            if !schema::undo(tx, game, *n, summary.active_ms)? {
                return Ok(Done::Appended(false));
            }
            schema::write_summary(tx, summary)?;
            follow::notify(tx, game, n - 1)?;
            Ok(Done::Appended(true))
        }
        Write::Expire { ids, cutoff_ms, .. } => {
            schema::expire(tx, ids, *cutoff_ms, now).map(Done::Expired)
        }
        Write::Check(_) | Write::Close(_) => Ok(Done::Unit),
    }
}
