//! The clock of a game with a time per move (issue 16), as the game page and "my
//! games" show it. It is enforced by [`super::timeouts`]: the move's time runs from
//! the last action (or from the acceptance of the challenge, when later), and when it
//! runs out the game ends on time or the computer takes the seat.

use super::sql;
use super::timeouts::{clock_start, limit_ms};
use crate::api::GameAt;
use crate::db::params;
use crate::error::ApiError;
use crate::store;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

/// A game's row of `game_settings`: rated, hours, spectators, on time, clock from.
type SettingsRow = (bool, Option<f64>, String, String, Option<i64>);

/// `GET /api/games/{id}/settings`: the game's settings of play by web and its clock:
/// `{"rated", "time_per_move_hours", "spectators_chat", "on_time", "to_act", "to_act_name",
/// "deadline", "seconds_left", "stand_ins"}`; `deadline` (RFC 3339) and
/// `seconds_left` count the time per move from the last action (or the acceptance of
/// the challenge), null without a limit or once the game is over; `stand_ins` are the
/// sides the computer took on time.
///
/// # Errors
/// 404 for no such game.
pub async fn settings(State(state): State<AppState>, at: GameAt) -> Result<Json<Value>, ApiError> {
    let game = at.table.id.clone();
    let row: Option<SettingsRow> = state
        .accounts()
        .db(move |conn| {
            conn.query_opt(
                "SELECT rated, time_per_move_hours, spectators_chat, on_time, clock_from_ms
                 FROM game_settings WHERE game_id = ?1",
                params![&game],
            )
            .and_then(|r| {
                r.map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
                    .transpose()
            })
            .map_err(|e| sql(&e))
        })
        .await?;
    let (rated, hours, spectators, on_time, clock_from) =
        row.unwrap_or((false, None, "read".into(), "lose".into(), None));
    let (over, to_act) = {
        let g = at.table.game();
        (g.outcome().is_some(), g.to_act().map(|d| d.side))
    };
    let to_act_name = to_act
        .as_deref()
        .map(|s| crate::lobby::side_name(&at.table, s));
    let stand_ins: Vec<&String> = at
        .table
        .seats
        .keys()
        .filter(|s| at.table.is_stand_in(s))
        .collect();
    let deadline = hours
        .filter(|_| !over)
        .map(|h| clock_start(at.table.active_ms(), clock_from).saturating_add(limit_ms(h)));
    let now = store::now_ms();
    Ok(Json(json!({
        "rated": rated,
        "time_per_move_hours": hours,
        "spectators_chat": spectators,
        "on_time": on_time,
        "to_act": to_act,
        "to_act_name": to_act_name,
        "deadline": deadline.map(store::rfc3339),
        "seconds_left": deadline.map(|d| d.saturating_sub(now) / 1000),
        "stand_ins": stand_ins,
    })))
}
