//! Chat per game between its seats (issue 16): stored with the game, limited in
//! length and rate, pushed live over the game's WebSocket to sockets that ask for it.
//! Spectators read it, or not at all, as the game's creator chose.

use super::{sql, Accounts};
use crate::api::{Body, GameAt};
use crate::db::{self, params};
use crate::error::ApiError;
use crate::store;
use crate::table::Viewer;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;

/// The longest message, in characters.
pub const MAX_CHARS: usize = 500;
/// The most messages kept for one answer of `GET`: the latest.
pub const READ_LIMIT: i64 = 200;

/// Who may read a game's chat besides its seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spectators {
    /// Spectators read the chat (the default).
    #[default]
    Read,
    /// Only the seats see it.
    None,
}

/// The body of `POST /api/games/{id}/chat`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Said {
    /// The message.
    pub text: String,
}

fn spectators(conn: &mut db::Conn, game: &str) -> Result<Spectators, ApiError> {
    let text: Option<String> = conn
        .query_opt(
            "SELECT spectators_chat FROM game_settings WHERE game_id = ?1",
            params![game],
        )
        .and_then(|r| r.map(|r| r.get(0)).transpose())
        .map_err(|e| sql(&e))?;
    Ok(if text.as_deref() == Some("none") {
        Spectators::None
    } else {
        Spectators::Read
    })
}

/// 403 `chat` when `viewer` is a spectator of a game whose chat is for its seats only.
///
/// # Errors
/// As said, or the file fails.
pub async fn may_read(
    accounts: &Arc<Accounts>,
    game: &str,
    viewer: &Viewer,
) -> Result<(), ApiError> {
    if !matches!(viewer, Viewer::Spectator) {
        return Ok(());
    }
    let game = game.to_owned();
    let who = accounts.db(move |conn| spectators(conn, &game)).await?;
    if who == Spectators::None {
        return Err(ApiError::Forbidden {
            rule: "chat".into(),
            message: "this game's chat is for its seats only".into(),
        });
    }
    Ok(())
}

/// `GET /api/games/{id}/chat`: `{"messages": [...]}`, oldest first.
///
/// # Errors
/// 403 `chat` for a spectator of a game whose chat is for its seats only.
pub async fn read(State(state): State<AppState>, at: GameAt) -> Result<Json<Value>, ApiError> {
    let viewer = at.viewer()?;
    let accounts = state.accounts();
    may_read(accounts, &at.table.id, &viewer).await?;
    let game = at.table.id.clone();
    let messages = accounts
        .db(move |conn| {
            let rows = conn
                .query(
                    "SELECT id, side, name, text, at FROM
                       (SELECT * FROM chat WHERE game_id = ?1 ORDER BY id DESC LIMIT ?2) AS recent
                     ORDER BY id",
                    params![game, READ_LIMIT],
                )
                .map_err(|e| sql(&e))?;
            let rows = rows
                .iter()
                .map(|r| {
                    Ok(json!({
                        "id": r.get::<i64>(0)?,
                        "side": r.get::<String>(1)?,
                        "name": r.get::<Option<String>>(2)?,
                        "text": r.get::<String>(3)?,
                        "at": r.get::<String>(4)?,
                    }))
                })
                .collect::<Result<Vec<_>, db::DbError>>()
                .map_err(|e| sql(&e))?;
            Ok(rows)
        })
        .await?;
    let messages: Vec<Value> = messages
        .into_iter()
        .map(|m| with_side_name(&at.table, m))
        .collect();
    Ok(Json(json!({"messages": messages})))
}

/// `POST /api/games/{id}/chat` `{"text"}` from a seat (its token or its account's
/// session): 201 with the message, which every socket listening to the chat gets.
///
/// # Errors
/// 401 for a spectator; 400 `chat` for an empty message or one over
/// [`MAX_CHARS`]; 429 `rate` with `Retry-After` past the seat's rate.
pub async fn post(
    State(state): State<AppState>,
    at: GameAt,
    body: Result<Body<Said>, ApiError>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let side = match at.viewer()? {
        Viewer::Side(s) => s,
        Viewer::Hotseat => "hotseat".to_owned(),
        Viewer::Spectator => {
            return Err(ApiError::Unauthorized(
                "only a seat may chat: send its token (`Authorization: Bearer TOKEN`) or log \
                 in to the account that holds it"
                    .into(),
            ))
        }
    };
    let Body(said) = body?;
    let text = said.text.trim().to_owned();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_CHARS {
        return Err(ApiError::BadRequest {
            rule: "chat".into(),
            message: format!("a message is 1 to {MAX_CHARS} characters long; this one has {chars}"),
        });
    }
    let accounts = Arc::clone(state.accounts());
    let s = &accounts.settings;
    if s.chat_burst > 0 {
        if let Err(retry_after) = accounts.chats.take(
            &format!("{}/{side}", at.table.id),
            s.chat_burst,
            s.chat_window,
            Instant::now(),
        ) {
            return Err(ApiError::RateLimited {
                message: format!(
                    "a seat may post {} messages in {} s; try again in {retry_after} s",
                    s.chat_burst,
                    s.chat_window.as_secs()
                ),
                retry_after,
            });
        }
    }
    let game = at.table.id.clone();
    let now = store::rfc3339(store::now_ms());
    let message = {
        let (game, side) = (game.clone(), side.clone());
        accounts
            .db(move |conn| {
                let name: Option<String> = conn
                    .query_opt(
                        "SELECT a.name FROM seat_owners o JOIN accounts a ON a.id = o.account
                         WHERE o.game_id = ?1 AND o.side = ?2",
                        params![&game, &side],
                    )
                    .and_then(|r| r.map(|r| r.get(0)).transpose())
                    .map_err(|e| sql(&e))?;
                let id: i64 = conn
                    .query_one(
                        "INSERT INTO chat (game_id, side, name, text, at)
                         VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                        params![&game, &side, &name, &text, &now],
                    )
                    .and_then(|r| r.get(0))
                    .map_err(|e| sql(&e))?;
                Ok(json!({
                    "id": id,
                    "side": side,
                    "name": name,
                    "text": text,
                    "at": now,
                }))
            })
            .await?
    };
    let message = with_side_name(&at.table, message);
    let push = json!({"kind": "chat", "game": game, "message": message});
    accounts.tell(&game, push.to_string().into());
    Ok((StatusCode::CREATED, Json(message)))
}

/// A message with `side_name`, its side as the scenario names it.
fn with_side_name(table: &crate::table::Table, mut message: Value) -> Value {
    let name = message["side"]
        .as_str()
        .map(|side| crate::lobby::side_name(table, side));
    message["side_name"] = json!(name);
    message
}
