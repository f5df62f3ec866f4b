//! The server: every endpoint and error through `app()` without a socket, then on a
//! real port: concurrent submissions, WebSocket pushes, hidden information on every
//! channel, the computer's seats, restarts on the same file. One integration binary, a
//! module per subject; the helpers they share are here.

mod actions;
mod active_games;
mod checks;
mod computer;
#[path = "../support/db.rs"]
mod db;
mod durability;
mod expiry;
mod fair_dice;
mod guarded_file;
mod hidden_information;
mod hint;
#[path = "../support/http.rs"]
mod http;
#[path = "../support/lcg.rs"]
mod lcg;
mod lean;
mod limits;
mod lobby;
mod phantom;
mod play_by_web;
mod play_by_web_clock;
mod play_by_web_games;
mod position;
mod postgres;
mod queries;
mod real_port;
mod stored_rows;
mod strict_actions;
mod undo;
mod views_and_tokens;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use db::Db;
use futures_util::StreamExt;
use grognard_engine::game::{SavedAction, SavedGame, SAVE_FORMAT};
use grognard_engine::{AnyGame, Seat};
use grognard_server::{app, AppState, Options};
use http_body_util::BodyExt;
use lcg::Lcg;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

const MORNE: &str = "bridge-at-morne";

impl Db {
    /// The server's options for a test on this file: a quick computer, a loopback port.
    fn options(&self) -> Options {
        Options {
            addr: "127.0.0.1:0".into(),
            db: self.location(),
            ai_millis: 50,
            ai_delay_millis: 0,
            ai_threads: 2,
            ai_level: grognard_engine::Level::Normal,
            hint_millis: 100,
            hint_simulations: None,
            max_games: 1000,
            ..Options::default()
        }
    }
}

fn open(db: &Db) -> (AppState, Router) {
    let state = AppState::open(&db.options()).expect("the database opens");
    (state.clone(), app(state))
}

/// Closes the server of `state` (one server per file) and opens another on its file.
async fn reopen(state: &AppState, db: &Db) -> (AppState, Router) {
    state.lobby().close().await;
    open(db)
}

/// The seed of game `id`, as the operator reads it in the file.
/// The generator of a game's dice as the file holds it (`games.dice`, NULL for
/// SplitMix64 from the seed).
fn generator_in_file(db: &Db, id: &str) -> grognard_engine::dice_stream::Generator {
    let dice: Option<String> = db.query("SELECT dice FROM games WHERE id = ?1", &[id.into()])[0]
        .get(0)
        .unwrap();
    dice.map_or_else(Default::default, |d| serde_json::from_str(&d).unwrap())
}

fn seed_in_file(db: &Db, id: &str) -> u64 {
    let seed: i64 = db.query("SELECT seed FROM games WHERE id = ?1", &[id.into()])[0]
        .get(0)
        .unwrap();
    u64::from_ne_bytes(seed.to_ne_bytes())
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
    if body.is_some() {
        req = req.header("content-type", "application/json");
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

/// Submits `action`, chosen from the view numbered `expect`, to game `id`.
async fn act(
    app: &Router,
    id: &str,
    token: Option<&str>,
    action: &Value,
    expect: u64,
) -> (StatusCode, Value) {
    let body = json!({"action": action, "expect": expect});
    post(app, &format!("/api/games/{id}/actions"), token, &body).await
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

/// A Morne Plaine game, both sides human, each with its own token (the server draws
/// the seed).
/// A new Morne Plaine game over a real port: its id and blue's token.
async fn morne_at(addr: std::net::SocketAddr) -> (String, String) {
    let mut c = http::Client::connect(addr).await;
    let (status, created) = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}})),
        )
        .await;
    assert_eq!(status, 201);
    (
        created["id"].as_str().unwrap().to_owned(),
        created["seats"]["blue"]["token"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

async fn morne(app: &Router) -> (String, String, String) {
    let (id, tokens) = new_game(app, MORNE, &[("blue", "human"), ("orange", "human")], None).await;
    (id, tokens["blue"].clone(), tokens["orange"].clone())
}

/// Ends `k` phases, each by the side to act; returns the new `n`.
async fn end_phases(app: &Router, id: &str, tokens: &[&str], k: u64) -> u64 {
    let (_, g) = get(app, &format!("/api/games/{id}"), None).await;
    let mut n = g["n"].as_u64().unwrap();
    for _ in 0..k {
        let mut done = false;
        for t in tokens {
            let (status, _) = act(app, id, Some(t), &json!({"type": "end_phase"}), n).await;
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

/// Plays game `id` to its end: each decision by the token of the side to act (one
/// token plays every seat of a hotseat game), ending the phase when it may half of
/// the time and else taking a legal action at random, so that dice roll on the way.
/// Returns the number of actions played.
async fn play_to_the_end(
    app: &Router,
    id: &str,
    tokens: &BTreeMap<String, String>,
    rng: &mut Lcg,
) -> u64 {
    for played in 0..3000 {
        let (_, g) = get(app, &format!("/api/games/{id}"), None).await;
        let Some(side) = g["to_act"]["side"].as_str() else {
            assert!(
                !g["outcome"].is_null(),
                "no one to act, yet no outcome: {g}"
            );
            return played;
        };
        let token = tokens
            .get(side)
            .or_else(|| tokens.values().next())
            .expect("a token");
        let (_, mine) = get(app, &format!("/api/games/{id}"), Some(token)).await;
        let actions = mine["actions"].as_array().expect("actions").clone();
        let end = json!({"type": "end_phase"});
        let action = if actions.contains(&end) && rng.below(2) == 0 {
            end
        } else {
            actions[rng.below(actions.len())].clone()
        };
        let (status, body) = act(app, id, Some(token), &action, mine["n"].as_u64().unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    panic!("game {id} did not end in 3000 actions");
}
