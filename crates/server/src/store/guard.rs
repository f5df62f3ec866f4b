//! The database file guarded: one server per file (an advisory lock on a file beside
//! it), a file and folder the server can write before it serves anything, and a check
//! that the file it opened is still the one at its path before every commit is
//! acknowledged.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// `path` with `suffix` added to its file name: `grognard.db` + `-wal`.
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// The lock that makes a server the only one on its file: an exclusive `flock` on
/// `FILE.lock`, held while the file is open and released when the process ends, however
/// it ends (a `kill -9` included). The file holds the holder's process id, for the
/// message a second server prints.
pub struct Lock {
    _file: File,
}

/// Takes the lock of the database at `db`.
///
/// # Errors
/// Another server holds it (the message names its process), or the lock file cannot
/// be created.
pub fn lock(db: &Path) -> Result<Lock, String> {
    let path = sibling(db, ".lock");
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| {
            format!(
                "cannot create the lock file `{}` beside the database: {e} (the server must \
                 be able to write in the database's folder)",
                path.display()
            )
        })?;
    #[cfg(unix)]
    if let Err(e) = rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
        if e != rustix::io::Errno::WOULDBLOCK {
            return Err(format!("cannot lock `{}`: {e}", path.display()));
        }
        let mut holder = String::new();
        let _ = file.read_to_string(&mut holder);
        let holder = holder.trim();
        let holder = if holder.is_empty() {
            String::new()
        } else {
            format!(" (process {holder})")
        };
        return Err(format!(
            "another grognard server{holder} is using the database `{}`: one server per \
             database file (the lock `{}` is held)",
            db.display(),
            path.display()
        ));
    }
    // Ours now: say who holds it. A failure here loses only the message's process id.
    let _ = file
        .set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| writeln!(file, "{}", std::process::id()));
    Ok(Lock { _file: file })
}

/// Refuses a database the server could not write: a folder where it cannot create the
/// journal, a read-only file, journal or shared-memory index (a read-only `-shm` made
/// SQLite's writes fault the process). Called with the lock held and before SQLite
/// opens the file, so that closing these handles drops no lock of SQLite's.
///
/// # Errors
/// What cannot be written, and why.
pub fn check_writable(db: &Path) -> Result<(), String> {
    let dir = db
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = db
        .file_name()
        .map_or_else(|| "grognard".into(), |n| n.to_string_lossy().into_owned());
    let probe = dir.join(format!(".{name}.probe-{}", std::process::id()));
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
        }
        Err(e) => {
            return Err(format!(
                "cannot write in the database's folder `{}`: {e}; the server keeps its \
                 journal (`-wal`, `-shm`) there and refuses to start without it",
                dir.display()
            ))
        }
    }
    for (file, what) in [
        (db.to_path_buf(), "the database file"),
        (sibling(db, "-wal"), "the database's journal"),
        (sibling(db, "-shm"), "the database's shared-memory index"),
    ] {
        match OpenOptions::new().read(true).write(true).open(&file) {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => {
                return Err(format!(
                    "cannot write {what} `{}`: {e}; the server refuses to start on a file \
                     it cannot write",
                    file.display()
                ))
            }
        }
    }
    Ok(())
}

/// Which file a path names: its device and inode. SQLite keeps the file it opened
/// open, so its inode cannot be reused while the server runs: a different identity at
/// the path means another file is there now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    path: PathBuf,
    #[cfg(unix)]
    id: (u64, u64),
}

impl Identity {
    /// The file at `path` now.
    ///
    /// # Errors
    /// There is none, or it cannot be looked at.
    pub fn of(path: &Path) -> Result<Identity, String> {
        let meta = std::fs::metadata(path)
            .map_err(|e| format!("cannot look at the database `{}`: {e}", path.display()))?;
        #[cfg(not(unix))]
        let _ = meta;
        Ok(Identity {
            path: path.to_path_buf(),
            #[cfg(unix)]
            id: {
                use std::os::unix::fs::MetadataExt;
                (meta.dev(), meta.ino())
            },
        })
    }

    /// Whether the path still names the file opened.
    ///
    /// # Errors
    /// Why it does not: the path is empty (the file was deleted or moved) or names
    /// another file.
    pub fn check(&self) -> Result<(), String> {
        match Identity::of(&self.path) {
            Ok(now) if now == *self => Ok(()),
            Ok(_) => Err(format!(
                "the database `{}` is no longer the file this server opened (it was moved \
                 or replaced)",
                self.path.display()
            )),
            Err(_) if !self.path.exists() => Err(format!(
                "the database `{}` is gone from its path (deleted or moved)",
                self.path.display()
            )),
            Err(e) => Err(e),
        }
    }
}
