//! The tables of the file and their migrations.
//!
//! `PRAGMA user_version` numbers the schema. Version 0 is the first one (games and
//! an append-only log); version 1 adds when each game last saw an action
//! (`games.active_ms`), the tombstones of expired games (`expired`), a `meta` table,
//! and lets a game's rows be deleted only once it is marked expired; version 2 adds
//! each game's line of the lobby (`summaries`), kept by every commit, so that the
//! list, the expiry sweep and the computer's resumption read the file instead of
//! every game replayed in memory; version 3 lets a player take back the last action
//! of a game (an undo, issue 15): the action goes to `undone`, and only then may its
//! row, the last of its game, be deleted; version 4 adds each game's generator of the
//! dice (`games.dice`, issue 19): NULL for SplitMix64 from the seed, as every game
//! before, else the generator as JSON (`{"kind": "chacha20", "key": ...}`); version 5
//! adds play by web (issue 16): `accounts` (a name and an Argon2id hash, never the
//! password), `sessions` (only the SHA-256 of a session's cookie), the seats that
//! belong to accounts (`seat_owners`), each game's settings of play by web
//! (`game_settings`), open `challenges`, each game's `chat`, and the Glicko-2
//! `ratings` per ruleset. None of them references `games`: an expired game is
//! deleted without them, and the rows it leaves name a game no longer served.
//! Version 6 (issue 16, the rest) adds the games ended from outside their rules
//! (`endings`: a resignation, a loss on time), the seats the computer took when a
//! player's time ran out (`stand_ins`), the reminders sent (`reminders`), each
//! account's notifications (`notifications`), the server's VAPID key for Web Push
//! (`vapid`), what a game does when a player's time
//! runs out (`game_settings.on_time`) and when its clock started
//! (`game_settings.clock_from_ms`, the acceptance of its challenge). Version 7
//! changes no table: a game's activity is its summary's `active_ms` alone, and an
//! action writes `games.active_ms` no more (the time of its creation, or of its last
//! action under version 6 or before), one page and one index entry fewer an action.

use super::Summary;
use crate::db::{self, params, Conn, DbError};
use grognard_engine::dice_stream::Generator;
use rusqlite::Connection;

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

/// From version 1 to 2: each game's line of the lobby, written in the same transaction
/// as the game's creation and each of its actions. The games already in the file get
/// theirs by one replay each at the first start after the migration (`meta` key
/// `summaries` until then); a later start replays none.
const MIGRATION_2: &str = r"
CREATE TABLE summaries (
    game_id     TEXT PRIMARY KEY REFERENCES games(id),
    scenario_id TEXT NOT NULL,
    title       TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    seats       TEXT NOT NULL,
    humans      INTEGER NOT NULL,
    created     TEXT NOT NULL,
    active_ms   INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    to_act      TEXT,
    outcome     TEXT,
    ai_to_act   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX summaries_by_activity ON summaries (active_ms DESC, game_id);
CREATE INDEX summaries_by_ruleset ON summaries (ruleset, active_ms DESC, game_id);
CREATE INDEX summaries_ai_to_act ON summaries (game_id) WHERE ai_to_act = 1;
CREATE INDEX games_by_activity ON games (active_ms, id);
INSERT OR REPLACE INTO meta (key, value) VALUES ('summaries', 'to fill');
PRAGMA user_version = 2;
";

/// From version 2 to 3: undo. The log stays append-only but for its last row, which
/// may be deleted only when the same connection has just recorded it, row for row, in
/// `undone` (`last_insert_rowid()`): a taken-back action is kept there, never lost. A
/// row of `undone` names only the last action of its game; it is never changed, and
/// deleted only with its game once expired. Written so that a file brought back to an
/// older version by hand (its `user_version` lowered) migrates again.
const MIGRATION_3: &str = r"
CREATE TABLE IF NOT EXISTS undone (
    game_id   TEXT NOT NULL REFERENCES games(id),
    n         INTEGER NOT NULL CHECK (n >= 1),
    action    TEXT NOT NULL,
    forced    TEXT NOT NULL,
    undone_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS undone_by_game ON undone (game_id, n);
DROP TRIGGER IF EXISTS undone_only_last;
CREATE TRIGGER undone_only_last BEFORE INSERT ON undone
WHEN NEW.n IS NOT (SELECT MAX(n) FROM actions WHERE game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'only the last action of a game can be undone'); END;
DROP TRIGGER IF EXISTS undone_no_update;
CREATE TRIGGER undone_no_update BEFORE UPDATE ON undone
BEGIN SELECT RAISE(ABORT, 'the undone actions are kept as they were'); END;
DROP TRIGGER IF EXISTS undone_no_delete;
CREATE TRIGGER undone_no_delete BEFORE DELETE ON undone
WHEN NOT EXISTS (SELECT 1 FROM expired WHERE id = OLD.game_id)
BEGIN SELECT RAISE(ABORT, 'the undone actions are deleted only with their expired game'); END;
DROP TRIGGER IF EXISTS actions_no_delete;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN NOT EXISTS (SELECT 1 FROM expired WHERE id = OLD.game_id)
 AND NOT (
     OLD.n = (SELECT MAX(n) FROM actions WHERE game_id = OLD.game_id)
     AND EXISTS (SELECT 1 FROM undone WHERE rowid = last_insert_rowid()
                 AND game_id = OLD.game_id AND n = OLD.n
                 AND action = OLD.action AND forced = OLD.forced))
BEGIN SELECT RAISE(ABORT, 'the action log is append-only: only its last action is deleted, by an undo recorded in `undone`'); END;
PRAGMA user_version = 3;
";

/// From version 4 to 5: play by web (issue 16).
const MIGRATION_5: &str = r"
CREATE TABLE IF NOT EXISTS accounts (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password TEXT NOT NULL,
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_sha256 TEXT PRIMARY KEY,
    account      INTEGER NOT NULL REFERENCES accounts(id),
    csrf         TEXT NOT NULL,
    created_ms   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_owners (
    game_id TEXT NOT NULL,
    side    TEXT NOT NULL,
    account INTEGER NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (game_id, side)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS seat_owners_by_account ON seat_owners (account);
CREATE TABLE IF NOT EXISTS game_settings (
    game_id             TEXT PRIMARY KEY,
    rated               INTEGER NOT NULL DEFAULT 0,
    time_per_move_hours REAL,
    spectators_chat     TEXT NOT NULL DEFAULT 'read',
    settled             INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS challenges (
    id          TEXT PRIMARY KEY,
    creator     INTEGER NOT NULL REFERENCES accounts(id),
    game_id     TEXT NOT NULL,
    scenario_id TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    side        TEXT NOT NULL,
    open_side   TEXT NOT NULL,
    open_token  TEXT,
    accepted_by INTEGER REFERENCES accounts(id),
    created     TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    side    TEXT NOT NULL,
    name    TEXT,
    text    TEXT NOT NULL,
    at      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_by_game ON chat (game_id, id);
CREATE TABLE IF NOT EXISTS ratings (
    account    INTEGER NOT NULL REFERENCES accounts(id),
    ruleset    TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (account, ruleset)
) WITHOUT ROWID;
PRAGMA user_version = 5;
";

/// From version 5 to 6: the rest of play by web (issue 16). A game's ending and its
/// stand-ins are read when the game is loaded, after its log is replayed.
const MIGRATION_6: &str = r"
CREATE TABLE IF NOT EXISTS endings (
    game_id   TEXT PRIMARY KEY,
    side      TEXT NOT NULL,
    kind      TEXT NOT NULL,
    at_action INTEGER NOT NULL,
    at        TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stand_ins (
    game_id TEXT NOT NULL,
    side    TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, side)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS reminders (
    game_id   TEXT NOT NULL,
    active_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, active_ms)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vapid (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    private_pem TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS notifications (
    account     INTEGER PRIMARY KEY REFERENCES accounts(id),
    email       TEXT,
    webhook     TEXT,
    web_push    TEXT,
    on_turn     INTEGER NOT NULL DEFAULT 1,
    on_reminder INTEGER NOT NULL DEFAULT 1
);
";

/// The schema version this server writes. Version 7 changes no table: from it on, a
/// game's activity is its summary's `active_ms` alone ([`ACTIVE_MS`]), and an action
/// no longer writes `games.active_ms`; a server of version 6 or before, which reads
/// `games.active_ms`, must not open such a file (it would expire active games).
pub const VERSION: i64 = 7;

/// Brings a SQLite file to [`VERSION`] (a PostgreSQL database has its own schema:
/// `schema_pg`).
///
/// # Errors
/// As [`migrate_file`]; or `conn` is not a SQLite file's.
pub fn migrate(conn: &mut Conn, now_ms: i64) -> db::Result<()> {
    match conn.sqlite() {
        Some(c) => Ok(migrate_file(c, now_ms)?),
        None => Err(DbError::new(
            "the SQLite migrations run on a SQLite file only",
        )),
    }
}

/// Brings the file to [`VERSION`], each step in one transaction. Games of a file
/// older than version 1 count as active at `now_ms`, the time of the migration: a
/// game played yesterday is not expired for want of a date.
///
/// # Errors
/// The file is of a newer schema, or a step fails (nothing of it is kept).
fn migrate_file(conn: &mut Connection, now_ms: i64) -> rusqlite::Result<()> {
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
    if version < 2 {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute_batch(MIGRATION_2)?;
        tx.commit()?;
    }
    if version < 3 {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute_batch(MIGRATION_3)?;
        tx.commit()?;
    }
    if version < 4 {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Checked first, so that a file brought back to an older version by hand
        // migrates again.
        let has_dice = tx
            .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = 'dice'")?
            .exists([])?;
        if !has_dice {
            tx.execute_batch("ALTER TABLE games ADD COLUMN dice TEXT;")?;
        }
        tx.execute_batch("PRAGMA user_version = 4;")?;
        tx.commit()?;
    }
    if version < 5 {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute_batch(MIGRATION_5)?;
        tx.commit()?;
    }
    if version < 6 {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute_batch(MIGRATION_6)?;
        // Checked first, so that a file brought back to an older version by hand
        // migrates again.
        let has_on_time = tx
            .prepare("SELECT 1 FROM pragma_table_info('game_settings') WHERE name = 'on_time'")?
            .exists([])?;
        if !has_on_time {
            tx.execute_batch(
                "ALTER TABLE game_settings ADD COLUMN on_time TEXT NOT NULL DEFAULT 'lose';
                 ALTER TABLE game_settings ADD COLUMN clock_from_ms INTEGER;",
            )?;
        }
        tx.execute_batch("PRAGMA user_version = 6;")?;
        tx.commit()?;
    }
    if version < 7 {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute_batch("PRAGMA user_version = 7;")?;
        tx.commit()?;
    }
    Ok(())
}

/// Writes when this server opened the database: a real write, so a database that
/// cannot be written is refused at start rather than at the first action.
///
/// # Errors
/// The write fails.
pub fn mark_opened(conn: &mut Conn, now: &str) -> db::Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('opened', ?1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![now],
    )?;
    Ok(())
}

pub(super) fn seed_to_sql(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

/// A game's generator as stored: NULL for SplitMix64.
pub(super) fn generator_to_sql(g: &Generator) -> Result<Option<String>, serde_json::Error> {
    if g.is_splitmix() {
        Ok(None)
    } else {
        serde_json::to_string(g).map(Some)
    }
}

/// A game's generator as read: NULL is SplitMix64, as in every file before version 4.
pub(super) fn generator_from_sql(text: Option<&str>) -> Result<Generator, serde_json::Error> {
    text.map_or(Ok(Generator::SplitMix64), serde_json::from_str)
}

pub(super) fn seed_from_sql(seed: i64) -> u64 {
    u64::from_ne_bytes(seed.to_ne_bytes())
}

/// A game's last activity, in SQL over a row of `games`: its summary's `active_ms`
/// (written with every action and undo), else the row's own (written when the game
/// was made, and by the actions of the versions before summaries kept it).
pub(crate) const ACTIVE_MS: &str = "COALESCE((SELECT summaries.active_ms FROM summaries
     WHERE summaries.game_id = games.id), games.active_ms)";

/// Expires the games of `ids` still idle since before `cutoff_ms`: marks each in
/// `expired` (which lets its rows be deleted), deletes its log and its row. Returns
/// the ids expired; a game that saw an action since it was chosen is left alone.
///
/// # Errors
/// The database fails.
pub fn expire(tx: &mut Conn, ids: &[String], cutoff_ms: u64, now: &str) -> db::Result<Vec<String>> {
    let cutoff = i64::try_from(cutoff_ms).unwrap_or(i64::MAX);
    let mut done = Vec::new();
    for id in ids {
        let active: Option<i64> = tx
            .query_opt(
                &format!("SELECT {ACTIVE_MS} FROM games WHERE id = ?1"),
                params![id],
            )?
            .map(|r| r.get(0))
            .transpose()?;
        if active.is_none_or(|a| a >= cutoff) {
            continue;
        }
        tx.execute(
            "INSERT INTO expired (id, expired) VALUES (?1, ?2)
             ON CONFLICT (id) DO UPDATE SET expired = excluded.expired",
            params![id, now],
        )?;
        tx.execute("DELETE FROM summaries WHERE game_id = ?1", params![id])?;
        tx.execute("DELETE FROM actions WHERE game_id = ?1", params![id])?;
        tx.execute("DELETE FROM undone WHERE game_id = ?1", params![id])?;
        tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
        done.push(id.clone());
    }
    Ok(done)
}

/// Takes back action `n`, the last of game `game`, at `at_ms`: records it in `undone`,
/// then deletes its row (the trigger lets through only that one); the caller writes
/// the game's summary, which marks it active. `false` when `n` is not the game's last
/// action (someone else wrote first), and nothing is written.
///
/// # Errors
/// The database fails.
pub fn undo(tx: &mut Conn, game: &str, n: u64, at_ms: u64) -> db::Result<bool> {
    let n = i64::try_from(n).map_err(|e| DbError::new(e.to_string()))?;
    let at = i64::try_from(at_ms).unwrap_or(i64::MAX);
    let last: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?1",
            params![game],
        )?
        .get(0)?;
    if last != n || n < 1 {
        return Ok(false);
    }
    tx.execute(
        "INSERT INTO undone (game_id, n, action, forced, undone_ms)
         SELECT game_id, n, action, forced, CAST(?3 AS BIGINT) FROM actions
         WHERE game_id = ?1 AND n = ?2",
        params![game, n, at],
    )?;
    tx.execute(
        "DELETE FROM actions WHERE game_id = ?1 AND n = ?2",
        params![game, n],
    )?;
    Ok(true)
}

/// Writes (or replaces) a game's line of the lobby.
///
/// # Errors
/// The database fails.
pub fn write_summary(tx: &mut Conn, s: &Summary) -> db::Result<()> {
    let text = |v: &Option<serde_json::Value>| v.as_ref().map(ToString::to_string);
    let seats = serde_json::to_string(&s.seats).map_err(|e| DbError::new(e.to_string()))?;
    let humans = s.seats.values().filter(|k| *k == "human").count();
    tx.execute(
        "INSERT INTO summaries (game_id, scenario_id, title, ruleset, seats, humans,
             created, active_ms, n, to_act, outcome, ai_to_act)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT (game_id) DO UPDATE SET scenario_id = excluded.scenario_id,
             title = excluded.title, ruleset = excluded.ruleset, seats = excluded.seats,
             humans = excluded.humans, created = excluded.created,
             active_ms = excluded.active_ms, n = excluded.n, to_act = excluded.to_act,
             outcome = excluded.outcome, ai_to_act = excluded.ai_to_act",
        params![
            &s.id,
            &s.scenario_id,
            &s.title,
            &s.ruleset,
            seats,
            i64::try_from(humans).unwrap_or(i64::MAX),
            &s.created,
            i64::try_from(s.active_ms).unwrap_or(i64::MAX),
            i64::try_from(s.n).unwrap_or(i64::MAX),
            text(&s.to_act),
            text(&s.outcome),
            s.ai_to_act,
        ],
    )?;
    Ok(())
}
