//! The SQLite file: every game as its scenario, seed, seats and append-only action log.
//!
//! One writer thread owns the write connection. Requests queue to it; it commits
//! whatever has queued in one transaction (group commit) with `synchronous=FULL` in
//! WAL mode, and answers each request only after `COMMIT` returns, so an
//! acknowledged action survives a crash of the process or of the machine.
//!
//! An action `n` is inserted only when the game's log holds exactly `n - 1`
//! actions; with the primary key `(game_id, n)` this makes exactly one of two
//! concurrent writers win. Triggers refuse every `UPDATE` and `DELETE` of the log.

use crate::error::ApiError;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

const SCHEMA: &str = r"
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    scenario_id TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    scenario    TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    seats       TEXT NOT NULL,
    created     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    n       INTEGER NOT NULL CHECK (n >= 1),
    action  TEXT NOT NULL,
    forced  TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS actions_no_update BEFORE UPDATE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS actions_no_delete BEFORE DELETE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
";

/// Who sits in a seat, as stored: a person holding a token (only its SHA-256 is kept)
/// or the computer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatRecord {
    /// A person; the hex SHA-256 of their token.
    Human {
        /// Lowercase hex SHA-256 of the token.
        token_sha256: String,
    },
    /// The computer opponent.
    Ai {
        /// Its level; the server's `--ai-level` when the game did not name one
        /// (and in games stored before levels).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<grognard_engine::Level>,
    },
}

/// A game's row: everything but the log.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// The built-in scenario it was started from.
    pub scenario_id: String,
    /// The ruleset's name.
    pub ruleset: String,
    /// The validated scenario as JSON, so that a game outlives edits to its file.
    pub scenario: Value,
    /// The seed of the dice.
    pub seed: u64,
    /// Each side's seat.
    pub seats: BTreeMap<String, SeatRecord>,
    /// When it was created (UTC, RFC 3339).
    pub created: String,
}

/// A stored game with its log, as read at start.
pub type StoredGame = (GameRow, Vec<ActionRow>);

/// One logged action.
#[derive(Clone, Debug)]
pub struct ActionRow {
    /// Its place in the log, from 1.
    pub n: u64,
    /// The action as the ruleset reads it.
    pub action: Value,
    /// Forced die results it consumed (none in served games; kept for saves).
    pub forced: Vec<u32>,
}

enum Write {
    Game(Box<GameRow>, oneshot::Sender<Result<(), String>>),
    Action {
        game: String,
        row: ActionRow,
        reply: oneshot::Sender<Result<bool, String>>,
    },
}

/// The write side of the store: a handle to the writer thread.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::UnboundedSender<Write>,
    stats: Arc<Stats>,
}

/// What the writer has done since the start.
#[derive(Debug, Default)]
pub struct Stats {
    /// Transactions committed (each one sync of the WAL).
    pub commits: AtomicU64,
    /// Requests written in them.
    pub writes: AtomicU64,
}

/// The most requests one transaction commits.
const BATCH: usize = 512;

fn open_connection(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    // WAL lets readers run beside the writer; FULL syncs the WAL at every commit,
    // which is what makes an acknowledgement durable.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

fn seed_to_sql(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

fn seed_from_sql(seed: i64) -> u64 {
    u64::from_ne_bytes(seed.to_ne_bytes())
}

impl Store {
    /// Opens (or creates) the file, reads every game with its log, and starts the
    /// writer thread.
    ///
    /// # Errors
    /// The file cannot be opened, is not a grognard database, or holds a row that does
    /// not read.
    pub fn open(path: &Path) -> Result<(Store, Vec<StoredGame>), ApiError> {
        let conn = open_connection(path).map_err(|e| storage(path, &e))?;
        let games = load_all(&conn).map_err(|e| storage(path, &e))?;
        let (tx, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(Stats::default());
        let counts = Arc::clone(&stats);
        std::thread::Builder::new()
            .name("grognard-sqlite-writer".into())
            .spawn(move || writer(conn, rx, &counts))
            .map_err(|e| ApiError::Internal(format!("cannot start the database writer: {e}")))?;
        Ok((Store { tx, stats }, games))
    }

    /// Stores a new game; returns once committed.
    ///
    /// # Errors
    /// The database refused or failed.
    pub async fn insert_game(&self, row: GameRow) -> Result<(), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Game(Box::new(row), reply))?;
        rx.await.map_err(|_| gone())?.map_err(ApiError::Internal)
    }

    /// Appends action `row.n` to a game's log; `Ok(false)` when the log does not hold
    /// exactly `row.n - 1` actions (someone else wrote first). Returns once committed.
    ///
    /// # Errors
    /// The database failed.
    pub async fn append(&self, game: &str, row: ActionRow) -> Result<bool, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Action {
            game: game.to_owned(),
            row,
            reply,
        })?;
        rx.await.map_err(|_| gone())?.map_err(ApiError::Internal)
    }

    /// Transactions committed and requests written so far.
    #[must_use]
    pub fn stats(&self) -> (u64, u64) {
        (
            self.stats.commits.load(Ordering::Relaxed),
            self.stats.writes.load(Ordering::Relaxed),
        )
    }

    fn send(&self, w: Write) -> Result<(), ApiError> {
        self.tx.send(w).map_err(|_| gone())
    }
}

fn gone() -> ApiError {
    ApiError::Internal("the database writer has stopped".into())
}

fn storage(path: &Path, e: &rusqlite::Error) -> ApiError {
    ApiError::Internal(format!("database `{}`: {e}", path.display()))
}

fn load_all(conn: &Connection) -> rusqlite::Result<Vec<StoredGame>> {
    let mut games = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT id, scenario_id, ruleset, scenario, seed, seats, created FROM games ORDER BY created, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, i64>(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, String>(6)?,
        ))
    })?;
    let mut actions =
        conn.prepare("SELECT n, action, forced FROM actions WHERE game_id = ?1 ORDER BY n")?;
    for row in rows {
        let (id, scenario_id, ruleset, scenario, seed, seats, created) = row?;
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            rusqlite::Error::ToSqlConversionFailure(format!("game {id}: {what}: {e}").into())
        };
        // A row that does not read is reported and left out: one bad row must not stop
        // the server (issue 14); only the database's own errors do.
        let mut read = || -> rusqlite::Result<_> {
            let scenario: Value =
                serde_json::from_str(&scenario).map_err(|e| bad("scenario", &e))?;
            let seats: BTreeMap<String, SeatRecord> =
                serde_json::from_str(&seats).map_err(|e| bad("seats", &e))?;
            let log = actions
                .query_map([&id], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                    ))
                })?
                .map(|r| {
                    let (n, action, forced) = r?;
                    Ok(ActionRow {
                        n: u64::try_from(n).map_err(|e| bad("action number", &e))?,
                        action: serde_json::from_str(&action).map_err(|e| bad("action", &e))?,
                        forced: serde_json::from_str(&forced)
                            .map_err(|e| bad("forced rolls", &e))?,
                    })
                })
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((scenario, seats, log))
        };
        let (scenario, seats, log) = match read() {
            Ok(read) => read,
            Err(rusqlite::Error::ToSqlConversionFailure(e)) => {
                eprintln!("grognard: {e}: the game does not read and is not served");
                continue;
            }
            Err(e) => return Err(e),
        };
        games.push((
            GameRow {
                id,
                scenario_id,
                ruleset,
                scenario,
                seed: seed_from_sql(seed),
                seats,
                created,
            },
            log,
        ));
    }
    Ok(games)
}

/// The writer thread: takes what has queued, commits it in one transaction, answers.
fn writer(mut conn: Connection, mut rx: mpsc::UnboundedReceiver<Write>, stats: &Stats) {
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(first) = rx.blocking_recv() {
        batch.push(first);
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let n = batch.len() as u64;
        if commit(&mut conn, &mut batch) {
            stats.commits.fetch_add(1, Ordering::Relaxed);
            stats.writes.fetch_add(n, Ordering::Relaxed);
        }
    }
}

/// Commits a batch and answers each request; true when the transaction committed.
fn commit(conn: &mut Connection, batch: &mut Vec<Write>) -> bool {
    let results: Result<Vec<Result<bool, String>>, rusqlite::Error> = (|| {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut results = Vec::with_capacity(batch.len());
        for w in batch.iter() {
            results.push(write_one(&tx, w).map_err(|e| e.to_string()));
        }
        tx.commit()?;
        Ok(results)
    })();
    match results {
        Ok(results) => {
            for (w, r) in batch.drain(..).zip(results) {
                match w {
                    Write::Game(_, reply) => {
                        let _ = reply.send(r.map(|_| ()));
                    }
                    Write::Action { reply, .. } => {
                        let _ = reply.send(r);
                    }
                }
            }
            true
        }
        Err(e) => {
            // Nothing of the batch is durable: every request of it fails.
            let message = format!("the database could not commit: {e}");
            for w in batch.drain(..) {
                match w {
                    Write::Game(_, reply) => {
                        let _ = reply.send(Err(message.clone()));
                    }
                    Write::Action { reply, .. } => {
                        let _ = reply.send(Err(message.clone()));
                    }
                }
            }
            false
        }
    }
}

fn write_one(tx: &rusqlite::Transaction<'_>, w: &Write) -> rusqlite::Result<bool> {
    match w {
        Write::Game(g, _) => {
            tx.prepare_cached(
                "INSERT INTO games (id, scenario_id, ruleset, scenario, seed, seats, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                g.id,
                g.scenario_id,
                g.ruleset,
                g.scenario.to_string(),
                seed_to_sql(g.seed),
                serde_json::to_string(&g.seats).expect("seats serialise"),
                g.created,
            ])?;
            Ok(true)
        }
        Write::Action { game, row, .. } => {
            let n = i64::try_from(row.n)
                .map_err(|e| rusqlite::Error::ToSqlConversionFailure(e.into()))?;
            let last: i64 = tx
                .prepare_cached("SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?1")?
                .query_row([game], |r| r.get(0))
                .optional()?
                .unwrap_or(0);
            if last != n - 1 {
                return Ok(false);
            }
            tx.prepare_cached(
                "INSERT INTO actions (game_id, n, action, forced) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                game,
                n,
                row.action.to_string(),
                serde_json::to_string(&row.forced).expect("numbers serialise"),
            ])?;
            Ok(true)
        }
    }
}

/// Reads one game's log straight from the file (for tests and tools).
///
/// # Errors
/// The file cannot be read.
pub fn read_log(path: &Path, game: &str) -> Result<Vec<ActionRow>, ApiError> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| storage(path, &e))?;
    let mut stmt = conn
        .prepare("SELECT n, action, forced FROM actions WHERE game_id = ?1 ORDER BY n")
        .map_err(|e| storage(path, &e))?;
    let rows = stmt
        .query_map([game], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .map_err(|e| storage(path, &e))?;
    let mut out = Vec::new();
    for r in rows {
        let (n, action, forced) = r.map_err(|e| storage(path, &e))?;
        out.push(ActionRow {
            n: u64::try_from(n).unwrap_or(0),
            action: serde_json::from_str(&action).unwrap_or(Value::Null),
            forced: serde_json::from_str(&forced).unwrap_or_default(),
        });
    }
    Ok(out)
}
