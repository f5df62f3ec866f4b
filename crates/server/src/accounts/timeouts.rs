//! Games ended from outside their rules (issue 16): a seat resigns
//! (`POST /api/games/{id}/resign`), or the side to act runs past its time per move,
//! found by a sweep every `--clock-sweep-secs`: the game then ends as a loss on time,
//! or, when the challenge said `"on_time": "computer"`, the computer takes the seat
//! and plays on. The same sweep sends the reminders, once a move.
//!
//! The clock of a move runs from the last action, or from the moment the challenge
//! was accepted when that is later: nobody's time runs while the seat is open.

use super::notify::{Notice, NoticeKind};
use super::{ratings, sql};
use crate::api::GameAt;
use crate::db::{self, params};
use crate::error::ApiError;
use crate::store::{self, outside};
use crate::table::{Table, Viewer};
use crate::AppState;
use axum::extract::State;
use axum::Json;
use grognard_engine::EndingKind;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// What a game does when its player to act runs out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTime {
    /// The game ends: the side to act loses on time (the default).
    #[default]
    Lose,
    /// The computer takes the seat and plays on.
    Computer,
}

impl OnTime {
    /// As stored in `game_settings.on_time`.
    #[must_use]
    pub fn as_sql(self) -> &'static str {
        match self {
            OnTime::Lose => "lose",
            OnTime::Computer => "computer",
        }
    }
}

/// The time per move in milliseconds.
#[must_use]
pub fn limit_ms(hours: f64) -> u64 {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "at most 720 hours, over 0"
    )]
    let ms = (hours.clamp(0.0, 720.0) * 3_600_000.0) as u64;
    ms
}

/// When the clock of the move now began: the last action, or the acceptance of the
/// challenge when later.
#[must_use]
pub fn clock_start(active_ms: u64, clock_from_ms: Option<i64>) -> u64 {
    active_ms.max(
        clock_from_ms
            .and_then(|c| u64::try_from(c).ok())
            .unwrap_or(0),
    )
}

/// 403 `seat` when the computer took `side`'s seat on time: its player's token and
/// session may still watch, no longer act or take back.
///
/// # Errors
/// As said.
pub fn may_play(table: &Table, side: &str) -> Result<(), ApiError> {
    if table.is_stand_in(side) {
        return Err(ApiError::Forbidden {
            rule: "seat".into(),
            message: format!(
                "the computer took {side}'s seat when its time per move ran out: it plays \
                 {side} to the end of the game"
            ),
        });
    }
    Ok(())
}

/// Ends `table`'s game from outside its rules (`side` resigned or ran out of time):
/// recorded in the file with the game's line of the lobby, then in memory, pushed to
/// every socket, and the ratings settled. With `expect_side_to_act`, only while
/// `side` is still to act.
///
/// # Errors
/// 403 `turn` when the game is over (or `side` is no longer to act, when asked);
/// 500 when the file fails (nothing changes).
pub async fn end(
    state: &AppState,
    table: &Arc<Table>,
    side: &str,
    kind: EndingKind,
    expect_side_to_act: bool,
) -> Result<Value, ApiError> {
    let _turn = table.turn.lock().await;
    if table.is_expired() {
        return Err(ApiError::NotFound(format!(
            "game `{}` has expired",
            table.id
        )));
    }
    let mut next = {
        let game = table.game();
        match game.to_act() {
            None => {
                return Err(ApiError::Forbidden {
                    rule: "turn".into(),
                    message: "the game is over".into(),
                })
            }
            Some(d) if expect_side_to_act && d.side != side => {
                return Err(ApiError::Forbidden {
                    rule: "turn".into(),
                    message: format!("{side} is no longer to act"),
                })
            }
            Some(_) => {}
        }
        game.boxed_clone()
    };
    let ending = next
        .end_from_outside(side, kind)
        .map_err(|e| ApiError::request(e.to_string()))?;
    let summary = table.summary(next.as_ref());
    let at = store::rfc3339(store::now_ms());
    state
        .accounts()
        .db(move |conn| outside::write_ending(conn, &ending, &at, &summary).map_err(|e| sql(&e)))
        .await?;
    let outcome = json!(next.outcome());
    table.end_with(next);
    // The ending is in the file: a failure here is counted by the next read of ratings.
    if let Err(e) = state.accounts().db(ratings::settle).await {
        eprintln!(
            "grognard: game {}: the ratings were not settled yet: {e}",
            table.id
        );
    }
    Ok(outcome)
}

/// `POST /api/games/{id}/resign` from a seat (its token, or its account's session and
/// the CSRF header): the game ends, the other side wins. `{"outcome"}`.
///
/// # Errors
/// 401 for a spectator; 403 `turn` once the game is over; 403 `seat` for a seat the
/// computer took on time.
pub async fn resign(State(state): State<AppState>, at: GameAt) -> Result<Json<Value>, ApiError> {
    let viewer = at.viewer()?;
    let side =
        match at.table.resolve(at.table.game().as_ref(), &viewer) {
            Viewer::Side(s) => s,
            Viewer::Hotseat | Viewer::Spectator => return Err(ApiError::Unauthorized(
                "only a seat may resign: send its token (`Authorization: Bearer TOKEN`) or log \
                 in to the account that holds it"
                    .into(),
            )),
        };
    may_play(&at.table, &side)?;
    let outcome = end(&state, &at.table, &side, EndingKind::Resigned, false).await?;
    Ok(Json(json!({"outcome": outcome})))
}

/// A game with a time per move, not over, a person to act, as the file has it.
struct Running {
    game: String,
    hours: f64,
    on_time: OnTime,
    start: u64,
    to_act: String,
}

fn running(conn: &mut db::Conn) -> Result<Vec<Running>, ApiError> {
    let rows = conn
        .query(
            "SELECT g.game_id, g.time_per_move_hours, g.on_time, s.active_ms, g.clock_from_ms,
                    s.to_act
               FROM game_settings g JOIN summaries s ON s.game_id = g.game_id
              WHERE g.time_per_move_hours IS NOT NULL AND s.outcome IS NULL
                AND s.to_act IS NOT NULL AND s.ai_to_act = 0
                AND NOT EXISTS (SELECT 1 FROM challenges c
                                 WHERE c.game_id = g.game_id AND c.accepted_by IS NULL)",
            params![],
        )
        .map_err(|e| sql(&e))?;
    let rows = rows
        .iter()
        .map(|r| {
            let on_time: String = r.get(2)?;
            let to_act: String = r.get(5)?;
            Ok(Running {
                game: r.get(0)?,
                hours: r.get(1)?,
                on_time: if on_time == "computer" {
                    OnTime::Computer
                } else {
                    OnTime::Lose
                },
                start: clock_start(u64::try_from(r.get::<i64>(3)?).unwrap_or(0), r.get(4)?),
                to_act: serde_json::from_str::<Value>(&to_act)
                    .ok()
                    .and_then(|d| d["side"].as_str().map(str::to_owned))
                    .unwrap_or_default(),
            })
        })
        .collect::<Result<Vec<_>, db::DbError>>()
        .map_err(|e| sql(&e))?;
    Ok(rows)
}

/// Starts the sweep of the clocks, every `--clock-sweep-secs`.
pub fn start(state: &AppState) {
    let state = state.clone();
    let every = Duration::from_secs_f64(state.accounts().settings.by_web.clock_sweep_secs);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = sweep(&state).await {
                eprintln!("grognard: the sweep of the clocks failed: {e}");
            }
        }
    });
}

/// One sweep: every game whose player to act ran out of time ends on time (or the
/// computer takes the seat), and every player past the reminder's share of the time
/// is reminded, once a move (the reminders sent are in the file).
///
/// # Errors
/// The file fails.
pub async fn sweep(state: &AppState) -> Result<(), ApiError> {
    let accounts = Arc::clone(state.accounts());
    let games = accounts.db(running).await?;
    let remind_at = accounts.settings.by_web.remind_at;
    let now = store::now_ms();
    for g in games {
        let limit = limit_ms(g.hours);
        let deadline = g.start.saturating_add(limit);
        if now >= deadline {
            if let Err(e) = time_out(state, &g).await {
                eprintln!(
                    "grognard: game {}: the clock could not end the move: {e}",
                    g.game
                );
            }
            continue;
        }
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "a share of at most 720 hours in ms"
        )]
        let left = (limit as f64 * remind_at) as u64;
        if remind_at > 0.0 && now >= deadline.saturating_sub(left) {
            let (game, start) = (g.game.clone(), g.start);
            let first = accounts
                .db(move |conn| {
                    conn.execute(
                        "INSERT INTO reminders (game_id, active_ms) VALUES (?1, ?2)
                         ON CONFLICT (game_id, active_ms) DO NOTHING",
                        params![game, i64::try_from(start).unwrap_or(i64::MAX)],
                    )
                    .map_err(|e| sql(&e))
                })
                .await?
                == 1;
            if first {
                let side_name = match state.lobby().table(&g.game).await {
                    Ok(table) => crate::lobby::side_name(&table, &g.to_act),
                    Err(_) => g.to_act.clone(),
                };
                accounts.notifier.send(Notice {
                    game: g.game.clone(),
                    side: g.to_act.clone(),
                    side_name,
                    kind: NoticeKind::Reminder,
                    deadline_ms: Some(deadline),
                });
            }
        }
    }
    Ok(())
}

/// The move of `g` is out of time: checked again on the game in memory, under its
/// turn, then the game ends on time or the computer takes the seat.
async fn time_out(state: &AppState, g: &Running) -> Result<(), ApiError> {
    let table = state.lobby().table(&g.game).await?;
    let side = {
        let game = table.game();
        match game.to_act() {
            Some(d) if !table.is_ai(&d.side) && d.side == g.to_act => d.side,
            _ => return Ok(()),
        }
    };
    // An action since the file was read restarted the clock: the next sweep sees it.
    if table.active_ms() > g.start {
        return Ok(());
    }
    match g.on_time {
        OnTime::Lose => match end(state, &table, &side, EndingKind::Time, true).await {
            Ok(_) | Err(ApiError::Forbidden { .. }) => Ok(()),
            Err(e) => Err(e),
        },
        OnTime::Computer => {
            {
                let _turn = table.turn.lock().await;
                let still = table.game().to_act().is_some_and(|d| d.side == side);
                if !still || table.is_stand_in(&side) {
                    return Ok(());
                }
                // The lobby's line as it is once the computer sits: written first.
                let mut summary = table.summary(table.game().as_ref());
                summary.seats.insert(side.clone(), "ai".into());
                summary.ai_to_act = true;
                let (at, s) = (store::rfc3339(store::now_ms()), side.clone());
                state
                    .accounts()
                    .db(move |conn| {
                        outside::write_stand_in(conn, &s, &at, &summary).map_err(|e| sql(&e))
                    })
                    .await?;
                table.stand_in(&side);
            }
            state.lobby().wake_ai(&table);
            Ok(())
        }
    }
}
