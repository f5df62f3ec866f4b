//! `GET /api/games/{id}/legal[?unit=U]` (issue 17): the legal actions on demand, for a
//! client that reads game objects without them (`?legal=none`).

use super::{query_error, GameAt, UnitQuery};
use crate::error::ApiError;
use crate::table::Viewer;
use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::Json;
use serde_json::{json, Value};

/// The legal actions of the asking seat, as the full object's `actions` has them:
/// every one, or with `?unit=U` those whose `unit` is `U`; none for a seat that is not
/// to act. With the game's `n`, to send back as `expect`.
///
/// # Errors
/// 403 for a token none of the game's; 400 for a bad query.
pub async fn legal(
    at: GameAt,
    query: Result<Query<UnitQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(|e| query_error(&e))?;
    let viewer = at.viewer()?;
    let game = at.table.game();
    let acting = matches!(
        (at.table.resolve(game.as_ref(), &viewer), game.to_act()),
        (Viewer::Side(s), Some(d)) if s == d.side
    );
    let mut actions = if acting { game.legal() } else { Vec::new() };
    if let Some(unit) = &q.unit {
        actions.retain(|a| a.get("unit").and_then(Value::as_str) == Some(unit));
    }
    Ok(Json(json!({"n": game.len(), "actions": actions})))
}
