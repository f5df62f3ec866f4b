//! The tables of the file, their migrations, and reading every game at start.
//!
//! `PRAGMA user_version` numbers the schema. Version 0 is the first one (games and
//! an append-only log); version 1 adds when each game last saw an action
//! (`games.active_ms`), the tombstones of expired games (`expired`), a `meta` table,
//! and lets a game's rows be deleted only once it is marked expired.

use super::{ActionRow, GameRow, SeatRecord, StoredGame};
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// The schema of version 0, as first shipped; every file starts from it.
const SCHEMA_0: &str = r"
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

/// From version 0 to 1. The log stays append-only for every game not marked expired:
/// the delete trigger now lets through only the rows of a game in `expired`, which the
/// sweep writes in the same transaction as the deletes.
const MIGRATION_1: &str = r"
ALTER TABLE games ADD COLUMN active_ms INTEGER NOT NULL DEFAULT 0;
UPDATE games SET active_ms = ?1;
CREATE TABLE expired (
    id      TEXT PRIMARY KEY,
    expired TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
DROP TRIGGER actions_no_delete;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN NOT EXISTS (SELECT 1 FROM expired WHERE id = OLD.game_id)
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TRIGGER games_no_delete BEFORE DELETE ON games
WHEN NOT EXISTS (SELECT 1 FROM expired WHERE id = OLD.id)
BEGIN SELECT RAISE(ABORT, 'a game is deleted only once it has expired'); END;
PRAGMA user_version = 1;
";

/// The schema version this server writes.
pub const VERSION: i64 = 1;

/// Brings the file to [`VERSION`], each step in one transaction. Games of a file
/// older than version 1 count as active at `now_ms`, the time of the migration: a
/// game played yesterday is not expired for want of a date.
///
/// # Errors
/// The file is of a newer schema, or a step fails (nothing of it is kept).
pub fn migrate(conn: &mut Connection, now_ms: i64) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA_0)?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > VERSION {
        return Err(rusqlite::Error::ToSqlConversionFailure(
            format!(
                "the file is of schema version {version}, newer than this server's \
                 {VERSION}: run a newer grognard"
            )
            .into(),
        ));
    }
    if version < 1 {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // `execute_batch` takes no parameters: the time goes in as a literal number.
        tx.execute_batch(&MIGRATION_1.replace("?1", &now_ms.to_string()))?;
        tx.commit()?;
    }
    Ok(())
}

/// Writes when this server opened the file: a real write, so a file that cannot be
/// written is refused at start rather than at the first action.
///
/// # Errors
/// The write fails.
pub fn mark_opened(conn: &Connection, now: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', ?1)",
        params![now],
    )?;
    Ok(())
}

pub(super) fn seed_to_sql(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

fn seed_from_sql(seed: i64) -> u64 {
    u64::from_ne_bytes(seed.to_ne_bytes())
}

/// The ids of the expired games.
///
/// # Errors
/// The file cannot be read.
pub fn load_expired(conn: &Connection) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare("SELECT id FROM expired")?;
    let ids = stmt.query_map([], |r| r.get::<_, String>(0))?;
    ids.collect()
}

/// Every game with its log.
///
/// # Errors
/// The file cannot be read. A row that does not read is reported on standard error
/// and left out.
pub fn load_all(conn: &Connection) -> rusqlite::Result<Vec<StoredGame>> {
    let mut games = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT id, scenario_id, ruleset, scenario, seed, seats, created, active_ms
         FROM games ORDER BY created, id",
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
            r.get::<_, i64>(7)?,
        ))
    })?;
    let mut actions =
        conn.prepare("SELECT n, action, forced FROM actions WHERE game_id = ?1 ORDER BY n")?;
    for row in rows {
        let (id, scenario_id, ruleset, scenario, seed, seats, created, active_ms) = row?;
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
                active_ms: u64::try_from(active_ms).unwrap_or(0),
            },
            log,
        ));
    }
    Ok(games)
}

/// Expires the games of `ids` still idle since before `cutoff_ms`: marks each in
/// `expired` (which lets its rows be deleted), deletes its log and its row. Returns
/// the ids expired; a game that saw an action since it was chosen is left alone.
///
/// # Errors
/// The file fails.
pub fn expire(
    tx: &rusqlite::Transaction<'_>,
    ids: &[String],
    cutoff_ms: u64,
    now: &str,
) -> rusqlite::Result<Vec<String>> {
    let cutoff = i64::try_from(cutoff_ms).unwrap_or(i64::MAX);
    let mut done = Vec::new();
    for id in ids {
        let active: Option<i64> = tx
            .prepare_cached("SELECT active_ms FROM games WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        if active.is_none_or(|a| a >= cutoff) {
            continue;
        }
        tx.prepare_cached("INSERT OR REPLACE INTO expired (id, expired) VALUES (?1, ?2)")?
            .execute(params![id, now])?;
        tx.prepare_cached("DELETE FROM actions WHERE game_id = ?1")?
            .execute([id])?;
        tx.prepare_cached("DELETE FROM games WHERE id = ?1")?
            .execute([id])?;
        done.push(id.clone());
    }
    Ok(done)
}
