//! The engine protocol: JSON lines in, JSON lines out (see `docs/ENGINE-PROTOCOL.md`).
//!
//! One request a line, one response a line. A request is an object with a `"cmd"`;
//! an optional `"id"` is echoed back. Every response is `{"ok": true, ...}` or
//! `{"ok": false, "error": {"rule": ..., "message": ...}}`; a malformed line gets an
//! error answer and the session carries on.

use crate::computer::{AiAnswer, AiRequest, AiStats, Computer, Level};
use crate::dice_stream::Generator;
use crate::dynamic::{AnyGame, EngineError, Registry};
use crate::game::SavedGame;
use crate::ruleset::Seat;
use crate::wire::Names;
use serde_json::{json, Map, Value};
use std::sync::Arc;

mod lines;
mod resign;
mod seat;

pub use lines::{Line, LineReader};

/// The longest request line accepted, in bytes.
pub const MAX_LINE: usize = 8 * 1024 * 1024;

/// One protocol session: at most one loaded game.
pub struct Session {
    registry: Registry,
    game: Option<Box<dyn AnyGame>>,
    computer: Option<Arc<dyn Computer>>,
    pending: Option<Pending>,
    /// The seat this session took for good (`seat`); `None` for the referee's.
    seat: Option<Seat>,
}

/// The rest of the plan the computer began: the next `ai` request for the same position
/// plays its next step instead of searching again (a unit's move goes the whole way).
struct Pending {
    /// The game's length once the step before was applied, and the side that planned.
    at: usize,
    side: String,
    /// The request that made the plan.
    request: AiRequest,
    /// The steps still to play.
    steps: Vec<Value>,
    /// What the search saw when it made the plan.
    stats: AiStats,
}

/// A response, and whether the session should end after writing it.
pub struct Response {
    /// The JSON line to write (no trailing newline).
    pub line: String,
    /// True after `quit`.
    pub quit: bool,
}

struct Failure {
    rule: String,
    message: String,
    extra: Map<String, Value>,
}

impl Failure {
    fn request(message: impl Into<String>) -> Failure {
        Failure {
            rule: "request".into(),
            message: message.into(),
            extra: Map::new(),
        }
    }
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Failure {
        let mut extra = Map::new();
        match &e {
            EngineError::Refused(r) => {
                extra.insert("reasons".into(), json!(r.reasons));
            }
            EngineError::Scenario(p) => {
                extra.insert(
                    "problems".into(),
                    Value::Array(p.0.iter().map(|p| json!(p.to_string())).collect()),
                );
            }
            EngineError::Game(crate::game::GameError::Save(p)) => {
                extra.insert(
                    "problems".into(),
                    Value::Array(p.0.iter().map(|p| json!(p.to_string())).collect()),
                );
            }
            _ => {}
        }
        Failure {
            rule: e.rule(),
            message: e.to_string(),
            extra,
        }
    }
}

type Answer = Result<Map<String, Value>, Failure>;

/// The response line to a request with `id` (if any).
fn answer_line(id: Option<Value>, answer: Answer) -> String {
    let mut out = Map::new();
    if let Some(id) = id {
        out.insert("id".into(), id);
    }
    match answer {
        Ok(fields) => {
            out.insert("ok".into(), Value::Bool(true));
            out.extend(fields);
        }
        Err(f) => {
            out.insert("ok".into(), Value::Bool(false));
            let mut err = Map::new();
            err.insert("rule".into(), Value::String(f.rule));
            err.insert("message".into(), Value::String(f.message));
            err.extend(f.extra);
            out.insert("error".into(), Value::Object(err));
        }
    }
    Value::Object(out).to_string()
}

impl Session {
    /// A session over the rulesets of `registry`.
    #[must_use]
    pub fn new(registry: Registry) -> Session {
        Session {
            registry,
            game: None,
            computer: None,
            pending: None,
            seat: None,
        }
    }

    /// A session whose `ai` command asks `computer` (without one, `ai` answers with
    /// the engine's greedy one-ply choice at every level).
    #[must_use]
    pub fn with_computer(registry: Registry, computer: Arc<dyn Computer>) -> Session {
        Session {
            computer: Some(computer),
            ..Session::new(registry)
        }
    }

    /// The loaded game, if any.
    #[must_use]
    pub fn game(&self) -> Option<&dyn AnyGame> {
        self.game.as_deref()
    }

    /// The seat the session took (`seat`), or `None` for the referee's session.
    #[must_use]
    pub fn seat(&self) -> Option<&Seat> {
        self.seat.as_ref()
    }

    /// Handles one request line as read, which may not be UTF-8: such a line is
    /// answered with an error (with the request's `id` when the rest of it reads as a
    /// JSON object) and the session carries on.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Response {
        match std::str::from_utf8(line) {
            Ok(text) => self.handle(text),
            Err(e) => {
                let lossy = String::from_utf8_lossy(line);
                let id = match serde_json::from_str::<Value>(&lossy) {
                    Ok(Value::Object(req)) => req.get("id").cloned(),
                    _ => None,
                };
                let failure = Failure::request(format!(
                    "the request line is not UTF-8: byte {} of {} is not part of a character",
                    e.valid_up_to() + 1,
                    line.len()
                ));
                Response {
                    line: answer_line(id, Err(failure)),
                    quit: false,
                }
            }
        }
    }

    /// The answer to a line over [`MAX_LINE`] bytes, which was dropped unread: one error,
    /// without an `id` (the line was not kept).
    #[must_use]
    pub fn too_long(&self, bytes: u64) -> Response {
        Response {
            line: answer_line(
                None,
                Err(Failure::request(format!(
                    "request line of {bytes} bytes is over {MAX_LINE} bytes: skipped"
                ))),
            ),
            quit: false,
        }
    }

    /// Handles one request line.
    pub fn handle(&mut self, line: &str) -> Response {
        let mut quit = false;
        let (id, answer) = if line.len() > MAX_LINE {
            (
                None,
                Err(Failure::request(format!(
                    "request line over {MAX_LINE} bytes"
                ))),
            )
        } else {
            match serde_json::from_str::<Value>(line) {
                Err(e) => (None, Err(Failure::request(format!("malformed JSON: {e}")))),
                Ok(Value::Object(req)) => {
                    let id = req.get("id").cloned();
                    let cmd = req.get("cmd").and_then(Value::as_str).unwrap_or("");
                    quit = cmd == "quit";
                    (id, self.dispatch(cmd, &req))
                }
                Ok(_) => (
                    None,
                    Err(Failure::request(
                        "a request is a JSON object with a \"cmd\"",
                    )),
                ),
            }
        };
        Response {
            line: answer_line(id, answer),
            quit,
        }
    }

    fn game_ref(&self) -> Result<&dyn AnyGame, Failure> {
        self.game.as_deref().ok_or_else(|| {
            Failure::request("no game loaded: send {\"cmd\":\"load\",\"scenario\":PATH} first")
        })
    }

    fn game_mut(&mut self) -> Result<&mut Box<dyn AnyGame>, Failure> {
        self.game.as_mut().ok_or_else(|| {
            Failure::request("no game loaded: send {\"cmd\":\"load\",\"scenario\":PATH} first")
        })
    }

    fn status(game: &dyn AnyGame, out: &mut Map<String, Value>) {
        out.insert("n".into(), json!(game.len()));
        out.insert("to_act".into(), json!(game.to_act()));
        out.insert("outcome".into(), json!(game.outcome()));
    }

    fn dispatch(&mut self, cmd: &str, req: &Map<String, Value>) -> Answer {
        check_keys(cmd, req)?;
        if let Some(s) = &self.seat {
            seat::check(self.game.as_deref(), s, cmd, req)?;
        }
        let mut out = Map::new();
        match cmd {
            "load" => {
                let game = self.load(req)?;
                out.insert("ruleset".into(), json!(game.ruleset()));
                out.insert("scenario".into(), json!(game.scenario().id));
                out.insert("title".into(), json!(game.scenario().title));
                out.insert("seed".into(), json!(game.seed()));
                out.insert("generator".into(), json!(game.generator().name()));
                out.insert(
                    "sides".into(),
                    json!(game.scenario().sides.iter().map(|s| s.id.clone()).collect::<Vec<_>>()),
                );
                Self::status(game.as_ref(), &mut out);
                self.game = Some(game);
                self.pending = None;
            }
            "seat" => {
                let g = self.game_ref()?;
                let taken = seat::bind(g, req)?;
                match &taken {
                    Seat::Side(id) => out.insert("side".into(), json!(id)),
                    _ => out.insert("seat".into(), json!("spectator")),
                };
                Self::status(g, &mut out);
                self.seat = Some(taken);
                self.pending = None;
            }
            "legal" => {
                let g = self.game_ref()?;
                // A seat not to act is offered nothing (its legal list would be the
                // other side's, which may name its hidden cards).
                let actions = match &self.seat {
                    Some(s) if seat::decides(g, s) != Some(true) => Vec::new(),
                    _ => g.legal(),
                };
                out.insert("actions".into(), Value::Array(actions));
                Self::status(g, &mut out);
            }
            "apply" => {
                let action = field(req, "action")?;
                let viewer = self.seat.clone();
                let g = self.game_mut()?;
                let decided = viewer.as_ref().and_then(|s| seat::decides(g.as_ref(), s));
                let events = match (g.apply(action), &viewer) {
                    (Ok(events), None) => events,
                    (Ok(_), Some(s)) => seat::last_events(g.as_ref(), s),
                    (Err(e), None) => return Err(e.into()),
                    (Err(e), Some(s)) => return Err(seat::refusal(g.as_ref(), s, decided, e)),
                };
                out.insert("events".into(), Value::Array(events));
                Self::status(g.as_ref(), &mut out);
            }
            "state" => {
                let g = self.game_ref()?;
                out.insert("state".into(), g.state());
                Self::status(g, &mut out);
            }
            "view" => {
                let g = self.game_ref()?;
                let seat = match &self.seat {
                    Some(s) => seat::shown(req, s)?,
                    None => seat_of(g, req)?,
                };
                out.insert("view".into(), g.view(&seat));
                Self::status(g, &mut out);
            }
            "explain" => {
                let g = self.game_ref()?;
                let e = g.explain(field(req, "action")?)?;
                out.insert("legal".into(), json!(e.legal));
                out.insert("reasons".into(), json!(e.reasons));
            }
            "preview" => {
                let g = self.game_ref()?;
                let p = g.preview(field(req, "action")?)?;
                out.insert("preview".into(), json!(p));
            }
            "reachable" => {
                let g = self.game_ref()?;
                let unit = field(req, "unit")?
                    .as_str()
                    .ok_or_else(|| Failure::request("\"unit\" must be a unit id string"))?;
                let reached = g.reachable(unit)?;
                // Reached hexes are written as labels, which need the map in scope;
                // `json!` alone would panic on the first hex.
                let names = Names::new(Vec::new(), g.scenario().map);
                let reached = names
                    .scope(|| serde_json::to_value(&reached))
                    .expect("labels of a scenario's map serialise");
                out.insert("unit".into(), json!(unit));
                out.insert("reachable".into(), reached);
            }
            "force_rolls" => {
                let rolls = field(req, "rolls")?
                    .as_array()
                    .and_then(|a| {
                        a.iter()
                            .map(|v| v.as_u64().and_then(|n| u32::try_from(n).ok()).filter(|&n| n > 0))
                            .collect::<Option<Vec<u32>>>()
                    })
                    .ok_or_else(|| Failure::request("\"rolls\" must be an array of positive integers"))?;
                let clear = match req.get("clear") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => *b,
                    Some(_) => return Err(Failure::request("\"clear\" must be true or false")),
                };
                let registry = self.registry.clone();
                let g = self.game_mut()?;
                if clear && !g.save().pending_forced.is_empty() {
                    // AnyGame cannot drop its queue; a replay of the log without it is the
                    // same game (replay is exact), so the queue goes that way. Without
                    // this, a value no die shows (ENGINE-DICE) would block every roll.
                    let mut saved = g.save();
                    saved.pending_forced.clear();
                    *g = registry.load_game(&saved)?;
                }
                g.force_rolls(&rolls);
                out.insert("forced".into(), json!(g.save().pending_forced));
            }
            "resign" => {
                let (side, kind) = resign::asked(self.game_ref()?, self.seat.as_ref(), req)?;
                let g = self.game_mut()?;
                g.end_from_outside(&side, kind)?;
                Self::status(g.as_ref(), &mut out);
            }
            "undo" => {
                let g = self.game_mut()?;
                g.undo()?;
                Self::status(g.as_ref(), &mut out);
            }
            "save" => {
                let g = self.game_ref()?;
                out.insert("game".into(), json!(g.save()));
            }
            "log" => {
                let g = self.game_ref()?;
                let seat = if let Some(s) = &self.seat {
                    seat::shown(req, s)?
                } else if req.contains_key("side") || req.contains_key("seat") {
                    // A side the scenario lacks is refused as in `view`, not shown the
                    // spectator's log.
                    seat_of(g, req)?
                } else {
                    Seat::Omniscient
                };
                // With `since`, only the entries after the first `since`.
                let log = match req.get("since") {
                    None => g.log(&seat),
                    Some(k) => {
                        let k = k.as_u64().and_then(|k| usize::try_from(k).ok()).ok_or_else(
                            || Failure::request("\"since\" must be a whole number of actions"),
                        )?;
                        out.insert("log_from".into(), json!(k.min(g.len())));
                        g.log_from(&seat, k)
                    }
                };
                out.insert("log".into(), Value::Array(log));
            }
            "ai" => {
                let request = ai_request(req)?;
                let answer = self.ai(&request)?;
                let g = self.game_ref()?;
                out.insert("action".into(), json!(answer.action));
                out.insert("plan".into(), json!(answer.plan));
                out.insert("stats".into(), json!(answer.stats));
                Self::status(g, &mut out);
            }
            "position" => {
                let g = self.game_ref()?;
                out.insert("toml".into(), json!(g.position()));
            }
            "rulesets" => {
                out.insert("rulesets".into(), json!(self.registry.names()));
            }
            "quit" => {}
            "" => return Err(Failure::request("a request needs a \"cmd\" (load, seat, legal, apply, state, view, explain, preview, reachable, force_rolls, undo, save, log, ai, rulesets, position, quit)")),
            other => return Err(Failure::request(format!("unknown cmd `{other}`"))),
        }
        Ok(out)
    }

    /// The computer's answer: the next step of the plan it began, when the game is
    /// where that plan left it, or a new search.
    fn ai(&mut self, request: &AiRequest) -> Result<AiAnswer, Failure> {
        let pending = self.pending.take();
        let g = self.game_ref()?;
        let Some(side) = g.to_act().map(|d| d.side) else {
            return Ok(AiAnswer::default());
        };
        if let Some(mut p) = pending {
            let next_is_legal = p
                .steps
                .first()
                .is_some_and(|a| g.explain(a).is_ok_and(|e| e.legal));
            if p.at == g.len() && p.side == side && &p.request == request && next_is_legal {
                let action = p.steps.remove(0);
                let mut plan = vec![action.clone()];
                plan.extend(p.steps.iter().cloned());
                let answer = AiAnswer {
                    action: Some(action),
                    plan,
                    stats: p.stats.clone(),
                };
                p.at += 1;
                if !p.steps.is_empty() {
                    self.pending = Some(p);
                }
                return Ok(answer);
            }
        }
        // A seat's computer searches a sample of what the seat may see, never the
        // session's whole game.
        let sample = self.seat.as_ref().map(|s| {
            let seed = request
                .seed
                .unwrap_or_else(|| g.seed() ^ (g.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            g.determinized(s, seed)
        });
        let g = sample.as_deref().unwrap_or(g);
        let answer = match &self.computer {
            Some(c) => c.choose(g, request)?,
            None => {
                let mut config = crate::ai::AiConfig::default();
                if let Some(ms) = request.millis {
                    config.budget = std::time::Duration::from_millis(ms);
                }
                if let Some(seed) = request.seed {
                    config.seed = seed;
                }
                let action = g.ai_action(config);
                AiAnswer {
                    plan: action.iter().cloned().collect(),
                    action,
                    stats: AiStats::default(),
                }
            }
        };
        if answer.plan.len() > 1 {
            self.pending = Some(Pending {
                at: g.len() + 1,
                side,
                request: request.clone(),
                steps: answer.plan[1..].to_vec(),
                stats: answer.stats.clone(),
            });
        }
        Ok(answer)
    }

    fn load(&self, req: &Map<String, Value>) -> Result<Box<dyn AnyGame>, Failure> {
        let seed = match req.get("seed") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| Failure::request("\"seed\" must be a non-negative integer"))?,
            ),
        };
        let generator = match req.get("generator") {
            None | Some(Value::Null) => Generator::SplitMix64,
            Some(g) => serde_json::from_value(g.clone()).map_err(|e| {
                Failure::request(format!(
                    "\"generator\" must be {{\"kind\": \"splitmix64\"}} or {{\"kind\": \"chacha20\", \"key\": 64 hex digits}}: {e}"
                ))
            })?,
        };
        if let Some(saved) = req.get("game") {
            if req.contains_key("generator") {
                return Err(Failure::request(
                    "a saved game names its own generator: load \"game\" without \"generator\"",
                ));
            }
            if req.contains_key("scenario") || req.contains_key("scenario_toml") {
                return Err(Failure::request(
                    "load needs exactly one of \"scenario\" (a path) or \"scenario_toml\" (the file's text), or \"game\" (a save)",
                ));
            }
            let saved: SavedGame = serde_json::from_value(saved.clone())
                .map_err(|e| Failure::request(format!("malformed saved game: {e}")))?;
            return Ok(self.registry.load_game(&saved)?);
        }
        let (file, text) = match (req.get("scenario"), req.get("scenario_toml")) {
            (Some(Value::String(path)), None) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| Failure::request(format!("cannot read scenario `{path}`: {e}")))?;
                (path.clone(), text)
            }
            (None, Some(Value::String(text))) => ("scenario_toml".to_owned(), text.clone()),
            _ => {
                return Err(Failure::request(
                    "load needs exactly one of \"scenario\" (a path) or \"scenario_toml\" (the file's text), or \"game\" (a save)",
                ))
            }
        };
        let scenario = self
            .registry
            .load_scenario(&file, &text)
            .map_err(|p| Failure::from(EngineError::Scenario(p)))?;
        Ok(self.registry.new_game_with(scenario, seed, generator)?)
    }
}

/// The keys each command takes besides `cmd` and `id` (`ai` checks its own).
const KEYS: &[(&str, &[&str])] = &[
    (
        "load",
        &["scenario", "scenario_toml", "game", "seed", "generator"],
    ),
    ("seat", &["side", "seat"]),
    ("legal", &[]),
    ("apply", &["action"]),
    ("state", &[]),
    ("view", &["side", "seat"]),
    ("explain", &["action"]),
    ("preview", &["action"]),
    ("reachable", &["unit"]),
    ("force_rolls", &["rolls", "clear"]),
    ("undo", &[]),
    ("resign", &["side", "kind"]),
    ("save", &[]),
    ("log", &["side", "seat", "since"]),
    ("rulesets", &[]),
    ("position", &[]),
    ("quit", &[]),
];

/// Refuses a key the command does not take, naming it and the command, and a value of
/// the wrong type for the keys whose type is the same everywhere.
fn check_keys(cmd: &str, req: &Map<String, Value>) -> Result<(), Failure> {
    let Some((_, keys)) = KEYS.iter().find(|(c, _)| *c == cmd) else {
        return Ok(());
    };
    for (key, value) in req {
        if key == "cmd" || key == "id" {
            continue;
        }
        if !keys.contains(&key.as_str()) {
            let expected = if keys.is_empty() {
                "it takes none".to_owned()
            } else {
                format!("it takes {}", keys.join(", "))
            };
            return Err(Failure::request(format!(
                "unknown key \"{key}\" for {cmd} ({expected})"
            )));
        }
        let wrong = |what: &str| {
            Err(Failure::request(format!(
                "\"{key}\" of {cmd} must be {what}"
            )))
        };
        match key.as_str() {
            "scenario" | "scenario_toml" | "side" | "seat" if !value.is_string() => {
                return wrong("a string");
            }
            "unit" if !value.is_string() => return wrong("a unit id string"),
            "action" if !value.is_object() => {
                return wrong("an action object with a \"type\"");
            }
            "game" if !value.is_object() => return wrong("a saved game object"),
            "generator" if !value.is_object() => {
                return wrong("a generator object: {\"kind\": \"chacha20\", \"key\": ...}");
            }
            _ => {}
        }
    }
    Ok(())
}

/// The longest time a request may give one decision.
pub const MAX_AI_MILLIS: u64 = 60_000;

/// The most simulations an `ai` request may ask for: a fixed count has no clock, so an
/// unbounded one would hold the session (and a core) for ever.
pub const MAX_AI_SIMULATIONS: u64 = 1_000_000;

/// An `ai` request's options, every key and type checked.
fn ai_request(req: &Map<String, Value>) -> Result<AiRequest, Failure> {
    let mut request = AiRequest::default();
    for (key, value) in req {
        let number = || {
            value.as_u64().ok_or_else(|| {
                Failure::request(format!("\"{key}\" must be a non-negative integer"))
            })
        };
        match key.as_str() {
            "cmd" | "id" => {}
            "level" => {
                let name = value.as_str().ok_or_else(|| {
                    Failure::request("\"level\" must be a string: easy, normal or hard")
                })?;
                request.level = name
                    .parse::<Level>()
                    .map_err(|e| Failure::request(format!("\"level\": {e}")))?;
            }
            "millis" => request.millis = Some(number()?.min(MAX_AI_MILLIS)),
            "seed" => request.seed = Some(number()?),
            "simulations" => {
                let n = number()?;
                if n == 0 || n > MAX_AI_SIMULATIONS {
                    return Err(Failure::request(format!(
                        "\"simulations\" must be from 1 to {MAX_AI_SIMULATIONS}"
                    )));
                }
                request.simulations = Some(n);
            }
            other => {
                return Err(Failure::request(format!(
                    "unknown key \"{other}\" for ai (level, millis, seed, simulations)"
                )))
            }
        }
    }
    Ok(request)
}

fn field<'a>(req: &'a Map<String, Value>, name: &str) -> Result<&'a Value, Failure> {
    req.get(name)
        .ok_or_else(|| Failure::request(format!("missing field \"{name}\"")))
}

/// The seat a request names, checked against the game's sides.
fn seat_of(game: &dyn AnyGame, req: &Map<String, Value>) -> Result<Seat, Failure> {
    let seat = seat(req)?;
    if let Seat::Side(s) = &seat {
        if !game.scenario().sides.iter().any(|x| &x.id == s) {
            return Err(Failure::request(format!("no side `{s}` in this scenario")));
        }
    }
    Ok(seat)
}

fn seat(req: &Map<String, Value>) -> Result<Seat, Failure> {
    match (req.get("side"), req.get("seat")) {
        (Some(Value::String(s)), None) => Ok(Seat::Side(s.clone())),
        (None, Some(Value::String(s))) if s == "spectator" => Ok(Seat::Spectator),
        (None, Some(Value::String(s))) if s == "omniscient" => Ok(Seat::Omniscient),
        _ => Err(Failure::request(
            "name a seat: \"side\": SIDE, or \"seat\": \"spectator\" | \"omniscient\"",
        )),
    }
}
