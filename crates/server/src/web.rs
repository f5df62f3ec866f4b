//! The web client's files from `web/`: built into release binaries, so that
//! `cargo run --release` serves them from any folder; read from disk in debug builds,
//! so that an edit shows on reload.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "../../web/"]
#[allow_missing = true]
struct Files;

/// The file at `path` under `web/`, or `None`.
fn file(path: &str) -> Option<Response> {
    let f = Files::get(path)?;
    let mime = f.metadata.mimetype().to_owned();
    Some(
        (
            [
                (header::CONTENT_TYPE, mime),
                (header::CACHE_CONTROL, "no-cache".to_owned()),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
            ],
            f.data,
        )
            .into_response(),
    )
}

/// A page of the client, or a plain page saying the client is missing.
fn page(name: &str) -> Response {
    file(name).unwrap_or_else(|| {
        Html(format!(
            "<!doctype html><meta charset=utf-8><title>grognard</title>\
             <h1>grognard</h1><p>The web client's page <code>{name}</code> is not built \
             into this server. The HTTP API is at <a href=/api/scenarios>/api/scenarios</a> \
             (docs/HTTP-API.md).</p>"
        ))
        .into_response()
    })
}

/// `GET /`: the lobby.
pub async fn index() -> Response {
    page("index.html")
}

/// `GET /play/{id}`: the game page (it reads `?token=` itself).
pub async fn play(Path(_id): Path<String>) -> Response {
    page("game.html")
}

/// `GET /replay/{id}`: the replay viewer.
pub async fn replay(Path(_id): Path<String>) -> Response {
    page("replay.html")
}

/// Any other path: a file of `web/`, or 404.
pub async fn asset(uri: axum::http::Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path
        .split('/')
        .any(|part| part == ".." || part.starts_with('.'))
    {
        return StatusCode::NOT_FOUND.into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    file(path).unwrap_or_else(|| (StatusCode::NOT_FOUND, "not found\n").into_response())
}
