//! The store: every game as its scenario, seed, seats and append-only action log, in a
//! SQLite file (the default) or a PostgreSQL database ([`crate::db`]).
//!
//! One writer thread owns the write connection. Requests queue to it; it commits
//! whatever has queued in one transaction (group commit) and answers each request only
//! after `COMMIT` returns, so an acknowledged action survives a crash of the process or
//! of the machine: SQLite with `synchronous=FULL` in WAL mode, PostgreSQL with
//! `synchronous_commit` on.
//!
//! An action `n` is inserted only when the game's log holds exactly `n - 1`
//! actions; with the primary key `(game_id, n)` this makes exactly one of two
//! concurrent writers win. Triggers refuse every `UPDATE` of the log, and every
//! `DELETE` but those of a game marked expired and that of an undo: a game's last
//! action, recorded in `undone` just before.
//!
//! A SQLite file is guarded ([`guard`]): one server per file, a file the server can write,
//! and before each commit and each acknowledgement a check that the file is still the
//! one at its path; once it is not, every write is refused (503).
//!
//! Reads go through a few connections of their own ([`read`]), opened at start, for
//! blocking threads: a game loaded when first asked for, a page of the lobby, the
//! games idle or where the computer is to act.

mod clock;
pub mod follow;
mod guard;
pub mod outside;
pub mod read;
mod schema;
mod schema_pg;
mod writer;

pub use clock::{now_ms, parse_rfc3339, rfc3339};
pub use read::{read_log, Load, PageQuery};

pub use guard::sibling;

use crate::db::{self, params, Conn, Location};
use crate::error::ApiError;
use grognard_engine::dice_stream::Generator;
use guard::{Identity, Lock};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use writer::Writer;

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
    /// The generator of the dice (column `dice`, NULL for SplitMix64 from the seed).
    pub generator: Generator,
    /// Each side's seat.
    pub seats: BTreeMap<String, SeatRecord>,
    /// When it was created (UTC, RFC 3339).
    pub created: String,
    /// When it last saw an action, or was created: milliseconds since 1970 (UTC).
    pub active_ms: u64,
    /// How many of its actions have been taken back (rows of `undone`).
    pub undos: u64,
}

/// A game's line of the lobby, stored beside it and written in the same transaction
/// as its creation and each of its actions.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The game's id.
    pub id: String,
    /// The built-in scenario it was started from.
    pub scenario_id: String,
    /// The scenario's title.
    pub title: String,
    /// The ruleset's name.
    pub ruleset: String,
    /// Each side's kind of seat: `human` or `ai`.
    pub seats: BTreeMap<String, String>,
    /// When it was created (UTC, RFC 3339).
    pub created: String,
    /// When it last saw an action, or was created: milliseconds since 1970 (UTC).
    pub active_ms: u64,
    /// How many actions it holds.
    pub n: u64,
    /// Whose decision it is, as the game object's `to_act`; `None` once over.
    pub to_act: Option<Value>,
    /// How it ended, as the game object's `outcome`; `None` while it goes on.
    pub outcome: Option<Value>,
    /// True when the side to act is a computer seat.
    pub ai_to_act: bool,
}

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

/// What the file held at start: only what is counted, never a game.
pub struct Opened {
    /// How many games it holds.
    pub games: usize,
    /// The games that did not load when they were replayed for their lines of the
    /// lobby (only at the first start after the migration to schema version 2), with
    /// why.
    pub unloadable: Vec<(String, String)>,
}

/// Makes a stored game's line of the lobby, replaying its log; why it cannot.
pub type Summarise<'a> = &'a mut dyn FnMut(GameRow, Vec<ActionRow>) -> Result<Summary, String>;

/// Gives every game without a line of the lobby its line, when the file says some lack
/// one (the first start after the migration to schema version 2): each such game is
/// read and replayed once by `summarise`, and the lines written in transactions of a
/// few hundred. Returns the games that did not load, with why; they get no line.
fn backfill(conn: &mut Conn, summarise: Summarise<'_>) -> db::Result<Vec<(String, String)>> {
    let ids = read::unsummarised(conn)?;
    let mut unloadable = Vec::new();
    for chunk in ids.chunks(BATCH) {
        let mut tx = conn.transaction()?;
        for id in chunk {
            match read::load(&mut tx, id)? {
                read::Load::Game { row, log, .. } => match summarise(*row, log) {
                    Ok(summary) => schema::write_summary(&mut tx, &summary)?,
                    Err(why) => unloadable.push((id.clone(), why)),
                },
                read::Load::Unreadable(why) => unloadable.push((id.clone(), why)),
                read::Load::Expired | read::Load::Missing => {}
            }
        }
        tx.commit()?;
    }
    conn.execute("DELETE FROM meta WHERE key = 'summaries'", params![])?;
    Ok(unloadable)
}

/// Why a write was not made durable.
#[derive(Debug)]
enum Failure {
    /// The transaction failed; nothing of it is in the file.
    Failed(String),
    /// The store writes no more: closed, or its file is no longer at its path.
    Closed(String),
}

impl From<Failure> for ApiError {
    fn from(f: Failure) -> ApiError {
        match f {
            Failure::Failed(m) => ApiError::Internal(m),
            Failure::Closed(m) => ApiError::Unavailable(m),
        }
    }
}

type Reply<T> = oneshot::Sender<Result<T, Failure>>;

enum Write {
    Game(Box<(GameRow, Summary)>, Reply<()>),
    Action {
        game: String,
        row: ActionRow,
        summary: Box<Summary>,
        reply: Reply<bool>,
    },
    Undo {
        game: String,
        n: u64,
        summary: Box<Summary>,
        reply: Reply<bool>,
    },
    Summaries {
        rows: Vec<Summary>,
        reply: Reply<()>,
    },
    Expire {
        ids: Vec<String>,
        cutoff_ms: u64,
        reply: Reply<Vec<String>>,
    },
    Check(Reply<()>),
    Close(oneshot::Sender<()>),
}

/// What a write did.
enum Done {
    Unit,
    Appended(bool),
    Expired(Vec<String>),
}

impl Write {
    fn answer(self, result: Result<Done, Failure>) {
        fn send<T>(reply: Reply<T>, r: Result<Done, Failure>, pick: impl Fn(Done) -> T) {
            let _ = reply.send(r.map(pick));
        }
        match self {
            Write::Game(_, reply) | Write::Check(reply) | Write::Summaries { reply, .. } => {
                send(reply, result, |_| ());
            }
            Write::Action { reply, .. } | Write::Undo { reply, .. } => {
                send(reply, result, |d| matches!(d, Done::Appended(true)));
            }
            Write::Expire { reply, .. } => send(reply, result, |d| match d {
                Done::Expired(ids) => ids,
                _ => Vec::new(),
            }),
            Write::Close(reply) => {
                let _ = reply.send(());
            }
        }
    }
}

/// The write side of the store: a handle to the writer thread.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::UnboundedSender<Write>,
    stats: Arc<Stats>,
    faults: Arc<AtomicU32>,
    readers: Arc<read::Readers>,
    /// A PostgreSQL database, which other servers may share.
    shared: Option<Location>,
    closed: Arc<AtomicBool>,
    /// This server's name in the leases of the computer's seats.
    holder: Arc<str>,
}

/// What the writer has done since the start.
#[derive(Debug, Default)]
pub struct Stats {
    /// Transactions committed (each one sync of the WAL).
    pub commits: AtomicU64,
    /// Requests written in them.
    pub writes: AtomicU64,
    /// Time spent in transactions, from the first statement to the commit's return, ns.
    pub busy_ns: AtomicU64,
    /// Of it, time spent in the commits themselves (the WAL's write and sync), ns.
    pub commit_ns: AtomicU64,
    /// The longest transaction, ns.
    pub longest_ns: AtomicU64,
    /// The longest commit alone, ns.
    pub longest_commit_ns: AtomicU64,
}

/// How long the writer's transactions took since the start ([`Store::commit_times`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CommitTimes {
    /// Time spent in transactions, from the first statement to the commit's return, ns.
    pub busy_ns: u64,
    /// Of it, time spent in the commits themselves (the WAL's write and sync), ns.
    pub commit_ns: u64,
    /// The longest transaction, ns.
    pub longest_ns: u64,
    /// The longest commit alone, ns.
    pub longest_commit_ns: u64,
}

/// The most requests one transaction commits.
const BATCH: usize = 512;

fn open_connection(path: &Path) -> rusqlite::Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open(path)?;
    db::patient(&conn)?;
    // WAL lets readers run beside the writer; FULL syncs the WAL at every commit,
    // which is what makes an acknowledgement durable.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

impl Store {
    /// Opens the store at `location` and starts the writer thread; no game is read.
    /// A SQLite file: takes its lock, checks that it and its folder can be written,
    /// brings its schema up to date (giving its games their lines of the lobby with
    /// `summarise` after the migration to version 2). A PostgreSQL database: connects,
    /// creates grognard's schema in an empty database or checks the one it holds.
    ///
    /// # Errors
    /// Another server holds the file; the file, its journal or its folder cannot be
    /// written; the database cannot be reached; it is not a grognard database.
    pub fn open(
        location: &Location,
        summarise: Summarise<'_>,
    ) -> Result<(Store, Opened), ApiError> {
        match location {
            Location::Sqlite(path) => Store::open_file(path, summarise),
            Location::Postgres(_) => db::off_runtime(|| Store::open_postgres(location)),
        }
    }

    fn open_file(path: &Path, summarise: Summarise<'_>) -> Result<(Store, Opened), ApiError> {
        let refuse = |e: String| ApiError::Internal(format!("database `{}`: {e}", path.display()));
        // The lock first: nothing else of this process touches a file another server
        // of it may hold.
        let lock = guard::lock(path).map_err(refuse)?;
        guard::check_writable(path).map_err(refuse)?;
        let raw = open_connection(path).map_err(|e| storage(path, &e.into()))?;
        if raw.is_readonly(rusqlite::MAIN_DB).unwrap_or(true) {
            return Err(refuse(
                "SQLite opened it read-only; the server refuses to start on a file it cannot \
                 write"
                    .into(),
            ));
        }
        let mut conn = Conn::Sqlite(raw);
        let now = now_ms();
        schema::migrate(&mut conn, i64::try_from(now).unwrap_or(i64::MAX))
            .map_err(|e| storage(path, &e))?;
        schema::mark_opened(&mut conn, &rfc3339(now)).map_err(|e| {
            refuse(format!(
                "cannot write it ({e}); the server refuses to start on a file it cannot write"
            ))
        })?;
        let identity = Identity::of(path).map_err(refuse)?;
        let unloadable = backfill(&mut conn, summarise).map_err(|e| storage(path, &e))?;
        let games = read::count(&mut conn).map_err(|e| storage(path, &e))?;
        let readers = read::Readers::open_file(path).map_err(|e| storage(path, &e.into()))?;
        Store::start(
            conn,
            Some((identity, lock)),
            readers,
            Opened { games, unloadable },
            None,
        )
    }

    fn open_postgres(location: &Location) -> Result<(Store, Opened), ApiError> {
        let refuse = |e: db::DbError| ApiError::Internal(format!("database `{location}`: {e}"));
        let mut conn = Conn::open(location).map_err(|e| ApiError::Internal(e.message))?;
        let now = now_ms();
        schema_pg::create(&mut conn).map_err(refuse)?;
        schema::mark_opened(&mut conn, &rfc3339(now)).map_err(refuse)?;
        let games = read::count(&mut conn).map_err(refuse)?;
        let readers = read::Readers::open(location).map_err(refuse)?;
        let opened = Opened {
            games,
            unloadable: Vec::new(),
        };
        Store::start(conn, None, readers, opened, Some(location.clone()))
    }

    fn start(
        conn: Conn,
        guard: Option<(Identity, Lock)>,
        readers: read::Readers,
        opened: Opened,
        shared: Option<Location>,
    ) -> Result<(Store, Opened), ApiError> {
        let (identity, lock) = guard.unzip();
        let (tx, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(Stats::default());
        let faults = Arc::new(AtomicU32::new(0));
        let writer = Writer {
            conn,
            identity,
            gone: None,
            faults: Arc::clone(&faults),
            stats: Arc::clone(&stats),
        };
        std::thread::Builder::new()
            .name("grognard-db-writer".into())
            .spawn(move || writer.run(rx, lock))
            .map_err(|e| ApiError::Internal(format!("cannot start the database writer: {e}")))?;
        Ok((
            Store {
                tx,
                stats,
                faults,
                readers: Arc::new(readers),
                shared,
                closed: Arc::new(AtomicBool::new(false)),
                holder: crate::token::fresh().into(),
            },
            opened,
        ))
    }

    /// Stores a new game and its line of the lobby; returns once committed.
    ///
    /// # Errors
    /// The database refused or failed (500), or writes no more (503).
    pub async fn insert_game(&self, row: GameRow, summary: Summary) -> Result<(), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Game(Box::new((row, summary)), reply))?;
        Ok(rx.await.map_err(|_| gone())??)
    }

    /// Appends action `row.n` to a game's log and writes its line of the lobby after the
    /// action (`summary`, whose `active_ms` marks the game active), all in one
    /// transaction; `Ok(false)` when the log does not hold exactly `row.n - 1` actions
    /// (someone else wrote first), and nothing is written. Returns once committed.
    ///
    /// # Errors
    /// The database failed (500), or writes no more (503).
    pub async fn append(
        &self,
        game: &str,
        row: ActionRow,
        summary: Summary,
    ) -> Result<bool, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Action {
            game: game.to_owned(),
            row,
            summary: Box::new(summary),
            reply,
        })?;
        Ok(rx.await.map_err(|_| gone())??)
    }

    /// Takes back action `n`, the last of a game's log, at `summary.active_ms`: records
    /// it in `undone`, deletes its row and writes its line of the lobby after the undo
    /// (`summary`, which marks the game active), all in one transaction; `Ok(false)`
    /// when `n` is not the log's last action, and nothing is written. Returns once
    /// committed.
    ///
    /// # Errors
    /// The database failed (500), or writes no more (503).
    pub async fn undo(&self, game: &str, n: u64, summary: Summary) -> Result<bool, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Undo {
            game: game.to_owned(),
            n,
            summary: Box::new(summary),
            reply,
        })?;
        Ok(rx.await.map_err(|_| gone())??)
    }

    /// Writes the lines of the lobby of games already stored.
    ///
    /// # Errors
    /// The database failed (500), or writes no more (503).
    pub async fn write_summaries(&self, rows: Vec<Summary>) -> Result<(), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Summaries { rows, reply })?;
        Ok(rx.await.map_err(|_| gone())??)
    }

    /// Runs `f` on one of the connections that read: blocking work, for a blocking
    /// thread. It sees every transaction committed before it starts.
    ///
    /// # Errors
    /// The store is closed (503), or `f` fails (500).
    pub fn read<T>(&self, f: impl FnOnce(&mut Conn) -> db::Result<T>) -> Result<T, ApiError> {
        self.readers.with(f)
    }

    /// Expires the games of `ids` that saw no action since `cutoff_ms`: each is marked
    /// expired, and its log and row deleted. Returns the ids expired.
    ///
    /// # Errors
    /// The database failed (500), or writes no more (503).
    pub async fn expire(&self, ids: Vec<String>, cutoff_ms: u64) -> Result<Vec<String>, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Expire {
            ids,
            cutoff_ms,
            reply,
        })?;
        Ok(rx.await.map_err(|_| gone())??)
    }

    /// Checks that the file is still the one at its path (once it is not, the store
    /// writes no more and says so loudly).
    ///
    /// # Errors
    /// 503 once it is not.
    pub async fn check(&self) -> Result<(), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.send(Write::Check(reply))?;
        Ok(rx.await.map_err(|_| gone())??)
    }

    /// Commits what has queued, closes the file and releases its lock; returns once
    /// done. Every later write and read gets 503.
    pub async fn close(&self) {
        self.closed.store(true, Ordering::Release);
        if self.shared.is_some() {
            // The computer's seats this server held go to the next server at once.
            let me = self.clone();
            let _ = tokio::task::spawn_blocking(move || {
                me.readers.with(|c| {
                    c.execute("DELETE FROM leases WHERE holder = ?1", params![&*me.holder])
                })
            })
            .await;
        }
        self.readers.close();
        let (reply, rx) = oneshot::channel();
        if self.send(Write::Close(reply)).is_ok() {
            let _ = rx.await;
        }
    }

    /// On a PostgreSQL database, which other servers may share: what they write, as
    /// (game, its length after it), from a listening thread that stops when the store
    /// closes. `None` on a SQLite file, which has one server.
    ///
    /// # Errors
    /// The listening thread cannot be started.
    pub fn follow(&self) -> Result<Option<mpsc::UnboundedReceiver<(String, u64)>>, ApiError> {
        let Some(location) = &self.shared else {
            return Ok(None);
        };
        follow::listen(location.clone(), Arc::clone(&self.closed))
            .map(Some)
            .map_err(|e| ApiError::Internal(format!("cannot listen to the other servers: {e}")))
    }

    /// True when other servers may share the database (PostgreSQL): their computer
    /// seats, leases and commits are to be watched for.
    #[must_use]
    pub fn is_shared(&self) -> bool {
        self.shared.is_some()
    }

    /// Takes or renews game `game`'s lease of the computer's seats for `ttl_ms` from
    /// now: true when this server may play them. Always true on a SQLite file, which
    /// has one server; on PostgreSQL false while another server holds an unexpired
    /// lease. Blocking work, for a blocking thread.
    ///
    /// # Errors
    /// The database fails (500), or is closed (503).
    pub fn lease(&self, game: &str, ttl_ms: u64) -> Result<bool, ApiError> {
        if self.shared.is_none() {
            return Ok(true);
        }
        let now = now_ms();
        self.readers
            .with(|c| follow::lease(c, game, &self.holder, now, now.saturating_add(ttl_ms)))
    }

    /// A fault injected for tests: each of the next `k` transactions is written and
    /// then rolled back instead of committed, and every request in it is answered
    /// with the error a full disk or a locked file gives. The file stays the real
    /// file; nothing else changes.
    pub fn fail_commits(&self, k: u32) {
        self.faults.store(k, Ordering::SeqCst);
    }

    /// Transactions committed and requests written so far.
    #[must_use]
    pub fn stats(&self) -> (u64, u64) {
        (
            self.stats.commits.load(Ordering::Relaxed),
            self.stats.writes.load(Ordering::Relaxed),
        )
    }

    /// How long the writer's transactions and their commits took so far.
    #[must_use]
    pub fn commit_times(&self) -> CommitTimes {
        let s = &self.stats;
        CommitTimes {
            busy_ns: s.busy_ns.load(Ordering::Relaxed),
            commit_ns: s.commit_ns.load(Ordering::Relaxed),
            longest_ns: s.longest_ns.load(Ordering::Relaxed),
            longest_commit_ns: s.longest_commit_ns.load(Ordering::Relaxed),
        }
    }

    fn send(&self, w: Write) -> Result<(), ApiError> {
        self.tx.send(w).map_err(|_| gone())
    }
}

fn gone() -> ApiError {
    ApiError::Unavailable("the database is closed: this server accepts no more writes".into())
}

fn storage(path: &Path, e: &db::DbError) -> ApiError {
    ApiError::Internal(format!("database `{}`: {e}", path.display()))
}
