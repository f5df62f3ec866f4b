//! Only active games in memory (issue 14): a start replays no game; a game is loaded
//! from the file when first asked for, once however many ask at once; the recently
//! used stay in a cache of `--cache-games` tables; the list, the expiry sweep and the
//! computer's resumption read the file. All on a real SQLite file.

use super::*;

/// A server on `db` whose cache holds `cache` tables.
fn open_caching(db: &Db, cache: usize) -> (AppState, Router) {
    let mut options = db.options();
    options.cache_games = cache;
    let state = AppState::open(&options).expect("the database opens");
    (state.clone(), app(state))
}

/// A hotseat game of `scenario` (one token plays every seat): its id and the token.
async fn hotseat(app: &Router, scenario: &str) -> (String, String) {
    let registry = grognard_rules::registry();
    let b = grognard_rules::builtin::find(scenario).unwrap();
    let sides = registry.load_scenario(b.path, b.text).unwrap().sides;
    let seats: serde_json::Map<String, Value> = sides
        .iter()
        .map(|s| (s.id.clone(), json!("human")))
        .collect();
    let (status, made) = post(
        app,
        "/api/games",
        None,
        &json!({"scenario": scenario, "seats": seats, "hotseat": true}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let token = made["seats"][&sides[0].id]["token"].as_str().unwrap();
    (made["id"].as_str().unwrap().to_owned(), token.to_owned())
}

/// Plays `k` legal actions of game `id` (fewer if it ends), chosen by `rng`.
async fn play(app: &Router, id: &str, token: &str, k: usize, rng: &mut Lcg) {
    for _ in 0..k {
        let (_, g) = get(app, &format!("/api/games/{id}"), Some(token)).await;
        let actions = g["actions"].as_array().unwrap().clone();
        if actions.is_empty() {
            return;
        }
        let action = &actions[rng.below(actions.len())];
        let (status, body) = act(app, id, Some(token), action, g["n"].as_u64().unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}

/// Everything a seat, the hotseat token and a spectator read of a game.
async fn views(app: &Router, id: &str, token: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for t in [Some(token), None] {
        for path in ["", "/replay", "/replay?at=1"] {
            let (status, v) = get(app, &format!("/api/games/{id}{path}"), t).await;
            assert_eq!(status, StatusCode::OK, "{path}: {v}");
            out.push(v);
        }
    }
    out
}

/// Every page of the list of `query` (with `limit`), walked by its cursors.
async fn walk(app: &Router, query: &str, limit: usize) -> Vec<Value> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut uri = format!("/api/games?limit={limit}{query}");
        if let Some(c) = &cursor {
            uri.push_str(&format!("&cursor={c}"));
        }
        let req = Request::builder().uri(&uri).body(Body::empty()).unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{uri}");
        let next = res
            .headers()
            .get("x-next-cursor")
            .map(|v| v.to_str().unwrap().to_owned());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let page: Vec<Value> = serde_json::from_slice(&bytes).unwrap();
        assert!(page.len() <= limit);
        all.extend(page);
        match next {
            Some(c) => cursor = Some(c),
            None => return all,
        }
    }
}

fn ids(list: &[Value]) -> Vec<String> {
    list.iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_cold_game_is_loaded_on_first_request_and_answers_the_same_views_as_before_the_restart() {
    let db = Db::new("cold");
    let (state, app) = open(&db);
    let mut rng = Lcg(5);
    let mut games = Vec::new();
    for entry in &state.lobby().scenarios {
        let (id, token) = hotseat(&app, &entry.id).await;
        play(&app, &id, &token, 6, &mut rng).await;
        games.push((id.clone(), token.clone(), views(&app, &id, &token).await));
    }
    let (again_state, again) = reopen(&state, &db).await;
    let lobby = again_state.lobby();
    assert_eq!(lobby.games(), games.len());
    assert_eq!(
        (lobby.loads(), lobby.cached()),
        (0, 0),
        "the start loaded nothing"
    );
    for (k, (id, token, before)) in games.iter().enumerate() {
        assert_eq!(&views(&again, id, token).await, before, "game {id}");
        assert_eq!(
            lobby.loads(),
            k as u64 + 1,
            "each game loaded once, when asked for"
        );
    }
    // Loaded, each game goes on.
    let (id, token, _) = &games[0];
    play(&again, id, token, 2, &mut rng).await;
    assert_eq!(lobby.loads(), games.len() as u64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_requests_for_the_same_cold_game_load_it_once() {
    let db = Db::new("cold-once");
    let (state, app) = open(&db);
    let (id, token) = hotseat(&app, MORNE).await;
    play(&app, &id, &token, 5, &mut Lcg(1)).await;
    let (again_state, again) = reopen(&state, &db).await;
    let barrier = Arc::new(tokio::sync::Barrier::new(8));
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (app, id, barrier) = (again.clone(), id.clone(), Arc::clone(&barrier));
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            get(&app, &format!("/api/games/{id}"), None).await
        }));
    }
    let mut answers = Vec::new();
    for t in tasks {
        let (status, g) = t.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{g}");
        answers.push(g);
    }
    assert!(answers.iter().all(|g| *g == answers[0]));
    assert_eq!(again_state.lobby().loads(), 1, "eight requests, one load");
}

#[tokio::test]
async fn the_cache_never_holds_more_than_its_size_while_more_games_are_used() {
    let db = Db::new("cache-bound");
    let (state, app) = open_caching(&db, 3);
    let lobby = state.lobby();
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(hotseat(&app, MORNE).await);
        assert!(lobby.cached() <= 3, "{}", lobby.cached());
    }
    let mut rng = Lcg(9);
    for round in 0..3 {
        for (id, token) in &games {
            play(&app, id, token, 1, &mut rng).await;
            assert!(lobby.cached() <= 3, "round {round}: {}", lobby.cached());
            assert!(
                lobby.in_memory() <= 3,
                "round {round}: {}",
                lobby.in_memory()
            );
        }
    }
    assert_eq!(lobby.cached(), 3);
    // Eight games used round after round through three places: each round loads the
    // five that went.
    assert!(lobby.loads() >= 2 * 5, "{}", lobby.loads());
    for (id, _) in &games {
        assert_eq!(
            grognard_server::store::read_log(&db.location(), id)
                .unwrap()
                .len(),
            3
        );
    }
}

#[tokio::test]
async fn an_evicted_games_next_action_works_and_nothing_is_lost() {
    let db = Db::new("evicted");
    let (state, app) = open_caching(&db, 1);
    let (id, token) = hotseat(&app, MORNE).await;
    let mut rng = Lcg(4);
    play(&app, &id, &token, 3, &mut rng).await;
    let before = views(&app, &id, &token).await;
    // Another game takes the only place: the first leaves memory.
    let (other, other_token) = hotseat(&app, MORNE).await;
    play(&app, &other, &other_token, 1, &mut rng).await;
    assert_eq!(state.lobby().in_memory(), 1);
    let loads = state.lobby().loads();
    assert_eq!(views(&app, &id, &token).await, before, "rebuilt as it was");
    assert_eq!(state.lobby().loads(), loads + 1);
    play(&app, &id, &token, 3, &mut rng).await;
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 6);
    let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
    assert_eq!(log.len(), 6, "every acknowledged action is in the file");
    let (_, replay) = get(&app, &format!("/api/games/{id}/replay"), Some(&token)).await;
    for (stored, served) in log.iter().zip(replay["log"].as_array().unwrap()) {
        assert_eq!(stored.action, served["action"]);
    }
    // A stale `expect` from before the eviction is still a conflict, not a fork.
    let (status, _) = act(&app, &id, Some(&token), &json!({"type": "end_phase"}), 3).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_watched_over_a_websocket_stays_one_table_when_evicted_and_its_socket_gets_every_action(
) {
    let db = Db::new("evicted-ws");
    let mut options = db.options();
    options.cache_games = 1;
    let state = AppState::open(&options).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grognard_server::serve_on(listener, state.clone()));
    let app = app(state.clone());
    let lobby = state.lobby();

    let (id, token) = hotseat(&app, MORNE).await;
    let mut socket = real_port::ws(addr, &id, None).await;
    assert_eq!(real_port::next_object(&mut socket).await["n"], 0);
    // Two other games pass through the one place: the watched one leaves the cache
    // but not memory, since its socket holds it.
    for _ in 0..2 {
        let (other, t) = hotseat(&app, MORNE).await;
        play(&app, &other, &t, 1, &mut Lcg(2)).await;
    }
    assert_eq!(lobby.cached(), 1);
    assert_eq!(lobby.in_memory(), 2, "the cached game and the watched one");
    let mut rng = Lcg(8);
    let mut last = Value::Null;
    for n in 1..=4u64 {
        play(&app, &id, &token, 1, &mut rng).await;
        last = real_port::objects_until(&mut socket, n)
            .await
            .pop()
            .unwrap();
        assert_eq!(last["n"], n, "the socket saw action {n}");
    }
    assert_eq!(
        lobby.loads(),
        0,
        "the watched game was found again, never rebuilt"
    );
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g, last, "the socket's game is the one served");
    assert_eq!(
        grognard_server::store::read_log(&db.location(), &id)
            .unwrap()
            .len(),
        4
    );
}

#[tokio::test]
async fn a_start_replays_no_game_and_a_corrupt_log_is_reported_when_the_game_is_first_asked_for() {
    let db = Db::new("corrupt-log");
    let (state, app) = open(&db);
    let (bad, bad_token) = hotseat(&app, MORNE).await;
    let (good, good_token) = hotseat(&app, MORNE).await;
    play(&app, &bad, &bad_token, 2, &mut Lcg(3)).await;
    drop(app);
    state.lobby().close().await;
    // The log of `bad` gets an action the rules cannot read (the log is append-only:
    // a row is added, none changed).
    db.execute(
        "INSERT INTO actions (game_id, n, action) VALUES (?1, 3, '{\"type\":\"fly\"}')",
        &[bad.as_str().into()],
    )
    .unwrap();
    let (again_state, again) = open(&db);
    let lobby = again_state.lobby();
    assert_eq!(lobby.games(), 2);
    assert_eq!(lobby.loads(), 0, "the start replayed no game");
    assert!(
        lobby.skipped().is_empty(),
        "nothing is known broken before it is asked for"
    );
    let listed = ids(&walk(&again, "", 50).await);
    assert!(
        listed.contains(&bad),
        "listed from its line until it is asked for"
    );
    let (status, body) = get(&again, &format!("/api/games/{bad}"), Some(&bad_token)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(error_message(&body).contains("does not load"), "{body}");
    assert_eq!(
        lobby.skipped(),
        std::slice::from_ref(&bad),
        "reported when first asked for"
    );
    // Asked again, it is not replayed again, and it leaves the list.
    let loads = lobby.loads();
    let (status, _) = get(&again, &format!("/api/games/{bad}/replay"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(lobby.loads(), loads);
    assert_eq!(
        ids(&walk(&again, "", 50).await),
        std::slice::from_ref(&good)
    );
    let (status, _) = get(&again, &format!("/api/games/{good}"), Some(&good_token)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_list_pages_from_the_database_across_a_restart_newest_activity_first() {
    let db = Db::new("list-restart");
    let (state, app) = open(&db);
    let mut games = Vec::new();
    for i in 0..7 {
        let scenario = if i % 3 == 0 {
            "crossing-at-hollins-ford"
        } else {
            MORNE
        };
        games.push(hotseat(&app, scenario).await);
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    // Older games act later: the order is not the order of creation.
    let mut rng = Lcg(6);
    for (id, token) in games.iter().step_by(2) {
        play(&app, id, token, 1, &mut rng).await;
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let before = walk(&app, "", 50).await;
    assert_eq!(before.len(), 7);
    let (again_state, again) = reopen(&state, &db).await;
    for limit in [1, 3, 50] {
        assert_eq!(walk(&again, "", limit).await, before, "pages of {limit}");
    }
    let key = |g: &Value| {
        (
            std::cmp::Reverse(g["active"].as_str().unwrap().to_owned()),
            g["id"].as_str().unwrap().to_owned(),
        )
    };
    assert!(
        before.windows(2).all(|w| key(&w[0]) < key(&w[1])),
        "newest activity first"
    );
    let acted: BTreeSet<String> = games.iter().step_by(2).map(|(id, _)| id.clone()).collect();
    let first: BTreeSet<String> = ids(&before[..4]).into_iter().collect();
    assert_eq!(first, acted, "the games that acted come first");
    for g in &before {
        let n = if acted.contains(g["id"].as_str().unwrap()) {
            1
        } else {
            0
        };
        assert_eq!(g["n"], n, "{g}");
    }
    let battle_cry = walk(&again, "&ruleset=battle_cry", 2).await;
    assert_eq!(battle_cry.len(), 3);
    assert!(battle_cry.iter().all(|g| g["ruleset"] == "battle_cry"));
    assert_eq!(
        walk(&again, "&open=true", 2).await,
        before,
        "no token shown since the start"
    );
    assert_eq!(
        again_state.lobby().loads(),
        0,
        "no game was loaded for the list"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_resumes_where_it_is_to_act_after_a_restart_loading_only_its_games() {
    let db = Db::new("ai-resume-lazy");
    // The first server's computer waits an hour before each decision: it never moves.
    let mut slow = db.options();
    slow.ai_delay_millis = 3_600_000;
    let first_state = AppState::open(&slow).unwrap();
    let first = app(first_state.clone());
    let (ai_game, tokens) =
        new_game(&first, MORNE, &[("blue", "ai"), ("orange", "human")], None).await;
    // Games where a person is to act, and one where the computer waits for a person.
    for _ in 0..3 {
        hotseat(&first, MORNE).await;
    }
    new_game(&first, MORNE, &[("blue", "human"), ("orange", "ai")], None).await;
    first_state.lobby().close().await;

    let state = AppState::open(&db.options()).unwrap();
    let lobby = Arc::clone(state.lobby());
    assert_eq!((lobby.games(), lobby.loads()), (5, 0));
    lobby.resume_ai();
    // Nobody asks for any game: the computer's game is loaded by the resumption alone.
    let start = Instant::now();
    while grognard_server::store::read_log(&db.location(), &ai_game)
        .unwrap()
        .len()
        < 3
    {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the computer never moved"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        lobby.loads(),
        1,
        "only the game where the computer was to act"
    );
    let app = app(state.clone());
    let (_, view) = get(
        &app,
        &format!("/api/games/{ai_game}"),
        Some(&tokens["orange"]),
    )
    .await;
    assert_eq!(view["seat"], "orange");
    assert_eq!(lobby.loads(), 1);
}

#[tokio::test]
async fn max_games_counts_the_games_in_the_database_not_those_in_memory() {
    let db = Db::new("max-games");
    let mut options = db.options();
    options.max_games = 3;
    options.cache_games = 1;
    let state = AppState::open(&options).unwrap();
    let app = app(state.clone());
    for _ in 0..3 {
        hotseat(&app, MORNE).await;
    }
    assert_eq!(state.lobby().in_memory(), 1);
    let refused = |app: Router| async move {
        let body = json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}});
        post(&app, "/api/games", None, &body).await.0
    };
    assert_eq!(refused(app.clone()).await, StatusCode::SERVICE_UNAVAILABLE);
    state.lobby().close().await;
    let state = AppState::open(&options).unwrap();
    assert_eq!(state.lobby().games(), 3);
    assert_eq!(
        refused(grognard_server::app(state)).await,
        StatusCode::SERVICE_UNAVAILABLE
    );
}

#[tokio::test]
async fn the_expiry_sweep_finds_idle_games_in_the_database_without_loading_them() {
    let db = Db::new("expire-cold");
    let (state, app) = open(&db);
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(hotseat(&app, MORNE).await.0);
    }
    let (again_state, again) = reopen(&state, &db).await;
    // One is in memory, the others only in the file.
    let (status, _) = get(&again, &format!("/api/games/{}", games[0]), None).await;
    assert_eq!(status, StatusCode::OK);
    let lobby = again_state.lobby();
    let now = grognard_server::store::now_ms();
    let mut gone = lobby.expire_idle(now + 31 * 86_400_000).await.unwrap();
    gone.sort();
    games.sort();
    assert_eq!(gone, games);
    assert_eq!((lobby.loads(), lobby.games(), lobby.in_memory()), (1, 0, 0));
    for id in &games {
        let (status, body) = get(&again, &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(error_message(&body).contains("expired"), "{body}");
    }
    assert!(walk(&again, "", 50).await.is_empty());
}

#[tokio::test]
async fn a_database_of_schema_1_gets_its_lines_of_the_lobby_once_at_its_first_start() {
    // About the SQLite file's migrations: PostgreSQL starts at the current schema.
    let db = Db::file("schema-1");
    let (state, app) = open(&db);
    let (id, token) = hotseat(&app, MORNE).await;
    play(&app, &id, &token, 2, &mut Lcg(7)).await;
    let (other, _) = hotseat(&app, MORNE).await;
    let before = walk(&app, "", 50).await;
    state.lobby().close().await;
    // Back to schema version 1, as an older server left it: such a server marked each
    // action in the games row (from version 7 on, the summary alone says it).
    rusqlite::Connection::open(&db.0)
        .unwrap()
        .execute_batch(
            "UPDATE games SET active_ms = (SELECT active_ms FROM summaries
                 WHERE summaries.game_id = games.id);
             DROP TABLE summaries; DROP INDEX games_by_activity; PRAGMA user_version = 1;",
        )
        .unwrap();
    let (state, app) = open(&db);
    assert_eq!(
        walk(&app, "", 50).await,
        before,
        "each game replayed once for its line"
    );
    assert_eq!(state.lobby().loads(), 0);
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    let pending: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM meta WHERE key = 'summaries'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        (version, pending),
        (7, 0),
        "migrated, and no line left to write"
    );
    let (state, app) = reopen(&state, &db).await;
    assert_eq!(walk(&app, "", 50).await, before);
    let (status, _) = get(&app, &format!("/api/games/{other}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state.lobby().loads(), 1);
}
