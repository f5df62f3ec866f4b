//! Open challenges (issue 16): a game between two people whose second seat is open to
//! any account. The game is made when the challenge is opened, so its creator holds a
//! seat and its link at once; the open seat's token waits in `challenges.open_token`
//! until an account accepts, which hands it over and clears it. Storing that token is
//! safe because the seat is open to anyone until then.

use super::routes::claim_seat;
use super::session::Me;
use super::{sql, Accounts};
use crate::api::Body;
use crate::db::params;
use crate::error::ApiError;
use crate::lobby::{NewGame, SeatKind};
use crate::store;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The body of `POST /api/challenges`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// The built-in scenario (it names the ruleset).
    pub scenario: String,
    /// The side the creator plays.
    pub side: String,
    /// Hours per move (fractions taken), shown as the clock of the game and of "my
    /// games" and enforced ([`super::timeouts`]); `null` for none.
    #[serde(default)]
    pub time_per_move_hours: Option<f64>,
    /// What happens when the player to act runs out of time: `lose` (the default),
    /// or `computer`, which takes the seat and plays on.
    #[serde(default)]
    pub on_time: super::timeouts::OnTime,
    /// Whether the game counts for the ratings.
    #[serde(default)]
    pub rated: bool,
    /// Whether spectators read the chat (`read`, the default) or not (`none`).
    #[serde(default)]
    pub spectators_chat: super::chat::Spectators,
}

/// The longest time per move taken: 30 days.
pub const MAX_HOURS: f64 = 720.0;

/// `POST /api/challenges`: opens a challenge (201): `{"id", "game", "side", "token",
/// "link"}`, the creator's seat.
///
/// # Errors
/// 401 without a session; 400 for an unknown scenario or side, a scenario of other
/// than two sides, or a time per move out of range.
pub async fn open(
    State(state): State<AppState>,
    Me(me): Me,
    body: Result<Body<NewChallenge>, ApiError>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Body(c) = body?;
    let lobby = state.lobby();
    let scenario = lobby
        .scenario(&c.scenario)
        .map_err(|e| ApiError::request(e.to_string()))?;
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
    if sides.len() != 2 {
        return Err(ApiError::request(format!(
            "a challenge is between two people; `{}` has {} sides",
            c.scenario,
            sides.len()
        )));
    }
    let Some(open_side) = sides.iter().find(|s| **s != c.side).cloned() else {
        return Err(ApiError::request("the scenario's two sides have one name"));
    };
    if !sides.contains(&c.side) {
        return Err(ApiError::request(format!(
            "no side `{}` in `{}`; its sides are: {}",
            c.side,
            c.scenario,
            sides.join(", ")
        )));
    }
    if let Some(h) = c.time_per_move_hours {
        if !(h > 0.0 && h <= MAX_HOURS) {
            return Err(ApiError::request(format!(
                "\"time_per_move_hours\" is over 0 and at most {MAX_HOURS} (30 days), or null"
            )));
        }
    }
    let ruleset = scenario.ruleset.clone();
    let seats: BTreeMap<String, SeatKind> =
        sides.iter().map(|s| (s.clone(), SeatKind::Human)).collect();
    let made = lobby
        .create(NewGame {
            scenario: c.scenario.clone(),
            seed: None,
            hotseat: false,
            seats,
            levels: BTreeMap::new(),
        })
        .await?;
    let game = made["id"].as_str().unwrap_or_default().to_owned();
    let token_of = |side: &str| {
        made["seats"][side]["token"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let (mine, open_token) = (token_of(&c.side), token_of(&open_side));
    let id = crate::token::game_id();
    let my_side = c.side.clone();
    let row = (
        id.clone(),
        game.clone(),
        c,
        open_side,
        open_token,
        ruleset,
        me.id,
    );
    state
        .accounts()
        .db(move |conn| {
            let (id, game, c, open_side, open_token, ruleset, creator) = row;
            let mut tx = conn.transaction().map_err(|e| sql(&e))?;
            tx.execute(
                "INSERT INTO challenges (id, creator, game_id, scenario_id, ruleset, side,
                     open_side, open_token, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    id,
                    creator,
                    &game,
                    c.scenario,
                    ruleset,
                    &c.side,
                    open_side,
                    open_token,
                    store::rfc3339(store::now_ms())
                ],
            )
            .map_err(|e| sql(&e))?;
            tx.execute(
                "INSERT INTO game_settings (game_id, rated, time_per_move_hours, spectators_chat,
                     on_time)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    &game,
                    c.rated,
                    c.time_per_move_hours,
                    if c.spectators_chat == super::chat::Spectators::None {
                        "none"
                    } else {
                        "read"
                    },
                    c.on_time.as_sql(),
                ],
            )
            .map_err(|e| sql(&e))?;
            claim_seat(&mut tx, &game, &c.side, creator)?;
            tx.commit().map_err(|e| sql(&e))
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id,
            "game": game,
            "side": my_side,
            "token": mine,
            "link": format!("/play/{game}?token={mine}"),
        })),
    ))
}

/// `GET /api/challenges`: the open challenges, newest first.
///
/// # Errors
/// 500 when the file fails.
pub async fn list(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let accounts: &Arc<Accounts> = state.accounts();
    let rows = accounts
        .db(|conn| {
            let rows = conn
                .query(
                    "SELECT c.id, a.name, c.game_id, c.scenario_id, s.title, c.ruleset, c.side,
                            c.open_side, g.time_per_move_hours, g.rated, c.created
                       FROM challenges c JOIN accounts a ON a.id = c.creator
                       JOIN summaries s ON s.game_id = c.game_id
                       LEFT JOIN game_settings g ON g.game_id = c.game_id
                      WHERE c.accepted_by IS NULL AND s.outcome IS NULL
                      ORDER BY c.created DESC, c.id LIMIT 200",
                    params![],
                )
                .map_err(|e| sql(&e))?;
            let rows = rows
                .iter()
                .map(|r| {
                    Ok(json!({
                        "id": r.get::<String>(0)?,
                        "creator": r.get::<String>(1)?,
                        "game": r.get::<String>(2)?,
                        "scenario": r.get::<String>(3)?,
                        "title": r.get::<String>(4)?,
                        "ruleset": r.get::<String>(5)?,
                        "side": r.get::<String>(6)?,
                        "open_side": r.get::<String>(7)?,
                        "time_per_move_hours": r.get::<Option<f64>>(8)?,
                        "rated": r.get::<Option<bool>>(9)?.unwrap_or(false),
                        "created": r.get::<String>(10)?,
                    }))
                })
                .collect::<Result<Vec<_>, crate::db::DbError>>()
                .map_err(|e| sql(&e))?;
            Ok(rows)
        })
        .await?;
    Ok(Json(Value::Array(rows)))
}

/// A challenge as `accept` reads it: creator, game, open side, accepted by, open token.
type ChallengeRow = (i64, String, String, Option<i64>, Option<String>);

/// `POST /api/challenges/{id}/accept`: takes the open seat: `{"id", "challenge",
/// "side", "token", "link"}`, `id` the game's.
///
/// # Errors
/// 401 without a session; 404 for no such challenge; 409 `taken` once accepted;
/// 400 for the creator's own challenge.
pub async fn accept(
    State(state): State<AppState>,
    Me(me): Me,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let challenge = id.clone();
    let (game, side, token) = state
        .accounts()
        .db(move |conn| {
            let mut tx = conn.transaction().map_err(|e| sql(&e))?;
            let row: Option<ChallengeRow> = tx
                .query_opt(
                    "SELECT creator, game_id, open_side, accepted_by, open_token FROM challenges
                     WHERE id = ?1",
                    params![&id],
                )
                .and_then(|r| {
                    r.map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
                        .transpose()
                })
                .map_err(|e| sql(&e))?;
            let Some((creator, game, side, accepted, token)) = row else {
                return Err(ApiError::NotFound(format!("no challenge `{id}`")));
            };
            if creator == me.id {
                return Err(ApiError::request(
                    "this is your own challenge: another player accepts it",
                ));
            }
            let (None, Some(token)) = (accepted, token) else {
                return Err(ApiError::Taken(format!(
                    "challenge `{id}` has been accepted"
                )));
            };
            // Only while still open: another server over the same database may have
            // taken it since it was read.
            let taken = tx
                .execute(
                    "UPDATE challenges SET accepted_by = ?2, open_token = NULL
                     WHERE id = ?1 AND accepted_by IS NULL",
                    params![&id, me.id],
                )
                .map_err(|e| sql(&e))?;
            if taken == 0 {
                return Err(ApiError::Taken(format!(
                    "challenge `{id}` has been accepted"
                )));
            }
            claim_seat(&mut tx, &game, &side, me.id)?;
            // The clock of the move runs from now: nobody's time ran while the seat
            // was open.
            tx.execute(
                "UPDATE game_settings SET clock_from_ms = ?2 WHERE game_id = ?1",
                params![&game, i64::try_from(store::now_ms()).unwrap_or(i64::MAX)],
            )
            .map_err(|e| sql(&e))?;
            tx.commit().map_err(|e| sql(&e))?;
            Ok((game, side, token))
        })
        .await?;
    Ok(Json(json!({
        "id": game,
        "challenge": challenge,
        "side": side,
        "token": token,
        "link": format!("/play/{game}?token={token}"),
    })))
}
