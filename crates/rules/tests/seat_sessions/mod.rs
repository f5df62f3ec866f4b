//! Seat sessions of the engine protocol over every built-in scenario (issue 19, item 1):
//! random games played through the referee's session and one session per seat at once
//! (each side's and the spectator's), the same seed and the same actions relayed into
//! each. At every step each seat session must show what the referee shows that seat, and
//! nothing a seat may not know: the other side's cards, the deck's order, the rolls that
//! drew them, the reasons of another side's refused action.

use grognard_engine::protocol::Session;
use grognard_rules::battle_cry::cards::DRAW_ROLL;
use grognard_rules::builtin::SCENARIOS;
use serde_json::{json, Value};

/// Actions played in each game at most: random games of the built-in scenarios run for
/// hundreds of actions, and the checks cost a few views a step.
const STEPS: usize = 160;

/// Games of each scenario, with these seeds.
const SEEDS: [u64; 2] = [11, 29];

/// Every how many steps a stale action (one played before) is relayed, to see how the
/// seats are told of its refusal.
const STALE_EVERY: usize = 5;

fn ask(s: &mut Session, request: &Value) -> Value {
    let r = s.handle(&request.to_string());
    serde_json::from_str(&r.line).unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.line))
}

fn ok(s: &mut Session, request: &Value) -> Value {
    let v = ask(s, request);
    assert_eq!(v["ok"], true, "{request} -> {v}");
    v
}

/// A small generator for the test's own choices (SplitMix64).
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        usize::try_from(z % n as u64).unwrap_or(0)
    }
}

/// One seat's session and what it was answered.
struct SeatSession {
    /// The side's id, or `None` for the spectator.
    side: Option<String>,
    session: Session,
    /// The events of each of its `apply` answers.
    events: Vec<Value>,
}

impl SeatSession {
    /// The referee's request naming this seat.
    fn named(&self, cmd: &str) -> Value {
        match &self.side {
            Some(s) => json!({"cmd": cmd, "side": s}),
            None => json!({"cmd": cmd, "seat": "spectator"}),
        }
    }

    fn decides(&self, status: &Value) -> bool {
        self.side.is_some() && status["to_act"]["side"].as_str() == self.side.as_deref()
    }
}

/// Fails when `answer`, given to `seat`, holds what the seat may not know: a card another
/// side drew, a roll that drew a card, the deck's order, the cards of a hand not its own.
fn assert_nothing_hidden(answer: &Value, seat: Option<&str>, context: &str) {
    match answer {
        Value::Object(fields) => {
            match fields.get("type").and_then(Value::as_str) {
                Some("drew") => {
                    let side = fields.get("side").and_then(Value::as_str);
                    if side != seat {
                        assert!(
                            fields.get("card").is_none_or(Value::is_null),
                            "{context}: another side's card shown to {seat:?}: {answer}"
                        );
                    }
                }
                Some("roll") => assert!(
                    fields.get("purpose").and_then(Value::as_str) != Some(DRAW_ROLL),
                    "{context}: the roll that drew a card shown to {seat:?}: {answer}"
                ),
                _ => {}
            }
            assert!(
                !fields.contains_key("deck_cards"),
                "{context}: the deck's order shown to {seat:?}"
            );
            if let Some(Value::Object(hands)) = fields.get("hands") {
                for (side, hand) in hands {
                    if Some(side.as_str()) != seat {
                        assert!(
                            hand.get("cards").is_none(),
                            "{context}: {side}'s hand shown to {seat:?}: {hand}"
                        );
                    }
                }
            }
            for v in fields.values() {
                assert_nothing_hidden(v, seat, context);
            }
        }
        Value::Array(items) => {
            for v in items {
                assert_nothing_hidden(v, seat, context);
            }
        }
        _ => {}
    }
}

/// Relays an action played before, and refused now, into every session: the seat whose
/// decision it is hears the referee's refusal, the others only that it was refused.
/// Returns whether it was relayed.
fn relay_stale(referee: &mut Session, seats: &mut [SeatSession], action: &Value) -> bool {
    let explained = ask(referee, &json!({"cmd": "explain", "action": action}));
    if explained["ok"] != true || explained["legal"] != false {
        return false;
    }
    let whole = ask(referee, &json!({"cmd": "apply", "action": action}));
    assert_eq!(whole["ok"], false, "{action} -> {whole}");
    let status = ok(referee, &json!({"cmd": "legal"}));
    for seat in seats.iter_mut() {
        let answer = ask(
            &mut seat.session,
            &json!({"cmd": "apply", "action": action}),
        );
        if seat.decides(&status) {
            assert_eq!(answer, whole, "{:?}, its own refusal", seat.side);
        } else {
            assert_eq!(answer["ok"], false, "{answer}");
            assert_eq!(
                answer["error"]["rule"], "hidden",
                "{:?}: {answer}",
                seat.side
            );
            assert!(answer["error"].get("reasons").is_none(), "{answer}");
        }
    }
    true
}

/// Plays one random game through the referee and every seat; returns the states checked
/// (each seat's, at each step), the actions played and the stale actions relayed.
fn play(path: &str, text: &str, seed: u64) -> (usize, usize, usize) {
    let load = json!({"cmd": "load", "scenario_toml": text, "seed": seed});
    let registry = grognard_rules::registry();
    let mut referee = Session::new(registry.clone());
    let sides: Vec<String> = ok(&mut referee, &load)["sides"]
        .as_array()
        .expect("sides")
        .iter()
        .filter_map(|s| s.as_str().map(str::to_owned))
        .collect();
    let mut seats: Vec<SeatSession> = sides
        .iter()
        .map(|s| Some(s.clone()))
        .chain([None])
        .map(|side| {
            let mut seat = SeatSession {
                side,
                session: Session::new(registry.clone()),
                events: Vec::new(),
            };
            ok(&mut seat.session, &load);
            let request = seat.named("seat");
            let took = ok(&mut seat.session, &request);
            assert_eq!(took["n"], 0);
            seat
        })
        .collect();
    let mut pick = Pick(seed);
    let mut played: Vec<Value> = Vec::new();
    let (mut checked, mut stale) = (0, 0);
    for step in 0..STEPS {
        let context = format!("{path}, seed {seed}, step {step}");
        let legal = ok(&mut referee, &json!({"cmd": "legal"}));
        for seat in &mut seats {
            let theirs = ok(&mut seat.session, &json!({"cmd": "legal"}));
            for key in ["n", "to_act", "outcome"] {
                assert_eq!(
                    theirs[key], legal[key],
                    "{context}: {key} of {:?}",
                    seat.side
                );
            }
            let expected = if seat.decides(&legal) {
                legal["actions"].clone()
            } else {
                json!([])
            };
            assert_eq!(theirs["actions"], expected, "{context}: {:?}", seat.side);
            let view = ok(&mut seat.session, &json!({"cmd": "view"}));
            let shown = ok(&mut referee, &seat.named("view"));
            assert_eq!(
                view["view"], shown["view"],
                "{context}: view of {:?}",
                seat.side
            );
            assert_nothing_hidden(&view, seat.side.as_deref(), &context);
            assert_nothing_hidden(&theirs, seat.side.as_deref(), &context);
            checked += 1;
        }
        let actions = legal["actions"].as_array().cloned().unwrap_or_default();
        if actions.is_empty() {
            break;
        }
        if step % STALE_EVERY == STALE_EVERY - 1 && !played.is_empty() {
            let old = played[pick.below(played.len())].clone();
            stale += usize::from(relay_stale(&mut referee, &mut seats, &old));
        }
        let action = actions[pick.below(actions.len())].clone();
        let whole = ok(&mut referee, &json!({"cmd": "apply", "action": action}));
        for seat in &mut seats {
            let answer = ok(
                &mut seat.session,
                &json!({"cmd": "apply", "action": action}),
            );
            for key in ["n", "to_act", "outcome"] {
                assert_eq!(
                    answer[key], whole[key],
                    "{context}: {key} of {:?}",
                    seat.side
                );
            }
            assert_nothing_hidden(&answer, seat.side.as_deref(), &context);
            seat.events.push(answer["events"].clone());
        }
        played.push(action);
    }
    for seat in &mut seats {
        let log = ok(&mut referee, &seat.named("log"))["log"].clone();
        let entries = log.as_array().expect("a log");
        assert_eq!(entries.len(), seat.events.len(), "{path}: {:?}", seat.side);
        for (n, (entry, events)) in entries.iter().zip(&seat.events).enumerate() {
            assert_eq!(
                &entry["events"],
                events,
                "{path}, seed {seed}: action {} as {:?} sees it",
                n + 1,
                seat.side
            );
        }
        let own = ok(&mut seat.session, &json!({"cmd": "log"}));
        assert_eq!(own["log"], log, "{path}: log of {:?}", seat.side);
        assert_nothing_hidden(&own, seat.side.as_deref(), path);
    }
    (checked, played.len(), stale)
}

#[test]
fn seat_sessions_of_every_builtin_scenario_show_each_seat_what_the_referee_shows_it() {
    let on_disk = scenario_files();
    let mut built_in: Vec<&str> = SCENARIOS.iter().map(|b| b.path).collect();
    built_in.sort_unstable();
    assert_eq!(
        on_disk, built_in,
        "every scenario under scenarios/ is built in"
    );
    let (mut checked, mut steps, mut stale) = (0, 0, 0);
    for b in SCENARIOS {
        for seed in SEEDS {
            let (c, n, s) = play(b.path, b.text, seed);
            checked += c;
            steps += n;
            stale += s;
        }
    }
    println!(
        "seat sessions: {steps} actions played, {checked} seat states checked, {stale} stale actions relayed"
    );
    assert!(checked > 1000, "{checked} states");
    assert!(stale > 10, "{stale} stale actions");
}

/// The scenario files under `scenarios/`, as repository paths, sorted.
fn scenario_files() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut found = Vec::new();
    for folder in std::fs::read_dir(&root).expect("scenarios/").flatten() {
        for file in std::fs::read_dir(folder.path())
            .expect("a folder")
            .flatten()
        {
            if file.path().extension().is_some_and(|e| e == "toml") {
                found.push(format!(
                    "scenarios/{}/{}",
                    folder.file_name().to_string_lossy(),
                    file.file_name().to_string_lossy()
                ));
            }
        }
    }
    found.sort();
    found
}
