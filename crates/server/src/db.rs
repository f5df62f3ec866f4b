//! One connection over the two stores the server runs on: a SQLite file (the default)
//! or a PostgreSQL database (`postgres://USER@HOST/DB`), for several server instances
//! over one database.
//!
//! The SQL is written once, in the subset both accept: `?1`-style placeholders (turned
//! into PostgreSQL's `$1` here, in one place), upserts as `ON CONFLICT`, `RETURNING`
//! for a new row's id. Values cross as owned [`Value`]s and rows come back owned, so a
//! caller never sees which store answered. PostgreSQL's client blocks on a runtime of
//! its own: a connection is used only on the writer thread and on blocking threads,
//! never on the async runtime.

mod pg;
mod value;

pub use pg::{off_runtime, Pg};
pub use value::{FromValue, Row, Value};

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where the games are kept: a SQLite file, or a PostgreSQL database.
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file (created if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL database, as a `postgres://` or `postgresql://` URL.
    Postgres(String),
}

impl Location {
    /// The SQLite file's path, when the store is one.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match self {
            Location::Sqlite(p) => Some(p),
            Location::Postgres(_) => None,
        }
    }
}

impl From<PathBuf> for Location {
    fn from(p: PathBuf) -> Location {
        Location::Sqlite(p)
    }
}

impl From<&Path> for Location {
    fn from(p: &Path) -> Location {
        Location::Sqlite(p.to_path_buf())
    }
}

impl FromStr for Location {
    type Err = String;

    /// A `postgres://` or `postgresql://` URL is a PostgreSQL database; anything else
    /// is a SQLite file's path.
    fn from_str(s: &str) -> std::result::Result<Location, String> {
        let lower = s.to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            pg::config(s).map_err(|e| format!("`{}`: {e}", redact(s)))?;
            Ok(Location::Postgres(s.to_owned()))
        } else if s.is_empty() {
            Err("an empty path: name a SQLite file or a postgres:// URL".into())
        } else {
            Ok(Location::Sqlite(PathBuf::from(s)))
        }
    }
}

/// The location as it may be printed: a URL without its password.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            Location::Postgres(url) => f.write_str(&redact(url)),
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A URL with its password (between `user:` and `@`) and its query (which may hold
/// one) left out.
#[must_use]
pub fn redact(url: &str) -> String {
    let url = url.split('?').next().unwrap_or(url);
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let rest = &url[scheme_end..];
    let (auth, host) = match rest.rfind('@') {
        Some(at) => (&rest[..at], &rest[at..]),
        None => return url.to_owned(),
    };
    let user = auth.split(':').next().unwrap_or(auth);
    format!("{}{user}{host}", &url[..scheme_end])
}

/// Which store a connection talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file.
    Sqlite,
    /// A PostgreSQL database.
    Postgres,
}

/// A failure of the store.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct DbError {
    /// True when a unique or primary key refused the write.
    pub unique: bool,
    /// What failed, as the store said it.
    pub message: String,
}

impl DbError {
    /// A failure of this program's own reading or writing of values.
    pub fn new(message: impl Into<String>) -> DbError {
        DbError {
            unique: false,
            message: message.into(),
        }
    }
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        let unique = matches!(
            &e,
            rusqlite::Error::SqliteFailure(f, _)
                if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
        );
        DbError {
            unique,
            message: e.to_string(),
        }
    }
}

impl From<postgres::Error> for DbError {
    fn from(e: postgres::Error) -> DbError {
        let unique = e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION);
        // The server's own message says more than the client's summary.
        let message = match e.as_db_error() {
            Some(d) => format!("{}: {}", d.severity(), d.message()),
            None => e.to_string(),
        };
        DbError { unique, message }
    }
}

/// The result of a store's call.
pub type Result<T> = std::result::Result<T, DbError>;

/// How long a SQLite connection waits for a lock another connection holds before it
/// gives up with "database is locked".
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Makes a SQLite connection wait for a lock by trying again every millisecond, up to
/// [`LOCK_WAIT`]. SQLite's own `busy_timeout` sleeps longer and longer between tries,
/// up to 100 ms: a connection that writes beside the store's writer, whose
/// transactions come one after another and last a millisecond or less under load,
/// slept for as much as a second before it found the lock free, and every request
/// queued behind it waited as long.
///
/// # Errors
/// SQLite refuses the handler.
pub fn patient(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    fn try_again(tries: i32) -> bool {
        let step = std::time::Duration::from_millis(1);
        let most = i32::try_from(LOCK_WAIT.as_millis()).unwrap_or(i32::MAX);
        if tries >= most {
            return false;
        }
        std::thread::sleep(step);
        true
    }
    conn.busy_handler(Some(try_again))
}

/// One connection, to a SQLite file or to a PostgreSQL database.
pub enum Conn {
    /// A SQLite connection.
    Sqlite(rusqlite::Connection),
    /// A PostgreSQL client and its prepared statements.
    Postgres(Box<Pg>),
}

impl Conn {
    /// Opens a connection to `location`: a SQLite file as it is (the caller sets its
    /// pragmas), a PostgreSQL database with `synchronous_commit` on.
    ///
    /// # Errors
    /// The file cannot be opened, or the database cannot be reached.
    pub fn open(location: &Location) -> Result<Conn> {
        match location {
            Location::Sqlite(path) => Ok(Conn::Sqlite(rusqlite::Connection::open(path)?)),
            Location::Postgres(url) => Ok(Conn::Postgres(Box::new(Pg::connect(url)?))),
        }
    }

    /// Which store it talks to.
    #[must_use]
    pub fn backend(&self) -> Backend {
        match self {
            Conn::Sqlite(_) => Backend::Sqlite,
            Conn::Postgres(_) => Backend::Postgres,
        }
    }

    /// The SQLite connection, for what only a file has (pragmas, its schema's
    /// migrations).
    pub fn sqlite(&mut self) -> Option<&mut rusqlite::Connection> {
        match self {
            Conn::Sqlite(c) => Some(c),
            Conn::Postgres(_) => None,
        }
    }

    /// Runs a statement; the rows it changed.
    ///
    /// # Errors
    /// The store refuses or fails.
    pub fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let n = stmt.execute(rusqlite::params_from_iter(params.iter()))?;
                Ok(n as u64)
            }
            Conn::Postgres(p) => p.execute(sql, params),
        }
    }

    /// Runs a query; every row it gives, owned.
    ///
    /// # Errors
    /// The store refuses or fails, or a column holds a type no [`Value`] holds.
    pub fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let width = stmt.column_count();
                let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
                let mut out = Vec::new();
                while let Some(r) = rows.next()? {
                    let mut row = Vec::with_capacity(width);
                    for i in 0..width {
                        row.push(Value::from(r.get_ref(i)?));
                    }
                    out.push(Row(row));
                }
                Ok(out)
            }
            Conn::Postgres(p) => p.query(sql, params),
        }
    }

    /// The first row of a query, if it gives one.
    ///
    /// # Errors
    /// As [`Conn::query`].
    pub fn query_opt(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    /// The first row of a query, which must give one.
    ///
    /// # Errors
    /// As [`Conn::query`], or the query gives no row.
    pub fn query_one(&mut self, sql: &str, params: &[Value]) -> Result<Row> {
        self.query_opt(sql, params)?
            .ok_or_else(|| DbError::new("the query returned no rows"))
    }

    /// Whether a query gives a row.
    ///
    /// # Errors
    /// As [`Conn::query`].
    pub fn exists(&mut self, sql: &str, params: &[Value]) -> Result<bool> {
        Ok(self.query_opt(sql, params)?.is_some())
    }

    /// Runs statements separated by `;`, without parameters.
    ///
    /// # Errors
    /// The store refuses or fails.
    pub fn batch(&mut self, sql: &str) -> Result<()> {
        match self {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Postgres(p) => p.batch(sql),
        }
    }

    /// Begins a transaction (on SQLite one that takes the write lock at once); it is
    /// rolled back unless committed.
    ///
    /// # Errors
    /// The store refuses or fails.
    pub fn transaction(&mut self) -> Result<Tx<'_>> {
        match self {
            Conn::Sqlite(c) => c.execute_batch("BEGIN IMMEDIATE")?,
            Conn::Postgres(p) => p.batch("BEGIN")?,
        }
        Ok(Tx {
            conn: self,
            open: true,
        })
    }
}

/// A transaction on a [`Conn`]: rolled back when dropped uncommitted.
pub struct Tx<'a> {
    conn: &'a mut Conn,
    open: bool,
}

impl Tx<'_> {
    /// Commits it; on PostgreSQL the server has made it durable when this returns.
    ///
    /// # Errors
    /// The store could not commit; nothing of it is kept.
    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        let done = self.conn.batch("COMMIT");
        if done.is_err() {
            let _ = self.conn.batch("ROLLBACK");
        }
        done
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn
    }
}

impl std::ops::DerefMut for Tx<'_> {
    fn deref_mut(&mut self) -> &mut Conn {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.conn.batch("ROLLBACK");
        }
    }
}

/// The parameters of a statement, as owned [`Value`]s.
#[macro_export]
macro_rules! params {
    () => { &[] as &[$crate::db::Value] };
    ($($v:expr),+ $(,)?) => { &[$($crate::db::Value::from($v)),+] as &[$crate::db::Value] };
}

pub use crate::params;
