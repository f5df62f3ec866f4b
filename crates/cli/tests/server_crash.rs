//! The real `grognard serve` process: killed with SIGKILL while players are
//! submitting actions, then restarted on the same file, it has every acknowledged
//! action and every game goes on.

#[path = "../../server/tests/support/db.rs"]
mod db;
#[path = "../../server/tests/support/lcg.rs"]
mod lcg;
#[path = "support/serve.rs"]
mod serve;

use db::Db;
use lcg::Lcg;
use serde_json::{json, Value};
use serve::{call, Server};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Game {
    id: String,
    tokens: serde_json::Map<String, Value>,
}

impl Game {
    fn token(&self, side: &str) -> Option<&str> {
        self.tokens.get(side).and_then(Value::as_str)
    }
}

fn create(server: &Server, scenario: &str, seats: Value) -> Game {
    let (status, g) = server
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": scenario, "seats": seats})),
        )
        .unwrap();
    assert_eq!(status, 201, "{g}");
    Game {
        id: g["id"].as_str().unwrap().to_owned(),
        tokens: g["seats"]
            .as_object()
            .unwrap()
            .iter()
            .filter_map(|(side, s)| s.get("token").map(|t| (side.clone(), t.clone())))
            .collect(),
    }
}

/// Plays random legal actions of a two-human game until the server goes away or
/// `stop`; returns every acknowledged action, in order.
fn play(addr: &str, game: &Game, seed: u64, stop: &AtomicBool) -> Vec<Value> {
    let mut rng = Lcg(seed);
    let mut acked = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let Some((200, public)) = call(addr, "GET", &format!("/api/games/{}", game.id), None, None)
        else {
            break;
        };
        let Some(side) = public["to_act"]["side"].as_str() else {
            break;
        };
        let token = game.token(side).unwrap();
        let Some((200, mine)) = call(
            addr,
            "GET",
            &format!("/api/games/{}", game.id),
            Some(token),
            None,
        ) else {
            break;
        };
        let actions = mine["actions"].as_array().unwrap();
        let action = actions[rng.below(actions.len())].clone();
        let n = mine["n"].as_u64().unwrap();
        let body = json!({"action": action, "expect": n});
        match call(
            addr,
            "POST",
            &format!("/api/games/{}/actions", game.id),
            Some(token),
            Some(&body),
        ) {
            Some((200, answer)) => {
                assert_eq!(answer["view"]["n"].as_u64(), Some(n + 1));
                assert_eq!(acked.len() as u64, n, "only this thread plays this game");
                acked.push(action);
            }
            Some((status, answer)) => panic!("{status}: {answer}"),
            None => break,
        }
    }
    acked
}

#[test]
fn every_acknowledged_action_survives_a_kill_9_and_every_game_goes_on() {
    let db = Db::file("kill");
    let server = Server::start(&db.0);
    assert!(
        server.first_line.contains("0 game(s) resumed"),
        "{}",
        server.first_line
    );
    let (_, scenarios) = server.call("GET", "/api/scenarios", None, None).unwrap();
    let scenarios: Vec<(String, Vec<String>)> = scenarios
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let sides = s["sides"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["id"].as_str().unwrap().to_owned())
                .collect();
            (s["id"].as_str().unwrap().to_owned(), sides)
        })
        .collect();
    // Two human games of every built-in scenario, played at once.
    let mut games = Vec::new();
    for (scenario, sides) in &scenarios {
        for _ in 0..2 {
            let seats: serde_json::Map<String, Value> =
                sides.iter().map(|s| (s.clone(), json!("human"))).collect();
            games.push(create(&server, scenario, Value::Object(seats)));
        }
    }
    // And one against the computer, which moves first in the Bridge at Morne.
    let ai_game = create(
        &server,
        "bridge-at-morne",
        json!({"blue": "ai", "orange": "human"}),
    );

    let games = Arc::new(games);
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..games.len())
        .map(|i| {
            let (games, stop, addr) = (Arc::clone(&games), Arc::clone(&stop), server.addr.clone());
            std::thread::spawn(move || play(&addr, &games[i], i as u64 + 1, &stop))
        })
        .collect();
    // Kill the server mid-flight, once a good number of actions are acknowledged.
    std::thread::sleep(Duration::from_millis(1500));
    server.kill();
    let acked: Vec<Vec<Value>> = players.into_iter().map(|p| p.join().unwrap()).collect();
    let total: usize = acked.iter().map(Vec::len).sum();
    assert!(
        total >= 10,
        "only {total} actions were acknowledged before the kill"
    );
    eprintln!(
        "{total} actions acknowledged in {} games before the kill",
        games.len()
    );

    let server = Server::start(&db.0);
    assert!(
        server
            .first_line
            .contains(&format!("{} game(s) resumed", games.len() + 1)),
        "{}",
        server.first_line
    );
    for (game, acked) in games.iter().zip(&acked) {
        let token = game.tokens.values().next().unwrap().as_str().unwrap();
        let (status, replay) = server
            .call(
                "GET",
                &format!("/api/games/{}/replay", game.id),
                Some(token),
                None,
            )
            .unwrap();
        assert_eq!(status, 200);
        let log = replay["log"].as_array().unwrap();
        // An action in flight at the kill may have committed without its answer.
        assert!(
            log.len() == acked.len() || log.len() == acked.len() + 1,
            "game {}: {} acknowledged, {} in the log",
            game.id,
            acked.len(),
            log.len()
        );
        for (i, action) in acked.iter().enumerate() {
            assert_eq!(
                &log[i]["action"],
                action,
                "game {}: action {}",
                game.id,
                i + 1
            );
        }
        // The game goes on from where it was.
        let (_, public) = server
            .call("GET", &format!("/api/games/{}", game.id), None, None)
            .unwrap();
        assert_eq!(public["n"].as_u64(), Some(log.len() as u64));
        if public["outcome"].is_null() {
            let side = public["to_act"]["side"].as_str().unwrap();
            let (_, mine) = server
                .call(
                    "GET",
                    &format!("/api/games/{}", game.id),
                    game.token(side),
                    None,
                )
                .unwrap();
            let action = mine["actions"][0].clone();
            let body = json!({"action": action, "expect": log.len()});
            let (status, answer) = server
                .call(
                    "POST",
                    &format!("/api/games/{}/actions", game.id),
                    game.token(side),
                    Some(&body),
                )
                .unwrap();
            assert_eq!(status, 200, "{answer}");
        }
    }
    // The computer's game resumed too: it reaches orange's decision.
    let start = Instant::now();
    loop {
        let (_, g) = server
            .call("GET", &format!("/api/games/{}", ai_game.id), None, None)
            .unwrap();
        if g["to_act"]["side"] == "orange" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the computer did not reach orange's decision: {g}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn serve_takes_its_address_and_file_from_the_command_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for flag in [
        "--addr",
        "--db",
        "127.0.0.1:8080",
        "grognard.db",
        "--ai-millis",
    ] {
        assert!(help.contains(flag), "`{flag}` not in:\n{help}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("serve") && help.contains("tour"), "{help}");
}

/// Without a command, `grognard` serves the lobby on 127.0.0.1:8080 with `grognard.db`
/// in the working folder. (Where something else holds port 8080 it says so and stops.)
#[test]
fn no_arguments_serves_the_lobby_on_port_8080_with_grognard_db_here() {
    let dir = std::env::temp_dir().join(format!("grognard-noargs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let second = lines.next().and_then(Result::ok).unwrap_or_default();
    let _ = child.kill();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(first.contains("grognard.db"), "{first}\n{stderr}");
    if second.is_empty() {
        assert!(!status.success());
        assert!(
            stderr.contains("cannot listen on 127.0.0.1:8080"),
            "{stderr}"
        );
    } else {
        assert_eq!(
            second,
            "grognard: serving the lobby on http://127.0.0.1:8080"
        );
    }
    assert!(dir.join("grognard.db").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
