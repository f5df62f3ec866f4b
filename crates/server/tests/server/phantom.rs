//! No phantom action (issue 14, item 5): nothing a seat sees is built before its
//! action is durable. The real file, with a failure injected at its commit.

use super::real_port::{next_object, serve, ws};
use super::*;

/// The actions of a log, as every channel gives them.
fn actions_of(log: &Value) -> Vec<Value> {
    log.as_array()
        .expect("a log")
        .iter()
        .map(|e| e["action"].clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_commit_shows_no_seat_a_phantom_action() {
    let db = Db::new("phantom");
    let (addr, state) = serve(&db).await;
    let app = grognard_server::app(state.clone());
    let (id, blue, orange) = morne(&app).await;
    let seats = [Some(blue.as_str()), Some(orange.as_str()), None];

    // Blue's bombardment rolls a die; its commit fails.
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    let bombard = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "bombard")
        .cloned()
        .expect("blue may bombard");
    state.lobby().fail_commits(1);
    let (status, body) = act(&app, &id, Some(&blue), &bombard, 0).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    assert_eq!(error_rule(&body), "server");
    assert!(grognard_server::store::read_log(&db.location(), &id)
        .unwrap()
        .is_empty());
    for t in seats {
        let (_, g) = get(&app, &format!("/api/games/{id}"), t).await;
        assert_eq!(
            (g["n"].as_u64(), &g["log"]),
            (Some(0), &json!([])),
            "nothing changed"
        );
    }

    // The next action at n = 0 ends the phase instead: it rolls nothing.
    let mut sockets = Vec::new();
    for t in seats {
        let mut s = ws(addr, &id, t).await;
        assert_eq!(next_object(&mut s).await["n"], 0);
        sockets.push(s);
    }
    let end = json!({"type": "end_phase"});
    let (status, answer) = act(&app, &id, Some(&blue), &end, 0).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let events = answer["events"].to_string();
    assert!(
        !events.contains("roll") && !events.contains("bombard"),
        "the answer carries the failed action's events: {events}"
    );
    assert_eq!(answer["view"]["n"], 1);
    assert_eq!(
        actions_of(&answer["view"]["log"]),
        std::slice::from_ref(&end)
    );

    // The file, and every seat's view, log, replay and push, agree.
    let file: Vec<Value> = grognard_server::store::read_log(&db.location(), &id)
        .unwrap()
        .into_iter()
        .map(|r| r.action)
        .collect();
    assert_eq!(file, std::slice::from_ref(&end));
    for (t, socket) in seats.iter().zip(&mut sockets) {
        let (_, g) = get(&app, &format!("/api/games/{id}"), *t).await;
        assert_eq!(actions_of(&g["log"]), file, "{:?}'s game object", g["seat"]);
        assert!(!g["log"].to_string().contains("roll"), "{}", g["log"]);
        let (_, r) = get(&app, &format!("/api/games/{id}/replay"), *t).await;
        assert_eq!(actions_of(&r["log"]), file, "{:?}'s replay", r["seat"]);
        let (_, at) = get(&app, &format!("/api/games/{id}/replay?at=1"), *t).await;
        assert_eq!(actions_of(&at["log"]), file);
        let pushed = next_object(socket).await;
        assert_eq!(pushed, g, "the push is the seat's GET");
    }

    // A restart on the file serves the same game.
    let (_, again) = reopen(&state, &db).await;
    let (_, g) = get(&again, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(actions_of(&g["log"]), file);
}

#[tokio::test]
async fn a_failed_commit_of_a_new_game_makes_no_game() {
    let db = Db::new("phantom-create");
    let (state, app) = open(&db);
    state.lobby().fail_commits(1);
    let (status, body) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}}),
    )
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    let (_, games) = get(&app, "/api/games", None).await;
    assert_eq!(games, json!([]));
    let (id, blue, _) = morne(&app).await;
    let (status, _) = act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK, "the file takes writes again");
}
