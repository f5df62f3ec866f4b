//! Sessions: an HttpOnly, SameSite=Lax cookie holding a random token (only its
//! SHA-256 is stored), and a readable `csrf` cookie that every state-changing request
//! made with the session echoes in `X-CSRF-Token`.
//!
//! A request without the session cookie is checked as before: a seat's Bearer token
//! works for guests whatever this module says.

use super::{sql, Account, Accounts};
use crate::db::{params, Conn};
use crate::error::ApiError;
use crate::token;
use crate::AppState;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "grognard_session";
/// The readable CSRF cookie's name.
pub const CSRF_COOKIE: &str = "csrf";
/// The header that echoes the CSRF cookie.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// How long a session lasts: 30 days.
pub const MAX_AGE_SECS: u64 = 30 * 24 * 3600;

/// The value of cookie `name` in the request's `Cookie` headers.
#[must_use]
pub fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
}

/// The account of a live session token.
///
/// # Errors
/// The file fails.
pub fn find(conn: &mut Conn, session: &str) -> Result<Option<Account>, ApiError> {
    let oldest = i64::try_from(crate::store::now_ms()).unwrap_or(i64::MAX)
        - i64::try_from(MAX_AGE_SECS * 1000).unwrap_or(0);
    conn.query_opt(
        "SELECT a.id, a.name, s.csrf FROM sessions s JOIN accounts a ON a.id = s.account
         WHERE s.token_sha256 = ?1 AND s.created_ms >= ?2",
        params![token::digest(session), oldest],
    )
    .and_then(|r| {
        r.map(|r| {
            Ok(Account {
                id: r.get(0)?,
                name: r.get(1)?,
                csrf: r.get(2)?,
            })
        })
        .transpose()
    })
    .map_err(|e| sql(&e))
}

/// Opens a session for `account`: its token and CSRF token.
///
/// # Errors
/// The file fails.
pub fn open(conn: &mut Conn, account: i64) -> Result<(String, String), ApiError> {
    let (session, csrf) = (token::fresh(), token::fresh());
    conn.execute(
        "INSERT INTO sessions (token_sha256, account, csrf, created_ms) VALUES (?1, ?2, ?3, ?4)",
        params![
            token::digest(&session),
            account,
            &csrf,
            i64::try_from(crate::store::now_ms()).unwrap_or(i64::MAX)
        ],
    )
    .map_err(|e| sql(&e))?;
    Ok((session, csrf))
}

/// The `Set-Cookie` values that open a session (`Some`) or close it (`None`).
#[must_use]
pub fn set_cookies(tokens: Option<(&str, &str)>, secure: bool) -> [HeaderValue; 2] {
    let secure = if secure { "; Secure" } else { "" };
    let (session, csrf, age) = match tokens {
        Some((s, c)) => (s, c, MAX_AGE_SECS),
        None => ("", "", 0),
    };
    let make = |text: String| {
        HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
    };
    [
        make(format!(
            "{SESSION_COOKIE}={session}; Path=/; HttpOnly; SameSite=Lax; Max-Age={age}{secure}"
        )),
        make(format!(
            "{CSRF_COOKIE}={csrf}; Path=/; SameSite=Lax; Max-Age={age}{secure}"
        )),
    ]
}

/// Whether two strings are equal, in time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The session of a request, found once by [`request`].
#[derive(Clone)]
pub struct Session(pub Option<Account>);

/// Finds the request's session, if its cookie names a live one, and refuses (403
/// `csrf`) a state-changing request made with it that does not echo its CSRF token in
/// `X-CSRF-Token`. A cookie that names no live session is ignored.
pub async fn request(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let account = match cookie(req.headers(), SESSION_COOKIE).map(str::to_owned) {
        Some(s) if api && !s.is_empty() => {
            match state.accounts().db(move |conn| find(conn, &s)).await {
                Ok(a) => a,
                Err(e) => return e.into_response(),
            }
        }
        _ => None,
    };
    if let Some(a) = &account {
        let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
        let echoed = req
            .headers()
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| same(v, &a.csrf));
        if !safe && !echoed {
            return ApiError::Forbidden {
                rule: "csrf".into(),
                message: "a request made with the session cookie must echo the `csrf` cookie \
                          in the X-CSRF-Token header"
                    .into(),
            }
            .into_response();
        }
    }
    req.extensions_mut().insert(Session(account));
    next.run(req).await
}

/// The logged-in account; 401 without one.
pub struct Me(pub Account);

impl<S: Send + Sync> FromRequestParts<S> for Me {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        match parts.extensions.get::<Session>() {
            Some(Session(Some(a))) => Ok(Me(a.clone())),
            _ => Err(ApiError::Unauthorized(
                "log in first: this needs an account's session".into(),
            )),
        }
    }
}

/// The side of `game` that `account` holds, if any.
///
/// # Errors
/// The file fails.
pub fn side_of(conn: &mut Conn, game: &str, account: i64) -> Result<Option<String>, ApiError> {
    conn.query_opt(
        "SELECT side FROM seat_owners WHERE game_id = ?1 AND account = ?2",
        params![game, account],
    )
    .and_then(|r| r.map(|r| r.get(0)).transpose())
    .map_err(|e| sql(&e))
}

/// The side of `game` the request's session holds, if any.
///
/// # Errors
/// The file fails.
pub async fn owned_side(
    accounts: &Arc<Accounts>,
    parts: &Parts,
    game: &str,
) -> Result<Option<String>, ApiError> {
    let Some(Session(Some(a))) = parts.extensions.get::<Session>() else {
        return Ok(None);
    };
    let (game, id) = (game.to_owned(), a.id);
    accounts.db(move |conn| side_of(conn, &game, id)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookies_are_httponly_and_samesite_and_secure_only_when_told() {
        let [session, csrf] = set_cookies(Some(("abc", "def")), false);
        let (session, csrf) = (session.to_str().unwrap(), csrf.to_str().unwrap());
        assert!(session.starts_with("grognard_session=abc;") && session.contains("HttpOnly"));
        assert!(session.contains("SameSite=Lax") && !session.contains("Secure"));
        assert!(csrf.starts_with("csrf=def;") && !csrf.contains("HttpOnly"));
        let [session, csrf] = set_cookies(Some(("abc", "def")), true);
        assert!(session.to_str().unwrap().ends_with("; Secure"));
        assert!(csrf.to_str().unwrap().ends_with("; Secure"));
        let [cleared, _] = set_cookies(None, false);
        assert!(cleared.to_str().unwrap().contains("Max-Age=0"));
    }

    #[test]
    fn a_cookie_is_found_among_others_in_any_cookie_header() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static("a=1; csrf=xyz"));
        h.append(
            header::COOKIE,
            HeaderValue::from_static("grognard_session=s1"),
        );
        assert_eq!(cookie(&h, "csrf"), Some("xyz"));
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("s1"));
        assert_eq!(cookie(&h, "none"), None);
    }
}
