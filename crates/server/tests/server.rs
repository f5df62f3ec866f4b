//! The server: every endpoint and error through `app()` without a socket, then on a
//! real port: concurrent submissions, WebSocket pushes, hidden information on every
//! channel, the computer's seats, restarts on the same file.

#[path = "support/http.rs"]
mod http;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use futures_util::StreamExt;
use grognard_engine::game::{SavedAction, SavedGame, SAVE_FORMAT};
use grognard_engine::{AnyGame, Seat};
use grognard_server::{app, AppState, Options};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

const MORNE: &str = "bridge-at-morne";

/// A database file in the temporary folder, removed with its WAL at the end.
struct Db(PathBuf);

impl Db {
    fn new(name: &str) -> Db {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let path = std::env::temp_dir().join(format!(
            "grognard-server-test-{}-{name}-{nanos}.db",
            std::process::id()
        ));
        Db(path)
    }

    fn options(&self) -> Options {
        Options {
            addr: "127.0.0.1:0".into(),
            db: self.0.clone(),
            ai_millis: 50,
            ai_delay_millis: 0,
            ai_threads: 2,
            ai_level: grognard_engine::Level::Normal,
            max_games: 1000,
        }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

fn open(db: &Db) -> (AppState, Router) {
    let state = AppState::open(&db.options()).expect("the database opens");
    (state.clone(), app(state))
}

async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<String>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = body.map_or_else(Body::empty, Body::from);
    let res = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

async fn get(app: &Router, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
    call(app, "GET", uri, token, None).await
}

async fn post(app: &Router, uri: &str, token: Option<&str>, body: &Value) -> (StatusCode, Value) {
    call(app, "POST", uri, token, Some(body.to_string())).await
}

/// A new game: its id and each human side's token.
async fn new_game(
    app: &Router,
    scenario: &str,
    seats: &[(&str, &str)],
    seed: Option<u64>,
) -> (String, BTreeMap<String, String>) {
    let seats: serde_json::Map<String, Value> = seats
        .iter()
        .map(|(s, k)| ((*s).to_owned(), json!(k)))
        .collect();
    let mut req = json!({"scenario": scenario, "seats": seats});
    if let Some(seed) = seed {
        req["seed"] = json!(seed);
    }
    let (status, body) = post(app, "/api/games", None, &req).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap().to_owned();
    let tokens = body["seats"]
        .as_object()
        .unwrap()
        .iter()
        .filter_map(|(side, s)| s["token"].as_str().map(|t| (side.clone(), t.to_owned())))
        .collect();
    (id, tokens)
}

/// A Morne Plaine game, both sides human.
async fn morne(app: &Router) -> (String, String, String) {
    let (id, tokens) = new_game(
        app,
        MORNE,
        &[("blue", "human"), ("orange", "human")],
        Some(7),
    )
    .await;
    (id, tokens["blue"].clone(), tokens["orange"].clone())
}

/// Ends `k` phases, each by the side to act; returns the new `n`.
async fn end_phases(app: &Router, id: &str, tokens: &[&str], k: u64) -> u64 {
    let (_, g) = get(app, &format!("/api/games/{id}"), None).await;
    let mut n = g["n"].as_u64().unwrap();
    for _ in 0..k {
        let mut done = false;
        for t in tokens {
            let (status, _) = post(
                app,
                &format!("/api/games/{id}/actions"),
                Some(t),
                &json!({"action": {"type": "end_phase"}, "expect": n}),
            )
            .await;
            if status == StatusCode::OK {
                done = true;
                break;
            }
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "only the seat to act is refused"
            );
        }
        assert!(done, "some seat could end the phase");
        n += 1;
    }
    n
}

fn error_rule(body: &Value) -> &str {
    body["error"]["rule"]
        .as_str()
        .unwrap_or_else(|| panic!("no error rule in {body}"))
}

fn error_message(body: &Value) -> &str {
    body["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {body}"))
}

// ---------------------------------------------------------------------------------
// The lobby

#[tokio::test]
async fn scenarios_lists_every_built_in_scenario_with_sides_and_map() {
    let db = Db::new("scenarios");
    let (_, app) = open(&db);
    let (status, body) = get(&app, "/api/scenarios", None).await;
    assert_eq!(status, StatusCode::OK);
    let list = body.as_array().unwrap();
    // Every built-in scenario that validates; an invalid one is left out.
    let registry = grognard_rules::registry();
    let valid: Vec<&str> = grognard_rules::builtin::SCENARIOS
        .iter()
        .filter(|b| registry.load_scenario(b.path, b.text).is_ok())
        .map(|b| b.id)
        .collect();
    let listed: Vec<&str> = list.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(listed, valid);
    let morne = list
        .iter()
        .find(|s| s["id"] == MORNE)
        .expect("the bridge at Morne");
    assert_eq!(morne["ruleset"], "morne_plaine");
    assert_eq!(morne["map"], json!({"cols": 16, "rows": 12}));
    let sides: Vec<&str> = morne["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(sides, ["orange", "blue"]);
    assert!(morne["title"].as_str().unwrap().contains("Morne"));
    assert!(!morne["description"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn board_draws_every_hex_hexside_path_and_place() {
    let db = Db::new("board");
    let (_, app) = open(&db);
    let (status, b) = get(&app, &format!("/api/scenarios/{MORNE}/board"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (b["cols"].as_u64(), b["rows"].as_u64()),
        (Some(16), Some(12))
    );
    assert_eq!(b["orientation"], "flat_top");
    assert_eq!(b["shove"], "even");
    let hexes = b["hexes"].as_array().unwrap();
    assert_eq!(hexes.len(), 16 * 12);
    let first = &hexes[0];
    assert_eq!(
        (
            first["label"].as_str(),
            first["q"].as_i64(),
            first["r"].as_i64()
        ),
        (Some("0101"), Some(0), Some(0))
    );
    assert_eq!(
        (first["col"].as_u64(), first["row"].as_u64()),
        (Some(1), Some(1))
    );
    // The redoubt on Mont Aubin stands on its summit.
    let summit = hexes.iter().find(|h| h["label"] == "0303").unwrap();
    assert_eq!(summit["elevation"], 2);
    assert!(b["hexsides"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["features"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "bridge")));
    assert!(b["paths"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["kind"] == "road"));
    assert!(!b["places"].as_array().unwrap().is_empty());
    assert_eq!(b["sides"].as_array().unwrap().len(), 2);
    // Every terrain of the map has its fill from the engine's palette, as the SVG has.
    for h in hexes {
        let terrain = h["terrain"].as_str().unwrap();
        assert_eq!(
            b["palette"]["terrain"][terrain],
            grognard_engine::palette::terrain_colour(terrain)
        );
    }
    assert_eq!(b["palette"]["terrain"]["woods"], "#7fa464");

    let (status, body) = get(&app, "/api/scenarios/no-such-battle/board", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_message(&body).contains("no-such-battle"));
}

#[tokio::test]
async fn a_new_game_hands_each_human_seat_a_token_and_a_link() {
    let db = Db::new("create");
    let (_, app) = open(&db);
    let (status, body) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap();
    let blue = &body["seats"]["blue"];
    assert_eq!(blue["kind"], "human");
    let token = blue["token"].as_str().unwrap();
    assert_eq!(token.len(), 32);
    assert!(token.bytes().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(blue["link"], format!("/play/{id}?token={token}"));
    assert_eq!(
        body["seats"]["orange"],
        json!({"kind": "ai", "level": "normal"})
    );
}

#[tokio::test]
async fn a_new_game_sets_the_level_of_each_computer_seat() {
    let db = Db::new("levels");
    let (_, app) = open(&db);
    let (status, body) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "ai", "orange": "ai"}, "levels": {"orange": "easy"}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        body["seats"]["orange"],
        json!({"kind": "ai", "level": "easy"})
    );
    assert_eq!(
        body["seats"]["blue"],
        json!({"kind": "ai", "level": "normal"})
    );
}

#[tokio::test]
async fn a_new_game_names_what_is_wrong_with_the_request() {
    let db = Db::new("create-errors");
    let (_, app) = open(&db);
    let cases = [
        (
            json!({"scenario": "waterloo", "seats": {"blue": "human", "orange": "ai"}}),
            "waterloo",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "green": "ai", "orange": "ai"}}),
            "green",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human"}}),
            "missing: orange",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "robot"}}),
            "robot",
        ),
        (json!({"scenario": MORNE}), "seats"),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}, "seed": -1}),
            "-1",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}, "levels": {"blue": "hard"}}),
            "blue",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}, "levels": {"orange": "grandmaster"}}),
            "grandmaster",
        ),
    ];
    for (req, named) in cases {
        let (status, body) = post(&app, "/api/games", None, &req).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{req} -> {body}");
        assert!(
            error_message(&body).contains(named),
            "{req}: `{named}` not in {body}"
        );
    }
    let (_, list) = get(&app, "/api/games", None).await;
    assert_eq!(list, json!([]), "no game was made");
}

#[tokio::test]
async fn the_list_of_games_is_newest_first_and_shows_no_token() {
    let db = Db::new("list");
    let (_, app) = open(&db);
    let (older, t1) = new_game(&app, MORNE, &[("blue", "human"), ("orange", "ai")], None).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (newer, t2) = new_game(&app, MORNE, &[("blue", "human"), ("orange", "human")], None).await;
    let (status, list) = get(&app, "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [newer.as_str(), older.as_str()]);
    let g = &list[1];
    assert_eq!(g["scenario"], MORNE);
    assert_eq!(g["ruleset"], "morne_plaine");
    assert_eq!(g["seats"], json!({"blue": "human", "orange": "ai"}));
    assert_eq!(g["n"], 0);
    assert_eq!(g["to_act"]["side"], "blue");
    assert_eq!(g["outcome"], Value::Null);
    assert!(g["created"].as_str().unwrap().ends_with('Z'));
    let text = list.to_string();
    for t in t1.values().chain(t2.values()) {
        assert!(!text.contains(t.as_str()), "a token leaked into the list");
    }
}

// ---------------------------------------------------------------------------------
// Views and tokens

#[tokio::test]
async fn each_seat_gets_its_view_and_only_the_seat_to_act_its_actions() {
    let db = Db::new("views");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    let uri = format!("/api/games/{id}");

    let (status, b) = get(&app, &uri, Some(&blue)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(b["id"], id.as_str());
    assert_eq!(b["seat"], "blue");
    assert_eq!(b["scenario"], MORNE);
    assert_eq!(b["ruleset"], "morne_plaine");
    assert_eq!(b["n"], 0);
    assert_eq!(b["to_act"]["side"], "blue");
    assert_eq!(b["outcome"], Value::Null);
    assert!(b["actions"]
        .as_array()
        .unwrap()
        .contains(&json!({"type": "end_phase"})));
    assert_eq!(b["view"]["turn"], 1);
    assert!(b["view"]["units"].as_array().unwrap().len() > 10);
    assert_eq!(b["log"], json!([]));

    let (status, o) = get(&app, &uri, Some(&orange)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(o["seat"], "orange");
    assert_eq!(o["actions"], json!([]), "not orange's decision");

    let (status, s) = get(&app, &uri, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["seat"], "spectator");
    assert_eq!(s["actions"], json!([]), "spectators never get actions");
    assert_eq!(s["view"], b["view"], "Morne Plaine hides nothing");
}

#[tokio::test]
async fn an_unknown_game_is_404_on_every_endpoint() {
    let db = Db::new("unknown");
    let (_, app) = open(&db);
    let (_, blue, _) = morne(&app).await;
    for (method, path) in [
        ("GET", "/api/games/nope"),
        ("POST", "/api/games/nope/actions"),
        ("POST", "/api/games/nope/explain"),
        ("POST", "/api/games/nope/preview"),
        ("GET", "/api/games/nope/reachable?unit=x"),
        ("GET", "/api/games/nope/replay"),
        ("GET", "/api/games/nope/ws"),
    ] {
        let body = (method == "POST")
            .then(|| json!({"action": {"type": "end_phase"}, "expect": 0}).to_string());
        let (status, body) = call(&app, method, path, Some(&blue), body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {body}");
        assert_eq!(error_rule(&body), "not_found");
    }
    let (status, body) = get(&app, "/api/nothing-here", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_rule(&body), "not_found");
}

#[tokio::test]
async fn an_action_without_a_token_is_401() {
    let db = Db::new("missing-token");
    let (_, app) = open(&db);
    let (id, _, _) = morne(&app).await;
    let (status, body) = post(
        &app,
        &format!("/api/games/{id}/actions"),
        None,
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error_rule(&body), "token");
    assert!(error_message(&body).contains("Bearer"));
}

#[tokio::test]
async fn a_forged_token_is_403_everywhere() {
    let db = Db::new("forged-token");
    let (_, app) = open(&db);
    let (id, _, _) = morne(&app).await;
    // The other game's token is a real token, of the wrong game.
    let (_, other_blue, _) = morne(&app).await;
    for token in [
        "0123456789abcdef0123456789abcdef",
        "not a token",
        other_blue.as_str(),
    ] {
        let (status, body) = get(&app, &format!("/api/games/{id}"), Some(token)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(error_rule(&body), "token");
        let (status, _) = post(
            &app,
            &format!("/api/games/{id}/actions"),
            Some(token),
            &json!({"action": {"type": "end_phase"}, "expect": 0}),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = get(&app, &format!("/api/games/{id}/replay"), Some(token)).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = get(
            &app,
            &format!("/api/games/{id}/ws?token={}", token.replace(' ', "+")),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0, "nothing was applied");
}

#[tokio::test]
async fn a_seat_acting_out_of_turn_is_403() {
    let db = Db::new("out-of-turn");
    let (_, app) = open(&db);
    let (id, _, orange) = morne(&app).await;
    let (status, body) = post(
        &app,
        &format!("/api/games/{id}/actions"),
        Some(&orange),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(error_rule(&body), "turn");
    assert!(error_message(&body).contains("blue"));
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0);
}

// ---------------------------------------------------------------------------------
// Actions

#[tokio::test]
async fn a_legal_action_is_applied_logged_and_answered_with_its_events_and_the_new_view() {
    let db = Db::new("apply");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    let (status, body) = post(
        &app,
        &format!("/api/games/{id}/actions"),
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "phase_began"),
        "{body}"
    );
    let view = &body["view"];
    assert_eq!(view["n"], 1);
    assert_eq!(view["seat"], "blue");
    assert_eq!(view["view"]["phase"], "movement");
    assert_eq!(view["log"][0]["n"], 1);
    assert_eq!(view["log"][0]["action"], json!({"type": "end_phase"}));
    let (_, again) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(&again, view, "the answer is the same object as GET");
    let (_, o) = get(&app, &format!("/api/games/{id}"), Some(&orange)).await;
    assert_eq!(o["n"], 1);
    // Acknowledged means committed: the action is in the file already.
    let log = grognard_server::store::read_log(&db.0, &id).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].n, &log[0].action),
        (1, &json!({"type": "end_phase"}))
    );
}

#[tokio::test]
async fn an_illegal_action_is_400_with_its_rule_and_changes_nothing() {
    let db = Db::new("illegal");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let uri = format!("/api/games/{id}");
    let (_, before) = get(&app, &uri, Some(&blue)).await;
    // A move in the bombardment phase.
    let unit = before["view"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["side"] == "blue" && u["class"] == "infantry")
        .unwrap();
    let action = json!({"type": "move", "unit": unit["id"], "to": unit["hex"]});
    let (status, body) = post(
        &app,
        &format!("{uri}/actions"),
        Some(&blue),
        &json!({"action": action, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(error_rule(&body).starts_with("MP-"), "{body}");
    let reasons = body["error"]["reasons"].as_array().unwrap();
    assert!(!reasons.is_empty());
    assert!(reasons
        .iter()
        .all(|r| r["rule"].as_str().unwrap().starts_with("MP-")
            && !r["message"].as_str().unwrap().is_empty()));
    let (_, after) = get(&app, &uri, Some(&blue)).await;
    assert_eq!(after, before, "nothing changed");
    assert!(grognard_server::store::read_log(&db.0, &id)
        .unwrap()
        .is_empty());

    // An action the ruleset cannot read is a 400 too.
    let (status, body) = post(
        &app,
        &format!("{uri}/actions"),
        Some(&blue),
        &json!({"action": {"type": "fly", "unit": "x"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error_rule(&body), "request");
    assert!(error_message(&body).contains("fly"), "{body}");
}

#[tokio::test]
async fn a_stale_expect_is_409() {
    let db = Db::new("stale");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let uri = format!("/api/games/{id}/actions");
    let (status, _) = post(
        &app,
        &uri,
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = post(
        &app,
        &uri,
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        json!({"rule": "conflict", "message": "expected n=0 but the game is at n=1"})
    );
    let (status, _) = post(
        &app,
        &uri,
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 5}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 1);
}

#[tokio::test]
async fn an_oversized_body_is_413() {
    let db = Db::new("oversized");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let padding = "x".repeat(grognard_server::BODY_LIMIT + 1);
    let body =
        json!({"action": {"type": "end_phase", "padding": padding}, "expect": 0}).to_string();
    for uri in [
        format!("/api/games/{id}/actions"),
        format!("/api/games/{id}/explain"),
        "/api/games".to_owned(),
    ] {
        let (status, answer) = call(&app, "POST", &uri, Some(&blue), Some(body.clone())).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{uri}: {answer}");
        assert_eq!(error_rule(&answer), "limit");
    }
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0);
}

#[tokio::test]
async fn malformed_json_is_400_naming_the_problem() {
    let db = Db::new("malformed");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let uri = format!("/api/games/{id}/actions");
    let cases = [
        (
            r#"{"action": {"type": "end_phase"}, "expect": }"#,
            "line 1 column",
        ),
        ("", "EOF"),
        (
            r#"{"action": {"type": "end_phase"}}"#,
            "missing field `expect`",
        ),
        (
            r#"{"action": {"type": "end_phase"}, "expect": "zero"}"#,
            "invalid type",
        ),
        (
            r#"{"action": {"type": "end_phase"}, "expect": 0, "extra": 1}"#,
            "unknown field `extra`",
        ),
        ("[1, 2", "EOF"),
    ];
    for (body, named) in cases {
        let (status, answer) = call(&app, "POST", &uri, Some(&blue), Some(body.to_owned())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(error_rule(&answer), "json");
        assert!(
            error_message(&answer).contains(named),
            "{body}: `{named}` not in {answer}"
        );
    }
    let (status, answer) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some("{\"scenario\": \"x\"".into()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        error_message(&answer).starts_with("malformed JSON"),
        "{answer}"
    );
}

// ---------------------------------------------------------------------------------
// Explain, preview, reachable, replay

#[tokio::test]
async fn explain_preview_and_reachable_answer_from_the_rules() {
    let db = Db::new("ask");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    let bombard = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "bombard")
        .expect("a battery can fire")
        .clone();

    let (status, e) = post(
        &app,
        &format!("/api/games/{id}/explain"),
        Some(&blue),
        &json!({"action": bombard}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{e}");
    assert_eq!(e["legal"], true);
    let (status, e) = post(
        &app,
        &format!("/api/games/{id}/explain"),
        None,
        &json!({"action": {"type": "move", "unit": bombard["unit"], "to": "0101"}}),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a spectator may ask in an open game"
    );
    assert_eq!(e["legal"], false);
    assert!(e["reasons"][0]["rule"].as_str().unwrap().starts_with("MP-"));

    let (status, p) = post(
        &app,
        &format!("/api/games/{id}/preview"),
        Some(&blue),
        &json!({"action": bombard}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let outcomes = p["outcomes"].as_array().unwrap();
    assert!(!outcomes.is_empty());
    let total: f64 = outcomes.iter().map(|o| o["p"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let (status, p) = post(
        &app,
        &format!("/api/games/{id}/preview"),
        Some(&blue),
        &json!({"action": {"type": "end_phase"}}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_rule(&p).starts_with("MP-"), "{p}");

    // To the movement phase; then a unit's reachable hexes.
    let (status, _) = post(
        &app,
        &format!("/api/games/{id}/actions"),
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    let mover = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "move")
        .unwrap();
    let unit = mover["unit"].as_str().unwrap();
    let (status, r) = get(
        &app,
        &format!("/api/games/{id}/reachable?unit={unit}"),
        Some(&blue),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let hexes: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["hex"].as_str().unwrap())
        .collect();
    assert!(hexes.contains(&mover["to"].as_str().unwrap()), "{r}");
    assert!(r[0]["cost"].is_u64() && r[0]["path"].is_array());
    let (status, r) = get(&app, &format!("/api/games/{id}/reachable"), Some(&blue)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_message(&r).contains("unit"));
    let (status, r) = get(
        &app,
        &format!("/api/games/{id}/reachable?unit=ghost"),
        Some(&blue),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_message(&r).contains("ghost"));
}

#[tokio::test]
async fn the_replay_is_the_log_as_the_seat_may_see_it_and_steps_back_in_time() {
    let db = Db::new("replay");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    assert_eq!(end_phases(&app, &id, &[&blue, &orange], 3).await, 3);
    let (status, r) = get(&app, &format!("/api/games/{id}/replay"), Some(&blue)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["scenario"], MORNE);
    assert_eq!(
        r["seed"],
        Value::Null,
        "the seed tells the dice to come: not before the end"
    );
    let log = r["log"].as_array().unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!(
        log.iter()
            .map(|e| e["n"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert!(log
        .iter()
        .all(|e| e["action"] == json!({"type": "end_phase"}) && e["events"].is_array()));

    let (status, at1) = get(&app, &format!("/api/games/{id}/replay?at=1"), Some(&blue)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(at1["n"], 1);
    assert_eq!(at1["view"]["phase"], "movement");
    assert_eq!(at1["actions"], json!([]));
    let (status, at0) = get(&app, &format!("/api/games/{id}/replay?at=0"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(at0["n"], 0);
    let (status, _) = get(&app, &format!("/api/games/{id}/replay?at=9"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_web_client_is_served_beside_the_api() {
    let db = Db::new("static");
    let (_, app) = open(&db);
    for path in ["/", "/play/abc", "/replay/abc"] {
        let res = app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(ct.starts_with("text/html"), "{path}: {ct}");
    }
    // Every file of web/, as it is on disk, with its type.
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut files = Vec::new();
    let mut dirs = vec![web.clone()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if e.file_type().unwrap().is_dir() {
                dirs.push(e.path());
            } else {
                files.push(e.path());
            }
        }
    }
    for file in files {
        let rel = file
            .strip_prefix(&web)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with('.') || rel.contains("/.") {
            continue;
        }
        let res = app
            .clone()
            .oneshot(Request::get(format!("/{rel}")).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{rel}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(
            bytes.as_ref(),
            std::fs::read(&file).unwrap().as_slice(),
            "{rel}"
        );
        let expected = match file.extension().and_then(|x| x.to_str()) {
            Some("html") => "text/html",
            Some("js" | "mjs") => "text/javascript",
            Some("css") => "text/css",
            Some("svg") => "image/svg+xml",
            _ => "",
        };
        assert!(ct.starts_with(expected), "{rel}: {ct}");
    }
    let (status, _) = get(&app, "/no-such-file.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&app, "/../Cargo.toml", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

// ---------------------------------------------------------------------------------
// Durability and restarts

#[tokio::test]
async fn a_restart_on_the_same_file_resumes_every_game() {
    let db = Db::new("restart");
    let (_, app) = open(&db);
    let (a, blue_a, orange_a) = morne(&app).await;
    let (b, blue_b, _) = morne(&app).await;
    assert_eq!(end_phases(&app, &a, &[&blue_a, &orange_a], 4).await, 4);
    let (_, view_a) = get(&app, &format!("/api/games/{a}"), Some(&blue_a)).await;
    let (_, view_b) = get(&app, &format!("/api/games/{b}"), Some(&blue_b)).await;

    let (_, again) = open(&db);
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
    let (status, _) = post(
        &app,
        &format!("/api/games/{id}/actions"),
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    assert!(conn
        .execute("UPDATE actions SET action = '{}'", [])
        .is_err());
    assert!(conn.execute("DELETE FROM actions", []).is_err());
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let hash: String = conn
        .query_row("SELECT seats FROM games", [], |r| r.get(0))
        .unwrap();
    assert!(!hash.contains(&blue), "the file keeps hashes, never tokens");
    assert!(hash.contains(&grognard_server::token::digest(&blue)));
}

// ---------------------------------------------------------------------------------
// The computer

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
    let (id, tokens) = new_game(&app, MORNE, &[("blue", "ai"), ("orange", "human")], Some(3)).await;
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
    let log = grognard_server::store::read_log(&db.0, &id).unwrap();
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
        let log = grognard_server::store::read_log(&db.0, &id).unwrap();
        assert!(log.len() as u64 >= g["n"].as_u64().unwrap(), "{}", entry.id);
    }
    // A restart replays every log: the computer's moves were all legal.
    let (again, _) = open(&db);
    assert_eq!(again.lobby().skipped, Vec::<String>::new());
    assert_eq!(again.lobby().tables().len(), state.lobby().scenarios.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_resumes_the_computers_pending_decision() {
    let db = Db::new("ai-restart");
    // The first server's computer waits an hour before each decision: it never moves.
    let mut slow = db.options();
    slow.ai_delay_millis = 3_600_000;
    let first = app(AppState::open(&slow).unwrap());
    let (id, tokens) = new_game(
        &first,
        MORNE,
        &[("blue", "ai"), ("orange", "human")],
        Some(5),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (_, g) = get(&first, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0);

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

// ---------------------------------------------------------------------------------
// A real port

async fn serve(db: &Db) -> (SocketAddr, AppState) {
    let state = AppState::open(&db.options()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grognard_server::serve_on(listener, state.clone()));
    (addr, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_concurrent_submissions_at_the_same_n_exactly_one_wins() {
    let db = Db::new("race");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    for round in 0..5u64 {
        let (status, created) = c
            .call(
                "POST",
                "/api/games",
                None,
                Some(&json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}})),
            )
            .await;
        assert_eq!(status, 201);
        let id = created["id"].as_str().unwrap().to_owned();
        let blue = created["seats"]["blue"]["token"]
            .as_str()
            .unwrap()
            .to_owned();
        let (_, g) = c
            .call("GET", &format!("/api/games/{id}"), Some(&blue), None)
            .await;
        let actions = g["actions"].as_array().unwrap().clone();
        let tasks = 8;
        let barrier = Arc::new(tokio::sync::Barrier::new(tasks));
        let mut handles = Vec::new();
        for i in 0..tasks {
            let (barrier, id, blue) = (Arc::clone(&barrier), id.clone(), blue.clone());
            // Different legal actions, all at n = 0.
            let action = actions[(i + round as usize) % actions.len()].clone();
            handles.push(tokio::spawn(async move {
                let mut c = http::Client::connect(addr).await;
                barrier.wait().await;
                c.call(
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(&blue),
                    Some(&json!({"action": action, "expect": 0})),
                )
                .await
            }));
        }
        let mut statuses = Vec::new();
        for h in handles {
            statuses.push(h.await.unwrap().0);
        }
        statuses.sort_unstable();
        let mut expected = vec![409; tasks - 1];
        expected.insert(0, 200);
        assert_eq!(statuses, expected, "round {round}");
        let (_, g) = c.call("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(g["n"], 1);
        assert_eq!(
            grognard_server::store::read_log(&db.0, &id).unwrap().len(),
            1
        );
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let (socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws{query}"))
            .await
            .expect("WebSocket");
    socket
}

/// The next game object on a socket.
async fn next_object(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a message within ten seconds")
            .expect("the socket is open")
            .expect("a message");
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).expect("JSON");
        }
    }
}

/// Game objects off a socket until one at `n`; all of them.
async fn objects_until(socket: &mut Socket, n: u64) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let o = next_object(socket).await;
        let at = o["n"].as_u64().unwrap();
        seen.push(o);
        if at >= n {
            return seen;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_client_receives_the_first_clients_move_over_websocket() {
    let db = Db::new("ws");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let (_, created) = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}})),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    let blue = created["seats"]["blue"]["token"].as_str().unwrap();
    let orange = created["seats"]["orange"]["token"].as_str().unwrap();

    let mut orange_ws = ws(addr, id, Some(orange)).await;
    let mut spectator_ws = ws(addr, id, None).await;
    let first = next_object(&mut orange_ws).await;
    assert_eq!(
        (first["n"].as_u64(), first["seat"].as_str()),
        (Some(0), Some("orange"))
    );
    assert_eq!(next_object(&mut spectator_ws).await["seat"], "spectator");

    let (status, _) = c
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(blue),
            Some(&json!({"action": {"type": "end_phase"}, "expect": 0})),
        )
        .await;
    assert_eq!(status, 200);
    let pushed = next_object(&mut orange_ws).await;
    assert_eq!(pushed["n"], 1);
    assert_eq!(pushed["seat"], "orange");
    assert_eq!(pushed["log"][0]["action"], json!({"type": "end_phase"}));
    assert_eq!(pushed["actions"], json!([]));
    let (_, orange_get) = c
        .call("GET", &format!("/api/games/{id}"), Some(orange), None)
        .await;
    assert_eq!(pushed, orange_get, "the push is the seat's GET");
    assert_eq!(next_object(&mut spectator_ws).await["n"], 1);

    // The seat to act gets its actions in the push.
    let mut blue_ws = ws(addr, id, Some(blue)).await;
    assert!(!next_object(&mut blue_ws).await["actions"]
        .as_array()
        .unwrap()
        .is_empty());
}

// ---------------------------------------------------------------------------------
// Hidden information

/// Every string in a JSON value.
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// What a seat may know, as the ruleset says: its view and its log.
fn known(game: &dyn AnyGame, seat: &Seat) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    strings(&game.view(seat), &mut out);
    strings(&Value::Array(game.log(seat)), &mut out);
    out
}

/// A generator for test choices.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays a two-human game of every built-in scenario at random and checks, at every
/// step, everything each seat receives (GET, the WebSocket, the replay, the answers
/// to its errors) against the ruleset's own view and log for that seat, and that
/// none of it holds a string only the other seat may know.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_information_never_reaches_the_other_seat_on_any_channel() {
    let db = Db::new("hidden");
    let (addr, state) = serve(&db).await;
    let registry = grognard_rules::registry();
    let mut c = http::Client::connect(addr).await;
    let mut hidden_rulesets = 0;
    for entry in &state.lobby().scenarios {
        let sides: Vec<String> = entry.scenario.sides.iter().map(|s| s.id.clone()).collect();
        let seats: serde_json::Map<String, Value> =
            sides.iter().map(|s| (s.clone(), json!("human"))).collect();
        let seed = 99;
        let (status, created) = c
            .call(
                "POST",
                "/api/games",
                None,
                Some(&json!({"scenario": entry.id, "seed": seed, "seats": seats})),
            )
            .await;
        assert_eq!(status, 201);
        let id = created["id"].as_str().unwrap().to_owned();
        let token = |side: &str| created["seats"][side]["token"].as_str().unwrap().to_owned();
        let mirror_of = |actions: &[Value]| {
            registry
                .load_game(&SavedGame {
                    format: SAVE_FORMAT.into(),
                    ruleset: entry.scenario.ruleset.clone(),
                    scenario: entry.scenario.clone(),
                    seed,
                    log: actions
                        .iter()
                        .map(|a| SavedAction {
                            action: a.clone(),
                            forced: vec![],
                        })
                        .collect(),
                    pending_forced: vec![],
                })
                .unwrap()
        };
        let hidden = state.lobby().is_hidden(mirror_of(&[]).as_ref());
        hidden_rulesets += usize::from(hidden);
        let mut sockets = Vec::new();
        for side in &sides {
            let mut s = ws(addr, &id, Some(&token(side))).await;
            let first = next_object(&mut s).await;
            sockets.push((s, first));
        }
        let mut played: Vec<Value> = Vec::new();
        let mut secrets_checked = 0;
        let mut rng = Lcg(entry.id.len() as u64);
        let started = Instant::now();
        let mut mirror = mirror_of(&[]);
        for step in 0..30u64 {
            let Some(decision) = mirror.to_act() else {
                break;
            };
            let n = played.len() as u64;
            let knows: Vec<BTreeSet<String>> = sides
                .iter()
                .map(|s| known(mirror.as_ref(), &Seat::Side(s.clone())))
                .collect();
            let public = known(mirror.as_ref(), &Seat::Spectator);
            for (i, side) in sides.iter().enumerate() {
                let seat = Seat::Side(side.clone());
                let secret: BTreeSet<String> = (0..sides.len())
                    .filter(|&j| j != i)
                    .flat_map(|j| knows[j].iter())
                    .filter(|s| !knows[i].contains(*s) && !public.contains(*s))
                    .cloned()
                    .collect();
                secrets_checked += secret.len();
                let check = |channel: &str, text: &str| {
                    for s in &secret {
                        assert!(!text.contains(&format!("\"{s}\"")), "{}: step {step}: `{s}`, which only another seat may know, reached {side} by {channel}", entry.id);
                    }
                };
                let t = token(side);
                let (status, g) = c
                    .call("GET", &format!("/api/games/{id}"), Some(&t), None)
                    .await;
                assert_eq!(status, 200);
                check("GET", &g.to_string());
                assert_eq!(
                    g["view"],
                    mirror.view(&seat),
                    "the view is the ruleset's view for the seat"
                );
                let log = mirror.log(&seat);
                assert_eq!(
                    g["log"].as_array().unwrap().as_slice(),
                    &log[log.len().saturating_sub(30)..]
                );
                let acting = decision.side == *side;
                assert_eq!(
                    g["actions"].as_array().unwrap().is_empty(),
                    !acting || mirror.legal().is_empty()
                );

                let (socket, last) = &mut sockets[i];
                if last["n"].as_u64() < Some(n) {
                    let pushes = objects_until(socket, n).await;
                    for p in &pushes {
                        check("WebSocket", &p.to_string());
                    }
                    *last = pushes.last().unwrap().clone();
                }
                check("WebSocket", &last.to_string());
                assert_eq!(*last, g, "the last push is the seat's GET");

                let (_, replay) = c
                    .call("GET", &format!("/api/games/{id}/replay"), Some(&t), None)
                    .await;
                check("replay", &replay.to_string());
                assert_eq!(replay["log"], Value::Array(log));

                if !acting && !secret.is_empty() {
                    // Trying the acting seat's own actions, and asking about them.
                    for a in mirror.legal().iter().take(2) {
                        let (status, e) = c
                            .call(
                                "POST",
                                &format!("/api/games/{id}/actions"),
                                Some(&t),
                                Some(&json!({"action": a, "expect": n})),
                            )
                            .await;
                        assert_eq!(status, 403);
                        check("an action's refusal", &e.to_string());
                        for ask in ["explain", "preview"] {
                            let (_, e) = c
                                .call(
                                    "POST",
                                    &format!("/api/games/{id}/{ask}"),
                                    Some(&t),
                                    Some(&json!({"action": a})),
                                )
                                .await;
                            check(ask, &e.to_string());
                        }
                    }
                }
            }
            // The spectator sees only what everybody may.
            let (_, s) = c.call("GET", &format!("/api/games/{id}"), None, None).await;
            assert_eq!(s["view"], mirror.view(&Seat::Spectator));
            assert_eq!(s["actions"], json!([]));

            let legal = mirror.legal();
            let action = legal[rng.below(legal.len())].clone();
            let (status, answer) = c
                .call(
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(&token(&decision.side)),
                    Some(&json!({"action": action, "expect": n})),
                )
                .await;
            assert_eq!(status, 200, "{answer}");
            mirror.apply(&action).unwrap();
            played.push(action);
        }
        assert!(!played.is_empty());
        eprintln!(
            "{}: {} actions in {:.1} s",
            entry.id,
            played.len(),
            started.elapsed().as_secs_f64()
        );
        if hidden {
            assert!(
                secrets_checked > 0,
                "{}: hidden information, yet no secret to look for",
                entry.id
            );
            eprintln!(
                "{}: checked {secrets_checked} secrets over {} actions",
                entry.id,
                played.len()
            );
        }
    }
    if hidden_rulesets == 0 {
        eprintln!(
            "note: no built-in ruleset has hidden information yet; checked views and logs only"
        );
    }
}
