//! The computer's seats: it plays until a human decision, every built-in scenario, and resumes after a restart.

use super::*;

/// Polls a game until `done` holds for the view of `token`'s seat.
async fn wait_for(
    app: &Router,
    id: &str,
    token: Option<&str>,
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let (_, g) = get(app, &format!("/api/games/{id}"), token).await;
        if done(&g) {
            return g;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "waited two minutes for {what}: {g}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_seat_plays_until_a_human_decision() {
    let db = Db::new("ai");
    let (_, app) = open(&db);
    // Blue moves first; the computer plays blue.
    let (id, tokens) = new_game(&app, MORNE, &[("blue", "ai"), ("orange", "human")], None).await;
    let orange = &tokens["orange"];
    let g = wait_for(&app, &id, Some(orange), "orange's decision", |g| {
        g["to_act"]["side"] == "orange"
    })
    .await;
    assert!(
        g["n"].as_u64().unwrap() >= 3,
        "blue played its turn's phases: {}",
        g["n"]
    );
    assert!(!g["actions"].as_array().unwrap().is_empty());
    let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
    assert_eq!(
        log.len() as u64,
        g["n"].as_u64().unwrap(),
        "every move of the computer is in the file"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_every_built_in_scenario() {
    let db = Db::new("ai-all");
    let (state, app) = open(&db);
    for entry in &state.lobby().scenarios {
        let sides: Vec<(&str, &str)> = entry
            .scenario
            .sides
            .iter()
            .map(|s| (s.id.as_str(), "ai"))
            .collect();
        let (id, _) = new_game(&app, &entry.id, &sides, Some(11)).await;
        let g = wait_for(&app, &id, None, "ten of the computer's decisions", |g| {
            g["n"].as_u64() >= Some(10) || !g["outcome"].is_null()
        })
        .await;
        // Each decision was a legal action: the file replays to the same game.
        let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
        assert!(log.len() as u64 >= g["n"].as_u64().unwrap(), "{}", entry.id);
    }
    // After a restart every log replays: the computer's moves were all legal.
    let ids: Vec<String> = {
        db.query("SELECT id FROM games", &[])
            .iter()
            .map(|r| r.get(0).unwrap())
            .collect()
    };
    let (again, again_app) = reopen(&state, &db).await;
    assert_eq!(again.lobby().games(), state.lobby().scenarios.len());
    for id in &ids {
        let (status, g) = get(&again_app, &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    assert_eq!(again.lobby().skipped(), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_resumes_the_computers_pending_decision() {
    let db = Db::new("ai-restart");
    // The first server's computer waits an hour before each decision: it never moves.
    let mut slow = db.options();
    slow.ai_delay_millis = 3_600_000;
    let first_state = AppState::open(&slow).unwrap();
    let first = app(first_state.clone());
    let (id, tokens) = new_game(&first, MORNE, &[("blue", "ai"), ("orange", "human")], None).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (_, g) = get(&first, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0);

    first_state.lobby().close().await;
    let state = AppState::open(&db.options()).unwrap();
    state.lobby().resume_ai();
    let second = app(state);
    wait_for(
        &second,
        &id,
        Some(&tokens["orange"]),
        "orange's decision",
        |g| g["to_act"]["side"] == "orange",
    )
    .await;
}
