//! Ratings per ruleset (issue 16): a rated game between two accounts updates both
//! players' Glicko-2 ratings once, when it ends, whatever ended it (an action of a
//! seat, of the computer, a resignation). The update is made by [`settle`], which
//! every action that ends a game and every read of ratings, profiles and "my games"
//! runs first, so a game ended by any path is counted before anyone can look.

use super::glicko::{self, Rating};
use super::{sql, Accounts};
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};
use std::sync::Arc;

fn rating_of(conn: &Connection, account: i64, ruleset: &str) -> rusqlite::Result<(Rating, i64)> {
    Ok(conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, games FROM ratings
             WHERE account = ?1 AND ruleset = ?2",
        )?
        .query_row(params![account, ruleset], |r| {
            Ok((
                Rating {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                },
                r.get(3)?,
            ))
        })
        .optional()?
        .unwrap_or((Rating::default(), 0)))
}

/// Updates the ratings of every rated game that has ended and is not yet counted,
/// and marks it counted, in one transaction.
///
/// # Errors
/// The file fails.
pub fn settle(conn: &mut Connection) -> Result<(), ApiError> {
    let tx = conn.transaction().map_err(|e| sql(&e))?;
    let ended: Vec<(String, String, String)> = tx
        .prepare(
            "SELECT g.game_id, s.ruleset, s.outcome FROM game_settings g
               JOIN summaries s ON s.game_id = g.game_id
              WHERE g.rated = 1 AND g.settled = 0 AND s.outcome IS NOT NULL",
        )
        .and_then(|mut st| {
            st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .map_err(|e| sql(&e))?;
    for (game, ruleset, outcome) in ended {
        let seats: Vec<(String, i64)> = tx
            .prepare_cached(
                "SELECT side, account FROM seat_owners WHERE game_id = ?1 ORDER BY side",
            )
            .and_then(|mut st| {
                st.query_map([&game], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect()
            })
            .map_err(|e| sql(&e))?;
        let winner = serde_json::from_str::<Value>(&outcome)
            .ok()
            .and_then(|o| o["winner"].as_str().map(str::to_owned));
        if let [(side_a, a), (side_b, b)] = seats.as_slice() {
            if a != b {
                let (ra, na) = rating_of(&tx, *a, &ruleset).map_err(|e| sql(&e))?;
                let (rb, nb) = rating_of(&tx, *b, &ruleset).map_err(|e| sql(&e))?;
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
                        "INSERT OR REPLACE INTO ratings
                             (account, ruleset, rating, deviation, volatility, games)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        params![account, ruleset, r.rating, r.deviation, r.volatility, n + 1],
                    )
                    .map_err(|e| sql(&e))?;
                }
            }
        }
        // A rated game without two accounts in its seats counts for nobody.
        tx.execute(
            "UPDATE game_settings SET settled = 1 WHERE game_id = ?1",
            [&game],
        )
        .map_err(|e| sql(&e))?;
    }
    tx.commit().map_err(|e| sql(&e))
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
            let mut st = conn
                .prepare(
                    "SELECT a.name, r.rating, r.deviation, r.volatility, r.games
                       FROM ratings r JOIN accounts a ON a.id = r.account
                      WHERE r.ruleset = ?1 ORDER BY r.rating DESC, a.name LIMIT 100",
                )
                .map_err(|e| sql(&e))?;
            let rows = st
                .query_map([&ruleset], |r| {
                    Ok(json!({
                        "name": r.get::<_, String>(0)?,
                        "rating": round(r.get(1)?),
                        "deviation": round(r.get(2)?),
                        "volatility": r.get::<_, f64>(3)?,
                        "games": r.get::<_, i64>(4)?,
                    }))
                })
                .and_then(Iterator::collect::<Result<Vec<_>, _>>)
                .map_err(|e| sql(&e))?;
            Ok(rows)
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
                .query_row("SELECT id, name, created FROM accounts WHERE name = ?1", [&name], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()
                .map_err(|e| sql(&e))?;
            let Some((id, name, created)) = found else {
                return Err(ApiError::NotFound(format!("no player `{name}`")));
            };
            let ratings: Vec<Value> = conn
                .prepare("SELECT ruleset, rating, deviation, games FROM ratings WHERE account = ?1 ORDER BY ruleset")
                .and_then(|mut st| {
                    st.query_map([id], |r| {
                        Ok(json!({
                            "ruleset": r.get::<_, String>(0)?,
                            "rating": round(r.get(1)?),
                            "deviation": round(r.get(2)?),
                            "games": r.get::<_, i64>(3)?,
                        }))
                    })?
                    .collect()
                })
                .map_err(|e| sql(&e))?;
            let games: Vec<Value> = conn
                .prepare(
                    "SELECT o.game_id, o.side, s.scenario_id, s.title, s.ruleset, s.outcome, s.n,
                            COALESCE(g.rated, 0),
                            (SELECT a.name FROM seat_owners x JOIN accounts a ON a.id = x.account
                              WHERE x.game_id = o.game_id AND x.side != o.side)
                       FROM seat_owners o JOIN summaries s ON s.game_id = o.game_id
                       LEFT JOIN game_settings g ON g.game_id = o.game_id
                      WHERE o.account = ?1 AND s.outcome IS NOT NULL
                      ORDER BY s.active_ms DESC LIMIT 200",
                )
                .and_then(|mut st| {
                    st.query_map([id], |r| {
                        let game: String = r.get(0)?;
                        let side: String = r.get(1)?;
                        let outcome: Value = serde_json::from_str(&r.get::<_, String>(5)?).unwrap_or(Value::Null);
                        let result = match outcome["winner"].as_str() {
                            None => "draw",
                            Some(w) if w == side => "win",
                            Some(_) => "loss",
                        };
                        Ok(json!({
                            "id": game,
                            "side": side,
                            "scenario": r.get::<_, String>(2)?,
                            "title": r.get::<_, String>(3)?,
                            "ruleset": r.get::<_, String>(4)?,
                            "result": result,
                            "outcome": outcome,
                            "n": r.get::<_, i64>(6)?,
                            "rated": r.get::<_, bool>(7)?,
                            "opponent": r.get::<_, Option<String>>(8)?,
                            "replay": format!("/replay/{game}"),
                        }))
                    })?
                    .collect()
                })
                .map_err(|e| sql(&e))?;
            Ok(json!({"name": name, "created": created, "ratings": ratings, "games": games}))
        })
        .await?;
    Ok(Json(answer))
}
