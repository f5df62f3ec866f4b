//! Seat sessions of the engine protocol (issue 19, item 1): after `seat`, a session
//! answers only what that seat may know, and refuses what only the referee may ask.
//! Played with The Race, whose hands are hidden (RACE-4).

use crate::race::RACE_TOML;
use crate::registry;
use grognard_engine::protocol::Session;
use serde_json::{json, Value};

fn send(s: &mut Session, request: &Value) -> Value {
    let r = s.handle(&request.to_string());
    assert!(!r.line.contains('\n'), "one line: {}", r.line);
    serde_json::from_str(&r.line).unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.line))
}

fn ok(s: &mut Session, request: &Value) -> Value {
    let v = send(s, request);
    assert_eq!(v["ok"], true, "{request} -> {v}");
    v
}

/// Asks, expects a refusal with `rule`, returns its message.
fn refused(s: &mut Session, request: &Value, rule: &str) -> String {
    let v = send(s, request);
    assert_eq!(v["ok"], false, "{request} -> {v}");
    assert_eq!(v["error"]["rule"], rule, "{request} -> {v}");
    v["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn loaded() -> Session {
    let mut s = Session::new(registry());
    ok(&mut s, &json!({"cmd": "load", "scenario_toml": RACE_TOML}));
    s
}

fn seated(seat: &Value) -> Session {
    let mut s = loaded();
    let mut request = json!({"cmd": "seat"});
    for (k, v) in seat.as_object().unwrap() {
        request[k] = v.clone();
    }
    ok(&mut s, &request);
    s
}

/// Applies `action` in every session, each answer ok.
fn relay(sessions: &mut [&mut Session], action: &Value) -> Vec<Value> {
    sessions
        .iter_mut()
        .map(|s| ok(s, &json!({"cmd": "apply", "action": action})))
        .collect()
}

/// The referee, the red seat and the blue seat after red drew a card and blue stepped,
/// so that red, holding a card, may react (RACE-5); and the card red holds.
fn red_may_react() -> (Session, Session, Session, u64) {
    let (mut referee, mut red, mut blue) = (
        loaded(),
        seated(&json!({"side": "red"})),
        seated(&json!({"side": "blue"})),
    );
    relay(
        &mut [&mut referee, &mut red, &mut blue],
        &json!({"type": "draw"}),
    );
    let legal = ok(&mut referee, &json!({"cmd": "legal"}))["actions"].clone();
    let step = legal
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "move" && a["to"] == "0602")
        .cloned()
        .expect("blue may step to 0602, clear ground");
    relay(&mut [&mut referee, &mut red, &mut blue], &step);
    let state = ok(&mut referee, &json!({"cmd": "state"}));
    assert_eq!(state["to_act"]["side"], "red", "{state}");
    assert_eq!(state["to_act"]["reaction"], true, "{state}");
    let card = state["state"]["hands"][0][0]
        .as_u64()
        .expect("red holds a card");
    (referee, red, blue, card)
}

#[test]
fn seat_takes_a_side_or_the_spectator_and_answers_the_status() {
    let mut s = loaded();
    let v = ok(&mut s, &json!({"cmd": "seat", "side": "blue", "id": 3}));
    assert_eq!(v["side"], "blue");
    assert_eq!(v["id"], 3);
    assert_eq!(v["n"], 0);
    assert_eq!(v["to_act"]["side"], "red");
    let mut s = loaded();
    let v = ok(&mut s, &json!({"cmd": "seat", "seat": "spectator"}));
    assert_eq!(v["seat"], "spectator");
}

#[test]
fn seat_before_load_is_refused() {
    let mut s = Session::new(registry());
    let message = refused(&mut s, &json!({"cmd": "seat", "side": "red"}), "request");
    assert!(message.contains("no game loaded"), "{message}");
}

#[test]
fn a_second_seat_is_refused_naming_the_seat_and_so_is_load() {
    let mut s = seated(&json!({"side": "red"}));
    for request in [
        json!({"cmd": "seat", "side": "red"}),
        json!({"cmd": "seat", "side": "blue"}),
        json!({"cmd": "seat", "seat": "spectator"}),
        json!({"cmd": "load", "scenario_toml": RACE_TOML}),
    ] {
        let message = refused(&mut s, &request, "seat");
        assert!(message.contains("Red team"), "{message}");
    }
    // Still red's: blue's view stays refused.
    refused(&mut s, &json!({"cmd": "view", "side": "blue"}), "seat");
}

#[test]
fn seat_refuses_the_omniscient_seat_an_unknown_side_and_unknown_keys() {
    let mut s = loaded();
    refused(
        &mut s,
        &json!({"cmd": "seat", "seat": "omniscient"}),
        "request",
    );
    let message = refused(&mut s, &json!({"cmd": "seat", "side": "green"}), "request");
    assert!(message.contains("no side `green`"), "{message}");
    let message = refused(
        &mut s,
        &json!({"cmd": "seat", "side": "red", "hand": 1}),
        "request",
    );
    assert!(
        message.contains("unknown key \"hand\" for seat"),
        "{message}"
    );
    let message = refused(&mut s, &json!({"cmd": "seat", "side": 1}), "request");
    assert!(message.contains("must be a string"), "{message}");
    // None of these took a seat.
    ok(&mut s, &json!({"cmd": "state"}));
}

#[test]
fn state_save_and_force_rolls_are_refused_naming_the_seat() {
    let mut s = seated(&json!({"side": "blue"}));
    for request in [
        json!({"cmd": "state"}),
        json!({"cmd": "save"}),
        json!({"cmd": "force_rolls", "rolls": [6]}),
    ] {
        let message = refused(&mut s, &request, "seat");
        assert!(message.contains("Blue team's seat"), "{message}");
    }
    let mut s = seated(&json!({"seat": "spectator"}));
    let message = refused(&mut s, &json!({"cmd": "save"}), "seat");
    assert!(message.contains("the spectator's seat"), "{message}");
}

#[test]
fn the_view_and_log_of_another_side_are_refused_naming_the_seat() {
    let mut s = seated(&json!({"side": "blue"}));
    for request in [
        json!({"cmd": "view", "side": "red"}),
        json!({"cmd": "view", "seat": "omniscient"}),
        json!({"cmd": "log", "side": "red"}),
        json!({"cmd": "log", "seat": "omniscient"}),
    ] {
        let message = refused(&mut s, &request, "seat");
        assert!(message.contains("Blue team's seat"), "{message}");
    }
    let mut referee = loaded();
    let own = ok(&mut s, &json!({"cmd": "view"}));
    assert_eq!(
        own["view"],
        ok(&mut referee, &json!({"cmd": "view", "side": "blue"}))["view"]
    );
    assert_eq!(own["n"], 0, "{own}");
    let named = ok(&mut s, &json!({"cmd": "view", "side": "blue"}));
    assert_eq!(named["view"], own["view"]);
    let spectator = ok(&mut s, &json!({"cmd": "view", "seat": "spectator"}));
    assert_eq!(
        spectator["view"],
        ok(&mut referee, &json!({"cmd": "view", "seat": "spectator"}))["view"]
    );
}

#[test]
fn legal_is_empty_with_the_status_fields_when_the_seat_is_not_to_act() {
    let mut referee = loaded();
    let mut blue = seated(&json!({"side": "blue"}));
    let mut red = seated(&json!({"side": "red"}));
    let v = ok(&mut blue, &json!({"cmd": "legal"}));
    assert_eq!(v["actions"], json!([]), "{v}");
    assert_eq!(v["n"], 0);
    assert_eq!(v["to_act"]["side"], "red");
    assert!(v.get("outcome").is_some(), "{v}");
    let all = ok(&mut referee, &json!({"cmd": "legal"}));
    assert!(!all["actions"].as_array().unwrap().is_empty());
    assert_eq!(
        ok(&mut red, &json!({"cmd": "legal"}))["actions"],
        all["actions"]
    );
    let mut spectator = seated(&json!({"seat": "spectator"}));
    assert_eq!(
        ok(&mut spectator, &json!({"cmd": "legal"}))["actions"],
        json!([])
    );
}

#[test]
fn apply_answers_the_events_of_the_seats_log_entry() {
    let mut referee = loaded();
    let mut red = seated(&json!({"side": "red"}));
    let mut blue = seated(&json!({"side": "blue"}));
    let answers = relay(
        &mut [&mut referee, &mut red, &mut blue],
        &json!({"type": "draw"}),
    );
    let log = |r: &mut Session, side: &str| -> Value {
        ok(r, &json!({"cmd": "log", "side": side}))["log"][0]["events"].clone()
    };
    assert_eq!(answers[1]["events"], log(&mut referee, "red"));
    assert_eq!(answers[2]["events"], log(&mut referee, "blue"));
    // Blue sees that red drew, not the card nor the roll that picked it.
    let types = |v: &Value| -> Vec<String> {
        v["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["type"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(types(&answers[0]), ["roll", "drew", "turn_began"]);
    assert_eq!(types(&answers[1]), ["roll", "drew", "turn_began"]);
    assert_eq!(types(&answers[2]), ["drew", "turn_began"]);
    assert!(
        answers[2]["events"][0].get("card").is_none(),
        "{}",
        answers[2]
    );
    assert!(answers[1]["events"][1]["card"].is_u64(), "{}", answers[1]);
    // A seat's `log` is its own by default.
    assert_eq!(
        ok(&mut blue, &json!({"cmd": "log"}))["log"],
        ok(&mut referee, &json!({"cmd": "log", "side": "blue"}))["log"]
    );
    for (a, b) in [(&answers[0], &answers[1]), (&answers[0], &answers[2])] {
        assert_eq!(a["n"], b["n"]);
        assert_eq!(a["to_act"], b["to_act"]);
    }
}

#[test]
fn a_refused_action_of_the_other_side_does_not_name_its_hidden_card() {
    let (mut referee, mut red, mut blue, card) = red_may_react();
    let wrong = if card == 6 { 1 } else { card + 1 };
    let block = json!({"type": "block", "card": wrong});
    let whole = send(&mut referee, &json!({"cmd": "apply", "action": block}));
    assert_eq!(whole["error"]["rule"], "RACE-5", "{whole}");
    assert!(whole["error"]["message"]
        .as_str()
        .unwrap()
        .contains(&format!("no card {wrong}")));
    let hidden = send(&mut blue, &json!({"cmd": "apply", "action": block}));
    assert_eq!(hidden["ok"], false);
    assert_eq!(hidden["error"]["rule"], "hidden", "{hidden}");
    assert!(hidden["error"].get("reasons").is_none(), "{hidden}");
    let text = hidden["error"]["message"].as_str().unwrap();
    assert!(!text.contains("RACE-5") && !text.contains("card"), "{text}");
    assert!(
        text.contains("Red team") && text.contains("Blue team"),
        "{text}"
    );
    // Red's own refusal is whole: it is red's hand.
    let own = send(&mut red, &json!({"cmd": "apply", "action": block}));
    assert_eq!(own["error"], whole["error"]);
    // Nothing changed anywhere; the legal block goes through all three.
    let legal = json!({"type": "block", "card": card});
    let answers = relay(&mut [&mut referee, &mut red, &mut blue], &legal);
    assert_eq!(answers[2]["n"], answers[0]["n"]);
}

#[test]
fn explain_preview_reachable_and_ai_answer_only_the_seats_own_decisions() {
    let (_, mut red, mut blue, card) = red_may_react();
    let block = json!({"type": "block", "card": card});
    for request in [
        json!({"cmd": "explain", "action": block}),
        json!({"cmd": "preview", "action": block}),
        json!({"cmd": "reachable", "unit": "blue-runner"}),
        json!({"cmd": "ai", "level": "easy"}),
    ] {
        let message = refused(&mut blue, &request, "seat");
        assert!(message.contains("Blue team's seat"), "{message}");
        assert!(message.contains("Red team's decision"), "{message}");
    }
    let e = ok(&mut red, &json!({"cmd": "explain", "action": block}));
    assert_eq!(e["legal"], true, "{e}");
    ok(&mut red, &json!({"cmd": "preview", "action": block}));
    let legal = ok(&mut red, &json!({"cmd": "legal"}))["actions"].clone();
    let a = ok(&mut red, &json!({"cmd": "ai", "seed": 3}));
    assert!(
        legal.as_array().unwrap().contains(&a["action"]),
        "{a} not in {legal}"
    );
}

#[test]
fn a_spectator_session_sees_the_spectators_view_and_log() {
    let mut referee = loaded();
    let mut spectator = seated(&json!({"seat": "spectator"}));
    let answers = relay(
        &mut [&mut referee, &mut spectator],
        &json!({"type": "draw"}),
    );
    assert_eq!(
        answers[1]["events"],
        ok(&mut referee, &json!({"cmd": "log", "seat": "spectator"}))["log"][0]["events"]
    );
    assert_eq!(
        ok(&mut spectator, &json!({"cmd": "view"}))["view"],
        ok(&mut referee, &json!({"cmd": "view", "seat": "spectator"}))["view"]
    );
    refused(
        &mut spectator,
        &json!({"cmd": "view", "side": "red"}),
        "seat",
    );
    refused(&mut spectator, &json!({"cmd": "ai"}), "seat");
}

#[test]
fn undo_in_a_seat_session_follows_the_referee() {
    let mut referee = loaded();
    let mut blue = seated(&json!({"side": "blue"}));
    let legal = ok(&mut referee, &json!({"cmd": "legal"}))["actions"].clone();
    let step = legal
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "move" && a["to"] == "0201")
        .cloned()
        .expect("red may step to 0201");
    relay(&mut [&mut referee, &mut blue], &step);
    let a = ok(&mut referee, &json!({"cmd": "undo"}));
    let b = ok(&mut blue, &json!({"cmd": "undo"}));
    assert_eq!(a, b);
    assert_eq!(b["n"], 0);
}

#[test]
fn log_since_k_answers_only_the_entries_after_k_as_the_seat_sees_them() {
    let (mut referee, mut red, mut blue, _) = red_may_react();
    for seat in ["blue", "red"] {
        let whole = ok(&mut referee, &json!({"cmd": "log", "side": seat}));
        let from = ok(
            &mut referee,
            &json!({"cmd": "log", "side": seat, "since": 1}),
        );
        assert_eq!(from["log_from"], 1, "{seat}");
        assert_eq!(
            from["log"].as_array().unwrap()[..],
            whole["log"].as_array().unwrap()[1..],
            "{seat}"
        );
        assert!(
            whole.get("log_from").is_none(),
            "without since, as before: {whole}"
        );
    }
    // Each seated session's log from 0 is its own seat's, and the two differ: blue
    // does not see red's card.
    let mine = ok(&mut blue, &json!({"cmd": "log", "since": 0}));
    let as_referee = ok(
        &mut referee,
        &json!({"cmd": "log", "side": "blue", "since": 0}),
    );
    assert_eq!(mine["log"], as_referee["log"]);
    let reds = ok(&mut red, &json!({"cmd": "log", "since": 0}));
    assert_ne!(mine["log"], reds["log"]);
    // Past the end: nothing, and log_from says where the log ends.
    let past = ok(&mut referee, &json!({"cmd": "log", "since": 9}));
    assert_eq!((&past["log_from"], &past["log"]), (&json!(2), &json!([])));
    refused(&mut referee, &json!({"cmd": "log", "since": -1}), "request");
}
