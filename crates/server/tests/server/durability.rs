//! Durability and restarts: games resume from the same file, whose log is append-only.

use super::*;

#[tokio::test]
async fn a_restart_on_the_same_file_resumes_every_game() {
    let db = Db::new("restart");
    let (state, app) = open(&db);
    let (a, blue_a, orange_a) = morne(&app).await;
    let (b, blue_b, _) = morne(&app).await;
    assert_eq!(end_phases(&app, &a, &[&blue_a, &orange_a], 4).await, 4);
    let (_, view_a) = get(&app, &format!("/api/games/{a}"), Some(&blue_a)).await;
    let (_, view_b) = get(&app, &format!("/api/games/{b}"), Some(&blue_b)).await;

    let (_, again) = reopen(&state, &db).await;
    let (_, resumed_a) = get(&again, &format!("/api/games/{a}"), Some(&blue_a)).await;
    let (_, resumed_b) = get(&again, &format!("/api/games/{b}"), Some(&blue_b)).await;
    assert_eq!(resumed_a, view_a);
    assert_eq!(resumed_b, view_b);
    assert_eq!(resumed_a["n"], 4);
    assert_eq!(
        end_phases(&again, &a, &[&blue_a, &orange_a], 1).await,
        5,
        "the game goes on"
    );
}

#[tokio::test]
async fn the_action_log_is_append_only_in_the_file() {
    let db = Db::new("append-only");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let (status, _) = act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK);
    assert!(db.execute("UPDATE actions SET action = '{}'", &[]).is_err());
    assert!(db.execute("DELETE FROM actions", &[]).is_err());
    if db.is_file() {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }
    let hash: String = db.query("SELECT seats FROM games", &[])[0].get(0).unwrap();
    assert!(!hash.contains(&blue), "the file keeps hashes, never tokens");
    assert!(hash.contains(&grognard_server::token::digest(&blue)));
}

#[tokio::test]
async fn the_writer_counts_its_transactions_and_their_time() {
    let db = Db::new("commit-times");
    let (state, app) = open(&db);
    let before = state.lobby().commit_times();
    let (commits0, _) = state.lobby().store_stats();
    let (id, blue, orange) = morne(&app).await;
    assert_eq!(end_phases(&app, &id, &[&blue, &orange], 3).await, 3);
    let (commits, writes) = state.lobby().store_stats();
    assert!(
        commits > commits0,
        "the game's creation and its actions were committed"
    );
    assert!(writes >= commits);
    let t = state.lobby().commit_times();
    assert!(
        t.busy_ns > before.busy_ns,
        "the transactions took some time"
    );
    assert!(t.commit_ns - before.commit_ns <= t.busy_ns - before.busy_ns);
    assert!(
        t.longest_commit_ns <= t.longest_ns,
        "a commit is part of its transaction"
    );
    assert!(t.longest_ns <= t.busy_ns);
}

#[tokio::test]
async fn settling_when_no_rated_game_waits_takes_no_write_lock() {
    // Every game's last action settles the ratings; an unrated one has none to settle.
    let db = Db::file("settle-no-lock");
    let (_state, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let (status, _) = act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK);
    // Another connection holds the write lock; the settling one does not wait at all.
    let holder = rusqlite::Connection::open(&db.0).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let mut conn =
        grognard_server::db::Conn::open(&grognard_server::db::Location::Sqlite(db.0.clone()))
            .unwrap();
    conn.sqlite()
        .unwrap()
        .busy_timeout(std::time::Duration::ZERO)
        .unwrap();
    grognard_server::accounts::ratings::settle(&mut conn)
        .expect("nothing waits to be settled: no write lock is asked for");
    holder.execute_batch("ROLLBACK").unwrap();
}

#[test]
fn a_patient_connection_waits_for_a_lock_held_elsewhere_and_gets_it() {
    let db = Db::file("patient");
    let first = rusqlite::Connection::open(&db.0).unwrap();
    first
        .execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER);")
        .unwrap();
    first
        .execute_batch("BEGIN IMMEDIATE; INSERT INTO t VALUES (1);")
        .unwrap();
    let second = rusqlite::Connection::open(&db.0).unwrap();
    grognard_server::db::patient(&second).unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        first.execute_batch("COMMIT").unwrap();
    });
    second
        .execute_batch("BEGIN IMMEDIATE; INSERT INTO t VALUES (2); COMMIT;")
        .expect("the second connection waits for the first to commit, then writes");
    release.join().unwrap();
    let n: i64 = second
        .query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
}
