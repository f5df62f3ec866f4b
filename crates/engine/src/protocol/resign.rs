//! `{"cmd": "resign"}` (issue 16): a side leaves the game, which ends from outside its
//! rules ([`crate::Game::end_from_outside`]). The referee names the side (`"side"`) and
//! may say it ran out of time (`"kind": "time"`); a seat session resigns its own side.

use super::{seat_of, Failure};
use crate::dynamic::AnyGame;
use crate::ending::EndingKind;
use crate::ruleset::Seat;
use serde_json::{Map, Value};

/// The side that leaves and how, as the request and the session's seat say.
pub(super) fn asked(
    game: &dyn AnyGame,
    seat: Option<&Seat>,
    req: &Map<String, Value>,
) -> Result<(String, EndingKind), Failure> {
    let kind = match req.get("kind").map(Value::as_str) {
        None | Some(Some("resigned")) => EndingKind::Resigned,
        Some(Some("time")) => EndingKind::Time,
        _ => {
            return Err(Failure::request(
                "\"kind\" of resign must be \"resigned\" or \"time\"",
            ))
        }
    };
    let side = match seat {
        // A seat session resigns for its own side, and only for it.
        Some(Seat::Side(own)) => {
            if req.contains_key("side") && seat_of(game, req)? != Seat::Side(own.clone()) {
                return Err(Failure {
                    rule: "seat".into(),
                    message: format!("this session is {own}'s seat: it resigns for {own} only"),
                    extra: Map::new(),
                });
            }
            own.clone()
        }
        Some(_) => {
            return Err(Failure {
                rule: "seat".into(),
                message: "the spectator has no side to resign".into(),
                extra: Map::new(),
            })
        }
        None => match seat_of(game, req)? {
            Seat::Side(s) => s,
            _ => {
                return Err(Failure::request(
                    "resign names the side that leaves: \"side\": SIDE",
                ))
            }
        },
    };
    Ok((side, kind))
}
