//! The HTTP API (`docs/HTTP-API.md`): handlers that read the request, ask the lobby
//! and the ruleset, and answer with a seat's view. They hold no rules.

use crate::board;
use crate::error::ApiError;
use crate::listing::{ListQuery, Listing, Page};
use crate::lobby::NewGame;
use crate::table::{Form, Legal, Table, Viewer};
use crate::AppState;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use grognard_engine::game::SavedGame;
use grognard_engine::Seat;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

mod legal;
pub use legal::legal;

/// A JSON body read whatever its content type, limited in size; a malformed body
/// gets a 400 that names the problem.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await?;
        serde_json::from_slice(&bytes).map(Body).map_err(|e| {
            let what = match e.classify() {
                serde_json::error::Category::Data => "the request body does not fit",
                _ => "malformed JSON",
            };
            ApiError::BadRequest {
                rule: "json".into(),
                message: format!("{what}: {e}"),
            }
        })
    }
}

/// The token of `Authorization: Bearer TOKEN`, if any.
pub struct Bearer(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Ok(Bearer(None));
        };
        let value = String::from_utf8_lossy(value.as_bytes());
        let token = crate::token::from_authorization(&value)
            .map_err(|e| ApiError::Unauthorized(e.to_string()))?;
        Ok(Bearer(Some(token.to_owned())))
    }
}

/// The game `{id}` in the path names, with the request's bearer token: what every
/// handler of `/api/games/{id}/...` starts from.
pub struct GameAt {
    /// The game.
    pub table: Arc<Table>,
    token: Option<String>,
    /// The side the request's session holds (a claimed seat or a challenge's), used
    /// when the request has no Bearer token.
    owned: Option<String>,
}

impl FromRequestParts<AppState> for GameAt {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::Internal(format!("no game id in the path: {e}")))?;
        let table = state.lobby().table(&id).await?;
        let Bearer(token) = Bearer::from_request_parts(parts, state).await?;
        if token.is_some() {
            match table.viewer(token.as_deref()) {
                Ok(Viewer::Side(side)) => state.guard().joined(&table.id, &side),
                Ok(Viewer::Hotseat) => {
                    for side in table.seats.keys() {
                        state.guard().joined(&table.id, side);
                    }
                }
                _ => {}
            }
        }
        let owned = if token.is_none() {
            crate::accounts::session::owned_side(state.accounts(), parts, &table.id).await?
        } else {
            None
        };
        Ok(GameAt {
            table,
            token,
            owned,
        })
    }
}

impl GameAt {
    /// Who the token (or without one, the session's seat) makes the caller: a side or
    /// a spectator.
    pub fn viewer(&self) -> Result<Viewer, ApiError> {
        match (&self.token, &self.owned) {
            (None, Some(side)) => Ok(Viewer::Side(side.clone())),
            _ => self.table.viewer(self.token.as_deref()),
        }
    }

    /// Who the Bearer token alone makes the caller.
    ///
    /// # Errors
    /// 403 for a token that is not one of the game's.
    pub fn token_viewer(&self) -> Result<Viewer, ApiError> {
        self.table.viewer(self.token.as_deref())
    }

    /// The side the token (or the session) seats; a spectator may not act.
    pub(crate) fn player(&self) -> Result<String, ApiError> {
        match (&self.token, &self.owned) {
            (None, Some(side)) => Ok(side.clone()),
            _ => self.table.player(self.token.as_deref()),
        }
    }

    /// Checks that the caller may ask questions about the game (explain, preview,
    /// reachable): with hidden information only a seat may.
    fn may_ask(&self) -> Result<(), ApiError> {
        self.may_ask_of(self.table.game().as_ref())
    }

    /// [`GameAt::may_ask`] for a caller that already holds the game for reading: the
    /// game's lock is not taken a second time on one thread, which deadlocks once an
    /// action waits to write between the two reads.
    fn may_ask_of(&self, game: &dyn grognard_engine::AnyGame) -> Result<(), ApiError> {
        let viewer = self.viewer()?;
        self.table.may_ask(game, &viewer)
    }
}

fn query_error(e: &QueryRejection) -> ApiError {
    ApiError::request(format!("bad query string: {}", e.body_text()))
}

/// `GET /api/scenarios`.
pub async fn scenarios(State(state): State<AppState>) -> Json<Value> {
    let lobby = state.lobby();
    Json(Value::Array(
        lobby
            .scenarios
            .iter()
            .map(|e| board::summary(&e.id, &e.scenario))
            .collect(),
    ))
}

/// `GET /api/scenarios/{id}/board`.
pub async fn scenario_board(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let scenario = state.lobby().scenario(&id)?;
    Ok(Json(board::board(&id, scenario)))
}

/// `GET /api/games[?limit=N&cursor=C&ruleset=R&open=true]`: a page of games, newest
/// activity first; the next page's cursor in `X-Next-Cursor` and `Link`.
pub async fn games(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Page, ApiError> {
    let Query(q) = query.map_err(|e| query_error(&e))?;
    let listing = Listing::parse(q, state.lobby())?;
    // Reading the database blocks: off the async runtime.
    tokio::task::spawn_blocking(move || listing.page(state.lobby(), state.guard()))
        .await
        .map_err(|e| ApiError::Internal(format!("the listing task failed: {e}")))?
}

/// `POST /api/games`.
pub async fn create(
    State(state): State<AppState>,
    body: Result<Body<NewGame>, ApiError>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Body(req) = body?;
    let answer = state.lobby().create(req).await?;
    Ok((StatusCode::CREATED, Json(answer)))
}

/// `GET /api/games/{id}[?since=K&undos=U&legal=compact|none]`.
pub async fn game(
    at: GameAt,
    query: Result<Query<Form>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(form) = query.map_err(|e| query_error(&e))?;
    let viewer = at.viewer()?;
    let text = at.table.object_in(at.table.game().as_ref(), &viewer, form);
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        text.to_string(),
    )
        .into_response())
}

/// The body of `POST /api/games/{id}/actions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// One of the view's `actions`.
    pub action: Value,
    /// The `n` of the view the action was chosen from.
    pub expect: u64,
}

/// `POST /api/games/{id}/actions[?since=K&undos=U&legal=compact|none]`: the answer's
/// `view` in the form the query asks.
pub async fn action(
    State(state): State<AppState>,
    at: GameAt,
    query: Result<Query<Form>, QueryRejection>,
    body: Result<Body<ActionRequest>, ApiError>,
) -> Result<Response, ApiError> {
    let Query(form) = query.map_err(|e| query_error(&e))?;
    let side = at.player()?;
    crate::accounts::timeouts::may_play(&at.table, &side)?;
    let Body(req) = body?;
    let (events, view) = state
        .lobby()
        .submit(&at.table, side, req.action, req.expect, form)
        .await?;
    if at.table.game().outcome().is_some() {
        // The game has ended: its ratings are counted now (issue 16).
        state
            .accounts()
            .db(crate::accounts::ratings::settle)
            .await?;
    }
    let body = format!("{{\"events\":{},\"view\":{view}}}", Value::Array(events));
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The body of `POST /api/games/{id}/undo`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// The `n` of the game object the undo was chosen from: the game's `n`.
    pub expect: u64,
}

/// `POST /api/games/{id}/undo`: the seat takes back its own last action.
pub async fn undo(
    State(state): State<AppState>,
    at: GameAt,
    query: Result<Query<Form>, QueryRejection>,
    body: Result<Body<UndoRequest>, ApiError>,
) -> Result<Response, ApiError> {
    let Query(form) = query.map_err(|e| query_error(&e))?;
    let side = at.player()?;
    crate::accounts::timeouts::may_play(&at.table, &side)?;
    let Body(req) = body?;
    let (undone, view) = state
        .lobby()
        .undo(&at.table, side, req.expect, form)
        .await?;
    let body = format!("{{\"undone\":{undone},\"view\":{view}}}");
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The body of explain and preview.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The action asked about.
    pub action: Value,
    /// Preview only: a legal action that rolls no dice answers an empty distribution
    /// (200) instead of the refusal (400), for a page that asks to learn whether it
    /// rolls.
    #[serde(default)]
    pub empty_if_no_dice: bool,
    /// The game's `n` the page asks about: when the game has moved on since, the answer
    /// is 200 `{"stale": true, "n": N}` and nothing else (a page that asks as the pointer
    /// moves may ask just after the other side acted).
    #[serde(default)]
    pub n: Option<u64>,
}

/// The answer to a question about a position the game has left, if it has left it.
fn stale(game: &dyn grognard_engine::AnyGame, q: &Question) -> Option<Json<Value>> {
    let now = game.len() as u64;
    q.n.filter(|&n| n != now)
        .map(|_| Json(json!({"stale": true, "n": now})))
}

/// `POST /api/games/{id}/explain`.
pub async fn explain(
    at: GameAt,
    body: Result<Body<Question>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let Body(q) = body?;
    if let Some(answer) = stale(at.table.game().as_ref(), &q) {
        return Ok(answer);
    }
    at.may_ask()?;
    if q.empty_if_no_dice {
        return Err(ApiError::request(
            "\"empty_if_no_dice\" is a field of preview, not of explain",
        ));
    }
    let e = at.table.game().explain(&q.action)?;
    Ok(Json(json!({"legal": e.legal, "reasons": e.reasons})))
}

/// `POST /api/games/{id}/preview`.
pub async fn preview(
    at: GameAt,
    body: Result<Body<Question>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let Body(q) = body?;
    let game = at.table.game();
    if let Some(answer) = stale(game.as_ref(), &q) {
        return Ok(answer);
    }
    at.may_ask_of(game.as_ref())?;
    match game.preview(&q.action) {
        Ok(p) => Ok(Json(json!(p))),
        Err(grognard_engine::EngineError::Refused(r))
            if q.empty_if_no_dice && game.explain(&q.action).is_ok_and(|e| e.legal) =>
        {
            Ok(Json(
                json!({"roll": null, "inputs": null, "outcomes": [], "reasons": r.reasons}),
            ))
        }
        Err(e) => Err(e.into()),
    }
}

/// The query of `GET /api/games/{id}/reachable`.
#[derive(Deserialize)]
pub struct UnitQuery {
    /// The unit's id.
    pub unit: Option<String>,
}

/// `GET /api/games/{id}/reachable?unit=ID`.
pub async fn reachable(
    at: GameAt,
    query: Result<Query<UnitQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    at.may_ask()?;
    let Query(q) = query.map_err(|e| query_error(&e))?;
    let unit = q
        .unit
        .ok_or_else(|| ApiError::request("name the unit: ?unit=ID"))?;
    let game = at.table.game();
    let reached = game.reachable(&unit)?;
    // Hexes are written as the map's labels, which need the map in scope.
    let names = grognard_engine::Names::new(Vec::new(), game.scenario().map);
    let reached = names
        .scope(|| serde_json::to_value(&reached))
        .map_err(|e| ApiError::Internal(format!("reachable hexes do not serialise: {e}")))?;
    Ok(Json(reached))
}

/// `GET /api/games/{id}/position`: the scenario file that starts where the game
/// stands (issue 19, item 4), as an attachment; [`Table::may_study`] says who may.
pub async fn position(at: GameAt) -> Result<Response, ApiError> {
    let viewer = at.viewer()?;
    let (text, file) = {
        let game = at.table.game();
        at.table.may_study(game.as_ref(), &viewer)?;
        let file = format!(
            "{}-{}-{}.toml",
            at.table.scenario_id,
            at.table.id,
            game.len()
        );
        (game.position(), file)
    };
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `POST /api/games/{id}/hint`: the computer's top candidates for the seat to act,
/// searched from what that seat may see.
pub async fn hint(State(state): State<AppState>, at: GameAt) -> Result<Json<Value>, ApiError> {
    let side = at.player()?;
    Ok(Json(state.lobby().hint(&at.table, &side).await?))
}

/// The query of `GET /api/games/{id}/replay`.
#[derive(Deserialize)]
pub struct ReplayQuery {
    /// Answer with the game object as it was after this many actions.
    pub at: Option<u64>,
}

/// `GET /api/games/{id}/replay[?at=N]`.
pub async fn replay(
    State(state): State<AppState>,
    at: GameAt,
    query: Result<Query<ReplayQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let lobby = Arc::clone(state.lobby());
    let viewer = at.viewer()?;
    let table = at.table;
    let Query(q) = query.map_err(|e| query_error(&e))?;
    if let Some(at) = q.at {
        let (over, mut saved): (bool, SavedGame) = {
            let game = table.game();
            if at > game.len() as u64 {
                return Err(ApiError::request(format!(
                    "the game has {} actions; ask for ?at=0 to {0}",
                    game.len()
                )));
            }
            (game.outcome().is_some(), game.save())
        };
        saved
            .log
            .truncate(usize::try_from(at).unwrap_or(usize::MAX));
        saved.pending_forced.clear();
        // Replaying is CPU work: off the async runtime.
        let object = tokio::task::spawn_blocking(move || {
            let game = lobby.registry.load_game(&saved)?;
            // Every position of a finished game is shown whole (hands included).
            let mut object = table.object_revealed(game.as_ref(), &viewer, over);
            object["actions"] = json!([]);
            Ok::<_, ApiError>(object)
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the replay task failed: {e}")))??;
        return Ok(Json(object));
    }
    let game = table.game();
    let over = game.outcome().is_some();
    // Once the game is over there is nothing left to hide: the whole log, the seed,
    // and the scenario it was played on, so that anyone can check every roll
    // (`grognard verify`). Before, the seed would tell the dice to come.
    let seat = if over {
        Seat::Omniscient
    } else {
        table.resolve(game.as_ref(), &viewer).seat()
    };
    let mut answer = json!({
        "id": table.id,
        "scenario": table.scenario_id,
        "ruleset": table.ruleset,
        "title": table.title,
        "seat": table.resolve(game.as_ref(), &viewer).name(),
        "seats": table.seat_kinds(),
        "hotseat": table.hotseat,
        "n": game.len(),
        "outcome": game.outcome(),
        "commitment": table.commitment,
        "log": *table.log(game.as_ref(), &seat),
    });
    if over {
        answer["seed"] = json!(game.seed());
        answer["generator"] = json!(game.generator());
        answer["scenario_data"] = serde_json::to_value(game.scenario())
            .map_err(|e| ApiError::Internal(format!("the scenario does not serialise: {e}")))?;
    }
    Ok(Json(answer))
}

/// The query of `GET /api/games/{id}/ws`.
#[derive(Deserialize)]
pub struct WsQuery {
    /// A seat's token; none for a spectator.
    pub token: Option<String>,
    /// Also push the game's chat, as `{"kind": "chat", ...}` messages (issue 16):
    /// asked for, so that a client that reads every message as a game object never
    /// gets one.
    #[serde(default)]
    pub chat: bool,
    /// Push what changed (issue 17): after the first object, each push is the lean
    /// object with only the log's entries the socket has not sent yet.
    #[serde(default)]
    pub delta: bool,
    /// How the pushed objects write the legal actions.
    #[serde(default)]
    pub legal: Legal,
}

/// `GET /api/games/{id}/ws[?token=TOKEN]`: the seat's game object on connect and
/// after every change. Without a seat's token the socket takes a spectator's slot,
/// under a cap per game and overall.
pub async fn ws(
    State(state): State<AppState>,
    at: GameAt,
    query: Result<Query<WsQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| query_error(&e))?;
    let viewer = match q.token {
        Some(t) => at.table.viewer(Some(&t))?,
        None => at.viewer()?,
    };
    let table = at.table;
    let upgrade = upgrade
        .map_err(|e| ApiError::request(format!("not a WebSocket request: {}", e.body_text())))?;
    let slot = match &viewer {
        Viewer::Spectator => Some(state.guard().spectator(&table.id)?),
        Viewer::Side(side) => {
            state.guard().joined(&table.id, side);
            None
        }
        // One player holds every seat of a hotseat game: none is open.
        Viewer::Hotseat => {
            for side in table.seats.keys() {
                state.guard().joined(&table.id, side);
            }
            None
        }
    };
    let ping = state.guard().ws_ping;
    let form = (q.delta || q.legal != Legal::Full).then_some(Form {
        legal: q.legal,
        ..Form::default()
    });
    let chat = if q.chat {
        crate::accounts::chat::may_read(state.accounts(), &table.id, &viewer).await?;
        Some(state.accounts().listen(&table.id))
    } else {
        None
    };
    Ok(upgrade
        .max_message_size(4096)
        .on_upgrade(move |socket| async move {
            push_views(socket, table, viewer, ping, chat, form).await;
            drop(slot);
        })
        .into_response())
}

/// Sends `viewer`'s game object now and after every change until the client goes,
/// and pings it every `ping`: a peer that has sent nothing since the last ping (not
/// even its pong) is dropped. With a `form` (a delta socket), each object after the
/// first carries only the log's entries not yet sent.
async fn push_views(
    mut socket: WebSocket,
    table: Arc<Table>,
    viewer: Viewer,
    ping: Duration,
    mut chat: Option<tokio::sync::broadcast::Receiver<Arc<str>>>,
    form: Option<Form>,
) {
    // Subscribe before the first view, so no change falls between the two.
    let mut changed = table.changed.subscribe();
    let mut sent = None;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping, ping);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = true;
    loop {
        // An undo lowers `n`: the state is told by `n` and the undos together; an
        // ending from outside the rules keeps `n` and changes the state.
        let (n, text) = {
            let game = table.game();
            let text = match form {
                None => table.object_text(game.as_ref(), &viewer),
                Some(form) => {
                    let since = sent.map(|(undos, n, _)| Form {
                        since: Some(n as u64),
                        undos: Some(undos),
                        ..form
                    });
                    table.object_in(game.as_ref(), &viewer, since.unwrap_or(form))
                }
            };
            ((table.undos(), game.len(), game.ending().is_some()), text)
        };
        if sent != Some(n) {
            // A peer that stops reading fills its socket's buffer: a send that cannot
            // finish within a ping's period drops it too.
            let send = socket.send(Message::Text(text.as_ref().into()));
            if !matches!(tokio::time::timeout(ping, send).await, Ok(Ok(()))) {
                return;
            }
            sent = Some(n);
        }
        tokio::select! {
            r = changed.recv() => {
                if matches!(r, Err(tokio::sync::broadcast::error::RecvError::Closed)) {
                    return;
                }
            }
            said = async {
                match chat.as_mut() {
                    Some(rx) => rx.recv().await,
                    None => std::future::pending().await,
                }
            } => match said {
                Ok(text) => {
                    let send = socket.send(Message::Text(text.as_ref().into()));
                    if !matches!(tokio::time::timeout(ping, send).await, Ok(Ok(()))) {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => chat = None,
            },
            msg = socket.recv() => match msg {
                None | Some(Err(_) | Ok(Message::Close(_))) => return,
                Some(Ok(_)) => heard = true,
            },
            _ = pings.tick() => {
                if !heard {
                    return;
                }
                heard = false;
                let send = socket.send(Message::Ping(Bytes::new()));
                if !matches!(tokio::time::timeout(ping, send).await, Ok(Ok(()))) {
                    return;
                }
            }
        }
    }
}

/// Any other path under `/api/`.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!("no endpoint `{}`", uri.path()))
}

/// The answer for paths outside the API: the web client's files.
pub async fn fallback(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") || uri.path() == "/api" {
        not_found(uri).await.into_response()
    } else {
        crate::web::asset(uri).await
    }
}
