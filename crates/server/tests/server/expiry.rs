//! Idle games expire (issue 14, item 2): an unfinished game without an action for
//! `--expire-days` leaves memory and the file; a finished one stays; a request for an
//! expired game says that it expired. The clock is the test's: the sweep's own call
//! takes the time, and the periodic sweep runs with an expiry of a second.

use super::*;
use grognard_server::store::now_ms;

const DAY_MS: u64 = 86_400_000;

fn rows(db: &Db, table: &str, id: &str) -> i64 {
    let column = if table == "actions" { "game_id" } else { "id" };
    db.query(
        &format!("SELECT COUNT(*) FROM {table} WHERE {column} = ?1"),
        &[id.into()],
    )[0]
    .get(0)
    .unwrap()
}

/// A pause so that two times read apart differ (the clock counts milliseconds).
async fn tick() {
    tokio::time::sleep(Duration::from_millis(5)).await;
}

#[tokio::test]
async fn idle_games_expire_and_a_request_for_one_says_it_expired() {
    let db = Db::new("expire");
    let (state, app) = open(&db);
    let (idle, idle_blue, _) = morne(&app).await;
    let end = json!({"type": "end_phase"});
    assert_eq!(
        act(&app, &idle, Some(&idle_blue), &end, 0).await.0,
        StatusCode::OK
    );
    let (status, made) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}, "hotseat": true}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let finished = made["id"].as_str().unwrap().to_owned();
    let token = made["seats"]["blue"]["token"].as_str().unwrap().to_owned();
    let tokens = BTreeMap::from([("blue".to_owned(), token)]);
    play_to_the_end(&app, &finished, &tokens, &mut Lcg(3)).await;
    let (active, active_blue, _) = morne(&app).await;
    tick().await;
    let between = now_ms();
    tick().await;
    assert_eq!(
        act(&app, &active, Some(&active_blue), &end, 0).await.0,
        StatusCode::OK
    );

    // A day short of the expiry, nothing goes.
    let lobby = state.lobby();
    assert_eq!(
        lobby.expire_idle(between + 29 * DAY_MS).await.unwrap(),
        Vec::<String>::new()
    );
    // Thirty days after `between`: the game idle since before it goes; the one played
    // since and the finished one stay.
    let gone = lobby.expire_idle(between + 30 * DAY_MS).await.unwrap();
    assert_eq!(gone, std::slice::from_ref(&idle));
    for path in ["", "/replay", "/ws"] {
        let (status, body) = get(&app, &format!("/api/games/{idle}{path}"), Some(&idle_blue)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        assert!(error_message(&body).contains("expired"), "{body}");
    }
    let (status, body) = act(&app, &idle, Some(&idle_blue), &end, 1).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_message(&body).contains("expired"), "{body}");
    let (status, body) = get(&app, "/api/games/0000000000000000", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!error_message(&body).contains("expired"), "{body}");
    assert_eq!(
        (rows(&db, "games", &idle), rows(&db, "actions", &idle)),
        (0, 0)
    );
    assert_eq!(rows(&db, "expired", &idle), 1);
    for id in [&finished, &active] {
        assert_eq!(
            get(&app, &format!("/api/games/{id}"), None).await.0,
            StatusCode::OK
        );
        assert_eq!(rows(&db, "games", id), 1);
    }
    let (_, list) = get(&app, "/api/games", None).await;
    assert!(!list.to_string().contains(&idle), "{list}");

    // After a restart the expired game still says so; the others go on.
    let (again_state, again) = reopen(&state, &db).await;
    let (status, body) = get(&again, &format!("/api/games/{idle}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_message(&body).contains("expired"), "{body}");
    assert_eq!(again_state.lobby().games(), 2);
    // The log stays append-only for every game not expired.
    assert!(db
        .execute(
            "DELETE FROM actions WHERE game_id = ?1",
            &[active.as_str().into()]
        )
        .is_err());
    assert!(db
        .execute("DELETE FROM games WHERE id = ?1", &[active.as_str().into()])
        .is_err());
}

/// When game `id` last saw an action, as its row says and as its summary says.
fn activity(db: &Db, id: &str) -> (u64, u64) {
    let read = |sql: &str| -> u64 {
        let ms: i64 = db.query(sql, &[id.into()])[0].get(0).unwrap();
        u64::try_from(ms).unwrap()
    };
    (
        read("SELECT active_ms FROM games WHERE id = ?1"),
        read("SELECT active_ms FROM summaries WHERE game_id = ?1"),
    )
}

#[tokio::test]
async fn an_action_marks_the_game_active_in_its_summary_alone_and_a_restart_reads_it_there() {
    let db = Db::new("expire-summary");
    let (state, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let (made, _) = activity(&db, &id);
    tick().await;
    let end = json!({"type": "end_phase"});
    assert_eq!(act(&app, &id, Some(&blue), &end, 0).await.0, StatusCode::OK);
    // The action wrote the summary; the games row keeps the time of the creation.
    let (row, summary) = activity(&db, &id);
    assert_eq!(row, made, "an action leaves the games row alone");
    assert!(
        summary > made + 1,
        "the summary moved on: {summary} after {made}"
    );
    // The sweep's query itself lists the game by the summary's time, not the row's.
    let listed = |cutoff: u64| {
        let location = db.location();
        grognard_server::db::off_runtime(|| {
            let mut conn = grognard_server::db::Conn::open(&location).unwrap();
            grognard_server::store::read::idle(&mut conn, cutoff, 10).unwrap()
        })
    };
    assert_eq!(listed(made + 1), Vec::<String>::new());
    assert_eq!(listed(summary + 1), vec![id.clone()]);
    // After a restart the game's activity is the summary's: just past thirty days
    // after the creation it stays (read from the row, it would go), thirty days after
    // the action it goes.
    let (again_state, _again) = reopen(&state, &db).await;
    kept_then_gone(
        &again_state,
        &db,
        &id,
        made + 30 * DAY_MS + 1,
        summary + 30 * DAY_MS + 1,
    )
    .await;
}

/// The expiry sweep at `kept` leaves game `id` alone; at `gone` it expires it, and its
/// row is deleted.
async fn kept_then_gone(state: &AppState, db: &Db, id: &str, kept: u64, gone: u64) {
    let lobby = state.lobby();
    assert_eq!(lobby.expire_idle(kept).await.unwrap(), Vec::<String>::new());
    assert_eq!(lobby.expire_idle(gone).await.unwrap(), vec![id.to_owned()]);
    assert_eq!(rows(db, "games", id), 0);
}

#[tokio::test]
async fn a_game_without_a_line_of_the_lobby_expires_by_its_rows_time() {
    // A game whose replay failed at the first start after summaries came has no line:
    // its row's time stands in.
    let db = Db::new("expire-no-summary");
    let (state, app) = open(&db);
    let (id, _, _) = morne(&app).await;
    let (made, _) = activity(&db, &id);
    state.lobby().close().await;
    db.execute(
        "DELETE FROM summaries WHERE game_id = ?1",
        &[id.as_str().into()],
    )
    .unwrap();
    let (again_state, _again) = open(&db);
    kept_then_gone(
        &again_state,
        &db,
        &id,
        made + 30 * DAY_MS,
        made + 30 * DAY_MS + 1,
    )
    .await;
}

#[tokio::test]
async fn with_expire_days_zero_no_game_expires() {
    let db = Db::new("expire-never");
    let mut options = db.options();
    options.expire_days = 0.0;
    let state = AppState::open(&options).unwrap();
    let app = grognard_server::app(state.clone());
    let (id, _, _) = morne(&app).await;
    let gone = state
        .lobby()
        .expire_idle(now_ms() + 3650 * DAY_MS)
        .await
        .unwrap();
    assert!(gone.is_empty());
    assert_eq!(
        get(&app, &format!("/api/games/{id}"), None).await.0,
        StatusCode::OK
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_periodic_sweep_expires_an_idle_game_on_a_real_port() {
    let db = Db::new("expire-sweep");
    let mut options = db.options();
    options.expire_days = 1.0 / 86_400.0;
    let state = AppState::open(&options).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grognard_server::serve_on(listener, state.clone()));
    let (id, _) = morne_at(addr).await;
    let id = id.as_str();
    let mut c = http::Client::connect(addr).await;
    let start = Instant::now();
    let body = loop {
        let (status, body) = c.call("GET", &format!("/api/games/{id}"), None, None).await;
        if status == 404 {
            break body;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "never swept");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(error_message(&body).contains("expired"), "{body}");
    assert_eq!(rows(&db, "games", id), 0);
}

/// The schema as first shipped (version 0): no `active_ms`, no `expired`.
const SCHEMA_0: &str = r"
CREATE TABLE games (id TEXT PRIMARY KEY, scenario_id TEXT NOT NULL, ruleset TEXT NOT NULL,
    scenario TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL CHECK (n >= 1),
    action TEXT NOT NULL, forced TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (game_id, n)) WITHOUT ROWID;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
";

#[tokio::test]
async fn a_database_of_the_first_schema_migrates_and_its_old_games_go_on() {
    // About the SQLite file's migrations: PostgreSQL starts at the current schema.
    let db = Db::file("migrate");
    let registry = grognard_rules::registry();
    let b = grognard_rules::builtin::find(MORNE).unwrap();
    let scenario = registry.load_scenario(b.path, b.text).unwrap();
    let token = grognard_server::token::fresh();
    let seats = json!({
        "blue": {"kind": "human", "token_sha256": grognard_server::token::digest(&token)},
        "orange": {"kind": "ai"},
    });
    {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        conn.execute_batch(SCHEMA_0).unwrap();
        conn.execute(
            "INSERT INTO games VALUES ('0123456789abcdef', ?1, 'morne_plaine', ?2, 7, ?3, '2020-01-01T00:00:00.000Z')",
            rusqlite::params![MORNE, serde_json::to_string(&scenario).unwrap(), seats.to_string()],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO actions (game_id, n, action) VALUES ('0123456789abcdef', 1, '{\"type\":\"end_phase\"}')",
            [],
        )
        .unwrap();
    }
    let before = now_ms();
    let (state, app) = open(&db);
    let id = "0123456789abcdef";
    let (status, g) = get(&app, &format!("/api/games/{id}"), Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["n"], 1);
    let version: i64 = rusqlite::Connection::open(&db.0)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 7);
    // Created in 2020, but counted active from the migration: not expired at once.
    assert!(state
        .lobby()
        .expire_idle(before + 29 * DAY_MS)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        state
            .lobby()
            .expire_idle(now_ms() + 31 * DAY_MS)
            .await
            .unwrap(),
        [id]
    );
    assert_eq!(
        rows(&db, "actions", id),
        0,
        "the migrated trigger lets an expired game go"
    );
}
