//! A database file in the temporary folder, for the server's tests and the command
//! line's tests of `grognard serve`.

use std::path::PathBuf;

/// A database file in the temporary folder, removed with its WAL and lock at the end.
pub struct Db(pub PathBuf);

impl Db {
    /// A fresh file whose name holds `name`, the process and the time, so that
    /// tests running at once never share one.
    pub fn new(name: &str) -> Db {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        Db(std::env::temp_dir().join(format!(
            "grognard-test-{}-{name}-{nanos}.db",
            std::process::id()
        )))
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", ".lock"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}
