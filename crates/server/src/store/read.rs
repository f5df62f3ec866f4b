//! Reading the store: a game when it is first asked for, a page of the lobby, the
//! games idle or where the computer is to act. A few connections of their own, opened
//! at start beside the writer's (on SQLite WAL lets them read while it writes), each
//! used by one blocking thread at a time. On SQLite they stay on the file opened at
//! start, so a file deleted or moved under the server is still the one read.

use super::schema::seed_from_sql;
use super::{ActionRow, GameRow, SeatRecord, Summary};
use crate::db::{self, params, Conn, Location, Row};
use crate::error::ApiError;
use rusqlite::OpenFlags;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Condvar, Mutex, PoisonError};

/// How many connections read at once: reads are short (one game's rows, a page), and
/// the blocking threads that run them are many.
const READERS: usize = 4;

/// The connections that read, lent to one blocking thread at a time.
pub(super) struct Readers {
    pool: Mutex<Pool>,
    ready: Condvar,
}

struct Pool {
    idle: Vec<Conn>,
    closed: bool,
}

impl Readers {
    /// Opens [`READERS`] connections on the file at `path`, which exists.
    pub(super) fn open_file(path: &Path) -> rusqlite::Result<Readers> {
        let mut idle = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let conn = rusqlite::Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            db::patient(&conn)?;
            conn.pragma_update(None, "query_only", true)?;
            idle.push(Conn::Sqlite(conn));
        }
        Ok(Readers::of(idle))
    }

    /// Opens [`READERS`] connections on the database at `location`.
    pub(super) fn open(location: &Location) -> db::Result<Readers> {
        let mut idle = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            idle.push(Conn::open(location)?);
        }
        Ok(Readers::of(idle))
    }

    fn of(idle: Vec<Conn>) -> Readers {
        Readers {
            pool: Mutex::new(Pool {
                idle,
                closed: false,
            }),
            ready: Condvar::new(),
        }
    }

    /// Runs `f` on a connection, waiting for one to be free.
    pub(super) fn with<T>(
        &self,
        f: impl FnOnce(&mut Conn) -> db::Result<T>,
    ) -> Result<T, ApiError> {
        let conn = {
            let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if pool.closed {
                    return Err(ApiError::Unavailable(
                        "the database is closed: this server reads no more".into(),
                    ));
                }
                if let Some(conn) = pool.idle.pop() {
                    break conn;
                }
                pool = self
                    .ready
                    .wait(pool)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        // Given back however `f` ends, a panic included.
        struct Lent<'a>(&'a Readers, Option<Conn>);
        impl Drop for Lent<'_> {
            fn drop(&mut self) {
                let mut pool = self.0.pool.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(conn) = self.1.take() {
                    if !pool.closed {
                        pool.idle.push(conn);
                    }
                }
                self.0.ready.notify_one();
            }
        }
        let mut lent = Lent(self, Some(conn));
        let result = lent.1.as_mut().map(f);
        drop(lent);
        result
            .unwrap_or_else(|| Err(db::DbError::new("no connection")))
            .map_err(|e| ApiError::Internal(format!("the database could not be read: {e}")))
    }

    /// Closes every connection: each later read gets 503.
    pub(super) fn close(&self) {
        let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        pool.closed = true;
        pool.idle.clear();
        self.ready.notify_all();
    }
}

/// What the file holds for a game id.
#[derive(Debug)]
pub enum Load {
    /// The game's row and log, and whether its line of the lobby is stored.
    Game {
        /// Its row (boxed: the other variants are small).
        row: Box<GameRow>,
        /// Its log, in order.
        log: Vec<ActionRow>,
        /// True when its line of the lobby is stored.
        summarised: bool,
    },
    /// The game expired: its rows were deleted, its id kept.
    Expired,
    /// No game of that id.
    Missing,
    /// The game's row or log does not read (why).
    Unreadable(String),
}

/// Reads game `id` with its log.
///
/// # Errors
/// The file fails. A row that does not read is [`Load::Unreadable`], not an error.
pub fn load(conn: &mut Conn, id: &str) -> db::Result<Load> {
    let row = conn.query_opt(
        &format!(
            "SELECT scenario_id, ruleset, scenario, seed, seats, created, {},
                EXISTS (SELECT 1 FROM summaries WHERE game_id = games.id),
                (SELECT COUNT(*) FROM undone WHERE game_id = games.id), dice
             FROM games WHERE id = ?1",
            super::schema::ACTIVE_MS
        ),
        params![id],
    )?;
    let Some(r) = row else {
        let expired = conn.exists("SELECT 1 FROM expired WHERE id = ?1", params![id])?;
        return Ok(if expired {
            Load::Expired
        } else {
            Load::Missing
        });
    };
    let (scenario_id, ruleset, scenario, seed, seats, created, active_ms, summarised, undos, dice) = (
        r.get::<String>(0)?,
        r.get::<String>(1)?,
        r.get::<String>(2)?,
        r.get::<i64>(3)?,
        r.get::<String>(4)?,
        r.get::<String>(5)?,
        r.get::<i64>(6)?,
        r.get::<bool>(7)?,
        r.get::<i64>(8)?,
        r.get::<Option<String>>(9)?,
    );
    let scenario: Value = match serde_json::from_str(&scenario) {
        Ok(s) => s,
        Err(e) => return Ok(Load::Unreadable(format!("its scenario does not read: {e}"))),
    };
    let generator = match super::schema::generator_from_sql(dice.as_deref()) {
        Ok(g) => g,
        Err(e) => return Ok(Load::Unreadable(format!("its dice do not read: {e}"))),
    };
    let seats: BTreeMap<String, SeatRecord> = match serde_json::from_str(&seats) {
        Ok(s) => s,
        Err(e) => return Ok(Load::Unreadable(format!("its seats do not read: {e}"))),
    };
    let log = match log_from(conn, id, 1)? {
        Ok(log) => log,
        Err(e) => return Ok(Load::Unreadable(e)),
    };
    Ok(Load::Game {
        row: Box::new(GameRow {
            id: id.to_owned(),
            scenario_id,
            ruleset,
            scenario,
            seed: seed_from_sql(seed),
            generator,
            seats,
            created,
            active_ms: u64::try_from(active_ms).unwrap_or(0),
            undos: u64::try_from(undos).unwrap_or(0),
        }),
        log,
        summarised,
    })
}

/// Game `id`'s logged actions from action `from` on, in order; why one does not read.
///
/// # Errors
/// The database fails.
pub fn log_from(
    conn: &mut Conn,
    id: &str,
    from: u64,
) -> db::Result<Result<Vec<ActionRow>, String>> {
    let rows = conn.query(
        "SELECT n, action, forced FROM actions WHERE game_id = ?1 AND n >= ?2 ORDER BY n",
        params![id, i64::try_from(from).unwrap_or(i64::MAX)],
    )?;
    let mut log = Vec::with_capacity(rows.len());
    for r in rows {
        let (n, action, forced) = (r.get::<i64>(0)?, r.get::<String>(1)?, r.get::<String>(2)?);
        let read = || -> Result<ActionRow, String> {
            Ok(ActionRow {
                n: u64::try_from(n).map_err(|e| format!("action number {n}: {e}"))?,
                action: serde_json::from_str(&action)
                    .map_err(|e| format!("action {n} does not read: {e}"))?,
                forced: serde_json::from_str(&forced)
                    .map_err(|e| format!("the forced rolls of action {n} do not read: {e}"))?,
            })
        };
        match read() {
            Ok(a) => log.push(a),
            Err(e) => return Ok(Err(e)),
        }
    }
    Ok(Ok(log))
}

/// How many games the database holds.
///
/// # Errors
/// The database fails.
pub fn count(conn: &mut Conn) -> db::Result<usize> {
    let n: i64 = conn
        .query_one("SELECT COUNT(*) FROM games", params![])?
        .get(0)?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// The games without a line of the lobby, when the file says some lack one (only
/// after the migration to version 2, until their lines are written).
///
/// # Errors
/// The database fails.
pub fn unsummarised(conn: &mut Conn) -> db::Result<Vec<String>> {
    let pending = conn.exists("SELECT 1 FROM meta WHERE key = 'summaries'", params![])?;
    if !pending {
        return Ok(Vec::new());
    }
    ids(conn.query(
        "SELECT id FROM games WHERE NOT EXISTS
             (SELECT 1 FROM summaries WHERE game_id = games.id)
         ORDER BY id",
        params![],
    )?)
}

fn ids(rows: Vec<Row>) -> db::Result<Vec<String>> {
    rows.iter().map(|r| r.get(0)).collect()
}

/// The games where a computer seat is to act.
///
/// # Errors
/// The database fails.
pub fn ai_to_act(conn: &mut Conn) -> db::Result<Vec<String>> {
    ids(conn.query(
        "SELECT game_id FROM summaries WHERE ai_to_act = 1 ORDER BY game_id",
        params![],
    )?)
}

/// At most `limit` games not over (or without a line of the lobby) that saw no action
/// since `cutoff_ms`, the longest idle first.
///
/// # Errors
/// The database fails.
pub fn idle(conn: &mut Conn, cutoff_ms: u64, limit: usize) -> db::Result<Vec<String>> {
    // A game's activity is its summary's; a game without one yet (at the first start
    // after summaries came) its row's.
    ids(conn.query(
        "SELECT id FROM (
             SELECT game_id AS id, active_ms FROM summaries
             WHERE active_ms < ?1 AND outcome IS NULL
             UNION ALL
             SELECT id, active_ms FROM games
             WHERE active_ms < ?1
               AND NOT EXISTS (SELECT 1 FROM summaries WHERE summaries.game_id = games.id)
         ) AS idle ORDER BY active_ms, id LIMIT ?2",
        params![
            i64::try_from(cutoff_ms).unwrap_or(i64::MAX),
            i64::try_from(limit).unwrap_or(i64::MAX),
        ],
    )?)
}

/// A page of the lobby asked of the file.
#[derive(Clone, Debug, Default)]
pub struct PageQuery {
    /// Only games after this one in the list's order: its activity (ms) and id.
    pub after: Option<(u64, String)>,
    /// Only games of this ruleset.
    pub ruleset: Option<String>,
    /// Only games not over with a human seat.
    pub open: bool,
}

const COLUMNS: &str =
    "game_id, scenario_id, title, ruleset, seats, created, active_ms, n, to_act, outcome, ai_to_act";

/// The first `want` lines of the lobby after `q.after` for which `keep` holds, newest
/// activity first, then by id. Lines are read one by one from the index on activity
/// and stop once `want` are kept; a line that does not read is reported and passed.
///
/// # Errors
/// The file fails.
pub fn page(
    conn: &mut Conn,
    q: &PageQuery,
    want: usize,
    keep: &mut dyn FnMut(&Summary) -> bool,
) -> db::Result<Vec<Summary>> {
    let mut filters = String::new();
    if q.ruleset.is_some() {
        filters.push_str(" AND ruleset = ?3");
    }
    if q.open {
        filters.push_str(" AND outcome IS NULL AND humans > 0");
    }
    let order = "ORDER BY active_ms DESC, game_id";
    // Every range takes the same three parameters (activity, id, ruleset); a range
    // that does not filter on one names it in a condition that always holds.
    let active = q
        .after
        .as_ref()
        .map_or(0, |(a, _)| i64::try_from(*a).unwrap_or(i64::MAX));
    let id = q.after.as_ref().map_or("", |(_, id)| id.as_str());
    let unused = "?1 = ?1 AND ?2 = ?2";
    let unused_ruleset = if q.ruleset.is_some() {
        ""
    } else {
        " AND ?3 = ?3"
    };
    // The order's two keys run opposite ways, so the games after a cursor are read as
    // two ranges of the index: the rest of the cursor's millisecond, then older ones.
    let ranges: Vec<String> = if q.after.is_some() {
        vec![
            format!(
                "SELECT {COLUMNS} FROM summaries
                 WHERE active_ms = ?1 AND game_id > ?2{filters}{unused_ruleset} ORDER BY game_id"
            ),
            format!(
                "SELECT {COLUMNS} FROM summaries
                 WHERE active_ms < ?1 AND ?2 = ?2{filters}{unused_ruleset} {order}"
            ),
        ]
    } else {
        vec![format!(
            "SELECT {COLUMNS} FROM summaries WHERE {unused}{filters}{unused_ruleset} {order}"
        )]
    };
    let ruleset = q.ruleset.clone().unwrap_or_default();
    let mut out = Vec::new();
    for sql in ranges {
        for r in conn.query(&sql, params![active, id, &ruleset])? {
            match summary(&r) {
                Ok(s) => {
                    if keep(&s) {
                        out.push(s);
                        if out.len() >= want {
                            return Ok(out);
                        }
                    }
                }
                Err(e) => {
                    eprintln!("grognard: a line of the lobby does not read and is not listed: {e}");
                }
            }
        }
    }
    Ok(out)
}

fn summary(r: &Row) -> Result<Summary, String> {
    let id: String = r.get(0).map_err(|e| e.to_string())?;
    let bad = |what: &str, e: &dyn std::fmt::Display| format!("game {id}: {what}: {e}");
    let json = |i: usize, what: &str| -> Result<Option<Value>, String> {
        let text: Option<String> = r.get(i).map_err(|e| bad(what, &e))?;
        text.map(|t| serde_json::from_str(&t).map_err(|e| bad(what, &e)))
            .transpose()
    };
    let seats: String = r.get(4).map_err(|e| bad("seats", &e))?;
    Ok(Summary {
        scenario_id: r.get(1).map_err(|e| bad("scenario", &e))?,
        title: r.get(2).map_err(|e| bad("title", &e))?,
        ruleset: r.get(3).map_err(|e| bad("ruleset", &e))?,
        seats: serde_json::from_str(&seats).map_err(|e| bad("seats", &e))?,
        created: r.get(5).map_err(|e| bad("created", &e))?,
        active_ms: u64::try_from(r.get::<i64>(6).map_err(|e| bad("active_ms", &e))?).unwrap_or(0),
        n: u64::try_from(r.get::<i64>(7).map_err(|e| bad("n", &e))?).unwrap_or(0),
        to_act: json(8, "to_act")?,
        outcome: json(9, "outcome")?,
        ai_to_act: r.get(10).map_err(|e| bad("ai_to_act", &e))?,
        id,
    })
}

/// Reads one game's log straight from the store (for tests and tools).
///
/// # Errors
/// The store cannot be read.
pub fn read_log(location: &Location, game: &str) -> Result<Vec<ActionRow>, ApiError> {
    let fail = |e: db::DbError| ApiError::Internal(format!("database `{location}`: {e}"));
    let rows = db::off_runtime(|| -> db::Result<Vec<Row>> {
        let mut conn = match location {
            Location::Sqlite(path) => Conn::Sqlite(rusqlite::Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY,
            )?),
            Location::Postgres(_) => Conn::open(location)?,
        };
        conn.query(
            "SELECT n, action, forced FROM actions WHERE game_id = ?1 ORDER BY n",
            params![game],
        )
    })
    .map_err(fail)?;
    let mut out = Vec::new();
    for r in rows {
        let n: i64 = r.get(0).map_err(fail)?;
        let action: String = r.get(1).map_err(fail)?;
        let forced: String = r.get(2).map_err(fail)?;
        out.push(ActionRow {
            n: u64::try_from(n).unwrap_or(0),
            action: serde_json::from_str(&action).unwrap_or(Value::Null),
            forced: serde_json::from_str(&forced).unwrap_or_default(),
        });
    }
    Ok(out)
}
