//! Ratings per ruleset (issue 16): a rated game between two accounts updates both
//! players' Glicko-2 ratings once, when it ends, whatever ended it (an action of a
//! seat, of the computer, a resignation). The update is made by [`settle`], which
//! every action that ends a game and every read of ratings, profiles and "my games"
//! runs first, so a game ended by any path is counted before anyone can look.

use super::glicko::{self, Rating};
use super::{sql, Accounts};
use crate::db::{self, params, Conn, Row};
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Path, State};
use axum::Json;
use serde_json::{json, Value};
use std::sync::Arc;

fn rating_of(conn: &mut Conn, account: i64, ruleset: &str) -> db::Result<(Rating, i64)> {
    let row = conn.query_opt(
        "SELECT rating, deviation, volatility, games FROM ratings
         WHERE account = ?1 AND ruleset = ?2",
        params![account, ruleset],
    )?;
    Ok(match row {
        Some(r) => (
            Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            },
            r.get(3)?,
        ),
        None => (Rating::default(), 0),
    })
}

/// Updates the ratings of every rated game that has ended and is not yet counted,
/// and marks it counted, in one transaction. A game is counted by whoever marks it
/// first: two servers over one database never count it twice. When no such game is
/// waiting (an unrated game has ended), nothing is written and no write lock is taken:
/// every game's last action asks, and the store's writer should not wait on it.
///
/// # Errors
/// The database fails.
pub fn settle(conn: &mut Conn) -> Result<(), ApiError> {
    let waiting = conn
        .query_opt(
            "SELECT 1 FROM game_settings g JOIN summaries s ON s.game_id = g.game_id
              WHERE g.rated = 1 AND g.settled = 0 AND s.outcome IS NOT NULL LIMIT 1",
            params![],
        )
        .map_err(|e| sql(&e))?;
    if waiting.is_none() {
        return Ok(());
    }
    let mut tx = conn.transaction().map_err(|e| sql(&e))?;
    let ended: Vec<(String, String, String)> = tx
        .query(
            "SELECT g.game_id, s.ruleset, s.outcome FROM game_settings g
               JOIN summaries s ON s.game_id = g.game_id
              WHERE g.rated = 1 AND g.settled = 0 AND s.outcome IS NOT NULL",
            params![],
        )
        .and_then(|rows| {
            rows.iter()
                .map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .collect()
        })
        .map_err(|e| sql(&e))?;
    for (game, ruleset, outcome) in ended {
        // A rated game without two accounts in its seats counts for nobody.
        let marked = tx
            .execute(
                "UPDATE game_settings SET settled = 1 WHERE game_id = ?1 AND settled = 0",
                params![&game],
            )
            .map_err(|e| sql(&e))?;
        if marked == 0 {
            continue;
        }
        let seats: Vec<(String, i64)> = tx
            .query(
                "SELECT side, account FROM seat_owners WHERE game_id = ?1 ORDER BY side",
                params![&game],
            )
            .and_then(|rows| rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect())
            .map_err(|e| sql(&e))?;
        let winner = serde_json::from_str::<Value>(&outcome)
            .ok()
            .and_then(|o| o["winner"].as_str().map(str::to_owned));
        if let [(side_a, a), (side_b, b)] = seats.as_slice() {
            if a != b {
                let (ra, na) = rating_of(&mut tx, *a, &ruleset).map_err(|e| sql(&e))?;
                let (rb, nb) = rating_of(&mut tx, *b, &ruleset).map_err(|e| sql(&e))?;
                let score = |side: &str| match &winner {
                    None => 0.5,
                    Some(w) if w == side => 1.0,
                    Some(_) => 0.0,
                };
                let new_a = glicko::update(
                    ra,
                    &[glicko::Game {
                        opponent: rb,
                        score: score(side_a),
                    }],
                );
                let new_b = glicko::update(
                    rb,
                    &[glicko::Game {
                        opponent: ra,
                        score: score(side_b),
                    }],
                );
                for (account, r, n) in [(*a, new_a, na), (*b, new_b, nb)] {
                    tx.execute(
                        "INSERT INTO ratings
                             (account, ruleset, rating, deviation, volatility, games)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                         ON CONFLICT (account, ruleset) DO UPDATE SET rating = excluded.rating,
                             deviation = excluded.deviation, volatility = excluded.volatility,
                             games = excluded.games",
                        params![
                            account,
                            &ruleset,
                            r.rating,
                            r.deviation,
                            r.volatility,
                            n + 1
                        ],
                    )
                    .map_err(|e| sql(&e))?;
                }
            }
        }
    }
    tx.commit().map_err(|e| sql(&e))
}

fn collect(
    rows: db::Result<Vec<Row>>,
    each: impl Fn(&Row) -> db::Result<Value>,
) -> Result<Vec<Value>, ApiError> {
    rows.and_then(|rows| rows.iter().map(each).collect())
        .map_err(|e| sql(&e))
}

/// `GET /api/ratings/{ruleset}`: the leaderboard, best first: `[{"name", "rating",
/// "deviation", "volatility", "games"}]`.
///
/// # Errors
/// 404 for a ruleset no scenario of this server plays.
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
) -> Result<Json<Value>, ApiError> {
    if !state
        .lobby()
        .scenarios
        .iter()
        .any(|e| e.scenario.ruleset == ruleset)
    {
        return Err(ApiError::NotFound(format!(
            "no ruleset `{ruleset}` on this server"
        )));
    }
    let accounts: &Arc<Accounts> = state.accounts();
    let rows = accounts
        .db(move |conn| {
            settle(conn)?;
            collect(
                conn.query(
                    "SELECT a.name, r.rating, r.deviation, r.volatility, r.games
                       FROM ratings r JOIN accounts a ON a.id = r.account
                      WHERE r.ruleset = ?1 ORDER BY r.rating DESC, a.name LIMIT 100",
                    params![&ruleset],
                ),
                |r| {
                    Ok(json!({
                        "name": r.get::<String>(0)?,
                        "rating": round(r.get(1)?),
                        "deviation": round(r.get(2)?),
                        "volatility": r.get::<f64>(3)?,
                        "games": r.get::<i64>(4)?,
                    }))
                },
            )
        })
        .await?;
    Ok(Json(Value::Array(rows)))
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `GET /api/players/{name}`: a player's ratings and finished games, each with its
/// result and its replay.
///
/// # Errors
/// 404 for no such account.
pub async fn profile(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let accounts: &Arc<Accounts> = state.accounts();
    let answer = accounts
        .db(move |conn| {
            settle(conn)?;
            let found: Option<(i64, String, String)> = conn
                .query_opt(
                    "SELECT id, name, created FROM accounts WHERE lower(name) = lower(?1)",
                    params![&name],
                )
                .and_then(|r| r.map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).transpose())
                .map_err(|e| sql(&e))?;
            let Some((id, name, created)) = found else {
                return Err(ApiError::NotFound(format!("no player `{name}`")));
            };
            let ratings: Vec<Value> = collect(
                conn.query(
                    "SELECT ruleset, rating, deviation, games FROM ratings WHERE account = ?1
                     ORDER BY ruleset",
                    params![id],
                ),
                |r| {
                    Ok(json!({
                        "ruleset": r.get::<String>(0)?,
                        "rating": round(r.get(1)?),
                        "deviation": round(r.get(2)?),
                        "games": r.get::<i64>(3)?,
                    }))
                },
            )?;
            let games: Vec<Value> = collect(
                conn.query(
                    "SELECT o.game_id, o.side, s.scenario_id, s.title, s.ruleset, s.outcome, s.n,
                            COALESCE(g.rated, 0),
                            (SELECT a.name FROM seat_owners x JOIN accounts a ON a.id = x.account
                              WHERE x.game_id = o.game_id AND x.side != o.side)
                       FROM seat_owners o JOIN summaries s ON s.game_id = o.game_id
                       LEFT JOIN game_settings g ON g.game_id = o.game_id
                      WHERE o.account = ?1 AND s.outcome IS NOT NULL
                      ORDER BY s.active_ms DESC LIMIT 200",
                    params![id],
                ),
                |r| {
                    let game: String = r.get(0)?;
                    let side: String = r.get(1)?;
                    let outcome: Value =
                        serde_json::from_str(&r.get::<String>(5)?).unwrap_or(Value::Null);
                    let result = match outcome["winner"].as_str() {
                        None => "draw",
                        Some(w) if w == side => "win",
                        Some(_) => "loss",
                    };
                    Ok(json!({
                        "id": game,
                        "side": side,
                        "scenario": r.get::<String>(2)?,
                        "title": r.get::<String>(3)?,
                        "ruleset": r.get::<String>(4)?,
                        "result": result,
                        "outcome": outcome,
                        "n": r.get::<i64>(6)?,
                        "rated": r.get::<bool>(7)?,
                        "opponent": r.get::<Option<String>>(8)?,
                        "replay": format!("/replay/{game}"),
                    }))
                },
            )?;
            Ok(json!({"name": name, "created": created, "ratings": ratings, "games": games}))
        })
        .await?;
    Ok(Json(answer))
}
