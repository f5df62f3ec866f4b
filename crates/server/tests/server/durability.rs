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
