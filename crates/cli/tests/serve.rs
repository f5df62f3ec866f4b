//! The real `grognard serve` and `grognard verify`: one server per database file; a
//! database deleted under a running server is reported loudly; the replay of a
//! finished game verifies, and a tampered copy does not; the seed is never printed.

#[path = "../../server/tests/support/db.rs"]
mod db;
#[path = "../../server/tests/support/lcg.rs"]
mod lcg;
#[path = "support/serve.rs"]
mod serve;

use db::Db;
use lcg::Lcg;
use serde_json::{json, Value};
use serve::Server;
use std::path::Path;
use std::process::{Command, Output};

fn grognard(args: &[&str], file: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grognard"));
    c.args(args);
    if let Some(f) = file {
        c.arg(f);
    }
    c.output().expect("grognard runs")
}

/// A new game of The Bridge at Morne between two people: the creation's answer.
fn new_morne(server: &Server) -> Value {
    let (status, made) = server
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": "bridge-at-morne", "seats": {"blue": "human", "orange": "human"}})),
        )
        .unwrap();
    assert_eq!(status, 201, "{made}");
    made
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_second_grognard_serve_on_the_same_file_refuses_to_start_with_a_clear_error() {
    let db = Db::file("cli-two-servers");
    let first = Server::start(&db.0);
    let out = grognard(&["serve", "--addr", "127.0.0.1:0", "--db"], Some(&db.0));
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("another grognard server")
            && stderr.contains("one server per database file"),
        "{stderr}"
    );
    assert!(
        first.call("GET", "/api/games", None, None).is_some(),
        "the first one serves on"
    );
}

#[test]
fn a_database_deleted_under_the_server_is_reported_loudly_and_takes_no_write() {
    let db = Db::file("cli-deleted");
    let server = Server::start(&db.0);
    let made = new_morne(&server);
    std::fs::remove_file(&db.0).unwrap();
    let body = json!({"action": {"type": "end_phase"}, "expect": 0});
    let (status, answer) = server
        .call(
            "POST",
            &format!("/api/games/{}/actions", made["id"].as_str().unwrap()),
            made["seats"]["blue"]["token"].as_str(),
            Some(&body),
        )
        .unwrap();
    assert_eq!(status, 503, "{answer}");
    // The line is printed before the answer, but reaches this process through a pipe
    // and a thread of its own: it may come a moment after the answer.
    let waited = std::time::Instant::now();
    let mut output = server.output();
    while !output.contains("gone from its path") && waited.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        output = server.output();
    }
    assert!(
        output.contains("ERROR: the database") && output.contains("gone from its path"),
        "{output}"
    );
}

/// Plays a game of people to its end, each decision by the side to act: ends the phase
/// half of the time when it may, else a random legal action. Returns the actions.
fn play_to_the_end(server: &Server, id: &str, tokens: &Value) -> usize {
    let mut rng = Lcg(17);
    for played in 0..3000 {
        let (_, g) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .unwrap();
        let Some(side) = g["to_act"]["side"].as_str() else {
            assert!(!g["outcome"].is_null(), "{g}");
            return played;
        };
        let token = tokens[side]["token"].as_str();
        let (_, mine) = server
            .call("GET", &format!("/api/games/{id}"), token, None)
            .unwrap();
        let actions = mine["actions"].as_array().unwrap();
        let end = json!({"type": "end_phase"});
        let action = if actions.contains(&end) && rng.below(2) == 0 {
            end
        } else {
            actions[rng.below(actions.len())].clone()
        };
        let body = json!({"action": action, "expect": mine["n"]});
        let (status, answer) = server
            .call(
                "POST",
                &format!("/api/games/{id}/actions"),
                token,
                Some(&body),
            )
            .unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    panic!("the game did not end in 3000 actions");
}

/// `grognard verify` on `replay`, written to a file: its exit status and output.
fn verify(dir: &tempfile::TempDir, name: &str, replay: &Value) -> (bool, String) {
    let file = dir.path().join(name);
    std::fs::write(&file, replay.to_string()).unwrap();
    let out = grognard(&["verify"], Some(&file));
    (
        out.status.success(),
        format!("{}{}", text(&out.stdout), text(&out.stderr)),
    )
}

#[test]
fn grognard_verify_passes_on_a_finished_games_replay_and_fails_on_a_tampered_copy() {
    let db = Db::file("cli-verify");
    let server = Server::start(&db.0);
    let made = new_morne(&server);
    let id = made["id"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();

    let (_, unfinished) = server
        .call("GET", &format!("/api/games/{id}/replay"), None, None)
        .unwrap();
    let (ok, out) = verify(&dir, "unfinished.json", &unfinished);
    assert!(!ok && out.contains("no `seed`"), "{out}");

    play_to_the_end(&server, id, &made["seats"]);
    let (_, replay) = server
        .call("GET", &format!("/api/games/{id}/replay"), None, None)
        .unwrap();
    let seed = replay["seed"]
        .as_u64()
        .expect("the seed, revealed at the end");
    assert_eq!(
        replay["commitment"], made["commitment"],
        "committed at the start"
    );
    assert!(
        !server.output().contains(&seed.to_string()),
        "the server never prints a seed"
    );

    let (ok, out) = verify(&dir, "game.json", &replay);
    assert!(ok, "{out}");
    assert!(
        out.contains("commitment: matches") && out.contains("verified:"),
        "{out}"
    );

    // Another seed: the commitment tells.
    let mut tampered = replay.clone();
    tampered["seed"] = json!(seed ^ 1);
    let (ok, out) = verify(&dir, "seed.json", &tampered);
    assert!(!ok, "{out}");
    assert!(out.contains("MISMATCH: commitment"), "{out}");

    // An action changed: the first one that rolled becomes the end of the phase.
    let log = replay["log"].as_array().unwrap();
    let k = log
        .iter()
        .position(|e| e["events"].to_string().contains("\"roll\""))
        .expect("an action that rolled");
    let mut tampered = replay.clone();
    tampered["log"][k]["action"] = json!({"type": "end_phase"});
    let (ok, out) = verify(&dir, "action.json", &tampered);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("MISMATCH: action n={}", k + 1)),
        "{out}"
    );
    assert!(
        out.contains("commitment: matches"),
        "the seed itself is right: {out}"
    );

    // A roll changed: the dice tell.
    let mut tampered = replay.clone();
    let events = tampered["log"][k]["events"].as_array_mut().unwrap();
    let roll = events.iter_mut().find(|e| e["type"] == "roll").unwrap();
    let value = roll["value"].as_u64().unwrap();
    roll["value"] = json!(if value == 1 { 2 } else { value - 1 });
    let (ok, out) = verify(&dir, "roll.json", &tampered);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("MISMATCH: action n={}", k + 1)) && out.contains(", roll "),
        "{out}"
    );
}

/// Issue 16: a password goes into neither the database file (nor its WAL) nor
/// anything `grognard serve` prints, whether the log-in succeeds or fails.
#[test]
fn a_password_is_never_in_the_database_file_nor_in_the_servers_output() {
    let db = Db::file("cli-no-clear-password");
    let server = Server::start(&db.0);
    let password = "Wagram-1809-secret";
    let signed = json!({"name": "berthier", "password": password});
    let (status, body) = server
        .call("POST", "/api/accounts", None, Some(&signed))
        .unwrap();
    assert_eq!(status, 201, "{body}");
    let (status, _) = server
        .call("POST", "/api/session", None, Some(&signed))
        .unwrap();
    assert_eq!(status, 200);
    let wrong = json!({"name": "berthier", "password": format!("{password}-wrong")});
    let (status, _) = server
        .call("POST", "/api/session", None, Some(&wrong))
        .unwrap();
    assert_eq!(status, 401);
    let mut file = Vec::new();
    for suffix in ["", "-wal"] {
        let mut p = db.0.clone().into_os_string();
        p.push(suffix);
        file.extend(std::fs::read(p).unwrap_or_default());
    }
    assert!(text(&file).contains("$argon2id$"), "the hash is stored");
    assert!(
        !text(&file).contains(password),
        "the password is in the file"
    );
    let output = server.output();
    assert!(
        !output.contains(password),
        "the password is in the output: {output}"
    );
}
