//! The tables of a PostgreSQL database: the SQLite file's schema at version 7, written
//! for PostgreSQL. Every integer is `BIGINT`, every text `COLLATE "C"` (so that the
//! lobby's order and its cursors are the file's, byte by byte), and the triggers that
//! keep the log append-only are PL/pgSQL. The version is the `meta` row `version`;
//! later migrations follow it (from 6 to 7 the number alone moves).
//!
//! Beside the file's tables, `leases`: which server plays a game's computer seats, until
//! when (several servers share the database; a file has one).
//!
//! An undo records the action in `undone` and then deletes it from `actions`: where the
//! file checks `last_insert_rowid()`, PostgreSQL's trigger on `undone` notes the action
//! in a setting local to the transaction (`grognard.undoing`), and only the row so
//! noted may be deleted.

use super::schema::VERSION;
use crate::db::{self, params, Conn, DbError};

const SCHEMA: &str = r#"
CREATE TABLE meta (
    key   TEXT COLLATE "C" PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE games (
    id          TEXT COLLATE "C" PRIMARY KEY,
    scenario_id TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    scenario    TEXT NOT NULL,
    seed        BIGINT NOT NULL,
    seats       TEXT NOT NULL,
    created     TEXT NOT NULL,
    active_ms   BIGINT NOT NULL DEFAULT 0,
    dice        TEXT
);
CREATE INDEX games_by_activity ON games (active_ms, id);
CREATE TABLE actions (
    game_id TEXT COLLATE "C" NOT NULL REFERENCES games(id),
    n       BIGINT NOT NULL CHECK (n >= 1),
    action  TEXT NOT NULL,
    forced  TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (game_id, n)
);
CREATE TABLE expired (
    id      TEXT COLLATE "C" PRIMARY KEY,
    expired TEXT NOT NULL
);
CREATE TABLE summaries (
    game_id     TEXT COLLATE "C" PRIMARY KEY REFERENCES games(id),
    scenario_id TEXT NOT NULL,
    title       TEXT NOT NULL,
    ruleset     TEXT COLLATE "C" NOT NULL,
    seats       TEXT NOT NULL,
    humans      BIGINT NOT NULL,
    created     TEXT NOT NULL,
    active_ms   BIGINT NOT NULL,
    n           BIGINT NOT NULL,
    to_act      TEXT,
    outcome     TEXT,
    ai_to_act   BIGINT NOT NULL
);
CREATE INDEX summaries_by_activity ON summaries (active_ms DESC, game_id);
CREATE INDEX summaries_by_ruleset ON summaries (ruleset, active_ms DESC, game_id);
CREATE INDEX summaries_ai_to_act ON summaries (game_id) WHERE ai_to_act = 1;
CREATE TABLE undone (
    game_id   TEXT COLLATE "C" NOT NULL REFERENCES games(id),
    n         BIGINT NOT NULL CHECK (n >= 1),
    action    TEXT NOT NULL,
    forced    TEXT NOT NULL,
    undone_ms BIGINT NOT NULL
);
CREATE INDEX undone_by_game ON undone (game_id, n);

CREATE FUNCTION grognard_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
FOR EACH ROW EXECUTE FUNCTION grognard_refuse('the action log is append-only');
CREATE TRIGGER undone_no_update BEFORE UPDATE ON undone
FOR EACH ROW EXECUTE FUNCTION grognard_refuse('the undone actions are kept as they were');

CREATE FUNCTION grognard_actions_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM expired WHERE id = OLD.game_id) THEN RETURN OLD; END IF;
    IF OLD.n = (SELECT MAX(n) FROM actions WHERE game_id = OLD.game_id)
       AND current_setting('grognard.undoing', true) = OLD.game_id || ' ' || OLD.n
       AND EXISTS (SELECT 1 FROM undone WHERE game_id = OLD.game_id AND n = OLD.n
                   AND action = OLD.action AND forced = OLD.forced) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'the action log is append-only: only its last action is deleted, by an undo recorded in `undone`';
END $$;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
FOR EACH ROW EXECUTE FUNCTION grognard_actions_delete();

CREATE FUNCTION grognard_undone_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.n IS DISTINCT FROM (SELECT MAX(n) FROM actions WHERE game_id = NEW.game_id) THEN
        RAISE EXCEPTION 'only the last action of a game can be undone';
    END IF;
    PERFORM set_config('grognard.undoing', NEW.game_id || ' ' || NEW.n, true);
    RETURN NEW;
END $$;
CREATE TRIGGER undone_only_last BEFORE INSERT ON undone
FOR EACH ROW EXECUTE FUNCTION grognard_undone_insert();

CREATE FUNCTION grognard_undone_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM expired WHERE id = OLD.game_id) THEN RETURN OLD; END IF;
    RAISE EXCEPTION 'the undone actions are deleted only with their expired game';
END $$;
CREATE TRIGGER undone_no_delete BEFORE DELETE ON undone
FOR EACH ROW EXECUTE FUNCTION grognard_undone_delete();

CREATE FUNCTION grognard_games_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM expired WHERE id = OLD.id) THEN RETURN OLD; END IF;
    RAISE EXCEPTION 'a game is deleted only once it has expired';
END $$;
CREATE TRIGGER games_no_delete BEFORE DELETE ON games
FOR EACH ROW EXECUTE FUNCTION grognard_games_delete();

CREATE TABLE accounts (
    id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name     TEXT COLLATE "C" NOT NULL,
    password TEXT NOT NULL,
    created  TEXT NOT NULL
);
CREATE UNIQUE INDEX accounts_by_name ON accounts (lower(name));
CREATE TABLE sessions (
    token_sha256 TEXT COLLATE "C" PRIMARY KEY,
    account      BIGINT NOT NULL REFERENCES accounts(id),
    csrf         TEXT NOT NULL,
    created_ms   BIGINT NOT NULL
);
CREATE TABLE seat_owners (
    game_id TEXT COLLATE "C" NOT NULL,
    side    TEXT COLLATE "C" NOT NULL,
    account BIGINT NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (game_id, side)
);
CREATE INDEX seat_owners_by_account ON seat_owners (account);
CREATE TABLE game_settings (
    game_id             TEXT COLLATE "C" PRIMARY KEY,
    rated               BIGINT NOT NULL DEFAULT 0,
    time_per_move_hours DOUBLE PRECISION,
    spectators_chat     TEXT NOT NULL DEFAULT 'read',
    settled             BIGINT NOT NULL DEFAULT 0,
    on_time             TEXT NOT NULL DEFAULT 'lose',
    clock_from_ms       BIGINT
);
CREATE TABLE challenges (
    id          TEXT COLLATE "C" PRIMARY KEY,
    creator     BIGINT NOT NULL REFERENCES accounts(id),
    game_id     TEXT COLLATE "C" NOT NULL,
    scenario_id TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    side        TEXT NOT NULL,
    open_side   TEXT NOT NULL,
    open_token  TEXT,
    accepted_by BIGINT REFERENCES accounts(id),
    created     TEXT COLLATE "C" NOT NULL
);
CREATE TABLE chat (
    id      BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    game_id TEXT COLLATE "C" NOT NULL,
    side    TEXT NOT NULL,
    name    TEXT,
    text    TEXT NOT NULL,
    at      TEXT NOT NULL
);
CREATE INDEX chat_by_game ON chat (game_id, id);
CREATE TABLE ratings (
    account    BIGINT NOT NULL REFERENCES accounts(id),
    ruleset    TEXT COLLATE "C" NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    PRIMARY KEY (account, ruleset)
);
CREATE TABLE endings (
    game_id   TEXT COLLATE "C" PRIMARY KEY,
    side      TEXT NOT NULL,
    kind      TEXT NOT NULL,
    at_action BIGINT NOT NULL,
    at        TEXT NOT NULL
);
CREATE TABLE stand_ins (
    game_id TEXT COLLATE "C" NOT NULL,
    side    TEXT COLLATE "C" NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, side)
);
CREATE TABLE reminders (
    game_id   TEXT COLLATE "C" NOT NULL,
    active_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, active_ms)
);
CREATE TABLE vapid (
    id          BIGINT PRIMARY KEY CHECK (id = 1),
    private_pem TEXT NOT NULL
);
CREATE TABLE leases (
    game_id  TEXT COLLATE "C" PRIMARY KEY,
    holder   TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);
CREATE TABLE notifications (
    account     BIGINT PRIMARY KEY REFERENCES accounts(id),
    email       TEXT,
    webhook     TEXT,
    web_push    TEXT,
    on_turn     BIGINT NOT NULL DEFAULT 1,
    on_reminder BIGINT NOT NULL DEFAULT 1
);
"#;

/// Gives an empty database grognard's tables at [`VERSION`], or checks that a database
/// holding tables is grognard's, at a version this server reads. Several servers may
/// start at once on one database: the creation holds a lock for the transaction.
///
/// # Errors
/// The database holds tables but no grognard version, or one newer than this server's;
/// or it fails.
pub fn create(conn: &mut Conn) -> db::Result<()> {
    let mut tx = conn.transaction()?;
    // One creation at a time, whichever instance starts first.
    tx.execute("SELECT pg_advisory_xact_lock(7017)", params![])?;
    let tables: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM information_schema.tables
             WHERE table_schema = current_schema()",
            params![],
        )?
        .get(0)?;
    if tables == 0 {
        tx.batch(SCHEMA)?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('version', ?1)",
            params![VERSION.to_string()],
        )?;
        return tx.commit();
    }
    let has_meta = tx.exists(
        "SELECT 1 FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_name = 'meta'",
        params![],
    )?;
    let version: Option<String> = if has_meta {
        tx.query_opt("SELECT value FROM meta WHERE key = 'version'", params![])?
            .map(|r| r.get(0))
            .transpose()?
    } else {
        None
    };
    let Some(version) = version else {
        return Err(DbError::new(
            "it holds tables but is not a grognard database (no `meta` row `version`): \
             give the server an empty database of its own",
        ));
    };
    match version.parse::<i64>() {
        Ok(v) if v == VERSION => tx.commit(),
        // Version 7 changes no table (`schema::VERSION`): the number alone moves on, so
        // that a server of version 6 no longer opens the database.
        Ok(6) => {
            tx.execute(
                "UPDATE meta SET value = ?1 WHERE key = 'version'",
                params![VERSION.to_string()],
            )?;
            tx.commit()
        }
        Ok(v) if v > VERSION => Err(DbError::new(format!(
            "the database is of schema version {v}, newer than this server's {VERSION}: \
             run a newer grognard"
        ))),
        _ => Err(DbError::new(format!(
            "the database says it is of schema version `{version}`, which this server \
             cannot migrate from"
        ))),
    }
}
