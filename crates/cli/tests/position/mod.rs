//! `grognard position GAME.json` and the protocol's `position` as real processes
//! (issue 19, item 4).

use super::{grognard, run, text};
use serde_json::{json, Value};
use std::io::Write;
use std::process::Stdio;

/// Runs the engine protocol over `requests`; the answers, one per request.
fn engine(requests: &[Value]) -> Vec<Value> {
    let mut child = grognard()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("grognard engine starts");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for r in requests {
            writeln!(stdin, "{r}").expect("write");
        }
    }
    let out = child.wait_with_output().expect("engine ends");
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON answer"))
        .collect()
}

/// A game of the built-in Morne Plaine scenario after its first legal action: its save
/// and the referee's `position` answer.
fn played() -> (Value, String) {
    let answers = engine(&[
        json!({"cmd": "load", "scenario": super::BUILTIN, "seed": 7}),
        json!({"cmd": "legal"}),
    ]);
    let mut requests = vec![json!({"cmd": "load", "scenario": super::BUILTIN, "seed": 7})];
    let first = answers[1]["actions"][0].clone();
    requests.push(json!({"cmd": "apply", "action": first}));
    requests.push(json!({"cmd": "save"}));
    requests.push(json!({"cmd": "position"}));
    let answers = engine(&requests);
    assert_eq!(answers[1]["ok"], true, "{}", answers[1]);
    assert_eq!(answers[3]["ok"], true, "{}", answers[3]);
    let toml = answers[3]["toml"].as_str().expect("toml").to_owned();
    (answers[2]["game"].clone(), toml)
}

#[test]
fn position_of_a_saved_game_prints_the_same_scenario_as_the_protocol_and_validates() {
    let dir = std::env::temp_dir().join(format!("grognard-position-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (game, from_protocol) = played();
    assert!(from_protocol.contains("[position]"), "{from_protocol}");
    assert!(
        !from_protocol.contains("seed"),
        "a position holds no seed:\n{from_protocol}"
    );
    let save = dir.join("game.json");
    std::fs::write(&save, game.to_string()).expect("write save");
    let out = run(&["position", save.to_str().expect("path")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), from_protocol);

    // `-o FILE` writes the same text, and `grognard validate` takes it.
    let file = dir.join("position.toml");
    let out = run(&[
        "position",
        save.to_str().expect("path"),
        "-o",
        file.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&file).expect("written"),
        from_protocol
    );
    let out = run(&["validate", file.to_str().expect("path")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(": ok: \"The Bridge at Morne\""));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn position_of_a_file_that_is_not_a_save_fails_with_a_message() {
    let out = run(&["position", super::BUILTIN]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("is not JSON"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn position_is_refused_in_a_seat_session_and_answered_to_the_referee() {
    let answers = engine(&[
        json!({"cmd": "load", "scenario": super::BUILTIN}),
        json!({"cmd": "position", "extra": 1}),
        json!({"cmd": "seat", "side": "blue"}),
        json!({"cmd": "position"}),
    ]);
    assert_eq!(answers[1]["ok"], false);
    assert!(
        answers[1]["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("unknown key \"extra\" for position"),
        "{}",
        answers[1]
    );
    assert_eq!(answers[3]["ok"], false);
    assert_eq!(answers[3]["error"]["rule"], "seat", "{}", answers[3]);
}
