//! Seat sessions (issue 19): after `{"cmd": "seat", ...}` a session is one seat's for
//! good, and every answer holds only what that seat may know.
//!
//! The session still holds the whole game (it rolls the same dice as the referee's, so
//! that actions relayed into it replay exactly); what it keeps from the seat is what it
//! answers. The redaction is the rules' own, the one the server's seat views and logs use:
//! [`AnyGame::view`] and [`AnyGame::log_tail`] for the seat, so that an `apply` answer's
//! events are that action's entry in the seat's log.

use super::{seat, seat_of, Failure};
use crate::dynamic::{AnyGame, EngineError};
use crate::ruleset::Seat;
use serde_json::{Map, Value};

/// The commands a seat session answers; the other commands of the protocol (`load`,
/// `seat`, `state`, `save`, `force_rolls`) are the referee's, and a command added later
/// is the referee's until it is listed here.
const SEAT_COMMANDS: &[&str] = &[
    "legal",
    "apply",
    "view",
    "explain",
    "preview",
    "reachable",
    "undo",
    "resign",
    "log",
    "ai",
    "rulesets",
    "quit",
];

/// The commands that answer about the decision now, and so only when it is the seat's.
const DECISION_COMMANDS: &[&str] = &["explain", "preview", "reachable", "ai"];

/// The seat a `seat` request names: a side of the game or the spectator.
pub(super) fn bind(game: &dyn AnyGame, req: &Map<String, Value>) -> Result<Seat, Failure> {
    let chosen = seat_of(game, req)?;
    if chosen == Seat::Omniscient {
        return Err(Failure::request(
            "a seat session is a side's (\"side\": SIDE) or the spectator's (\"seat\": \"spectator\"); a session without a seat is the referee's and sees everything",
        ));
    }
    Ok(chosen)
}

/// The seat in words, for messages: the side's name, or "the spectator".
pub(super) fn name(game: Option<&dyn AnyGame>, seat: &Seat) -> String {
    match seat {
        Seat::Side(id) => game
            .and_then(|g| g.scenario().sides.iter().find(|s| &s.id == id))
            .map_or_else(|| id.clone(), |s| s.name.clone()),
        Seat::Spectator => "the spectator".into(),
        Seat::Omniscient => "the referee".into(),
    }
}

fn refused(message: String) -> Failure {
    Failure {
        rule: "seat".into(),
        message,
        extra: Map::new(),
    }
}

/// Whether the decision now is `seat`'s; `None` once nobody is to act.
pub(super) fn decides(game: &dyn AnyGame, seat: &Seat) -> Option<bool> {
    game.to_act().map(|d| seat.sees_side(&d.side))
}

/// Refuses what a seat session may not ask, naming the seat (rule `seat`).
pub(super) fn check(
    game: Option<&dyn AnyGame>,
    seat: &Seat,
    cmd: &str,
    req: &Map<String, Value>,
) -> Result<(), Failure> {
    let who = name(game, seat);
    let known = super::KEYS.iter().any(|(c, _)| *c == cmd) || cmd == "ai" || cmd == "seat";
    if known && !SEAT_COMMANDS.contains(&cmd) {
        let why = match cmd {
            "seat" => "a session takes its seat once, for good".to_owned(),
            "load" => "a seat session plays the one game it took its seat in".to_owned(),
            _ => format!("{cmd} is the referee's: it shows what a seat may not know"),
        };
        return Err(refused(format!("this session is {who}'s seat: {why}")));
    }
    let Some(game) = game else {
        return Ok(());
    };
    if matches!(cmd, "view" | "log") && (req.contains_key("side") || req.contains_key("seat")) {
        let asked = seat_of(game, req)?;
        if asked != *seat && asked != Seat::Spectator {
            return Err(refused(format!(
                "this session is {who}'s seat: it shows {who}'s {cmd} or the spectator's, not {}'s",
                name(Some(game), &asked)
            )));
        }
    }
    if DECISION_COMMANDS.contains(&cmd) && decides(game, seat) == Some(false) {
        let other = game
            .to_act()
            .map(|d| name(Some(game), &Seat::Side(d.side)))
            .unwrap_or_default();
        return Err(refused(format!(
            "this session is {who}'s seat: {cmd} answers {who}'s own decisions, and it is {other}'s decision now"
        )));
    }
    Ok(())
}

/// The seat a `view` or `log` request of a seat session shows: the one it names, else
/// the session's own.
pub(super) fn shown(req: &Map<String, Value>, session: &Seat) -> Result<Seat, Failure> {
    if req.contains_key("side") || req.contains_key("seat") {
        seat(req)
    } else {
        Ok(session.clone())
    }
}

/// The refusal of an action as `seat` may see it: whole when the decision was the
/// seat's (its own action: the rules weigh what it may see), else without its reasons,
/// which may name what the seat may not know (a card the other side does not hold).
pub(super) fn refusal(
    game: &dyn AnyGame,
    seat: &Seat,
    decided: Option<bool>,
    error: EngineError,
) -> Failure {
    match (&error, decided) {
        (EngineError::Refused(_), Some(false)) => {
            let other = game
                .to_act()
                .map(|d| name(Some(game), &Seat::Side(d.side)))
                .unwrap_or_default();
            Failure {
                rule: "hidden".into(),
                message: format!(
                    "the rules refuse this action of {other}; why is not for {}'s eyes",
                    name(Some(game), seat)
                ),
                extra: Map::new(),
            }
        }
        _ => Failure::from(error),
    }
}

/// The events of the last action as `seat` sees them: its entry in the seat's log.
pub(super) fn last_events(game: &dyn AnyGame, seat: &Seat) -> Vec<Value> {
    game.log_tail(seat, 1)
        .into_iter()
        .next()
        .and_then(|mut entry| match entry.get_mut("events").map(Value::take) {
            Some(Value::Array(events)) => Some(events),
            _ => None,
        })
        .unwrap_or_default()
}
