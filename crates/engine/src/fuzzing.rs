//! The bodies of the fuzz targets in `fuzz/`, kept here so that `cargo test` runs
//! them over a small seed corpus without cargo-fuzz or a nightly compiler.
//!
//! Each takes a [`Registry`] so that the engine's tests can run them with a test
//! ruleset and the fuzz targets with the real ones. They panic exactly when they find
//! a bug: that is how a fuzzer notices.
//!
//! ```
//! use grognard_engine::{fuzzing, Registry};
//! // Not TOML: the scenario reader answers with located problems, never a panic.
//! fuzzing::scenario_parser(&Registry::new(), b"[scenario\nid = ");
//! ```

use crate::dynamic::{AnyGame, Registry};
use crate::game::SavedGame;
use crate::protocol::Session;
use crate::ruleset::Seat;
use serde_json::Value;

/// Arbitrary bytes as a scenario file (`fuzz.toml`), read and validated by `registry`.
///
/// Never panics. A refused file has at least one problem, each located at a line and
/// column from 1. A valid file starts a game, whose save travels through JSON text and
/// loads back to the same state.
///
/// # Panics
/// When any of that does not hold: a bug.
pub fn scenario_parser(registry: &Registry, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match registry.load_scenario("fuzz.toml", &text) {
        Err(problems) => {
            assert!(
                !problems.is_empty(),
                "a refused scenario names its problems"
            );
            for p in problems.iter() {
                assert!(p.line >= 1 && p.column >= 1, "unlocated problem: {p}");
                assert_eq!(p.file, "fuzz.toml", "{p}");
                assert!(!p.message.is_empty(), "{p}");
            }
        }
        Ok(scenario) => {
            let game = registry
                .new_game(scenario, None)
                .expect("a validated scenario starts a game");
            let _ = game.legal();
            let _ = game.view(&Seat::Spectator);
            let _ = game.view(&Seat::Omniscient);
            round_trip(registry, game.as_ref());
        }
    }
}

/// What [`protocol_lines`] did, for the tests that feed it a corpus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinesRun {
    /// Requests handled (the load included).
    pub requests: usize,
    /// Actions applied.
    pub applied: usize,
    /// Requests answered `ok: false`.
    pub refused: usize,
}

/// [`protocol_lines`] after one of several `loads`: the input's first byte picks it
/// (modulo their number; the seed files start with a digit, `0` for the first), the rest
/// are the lines. So one fuzz target plays every ruleset a registry holds.
///
/// # Panics
/// When `loads` is empty, or as [`protocol_lines`] does.
pub fn protocol_lines_after_one_of(registry: &Registry, loads: &[String], data: &[u8]) -> LinesRun {
    let (pick, rest) = data.split_first().map_or((0, data), |(b, r)| (*b, r));
    let load = &loads[usize::from(pick) % loads.len()];
    protocol_lines(registry, load, rest)
}

/// Arbitrary bytes as engine-protocol lines, fed to a [`Session`] over `registry` after
/// the request `load` (which must succeed).
///
/// The bytes are split into lines as `grognard engine` splits its input (a line that is
/// not UTF-8 goes to [`Session::handle_bytes`], which must refuse it). A line `#N`
/// (digits) is not sent as it is: it applies the N-th legal action (modulo their
/// number), so that a fuzzer can play deep into a game. `load` requests naming a file
/// path are skipped: a fuzzer must not read the disk.
///
/// Never panics, and:
/// - every response is one line of JSON: an object with a boolean `ok`, an `error` with
///   a `rule` and a `message` when not ok, and the request's `id` echoed;
/// - an action is in `legal` exactly when `apply` takes it (and `explain` agrees), but
///   for the refusal of a forced roll that is no face of its die (`ENGINE-DICE`);
/// - at the end, the game's save travels through JSON text and replays to the same state.
///
/// # Panics
/// When any of that does not hold: a bug.
pub fn protocol_lines(registry: &Registry, load: &str, data: &[u8]) -> LinesRun {
    let mut session = Session::new(registry.clone());
    let mut run = LinesRun::default();
    let first = session.handle(load);
    run.requests += 1;
    let answer = check_response(load, &first.line);
    assert_eq!(answer["ok"], true, "the load failed: {}", first.line);

    for raw in data.split(|&b| b == b'\n') {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let Ok(line) = std::str::from_utf8(raw) else {
            // A line that is not UTF-8 is answered with an error and changes nothing.
            let len = session.game().map(AnyGame::len);
            let response = session.handle_bytes(raw);
            run.requests += 1;
            run.refused += 1;
            let answer = check_response("", &response.line);
            assert_eq!(answer["ok"], false, "{}", response.line);
            assert!(!response.quit);
            assert_eq!(session.game().map(AnyGame::len), len);
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        // For a `#N` line, the legal list the action was picked from.
        let mut picked_from = None;
        let request = if let Some(n) = line.strip_prefix('#').and_then(|n| n.parse::<usize>().ok())
        {
            let Some(game) = session.game() else { continue };
            let legal = game.legal();
            if legal.is_empty() {
                continue;
            }
            let request = serde_json::json!({"cmd": "apply", "action": legal[n % legal.len()]});
            picked_from = Some(legal);
            request.to_string()
        } else {
            line.to_owned()
        };
        let mut parsed: Option<Value> = serde_json::from_str(&request).ok();
        let cmd = parsed
            .as_ref()
            .and_then(|v| v.get("cmd"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let cmd = cmd.as_deref();
        if cmd == Some("load") && parsed.as_ref().is_some_and(|v| v.get("scenario").is_some()) {
            continue;
        }
        // The computer's search is bounded by time, not by its input: keep it short.
        let request = match (cmd, parsed.as_mut()) {
            (Some("ai"), Some(Value::Object(req))) => {
                req.insert("millis".into(), Value::from(5));
                Value::Object(req.clone()).to_string()
            }
            _ => request,
        };
        // What the game says of the action before it is applied.
        let picked = picked_from.is_some();
        let before = match (
            cmd,
            parsed.as_ref().and_then(|v| v.get("action")),
            session.game(),
        ) {
            (Some("apply"), Some(action), Some(game)) => Some((
                action.clone(),
                picked_from.unwrap_or_else(|| game.legal()),
                game.explain(action).ok(),
                game.len(),
            )),
            _ => None,
        };
        let response = session.handle(&request);
        run.requests += 1;
        let answer = check_response(&request, &response.line);
        let ok = answer["ok"] == true;
        if !ok {
            run.refused += 1;
        }
        assert_eq!(
            response.quit,
            cmd == Some("quit") && parsed.as_ref().is_some_and(Value::is_object)
        );
        if let Some((action, legal, explained, n)) = before {
            let game = session.game().expect("still loaded");
            let listed = legal.contains(&action);
            let rule = answer["error"]["rule"].as_str().unwrap_or("");
            if ok {
                run.applied += 1;
                assert_eq!(game.len(), n + 1, "apply adds one action to the log");
                // A picked action is listed by construction; another is checked in the
                // form the game logged it (the log is long: only then).
                if !picked {
                    let logged = &game.log(&Seat::Omniscient)[n]["action"];
                    assert!(
                        legal.contains(logged),
                        "applied {logged}, which `legal` did not list: {legal:?}"
                    );
                }
                assert!(
                    explained.is_some_and(|e| e.legal),
                    "applied {action}, which `explain` called illegal"
                );
            } else if rule == "ENGINE-DICE" {
                assert!(
                    !game.save().pending_forced.is_empty() || listed,
                    "ENGINE-DICE with no forced roll"
                );
            } else {
                assert!(
                    !listed,
                    "`legal` lists {action} but apply refused it: {}",
                    response.line
                );
                assert_eq!(game.len(), n, "a refused action changes nothing");
                if rule != "request" {
                    assert!(
                        explained.is_some_and(|e| !e.legal),
                        "apply refused {action} ({rule}), which `explain` called legal"
                    );
                }
            }
        }
        if response.quit {
            break;
        }
    }
    if let Some(game) = session.game() {
        round_trip(registry, game);
    }
    run
}

/// What [`saved_games`] did with one input, for the tests that feed it a corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveRun {
    /// Not JSON at all: refused before it reached a save.
    NotJson,
    /// Refused: not a save, or a save that does not load.
    Refused,
    /// Loaded, with this many actions replayed.
    Loaded(usize),
}

/// Arbitrary bytes as a saved game, loaded as `grognard engine` loads one (a `load`
/// request with `"game"`, through [`Session`]) and as the server resumes a stored game
/// ([`Registry::load_game`]). The first byte picks the ruleset among `rulesets` (modulo
/// their number; the seed files start with a digit, `0` for the first): the save's
/// `ruleset` is set to it, so that no mutation is spent on the name. The rest is the
/// save's JSON.
///
/// Never panics, and:
/// - a refused save is answered with one line of JSON whose error has a `rule` and a
///   message naming what is wrong, and the server's path refuses it too;
/// - an accepted save plays on (its legal actions, views and up to three actions apply
///   as `legal` lists them), and its state saves again, through JSON text, and loads
///   back to the same state.
///
/// # Panics
/// When `rulesets` is empty, or any of that does not hold: a bug.
pub fn saved_games(registry: &Registry, rulesets: &[&str], data: &[u8]) -> SaveRun {
    let (pick, rest) = data.split_first().map_or((0, data), |(b, r)| (*b, r));
    let ruleset = rulesets[usize::from(pick) % rulesets.len()];
    let Ok(mut save) = serde_json::from_slice::<Value>(rest) else {
        return SaveRun::NotJson;
    };
    if let Value::Object(fields) = &mut save {
        fields.insert("ruleset".into(), Value::from(ruleset));
    }
    // The server's path: a stored game becomes a `SavedGame` and the registry loads it.
    let server = serde_json::from_value::<SavedGame>(save.clone())
        .ok()
        .map(|saved| registry.load_game(&saved).map(|g| g.save()));
    let request = serde_json::json!({"cmd": "load", "id": 1, "game": save}).to_string();
    let mut session = Session::new(registry.clone());
    let response = session.handle(&request);
    let answer = check_response(&request, &response.line);
    if answer["ok"] != true {
        let message = answer["error"]["message"].as_str().unwrap_or("");
        assert!(
            message.len() > 8,
            "a refused save says what is wrong: {}",
            response.line
        );
        assert!(
            server.as_ref().is_none_or(Result::is_err),
            "the server loads a save the engine refuses: {}",
            response.line
        );
        return SaveRun::Refused;
    }
    let mut game = session
        .game()
        .expect("a loaded save is the session's game")
        .boxed_clone();
    match &server {
        Some(Ok(saved)) => assert_eq!(
            saved,
            &game.save(),
            "the server and the engine load the save alike"
        ),
        _ => panic!("the engine loads a save the server refuses: {request}"),
    }
    let replayed = game.len();
    round_trip(registry, game.as_ref());
    let _ = game.view(&Seat::Spectator);
    let _ = game.view(&Seat::Omniscient);
    for _ in 0..3 {
        let Some(action) = game.legal().into_iter().next() else {
            break;
        };
        if let Err(e) = game.apply(&action) {
            // Only a forced value the die cannot show may refuse a listed action.
            assert_eq!(
                e.rule(),
                "ENGINE-DICE",
                "`legal` lists {action}, refused: {e}"
            );
            break;
        }
    }
    round_trip(registry, game.as_ref());
    SaveRun::Loaded(replayed)
}

/// Checks one response line; returns it parsed.
fn check_response(request: &str, line: &str) -> Value {
    assert!(!line.contains('\n'), "a response is one line: {line}");
    let answer: Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("response is not JSON ({e}): {line}"));
    let object = answer
        .as_object()
        .unwrap_or_else(|| panic!("response is not an object: {line}"));
    let ok = object
        .get("ok")
        .and_then(Value::as_bool)
        .unwrap_or_else(|| panic!("response has no boolean `ok`: {line}"));
    if !ok {
        let error = &answer["error"];
        assert!(error["rule"].is_string(), "error without a rule: {line}");
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "error without a message: {line}"
        );
    }
    if let Ok(Value::Object(req)) = serde_json::from_str::<Value>(request) {
        assert_eq!(
            req.get("id"),
            object.get("id"),
            "the id is echoed: {request} -> {line}"
        );
    }
    answer
}

/// The game's save, through JSON text and back, replays to the same state.
fn round_trip(registry: &Registry, game: &dyn AnyGame) {
    let text = serde_json::to_string(&game.save()).expect("a save is JSON");
    let saved: SavedGame = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("a save does not read back ({e}): {text}"));
    let again = registry
        .load_game(&saved)
        .unwrap_or_else(|e| panic!("a save does not load back ({e}): {text}"));
    assert_eq!(
        again.state(),
        game.state(),
        "replaying the save gives another state"
    );
    assert_eq!(again.len(), game.len());
}
