//! A store for one test: a database file in the temporary folder, or, when the
//! environment variable `GROGNARD_TEST_POSTGRES` holds the URL of a throwaway
//! PostgreSQL cluster, a database of its own in that cluster. The server's tests and
//! the command line's tests of `grognard serve` share it.

#![allow(dead_code, reason = "each test binary uses its own part of it")]

use grognard_server::db::{off_runtime, Conn, Location, Row, Value};
use std::path::PathBuf;

/// The variable that names the PostgreSQL cluster the tests run on.
pub const POSTGRES_VAR: &str = "GROGNARD_TEST_POSTGRES";

/// A test's store: `.0` is the SQLite file's path (unused on PostgreSQL).
pub struct Db(pub PathBuf, Option<Postgres>);

/// A database made for one test in the cluster, dropped at its end.
struct Postgres {
    admin: String,
    name: String,
    url: String,
}

fn unique(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{}-{name}-{nanos}", std::process::id())
}

impl Db {
    /// A fresh store whose name holds `name`, the process and the time, so that
    /// tests running at once never share one: a database of the cluster of
    /// `GROGNARD_TEST_POSTGRES` when it is set, else a file.
    pub fn new(name: &str) -> Db {
        match std::env::var(POSTGRES_VAR) {
            Ok(admin) if !admin.is_empty() => Db::postgres(name, &admin),
            _ => Db::file(name),
        }
    }

    /// A fresh SQLite file, whatever the environment: for the tests about the file
    /// itself.
    pub fn file(name: &str) -> Db {
        Db(
            std::env::temp_dir().join(format!("grognard-test-{}.db", unique(name))),
            None,
        )
    }

    /// The SQLite file at `path`.
    pub fn at(path: PathBuf) -> Db {
        Db(path, None)
    }

    fn postgres(name: &str, admin: &str) -> Db {
        let clean: String = unique(name)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        // PostgreSQL cuts names at 63 bytes: the time and the process come first.
        let name = format!("t_{}", clean.chars().rev().take(60).collect::<String>());
        let url = with_database(admin, &name);
        let location = Location::Postgres(admin.to_owned());
        off_runtime(|| {
            let mut conn = Conn::open(&location).expect("the test cluster answers");
            conn.batch(&format!("CREATE DATABASE {name}"))
                .expect("a database for the test");
        });
        Db(
            std::env::temp_dir().join(format!("grognard-test-unused-{name}.db")),
            Some(Postgres {
                admin: admin.to_owned(),
                name,
                url,
            }),
        )
    }

    /// True when the store is a SQLite file.
    pub fn is_file(&self) -> bool {
        self.1.is_none()
    }

    /// Where the server finds it.
    pub fn location(&self) -> Location {
        match &self.1 {
            Some(pg) => Location::Postgres(pg.url.clone()),
            None => Location::Sqlite(self.0.clone()),
        }
    }

    /// What `--db` says for it.
    pub fn arg(&self) -> String {
        match &self.1 {
            Some(pg) => pg.url.clone(),
            None => self.0.display().to_string(),
        }
    }

    /// Runs a query on the store, from a connection of its own (`?1` placeholders).
    pub fn query(&self, sql: &str, params: &[Value]) -> Vec<Row> {
        let location = self.location();
        off_runtime(|| {
            Conn::open(&location)
                .and_then(|mut c| c.query(sql, params))
                .unwrap_or_else(|e| panic!("`{sql}` on {location}: {e}"))
        })
    }

    /// Runs a statement on the store, from a connection of its own; the rows changed.
    pub fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, String> {
        let location = self.location();
        off_runtime(|| {
            Conn::open(&location)
                .and_then(|mut c| c.execute(sql, params))
                .map_err(|e| e.to_string())
        })
    }
}

/// `url` with its database named `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let start = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[start..].find('/').map_or(base.len(), |i| start + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Some(pg) = &self.1 {
            let location = Location::Postgres(pg.admin.clone());
            let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", pg.name);
            off_runtime(|| {
                if let Ok(mut conn) = Conn::open(&location) {
                    let _ = conn.batch(&sql);
                }
            });
            return;
        }
        for suffix in ["", "-wal", "-shm", ".lock"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}
