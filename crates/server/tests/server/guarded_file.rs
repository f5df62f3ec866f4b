//! The database guarded (issue 14, item 7), with real files: one server per file; a
//! file deleted, moved or replaced under a running server stops its writes with 503;
//! a file or folder it cannot write is refused at start. About the SQLite file alone:
//! these tests run on a file whatever `GROGNARD_TEST_POSTGRES` says.

use super::*;
use grognard_server::store::sibling;
use std::path::{Path, PathBuf};
use std::process::Command;

#[tokio::test]
async fn a_second_server_on_the_same_file_refuses_to_start() {
    let db = Db::file("two-servers");
    let (state, app) = open(&db);
    let Err(e) = AppState::open(&db.options()) else {
        panic!("a second server opened the same file");
    };
    let message = e.to_string();
    assert!(
        message.contains("another grognard server")
            && message.contains(&format!("process {}", std::process::id())),
        "{message}"
    );
    // The first one goes on; once it is closed, the file is free.
    let (id, blue, _) = morne(&app).await;
    assert_eq!(
        act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0)
            .await
            .0,
        StatusCode::OK
    );
    let (_, again) = reopen(&state, &db).await;
    let (_, g) = get(&again, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 1);
}

/// Plays one action, takes the file away with `take`, and checks that the next write
/// gets 503 with `why` in its message, that nothing changed, and that creating a game
/// gets 503 too.
async fn writes_stop_when_the_file_is(take: impl FnOnce(&Path), why: &str) {
    let db = Db::file("taken");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    let end = json!({"type": "end_phase"});
    assert_eq!(act(&app, &id, Some(&blue), &end, 0).await.0, StatusCode::OK);
    take(&db.0);
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    let to_act = if g["to_act"]["side"] == "blue" {
        &blue
    } else {
        &orange
    };
    let (status, body) = act(&app, &id, Some(to_act), &end, 1).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(error_message(&body).contains(why), "{body}");
    assert!(error_message(&body).contains("no more writes"), "{body}");
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 1, "the refused action changed nothing");
    let (status, body) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}}),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    // It stays so: the file is not written again.
    let (status, _) = act(&app, &id, Some(to_act), &end, 1).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn a_deleted_database_stops_writes_with_503() {
    writes_stop_when_the_file_is(
        |path| std::fs::remove_file(path).unwrap(),
        "gone from its path",
    )
    .await;
}

#[tokio::test]
async fn a_moved_database_stops_writes_with_503_and_the_moved_file_gets_nothing() {
    let moved = Db::file("moved-away");
    let to = moved.0.clone();
    // `mv grognard.db* elsewhere/`: the file with its journal.
    writes_stop_when_the_file_is(
        |path| {
            for suffix in ["", "-wal", "-shm"] {
                let (from, to) = (sibling(path, suffix), sibling(&to, suffix));
                std::fs::rename(from, to).unwrap();
            }
        },
        "gone from its path",
    )
    .await;
    let conn = rusqlite::Connection::open(&moved.0).unwrap();
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM actions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1, "only the action acknowledged before the move");
}

#[tokio::test]
async fn a_replaced_database_stops_writes_with_503() {
    writes_stop_when_the_file_is(
        |path| {
            let copy = sibling(path, ".copy");
            std::fs::copy(path, &copy).unwrap();
            std::fs::rename(&copy, path).unwrap();
        },
        "no longer the file this server opened",
    )
    .await;
}

/// Makes `path` unwritable by this process: read-only, and immutable as well when the
/// process may write read-only files (root). Undone on drop.
struct Unwritable(PathBuf, bool);

impl Unwritable {
    fn new(path: &Path) -> Unwritable {
        let dir = path.is_dir();
        let mode = if dir { 0o555 } else { 0o444 };
        set_mode(path, mode);
        let mut guard = Unwritable(path.to_path_buf(), false);
        if writable(path) {
            let ok = Command::new("chattr").arg("+i").arg(path).status();
            guard.1 = ok.is_ok_and(|s| s.success());
        }
        assert!(
            !writable(path),
            "cannot make {} unwritable for this process",
            path.display()
        );
        guard
    }
}

impl Drop for Unwritable {
    fn drop(&mut self) {
        if self.1 {
            let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
        }
        set_mode(&self.0, if self.0.is_dir() { 0o755 } else { 0o644 });
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn writable(path: &Path) -> bool {
    if path.is_dir() {
        let probe = path.join("probe");
        let ok = std::fs::File::create(&probe).is_ok();
        let _ = std::fs::remove_file(probe);
        ok
    } else {
        std::fs::OpenOptions::new().write(true).open(path).is_ok()
    }
}

/// A database with one game in it, closed.
async fn a_database_with_a_game(db: &Db) {
    let (state, app) = open(db);
    morne(&app).await;
    state.lobby().close().await;
}

fn refused(db: &Db) -> String {
    match AppState::open(&db.options()) {
        Ok(_) => panic!("the server started on {}", db.0.display()),
        Err(e) => e.to_string(),
    }
}

#[tokio::test]
async fn a_read_only_database_file_is_refused_at_start() {
    let db = Db::file("read-only");
    a_database_with_a_game(&db).await;
    let guard = Unwritable::new(&db.0);
    let message = refused(&db);
    assert!(
        message.contains("cannot write the database file") && message.contains("refuses to start"),
        "{message}"
    );
    drop(guard);
    assert!(AppState::open(&db.options()).is_ok(), "writable again");
}

#[tokio::test]
async fn a_read_only_shared_memory_index_is_refused_at_start() {
    let db = Db::file("read-only-shm");
    a_database_with_a_game(&db).await;
    let shm = sibling(&db.0, "-shm");
    std::fs::write(&shm, []).unwrap();
    let _guard = Unwritable::new(&shm);
    let message = refused(&db);
    assert!(
        message.contains("cannot write the database's shared-memory index"),
        "{message}"
    );
}

#[tokio::test]
async fn a_database_in_a_read_only_folder_is_refused_at_start() {
    let dir = std::env::temp_dir().join(format!(
        "grognard-test-{}-ro-folder-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir(&dir).unwrap();
    let db = Db::at(dir.join("grognard.db"));
    a_database_with_a_game(&db).await;
    {
        let _guard = Unwritable::new(&dir);
        let message = refused(&db);
        assert!(
            message.contains("cannot write in the database's folder"),
            "{message}"
        );
    }
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}
