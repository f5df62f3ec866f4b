//! The endpoints of accounts and sessions, claims and "my games"
//! (`docs/HTTP-API.md`, "Play by web").

use super::session::{self, Me};
use super::{names, password, sql, Accounts};
use crate::api::{Body, GameAt};
use crate::db::{self, params};
use crate::error::ApiError;
use crate::store;
use crate::table::Viewer;
use crate::AppState;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The body of sign-up and log-in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The account's name.
    pub name: String,
    /// Its password, in clear over the connection only.
    pub password: String,
}

fn with_cookies(
    status: StatusCode,
    body: Value,
    tokens: Option<(&str, &str)>,
    secure: bool,
) -> Response {
    let mut headers = HeaderMap::new();
    for c in session::set_cookies(tokens, secure) {
        headers.append(header::SET_COOKIE, c);
    }
    // Answers that set a session are never cached.
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    (status, headers, Json(body)).into_response()
}

/// `POST /api/accounts`: signs up and logs in (201).
///
/// # Errors
/// 400 naming what is wrong with the name or the password; 409 `name` when the name
/// is taken.
pub async fn sign_up(
    State(state): State<AppState>,
    body: Result<Body<Credentials>, ApiError>,
) -> Result<Response, ApiError> {
    let Body(c) = body?;
    names::check(&c.name).map_err(|e| ApiError::BadRequest {
        rule: "name".into(),
        message: e.to_string(),
    })?;
    password::check(&c.password).map_err(|e| ApiError::BadRequest {
        rule: "password".into(),
        message: e.to_string(),
    })?;
    let accounts = Arc::clone(state.accounts());
    // Hashing is CPU work: off the async runtime, like the database.
    let hash = tokio::task::spawn_blocking(move || password::hash(&c.password))
        .await
        .map_err(|e| ApiError::Internal(format!("the hashing task failed: {e}")))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let name = c.name;
    let (name, tokens) = accounts
        .db(move |conn| {
            // Names are told apart without regard to case (ASCII), as the file's
            // `COLLATE NOCASE` and PostgreSQL's index on `lower(name)` do.
            let taken: bool = conn
                .exists(
                    "SELECT 1 FROM accounts WHERE lower(name) = lower(?1)",
                    params![&name],
                )
                .map_err(|e| sql(&e))?;
            if taken {
                return Err(ApiError::Taken(format!("the name `{name}` is taken")));
            }
            let id: i64 = conn
                .query_one(
                    "INSERT INTO accounts (name, password, created) VALUES (?1, ?2, ?3)
                     RETURNING id",
                    params![&name, hash, store::rfc3339(store::now_ms())],
                )
                .and_then(|r| r.get(0))
                .map_err(|e| {
                    if e.unique {
                        // Another sign-up of the name won between the check and the insert.
                        ApiError::Taken(format!("the name `{name}` is taken"))
                    } else {
                        sql(&e)
                    }
                })?;
            Ok((name, session::open(conn, id)?))
        })
        .await?;
    Ok(with_cookies(
        StatusCode::CREATED,
        json!({"name": name}),
        Some((&tokens.0, &tokens.1)),
        accounts.settings.secure_cookies,
    ))
}

/// `POST /api/session`: logs in (200), or 401.
///
/// # Errors
/// 401 `login` for an unknown name or a wrong password (the same message for both);
/// 429 `rate` with `Retry-After` when the name or the address has tried too often.
pub async fn log_in(State(state): State<AppState>, req: Request) -> Result<Response, ApiError> {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(p)| p.ip().to_string());
    let Body(c) =
        <Body<Credentials> as axum::extract::FromRequest<AppState>>::from_request(req, &state)
            .await?;
    let accounts = Arc::clone(state.accounts());
    let per_name = accounts.settings.logins_per_minute;
    if per_name > 0 {
        let now = Instant::now();
        let minute = Duration::from_secs(60);
        let limited = accounts
            .logins
            .take(
                &format!("name:{}", c.name.to_lowercase()),
                per_name,
                minute,
                now,
            )
            .err()
            .map(|w| (w, "this name"))
            .or_else(|| {
                peer.as_ref().and_then(|p| {
                    accounts
                        .logins
                        .take(
                            &format!("addr:{p}"),
                            per_name.saturating_mul(4),
                            minute,
                            now,
                        )
                        .err()
                        .map(|w| (w, "this address"))
                })
            });
        if let Some((retry_after, who)) = limited {
            return Err(ApiError::RateLimited {
                message: format!(
                    "{who} has tried to log in too often ({per_name} a minute for a name, \
                     {} for an address); try again in {retry_after} s",
                    per_name.saturating_mul(4)
                ),
                retry_after,
            });
        }
    }
    let name = c.name.clone();
    let found: Option<(i64, String, String)> = accounts
        .db(move |conn| {
            conn.query_opt(
                "SELECT id, name, password FROM accounts WHERE lower(name) = lower(?1)",
                params![&name],
            )
            .and_then(|r| r.map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).transpose())
            .map_err(|e| sql(&e))
        })
        .await?;
    let stored = found
        .as_ref()
        .map_or_else(|| password::decoy().to_owned(), |f| f.2.clone());
    let given = c.password;
    let ok = tokio::task::spawn_blocking(move || password::verify(&given, &stored))
        .await
        .map_err(|e| ApiError::Internal(format!("the hashing task failed: {e}")))?;
    let Some((id, name, _)) = found.filter(|_| ok) else {
        return Err(ApiError::Unauthorized(
            "no account has this name and password".into(),
        ));
    };
    let tokens = accounts.db(move |conn| session::open(conn, id)).await?;
    Ok(with_cookies(
        StatusCode::OK,
        json!({"name": name}),
        Some((&tokens.0, &tokens.1)),
        accounts.settings.secure_cookies,
    ))
}

/// `DELETE /api/session`: logs out (204); the cookies are cleared.
///
/// # Errors
/// 500 when the file fails.
pub async fn log_out(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let accounts = Arc::clone(state.accounts());
    if let Some(s) = session::cookie(&headers, session::SESSION_COOKIE).map(str::to_owned) {
        accounts
            .db(move |conn| {
                conn.execute(
                    "DELETE FROM sessions WHERE token_sha256 = ?1",
                    params![crate::token::digest(&s)],
                )
                .map_err(|e| sql(&e))
            })
            .await?;
    }
    let mut r = with_cookies(
        StatusCode::NO_CONTENT,
        Value::Null,
        None,
        accounts.settings.secure_cookies,
    );
    *r.body_mut() = axum::body::Body::empty();
    Ok(r)
}

/// `GET /api/session`: who is logged in, `{"name"}`; `{"name": null}` without a live
/// session (200 either way, so that a page asks without an error in its console).
pub async fn who(axum::Extension(session): axum::Extension<session::Session>) -> Json<Value> {
    Json(json!({"name": session.0.map(|a| a.name)}))
}

/// `POST /api/games/{id}/claim`: the seat of the request's Bearer token becomes the
/// logged-in account's, so that the game is in its "my games" and the session alone
/// plays it.
///
/// # Errors
/// 401 without a session or a seat's token; 403 `seat` when the seat belongs to
/// another account; 400 for a hotseat game.
pub async fn claim(
    State(state): State<AppState>,
    Me(me): Me,
    at: GameAt,
) -> Result<Json<Value>, ApiError> {
    let side = match at.token_viewer()? {
        Viewer::Side(s) => s,
        Viewer::Hotseat => {
            return Err(ApiError::request(
                "a hotseat game's seats are played at one screen: they cannot be claimed",
            ))
        }
        Viewer::Spectator => {
            return Err(ApiError::Unauthorized(
                "claim a seat with its token: send `Authorization: Bearer TOKEN`".into(),
            ))
        }
    };
    let game = at.table.id.clone();
    let answer = json!({"game": game, "side": side, "name": me.name});
    state
        .accounts()
        .db(move |conn| claim_seat(conn, &game, &side, me.id))
        .await?;
    Ok(Json(answer))
}

/// Gives `side` of `game` to `account`; 403 `seat` when another account holds it.
///
/// # Errors
/// As said, or the file fails.
pub fn claim_seat(
    conn: &mut db::Conn,
    game: &str,
    side: &str,
    account: i64,
) -> Result<(), ApiError> {
    let holder: Option<i64> = conn
        .query_opt(
            "SELECT account FROM seat_owners WHERE game_id = ?1 AND side = ?2",
            params![game, side],
        )
        .and_then(|r| r.map(|r| r.get(0)).transpose())
        .map_err(|e| sql(&e))?;
    match holder {
        Some(h) if h == account => Ok(()),
        Some(_) => Err(ApiError::Forbidden {
            rule: "seat".into(),
            message: format!("the seat of {side} belongs to another account"),
        }),
        None => conn
            .execute(
                "INSERT INTO seat_owners (game_id, side, account) VALUES (?1, ?2, ?3)",
                params![game, side, account],
            )
            .map(|_| ())
            .map_err(|e| sql(&e)),
    }
}

/// `GET /api/me/games`: the logged-in account's games, those where it is to act
/// first, then those waiting for the other side, then the finished ones; newest
/// activity first within each.
///
/// # Errors
/// 401 without a session.
pub async fn my_games(State(state): State<AppState>, Me(me): Me) -> Result<Json<Value>, ApiError> {
    let accounts: Arc<Accounts> = Arc::clone(state.accounts());
    accounts.db(super::ratings::settle).await?;
    let now = store::now_ms();
    let rows = accounts
        .db(move |conn| {
            let concat = match conn.backend() {
                db::Backend::Sqlite => "group_concat",
                db::Backend::Postgres => "string_agg",
            };
            let rows = conn
                .query(
                    &format!(
                        "SELECT o.game_id, o.side, s.scenario_id, s.title, s.ruleset, s.seats,
                            s.n, s.to_act, s.outcome,
                            CASE WHEN s.active_ms > COALESCE(g.clock_from_ms, 0)
                                 THEN s.active_ms ELSE COALESCE(g.clock_from_ms, 0) END,
                            g.time_per_move_hours, g.rated,
                            (SELECT {concat}(x.side || '=' || a.name, ',')
                               FROM seat_owners x JOIN accounts a ON a.id = x.account
                              WHERE x.game_id = o.game_id AND x.side != o.side)
                       FROM seat_owners o JOIN summaries s ON s.game_id = o.game_id
                       LEFT JOIN game_settings g ON g.game_id = o.game_id
                      WHERE o.account = ?1"
                    ),
                    params![me.id],
                )
                .map_err(|e| sql(&e))?;
            let rows = rows
                .iter()
                .map(|r| {
                    Ok(MyGame {
                        id: r.get(0)?,
                        side: r.get(1)?,
                        scenario: r.get(2)?,
                        title: r.get(3)?,
                        ruleset: r.get(4)?,
                        seats: r.get(5)?,
                        n: r.get(6)?,
                        to_act: r.get(7)?,
                        outcome: r.get(8)?,
                        active_ms: r.get(9)?,
                        hours: r.get(10)?,
                        rated: r.get::<Option<bool>>(11)?.unwrap_or(false),
                        others: r.get(12)?,
                    })
                })
                .collect::<Result<Vec<_>, db::DbError>>()
                .map_err(|e| sql(&e))?;
            Ok(rows)
        })
        .await?;
    let mut games: Vec<(u8, i64, Value)> = rows.into_iter().map(|g| g.entry(now)).collect();
    games.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    Ok(Json(Value::Array(games.into_iter().map(|g| g.2).collect())))
}

struct MyGame {
    id: String,
    side: String,
    scenario: String,
    title: String,
    ruleset: String,
    seats: String,
    n: i64,
    to_act: Option<String>,
    outcome: Option<String>,
    active_ms: i64,
    hours: Option<f64>,
    rated: bool,
    others: Option<String>,
}

impl MyGame {
    /// The group (0 my turn, 1 waiting, 2 finished), the activity, and the entry.
    fn entry(self, now_ms: u64) -> (u8, i64, Value) {
        let parse = |t: &Option<String>| {
            t.as_deref()
                .and_then(|t| serde_json::from_str::<Value>(t).ok())
        };
        let to_act = parse(&self.to_act);
        let outcome = parse(&self.outcome);
        let seats: Value = serde_json::from_str(&self.seats).unwrap_or(Value::Null);
        let owners: Vec<(String, String)> = self
            .others
            .unwrap_or_default()
            .split(',')
            .filter_map(|p| p.split_once('=').map(|(s, n)| (s.to_owned(), n.to_owned())))
            .collect();
        // The other seats: an account's name, the computer, or a guest (a seat link).
        let opponents: Vec<Value> = seats
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(side, _)| **side != self.side)
            .map(|(side, kind)| {
                let name = owners.iter().find(|(s, _)| s == side).map(|(_, n)| n.clone());
                json!({"side": side, "name": name, "kind": if kind == "ai" { "computer" } else if name.is_some() { "account" } else { "guest" }})
            })
            .collect();
        let state = if outcome.is_some() {
            "finished"
        } else if to_act.as_ref().and_then(|d| d["side"].as_str()) == Some(self.side.as_str()) {
            "my_turn"
        } else {
            "waiting"
        };
        let group = match state {
            "my_turn" => 0,
            "waiting" => 1,
            _ => 2,
        };
        // Whole seconds left on the move's clock, counted from the last action.
        let time_left = self.hours.filter(|_| outcome.is_none()).map(|h| {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "hours per move fit in i64 ms"
            )]
            let limit = (h * 3_600_000.0) as i64;
            let used = i64::try_from(now_ms).unwrap_or(i64::MAX) - self.active_ms;
            (limit - used).max(0) / 1000
        });
        let entry = json!({
            "id": self.id,
            "link": format!("/play/{}", self.id),
            "side": self.side,
            "state": state,
            "scenario": self.scenario,
            "title": self.title,
            "ruleset": self.ruleset,
            "opponent": opponents.first().and_then(|o| o["name"].as_str().map(str::to_owned)).or_else(|| opponents.first().and_then(|o| o["kind"].as_str().map(str::to_owned))),
            "opponents": opponents,
            "n": self.n,
            "turn": to_act.as_ref().map(|d| d["text"].clone()),
            "to_act": to_act,
            "outcome": outcome,
            "rated": self.rated,
            "time_per_move_hours": self.hours,
            "time_left_seconds": time_left,
        });
        (group, self.active_ms, entry)
    }
}
