//! The engine protocol (`docs/ENGINE-PROTOCOL.md`), driven line by line with The Race.

use crate::race::RACE_TOML;
use crate::registry;
use grognard_engine::protocol::{Session, MAX_LINE};
use serde_json::{json, Value};
use std::path::PathBuf;

/// A session over The Race that checks every answer is one line of JSON.
struct Client(Session);

impl Client {
    fn new() -> Client {
        Client(Session::new(registry()))
    }

    fn loaded() -> Client {
        let mut c = Client::new();
        c.ok(&json!({"cmd": "load", "scenario_toml": RACE_TOML}));
        c
    }

    fn send(&mut self, line: &str) -> Value {
        let r = self.0.handle(line);
        assert!(!r.line.contains('\n'), "one line: {}", r.line);
        let v: Value =
            serde_json::from_str(&r.line).unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.line));
        assert!(v["ok"].is_boolean(), "{v}");
        v
    }

    fn ask(&mut self, request: &Value) -> Value {
        self.send(&request.to_string())
    }

    fn ok(&mut self, request: &Value) -> Value {
        let v = self.ask(request);
        assert_eq!(v["ok"], true, "{request} -> {v}");
        v
    }

    /// Asks, expects a refusal with `rule`, returns its message.
    fn refused(&mut self, request: &Value, rule: &str) -> String {
        self.refused_line(&request.to_string(), rule)
    }

    fn refused_line(&mut self, line: &str, rule: &str) -> String {
        let v = self.send(line);
        assert_eq!(v["ok"], false, "{line} -> {v}");
        assert_eq!(v["error"]["rule"], rule, "{line} -> {v}");
        let message = v["error"]["message"].as_str().unwrap().to_owned();
        assert!(!message.is_empty());
        message
    }

    fn n(&mut self) -> u64 {
        self.ok(&json!({"cmd": "state"}))["n"].as_u64().unwrap()
    }
}

fn has_status(v: &Value) {
    for key in ["n", "to_act", "outcome"] {
        assert!(v.get(key).is_some(), "no `{key}` in {v}");
    }
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn load_a_scenario_text_answers_the_game_and_its_status() {
    let mut c = Client::new();
    let v = c.ok(&json!({"cmd": "load", "scenario_toml": RACE_TOML, "id": 1}));
    assert_eq!(
        v,
        json!({
            "id": 1, "ok": true, "ruleset": "race", "scenario": "race", "title": "The Race",
            "seed": 7, "generator": "splitmix64", "sides": ["red", "blue"], "n": 0,
            "to_act": {"side": "red", "kind": "race", "text": "Red team to act: race"},
            "outcome": null,
        })
    );
    assert_eq!(
        c.ok(&json!({"cmd": "load", "scenario_toml": RACE_TOML, "seed": 11}))["seed"],
        11
    );
    assert_eq!(
        c.ok(&json!({"cmd": "load", "scenario_toml": RACE_TOML, "seed": null}))["seed"],
        7
    );
}

#[test]
fn load_a_scenario_path() {
    let path = temp_file("protocol-race.toml", RACE_TOML);
    let mut c = Client::new();
    let v = c.ok(&json!({"cmd": "load", "scenario": path}));
    assert_eq!(
        (v["scenario"].clone(), v["n"].clone()),
        (json!("race"), json!(0))
    );

    let missing = path.with_file_name("no-such-race.toml");
    let m = c.refused(&json!({"cmd": "load", "scenario": missing}), "request");
    assert!(
        m.contains("cannot read scenario") && m.contains("no-such-race.toml"),
        "{m}"
    );
    // The game loaded before is still there.
    assert_eq!(c.n(), 0);
}

#[test]
fn load_a_scenario_with_problems_lists_each_located() {
    let broken = RACE_TOML
        .replace("at = \"0603\"", "at = \"0909\"")
        .replace("goal = \"west\"", "goal = \"up\"");
    let path = temp_file("protocol-broken.toml", &broken);
    let mut c = Client::new();
    for (request, file) in [
        (
            json!({"cmd": "load", "scenario": path}),
            path.display().to_string(),
        ),
        (
            json!({"cmd": "load", "scenario_toml": broken}),
            "scenario_toml".to_owned(),
        ),
    ] {
        let v = c.ask(&request);
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["rule"], "scenario");
        let problems: Vec<&str> = v["error"]["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        for p in &problems {
            let rest = p
                .strip_prefix(&format!("{file}:"))
                .unwrap_or_else(|| panic!("{p}"));
            let mut parts = rest.splitn(3, ':');
            assert!(
                parts.next().unwrap().parse::<usize>().is_ok()
                    && parts.next().unwrap().parse::<usize>().is_ok(),
                "{p}"
            );
        }
        assert!(problems.iter().any(|p| p.contains("0909")), "{problems:?}");
        assert!(
            problems
                .iter()
                .any(|p| p.contains("\"up\"") || p.contains("`up`")),
            "{problems:?}"
        );
    }
    // Ruleset checks beyond the vocabulary are located too.
    let no_runner = RACE_TOML.replace("side = \"blue\"\ntype", "side = \"red\"\ntype");
    let v = c.ask(&json!({"cmd": "load", "scenario_toml": no_runner}));
    assert_eq!(v["error"]["rule"], "scenario", "{v}");
    let text = v["error"]["problems"].to_string();
    assert!(
        text.contains("second runner") && text.contains("has no runner"),
        "{text}"
    );
}

#[test]
fn load_needs_exactly_one_source_and_a_good_seed() {
    let mut c = Client::new();
    for bad in [
        json!({"cmd": "load"}),
        json!({"cmd": "load", "scenario": "a.toml", "scenario_toml": RACE_TOML}),
        json!({"cmd": "load", "scenario_toml": RACE_TOML, "game": {}}),
    ] {
        let m = c.refused(&bad, "request");
        assert!(m.contains("exactly one of"), "{bad}: {m}");
    }
    for bad in [
        json!({"cmd": "load", "scenario": 5}),
        json!({"cmd": "load", "scenario_toml": ["x"]}),
    ] {
        let m = c.refused(&bad, "request");
        assert!(m.contains("must be a string"), "{bad}: {m}");
    }
    for seed in [json!(-1), json!("7"), json!(1.5)] {
        let m = c.refused(
            &json!({"cmd": "load", "scenario_toml": RACE_TOML, "seed": seed}),
            "request",
        );
        assert!(m.contains("\"seed\""), "{m}");
    }
    let m = c.refused(&json!({"cmd": "load", "game": {"format": "x"}}), "request");
    assert!(m.contains("malformed saved game"), "{m}");
}

#[test]
fn load_a_saved_game_rebuilds_it() {
    let mut c = Client::loaded();
    c.ok(&json!({"cmd": "force_rolls", "rolls": [4]}));
    c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    c.ok(&json!({"cmd": "apply", "action": {"type": "move", "unit": "blue-runner", "to": "0602"}}));
    c.ok(&json!({"cmd": "force_rolls", "rolls": [2, 3]}));
    let saved = c.ok(&json!({"cmd": "save"}))["game"].clone();
    assert_eq!(saved["format"], "grognard-game/1");
    assert_eq!(saved["ruleset"], "race");
    assert_eq!(
        saved["log"][0],
        json!({"action": {"type": "draw"}, "forced": [4]})
    );
    assert_eq!(saved["pending_forced"], json!([2, 3]));
    let state = c.ok(&json!({"cmd": "state"}))["state"].clone();

    let mut other = Client::new();
    let v = other.ok(&json!({"cmd": "load", "game": saved}));
    assert_eq!((v["n"].clone(), v["seed"].clone()), (json!(2), json!(7)));
    assert_eq!(other.ok(&json!({"cmd": "state"}))["state"], state);
    assert_eq!(other.ok(&json!({"cmd": "save"}))["game"], saved);

    let mut bad = saved.clone();
    bad["log"][1]["action"]["to"] = json!("0101");
    let m = other.refused(&json!({"cmd": "load", "game": bad}), "game");
    assert!(
        m.contains("action 1 of the log") && m.contains("RACE-2"),
        "{m}"
    );
    let mut bad = saved;
    bad["ruleset"] = json!("chess");
    let m = other.refused(&json!({"cmd": "load", "game": bad}), "request");
    assert!(m.contains("unknown ruleset `chess`"), "{m}");
}

#[test]
fn legal_apply_and_state_carry_the_status() {
    let mut c = Client::loaded();
    let v = c.ok(&json!({"cmd": "legal"}));
    has_status(&v);
    assert_eq!(
        v["actions"],
        json!([
            {"type": "move", "unit": "red-runner", "to": "0201"},
            {"type": "move", "unit": "red-runner", "to": "0102"},
            {"type": "draw"},
        ])
    );
    // Each listed action is taken by apply as it is.
    let v = c.ok(&json!({"cmd": "apply", "action": v["actions"][0]}));
    assert_eq!(
        v,
        json!({
            "ok": true,
            "events": [
                {"type": "moved", "unit": "red-runner", "from": "0101", "to": "0201",
                 "text": "Red runner runs to 0201."},
                {"type": "turn_began", "turn": 1, "side": "blue",
                 "text": "Turn 1: Blue team runs."},
            ],
            "n": 1,
            "to_act": {"side": "blue", "kind": "race", "text": "Blue team to act: race"},
            "outcome": null,
        })
    );
    let v = c.ok(&json!({"cmd": "state"}));
    has_status(&v);
    assert_eq!(v["state"]["at"][0], json!({"q": 1, "r": 0}));
}

#[test]
fn apply_answers_each_event_with_its_sentence_and_the_log_keeps_it() {
    let mut c = Client::loaded();
    c.ok(&json!({"cmd": "force_rolls", "rolls": [3, 1]}));
    let v = c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    let events = v["events"].as_array().unwrap();
    assert!(!events.is_empty(), "{v}");
    for e in events {
        let text = e["text"].as_str().unwrap_or_else(|| panic!("no text: {e}"));
        assert!(!text.is_empty() && !text.contains('{'), "{e}");
        assert!(
            !text.contains("red-runner") && !text.contains("blue-runner"),
            "{e}"
        );
    }
    assert!(
        events.iter().any(|e| e["type"] == "roll"),
        "a draw rolls: {v}"
    );
    assert!(
        v["to_act"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("team")),
        "{v}"
    );
    let log = c.ok(&json!({"cmd": "log"}));
    assert_eq!(log["log"][0]["events"], v["events"], "{log}");
}

#[test]
fn a_refused_apply_names_every_rule_and_changes_nothing() {
    let mut c = Client::loaded();
    let before = c.ok(&json!({"cmd": "save"}));
    let v = c.ask(
        &json!({"cmd": "apply", "action": {"type": "move", "unit": "red-runner", "to": "0202"}}),
    );
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["rule"], "RACE-2");
    assert_eq!(
        v["error"]["reasons"],
        json!([
            {"rule": "RACE-2", "message": "0202 is rock"},
            {"rule": "RACE-2", "message": "0202 is not next to 0101"},
        ])
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("RACE-2: 0202 is rock; RACE-2: 0202 is not next"),
        "{v}"
    );
    let v = c.ask(
        &json!({"cmd": "apply", "action": {"type": "move", "unit": "red-runner", "to": "0303"}}),
    );
    assert_eq!(v["error"]["reasons"].as_array().unwrap().len(), 1, "{v}");
    let v = c.ask(
        &json!({"cmd": "apply", "action": {"type": "move", "unit": "blue-runner", "to": "0602"}}),
    );
    assert_eq!(v["error"]["rule"], "RACE-1", "{v}");
    assert_eq!(c.ok(&json!({"cmd": "save"})), before);
}

#[test]
fn view_hides_the_other_hand_and_names_its_seat() {
    let mut c = Client::loaded();
    c.ok(&json!({"cmd": "force_rolls", "rolls": [5, 3]}));
    c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    let v = c.ok(&json!({"cmd": "view", "side": "blue"}));
    has_status(&v);
    assert_eq!(v["view"]["sides"]["blue"]["hand"], json!([3]));
    assert!(v["view"]["sides"]["red"].get("hand").is_none(), "{v}");
    let v = c.ok(&json!({"cmd": "view", "seat": "spectator"}));
    assert!(v["view"]["sides"]["blue"].get("hand").is_none(), "{v}");
    let v = c.ok(&json!({"cmd": "view", "seat": "omniscient"}));
    assert_eq!(v["view"]["sides"]["red"]["hand"], json!([5]));

    let m = c.refused(&json!({"cmd": "view", "side": "green"}), "request");
    assert!(m.contains("no side `green`"), "{m}");
    for bad in [
        json!({"cmd": "view"}),
        json!({"cmd": "view", "seat": "god"}),
        json!({"cmd": "view", "side": "red", "seat": "spectator"}),
    ] {
        let m = c.refused(&bad, "request");
        assert!(m.contains("name a seat"), "{bad}: {m}");
    }
}

#[test]
fn log_shows_each_seat_what_it_may_see() {
    let mut c = Client::loaded();
    c.ok(&json!({"cmd": "force_rolls", "rolls": [5]}));
    c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    let all = c.ok(&json!({"cmd": "log"}))["log"].clone();
    assert_eq!(all[0]["n"], 1);
    assert_eq!(all[0]["action"], json!({"type": "draw"}));
    assert_eq!(
        all[0]["events"][0],
        json!({"type": "roll", "sides": 6, "value": 5, "forced": true, "purpose": "RACE-4 draw: red",
               "text": "RACE-4 draw: red: rolled 5 (forced) on a d6."})
    );
    let red = c.ok(&json!({"cmd": "log", "side": "red"}))["log"].clone();
    assert_eq!(red, all);
    for seat in [
        json!({"cmd": "log", "side": "blue"}),
        json!({"cmd": "log", "seat": "spectator"}),
    ] {
        let log = c.ok(&seat)["log"].clone();
        assert_eq!(
            log[0]["events"][0],
            json!({"type": "drew", "side": "red", "text": "Red team draws a card."}),
            "{seat}"
        );
        assert!(!log.to_string().contains("\"value\""), "{log}");
    }
    let m = c.refused(&json!({"cmd": "log", "seat": "referee"}), "request");
    assert!(m.contains("name a seat"), "{m}");
    let m = c.refused(&json!({"cmd": "log", "side": "green"}), "request");
    assert!(m.contains("no side `green`"), "{m}");
}

#[test]
fn explain_gives_rule_ids_both_ways() {
    let mut c = Client::loaded();
    let v = c.ok(
        &json!({"cmd": "explain", "action": {"type": "move", "unit": "red-runner", "to": "0201"}}),
    );
    assert_eq!(v["legal"], true);
    assert_eq!(v["reasons"][0]["rule"], "RACE-2");
    let v = c.ok(&json!({"cmd": "explain", "action": {"type": "pass"}}));
    assert_eq!(v["legal"], false);
    assert_eq!(
        v["reasons"],
        json!([{"rule": "RACE-5", "message": "there is no step to react to"}])
    );
    assert!(c
        .refused(&json!({"cmd": "explain"}), "request")
        .contains("missing field \"action\""));
    assert!(c
        .refused(
            &json!({"cmd": "explain", "action": {"type": "jump"}}),
            "request"
        )
        .contains("malformed action"));
}

#[test]
fn preview_gives_exact_odds_before_the_roll() {
    let mut c = Client::loaded();
    let v = c.ok(&json!({"cmd": "preview", "action": {"type": "draw"}}));
    let p = &v["preview"];
    assert_eq!(p["roll"], "1d6");
    let outcomes = p["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 6);
    assert_eq!(
        outcomes[0],
        json!({"result": {"card": 1}, "num": 1, "den": 6, "p": 1.0 / 6.0})
    );
    let m = c.refused(
        &json!({"cmd": "preview", "action": {"type": "move", "unit": "red-runner", "to": "0201"}}),
        "RACE-2",
    );
    assert!(m.contains("rolls no dice"), "{m}");
    c.refused(
        &json!({"cmd": "preview", "action": {"type": "pass"}}),
        "RACE-5",
    );
    assert!(c
        .refused(&json!({"cmd": "preview"}), "request")
        .contains("missing field"));
}

#[test]
fn reachable_lists_hexes_by_label() {
    let mut c = Client::loaded();
    let v = c.ok(&json!({"cmd": "reachable", "unit": "red-runner"}));
    assert_eq!(v["unit"], "red-runner");
    assert_eq!(
        v["reachable"],
        json!([{"hex": "0201", "cost": 1, "path": ["0201"]}, {"hex": "0102", "cost": 1, "path": ["0102"]}])
    );
    c.refused(
        &json!({"cmd": "reachable", "unit": "blue-runner"}),
        "RACE-1",
    );
    assert!(c
        .refused(&json!({"cmd": "reachable", "unit": "ghost"}), "request")
        .contains("no unit `ghost`"));
    assert!(c
        .refused(&json!({"cmd": "reachable", "unit": 0}), "request")
        .contains("unit id string"));
    assert!(c
        .refused(&json!({"cmd": "reachable"}), "request")
        .contains("missing field \"unit\""));
}

#[test]
fn force_rolls_queue_mark_and_refuse_faces_off_the_die() {
    let mut c = Client::loaded();
    assert_eq!(
        c.ok(&json!({"cmd": "force_rolls", "rolls": [6, 1]}))["forced"],
        json!([6, 1])
    );
    assert_eq!(
        c.ok(&json!({"cmd": "force_rolls", "rolls": []}))["forced"],
        json!([6, 1])
    );
    let v = c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    assert_eq!(
        v["events"][0],
        json!({"type": "roll", "sides": 6, "value": 6, "forced": true, "purpose": "RACE-4 draw: red",
               "text": "RACE-4 draw: red: rolled 6 (forced) on a d6."})
    );
    assert_eq!(
        c.ok(&json!({"cmd": "save"}))["game"]["pending_forced"],
        json!([1])
    );

    for bad in [
        json!([0]),
        json!([-1]),
        json!(["6"]),
        json!(6),
        json!([4294967296u64]),
        json!(null),
    ] {
        let m = c.refused(&json!({"cmd": "force_rolls", "rolls": bad}), "request");
        assert!(m.contains("positive integers"), "{bad}: {m}");
    }
    assert!(c
        .refused(&json!({"cmd": "force_rolls"}), "request")
        .contains("missing field \"rolls\""));

    // 1 is queued for blue's draw; ahead of it 9, which no d6 shows.
    let mut c = Client::loaded();
    c.ok(&json!({"cmd": "force_rolls", "rolls": [9]}));
    let before = c.ok(&json!({"cmd": "save"}));
    let m = c.refused(
        &json!({"cmd": "apply", "action": {"type": "draw"}}),
        "ENGINE-DICE",
    );
    assert!(m.contains("forced roll 9 is not a face of a d6"), "{m}");
    assert_eq!(c.ok(&json!({"cmd": "save"})), before);
    // A step without dice still goes; clearing the queue lets dice roll again.
    c.ok(&json!({"cmd": "apply", "action": {"type": "move", "unit": "red-runner", "to": "0201"}}));
    c.refused(
        &json!({"cmd": "apply", "action": {"type": "draw"}}),
        "ENGINE-DICE",
    );
    let v = c.ok(&json!({"cmd": "force_rolls", "rolls": [2], "clear": true}));
    assert_eq!(v["forced"], json!([2]));
    assert_eq!(c.n(), 1, "clearing the queue keeps the game");
    let v = c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    assert_eq!(v["events"][0]["value"], 2);
    assert_eq!(
        c.ok(&json!({"cmd": "force_rolls", "rolls": [], "clear": true}))["forced"],
        json!([])
    );
    let m = c.refused(
        &json!({"cmd": "force_rolls", "rolls": [], "clear": "yes"}),
        "request",
    );
    assert!(m.contains("\"clear\" must be true or false"), "{m}");
}

#[test]
fn undo_goes_back_to_the_last_roll() {
    let mut c = Client::loaded();
    let m = c.refused(&json!({"cmd": "undo"}), "undo");
    assert!(m.contains("nothing to undo"), "{m}");
    c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    c.ok(&json!({"cmd": "apply", "action": {"type": "move", "unit": "blue-runner", "to": "0602"}}));
    let v = c.ok(&json!({"cmd": "undo", "id": "u"}));
    has_status(&v);
    assert_eq!((v["id"].clone(), v["n"].clone()), (json!("u"), json!(1)));
    assert_eq!(
        v["to_act"],
        json!({"side": "blue", "kind": "race", "text": "Blue team to act: race"})
    );
    let m = c.refused(&json!({"cmd": "undo"}), "undo");
    assert!(m.contains("rolled dice"), "{m}");
    assert_eq!(c.n(), 1);
}

#[test]
fn a_reaction_window_shows_in_to_act() {
    let mut c = Client::loaded();
    c.ok(&json!({"cmd": "apply", "action": {"type": "move", "unit": "red-runner", "to": "0201"}}));
    c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    let v = c.ok(
        &json!({"cmd": "apply", "action": {"type": "move", "unit": "red-runner", "to": "0302"}}),
    );
    assert_eq!(
        v["to_act"],
        json!({"side": "blue", "kind": "reaction", "reaction": true,
               "text": "Blue team may answer: reaction"})
    );
}

#[test]
fn ai_proposes_a_legal_action_without_applying_it() {
    let mut c = Client::loaded();
    let legal = c.ok(&json!({"cmd": "legal"}))["actions"].clone();
    let v = c.ok(&json!({"cmd": "ai", "millis": 50}));
    has_status(&v);
    assert!(legal.as_array().unwrap().contains(&v["action"]), "{v}");
    assert_eq!(v["n"], 0);
}

#[test]
fn a_finished_game_answers_its_outcome() {
    let mut c = Client::loaded();
    let (red, blue) = (["0201", "0302", "0401", "0501", "0601"], ["0602", "0603"]);
    let mut last = Value::Null;
    for (i, to) in red.iter().enumerate() {
        last = c.ok(
            &json!({"cmd": "apply", "action": {"type": "move", "unit": "red-runner", "to": to}}),
        );
        if i < 4 {
            c.ok(&json!({"cmd": "apply", "action": {"type": "move", "unit": "blue-runner", "to": blue[i % 2]}}));
        }
    }
    assert_eq!(last["to_act"], Value::Null);
    assert_eq!(
        last["outcome"],
        json!({"winner": "red", "reason": "reached the goal edge", "rule": "RACE-6"})
    );
    assert_eq!(c.ok(&json!({"cmd": "legal"}))["actions"], json!([]));
    assert_eq!(c.ok(&json!({"cmd": "ai"}))["action"], Value::Null);
    c.refused(
        &json!({"cmd": "apply", "action": {"type": "draw"}}),
        "RACE-6",
    );
}

#[test]
fn rulesets_and_quit_need_no_game() {
    let mut c = Client::new();
    assert_eq!(
        c.ok(&json!({"cmd": "rulesets"}))["rulesets"],
        json!(["race"])
    );
    let r = c.0.handle(r#"{"cmd":"quit","id":[1,"a"]}"#);
    assert!(r.quit);
    assert_eq!(r.line, r#"{"id":[1,"a"],"ok":true}"#);
    assert!(!c.0.handle(r#"{"cmd":"rulesets"}"#).quit);
}

#[test]
fn the_id_is_echoed_whatever_it_is_and_on_errors_too() {
    let mut c = Client::loaded();
    for id in [
        json!(7),
        json!("abc"),
        json!({"k": [1, 2]}),
        json!(null),
        json!(1.5),
    ] {
        assert_eq!(c.ok(&json!({"cmd": "legal", "id": id}))["id"], id);
        assert_eq!(c.ask(&json!({"cmd": "nope", "id": id}))["id"], id);
        assert_eq!(c.ask(&json!({"cmd": "apply", "id": id}))["id"], id);
    }
    assert!(c.ok(&json!({"cmd": "legal"})).get("id").is_none());
}

#[test]
fn every_command_needs_a_game_but_load_rulesets_and_quit() {
    let mut c = Client::new();
    for cmd in ["legal", "state", "save", "undo", "log", "ai"] {
        let m = c.refused(&json!({"cmd": cmd}), "request");
        assert!(m.contains("no game loaded"), "{cmd}: {m}");
    }
    for request in [
        json!({"cmd": "apply", "action": {"type": "draw"}}),
        json!({"cmd": "view", "side": "red"}),
        json!({"cmd": "explain", "action": {"type": "draw"}}),
        json!({"cmd": "preview", "action": {"type": "draw"}}),
        json!({"cmd": "reachable", "unit": "red-runner"}),
        json!({"cmd": "force_rolls", "rolls": [1]}),
    ] {
        let m = c.refused(&request, "request");
        assert!(m.contains("no game loaded"), "{request}: {m}");
    }
}

#[test]
fn malformed_lines_are_answered_and_the_session_carries_on() {
    let mut c = Client::loaded();
    let oversized = format!(r#"{{"cmd":"legal","pad":"{}"}}"#, "x".repeat(MAX_LINE));
    let cases: Vec<(String, &str)> = vec![
        ("not json".into(), "malformed JSON"),
        ("".into(), "malformed JSON"),
        ("{\"cmd\":\"legal\"".into(), "malformed JSON"),
        ("[1, 2]".into(), "a JSON object"),
        ("\"legal\"".into(), "a JSON object"),
        ("42".into(), "a JSON object"),
        ("{}".into(), "needs a \"cmd\""),
        ("{\"cmd\": 5}".into(), "needs a \"cmd\""),
        ("{\"cmd\": \"fly\"}".into(), "unknown cmd `fly`"),
        ("{\"cmd\": \"LEGAL\"}".into(), "unknown cmd `LEGAL`"),
        ("{\"cmd\": \"apply\"}".into(), "missing field \"action\""),
        ("{\"cmd\": \"apply\", \"action\": \"draw\"}".into(), "must be an action object"),
        ("{\"cmd\": \"apply\", \"action\": {\"type\": 3}}".into(), "malformed action"),
        ("{\"cmd\": \"apply\", \"action\": {\"type\": \"move\", \"unit\": \"red-runner\"}}".into(), "missing field `to`"),
        ("{\"cmd\": \"apply\", \"action\": {\"type\": \"move\", \"unit\": \"red-runner\", \"to\": \"0909\"}}".into(), "`0909` is off the map"),
        ("{\"cmd\": \"apply\", \"action\": {\"type\": \"move\", \"unit\": \"nobody\", \"to\": \"0201\"}}".into(), "no unit `nobody`"),
        ("{\"cmd\": \"apply\", \"action\": {\"type\": \"move\", \"unit\": 9, \"to\": \"0201\"}}".into(), "no unit number 9"),
        ("{\"cmd\": \"force_rolls\", \"rolls\": \"six\"}".into(), "positive integers"),
        (oversized, "over 8388608 bytes"),
    ];
    for (line, says) in &cases {
        let m = c.refused_line(line, "request");
        assert!(m.contains(says), "{:.80}: {m}", line);
        assert_eq!(c.n(), 0, "{line:.80} changed the game");
    }
    c.ok(&json!({"cmd": "apply", "action": {"type": "draw"}}));
    assert_eq!(c.n(), 1);
}

#[test]
fn ai_refuses_unknown_keys_and_wrong_types_naming_the_key() {
    let mut c = Client::loaded();
    for (request, key) in [
        (json!({"cmd": "ai", "budget": 5}), "budget"),
        (json!({"cmd": "ai", "level": "grandmaster"}), "level"),
        (json!({"cmd": "ai", "level": 2}), "level"),
        (json!({"cmd": "ai", "millis": "fast"}), "millis"),
        (json!({"cmd": "ai", "millis": -1}), "millis"),
        (json!({"cmd": "ai", "seed": 1.5}), "seed"),
        (json!({"cmd": "ai", "simulations": 0}), "simulations"),
        (
            json!({"cmd": "ai", "simulations": 1_000_001}),
            "simulations",
        ),
    ] {
        let m = c.refused(&request, "request");
        assert!(m.contains(key), "{request}: {m}");
    }
    let v = c.ok(&json!({"cmd": "ai", "level": "easy", "millis": 20, "seed": 3, "id": 1}));
    assert!(v["stats"]["candidates"].is_array(), "{v}");
    assert_eq!(v["plan"][0], v["action"]);
}

#[test]
fn every_command_refuses_a_key_it_does_not_know_naming_the_key_and_the_command() {
    let mut c = Client::loaded();
    let before = c.ok(&json!({"cmd": "save"}));
    for (request, key, cmd) in [
        (json!({"cmd": "legal", "side": "red"}), "side", "legal"),
        (json!({"cmd": "state", "verbose": true}), "verbose", "state"),
        (
            json!({"cmd": "view", "side": "red", "hidden": 1}),
            "hidden",
            "view",
        ),
        (
            json!({"cmd": "apply", "action": {"type": "end_turn"}, "force": true}),
            "force",
            "apply",
        ),
        (
            json!({"cmd": "reachable", "unit": "r-1", "to": "0101"}),
            "to",
            "reachable",
        ),
        (json!({"cmd": "log", "until": 3}), "until", "log"),
        (json!({"cmd": "undo", "steps": 2}), "steps", "undo"),
        (json!({"cmd": "ai", "milis": 20}), "milis", "ai"),
        (
            json!({"cmd": "ai", "difficulty": "hard"}),
            "difficulty",
            "ai",
        ),
        (
            json!({"cmd": "load", "scenario_toml": RACE_TOML, "sead": 3}),
            "sead",
            "load",
        ),
    ] {
        let message = c.refused(&request, "request");
        assert!(
            message.contains(&format!("\"{key}\"")) && message.contains(cmd),
            "{request} -> {message}"
        );
    }
    // Nothing refused changed the game.
    assert_eq!(c.ok(&json!({"cmd": "save"})), before);
}

#[test]
fn a_value_of_the_wrong_type_is_refused_naming_the_key_and_what_it_expects() {
    let mut c = Client::loaded();
    for (request, key, expects) in [
        (
            json!({"cmd": "apply", "action": "end_turn"}),
            "action",
            "action object",
        ),
        (
            json!({"cmd": "explain", "action": 3}),
            "action",
            "action object",
        ),
        (json!({"cmd": "view", "side": 1}), "side", "string"),
        (json!({"cmd": "reachable", "unit": 4}), "unit", "string"),
        (
            json!({"cmd": "load", "scenario": ["a"]}),
            "scenario",
            "string",
        ),
        (
            json!({"cmd": "load", "game": "saved"}),
            "game",
            "saved game",
        ),
        (json!({"cmd": "ai", "level": 42}), "level", "string"),
        (json!({"cmd": "ai", "millis": "fast"}), "millis", "integer"),
        (
            json!({"cmd": "load", "scenario_toml": RACE_TOML, "seed": -1}),
            "seed",
            "integer",
        ),
    ] {
        let message = c.refused(&request, "request");
        assert!(
            message.contains(&format!("\"{key}\"")) && message.contains(expects),
            "{request} -> {message}"
        );
    }
}
