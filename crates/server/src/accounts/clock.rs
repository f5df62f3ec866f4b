//! The clock of a game with a time per move (issue 16): shown, not yet enforced. A move
//! late is not refused and the game does not end on time; that, the reminders and the
//! notifications are later work.

use super::sql;
use crate::api::GameAt;
use crate::error::ApiError;
use crate::store;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use rusqlite::OptionalExtension;
use serde_json::{json, Value};

/// `GET /api/games/{id}/settings`: the game's settings of play by web and its clock:
/// `{"rated", "time_per_move_hours", "spectators_chat", "to_act", "deadline",
/// "seconds_left"}`; `deadline` (RFC 3339) and `seconds_left` count the time per move
/// from the last action, null without a limit or once the game is over.
///
/// # Errors
/// 404 for no such game.
pub async fn settings(State(state): State<AppState>, at: GameAt) -> Result<Json<Value>, ApiError> {
    let game = at.table.id.clone();
    let row: Option<(bool, Option<f64>, String)> = state
        .accounts()
        .db(move |conn| {
            conn.query_row(
                "SELECT rated, time_per_move_hours, spectators_chat FROM game_settings
                 WHERE game_id = ?1",
                [&game],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| sql(&e))
        })
        .await?;
    let (rated, hours, spectators) = row.unwrap_or((false, None, "read".into()));
    let (over, to_act) = {
        let g = at.table.game();
        (g.outcome().is_some(), g.to_act().map(|d| d.side))
    };
    let deadline = hours.filter(|_| !over).map(|h| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "at most 720 hours, positive"
        )]
        let limit = (h * 3_600_000.0) as u64;
        at.table.active_ms().saturating_add(limit)
    });
    let now = store::now_ms();
    Ok(Json(json!({
        "rated": rated,
        "time_per_move_hours": hours,
        "spectators_chat": spectators,
        "to_act": to_act,
        "deadline": deadline.map(store::rfc3339),
        "seconds_left": deadline.map(|d| d.saturating_sub(now) / 1000),
    })))
}
