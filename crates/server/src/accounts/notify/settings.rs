//! `GET` and `PUT /api/me/notifications`: where an account is told that it is its
//! turn, and when. Every channel is off until its target is given.

use super::send::is_private;
use crate::accounts::session::Me;
use crate::accounts::sql;
use crate::api::Body;
use crate::db::{self, params};
use crate::error::ApiError;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

/// The longest webhook URL taken.
pub const MAX_URL: usize = 2048;

/// The body of `PUT /api/me/notifications`; a field left out takes its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wanted {
    /// The address to mail, or `null` for no email.
    #[serde(default)]
    pub email: Option<String>,
    /// The URL to POST to (`http` or `https`), or `null` for no webhook.
    #[serde(default)]
    pub webhook: Option<String>,
    /// A browser's push subscription (`PushSubscription.toJSON()`), or `null`.
    #[serde(default)]
    pub web_push: Option<Value>,
    /// Tell when it becomes the account's turn (default true).
    #[serde(default = "yes")]
    pub on_turn: bool,
    /// Remind before the time per move runs out (default true).
    #[serde(default = "yes")]
    pub on_reminder: bool,
}

fn yes() -> bool {
    true
}

fn bad(field: &str, message: impl Into<String>) -> ApiError {
    ApiError::BadRequest {
        rule: field.into(),
        message: format!("\"{field}\": {}", message.into()),
    }
}

/// Checks an email address: one `@`, something either side, no space or control
/// character, as lettre reads addresses.
fn check_email(email: &str) -> Result<(), ApiError> {
    if email.len() > 254 {
        return Err(bad("email", "an address is at most 254 characters"));
    }
    if email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("email", "an address has no space or control character"));
    }
    email
        .parse::<lettre::Address>()
        .map(|_| ())
        .map_err(|e| bad("email", format!("not an email address ({e})")))
}

/// Checks a webhook URL: http or https, a host, no user or password in it, and
/// not a private address written as such unless the server takes those.
fn check_webhook(url: &str, private_ok: bool) -> Result<(), ApiError> {
    if url.len() > MAX_URL {
        return Err(bad(
            "webhook",
            format!("a URL is at most {MAX_URL} characters"),
        ));
    }
    let uri: hyper::Uri = url
        .parse()
        .map_err(|e| bad("webhook", format!("not a URL ({e})")))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err(bad(
            "webhook",
            "the URL must start with https:// or http://",
        ));
    }
    let Some(authority) = uri.authority() else {
        return Err(bad("webhook", "the URL has no host"));
    };
    if authority.as_str().contains('@') {
        return Err(bad("webhook", "the URL holds no user name or password"));
    }
    let host = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']');
    if host.is_empty() {
        return Err(bad("webhook", "the URL has no host"));
    }
    let literal: Option<std::net::IpAddr> = host.parse().ok();
    let local = host.eq_ignore_ascii_case("localhost") || literal.is_some_and(is_private);
    if local && !private_ok {
        return Err(bad(
            "webhook",
            "a loopback or private address is not taken by this server",
        ));
    }
    Ok(())
}

/// A row of `notifications`: email, webhook, web push, on turn, on reminder.
type Row = (Option<String>, Option<String>, Option<String>, bool, bool);

/// The account's settings as JSON, the defaults when it has none.
fn read(conn: &mut db::Conn, account: i64) -> Result<Value, ApiError> {
    let row: Option<Row> = conn
        .query_opt(
            "SELECT email, webhook, web_push, on_turn, on_reminder FROM notifications
             WHERE account = ?1",
            params![account],
        )
        .and_then(|r| {
            r.map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
                .transpose()
        })
        .map_err(|e| sql(&e))?;
    let (email, webhook, web_push, on_turn, on_reminder) =
        row.unwrap_or((None, None, None, true, true));
    let web_push: Value = web_push
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null);
    Ok(json!({
        "email": email,
        "webhook": webhook,
        "web_push": web_push,
        "on_turn": on_turn,
        "on_reminder": on_reminder,
    }))
}

/// `GET /api/me/notifications`: `{"email", "webhook", "web_push", "on_turn",
/// "on_reminder"}`.
///
/// # Errors
/// 401 without a session.
pub async fn get(State(state): State<AppState>, Me(me): Me) -> Result<Json<Value>, ApiError> {
    Ok(Json(
        state.accounts().db(move |conn| read(conn, me.id)).await?,
    ))
}

/// `PUT /api/me/notifications`: replaces the settings; answers them.
///
/// # Errors
/// 401 without a session; 400 naming the field (as the error's `rule`) for an email
/// that is no address, a webhook that is no http(s) URL or a private address, a
/// `web_push` that is no push subscription, or an unknown field.
pub async fn put(
    State(state): State<AppState>,
    Me(me): Me,
    body: Result<Body<Wanted>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let Body(w) = body?;
    let email = w
        .email
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty());
    let webhook = w
        .webhook
        .map(|u| u.trim().to_owned())
        .filter(|u| !u.is_empty());
    if let Some(e) = &email {
        check_email(e)?;
    }
    if let Some(u) = &webhook {
        check_webhook(u, state.accounts().settings.by_web.webhook_private_targets)?;
    }
    let private_ok = state.accounts().settings.by_web.webhook_private_targets;
    let web_push = match w.web_push.filter(|v| !v.is_null()) {
        Some(v) => Some(super::push::check(&v, private_ok)?),
        None => None,
    };
    let (on_turn, on_reminder) = (w.on_turn, w.on_reminder);
    let answer = state
        .accounts()
        .db(move |conn| {
            conn.execute(
                "INSERT INTO notifications (account, email, webhook, web_push, on_turn,
                     on_reminder) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (account) DO UPDATE SET email = excluded.email,
                     webhook = excluded.webhook, web_push = excluded.web_push,
                     on_turn = excluded.on_turn, on_reminder = excluded.on_reminder",
                params![me.id, email, webhook, web_push, on_turn, on_reminder],
            )
            .map_err(|e| sql(&e))?;
            read(conn, me.id)
        })
        .await?;
    Ok(Json(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_webhook_must_be_http_with_a_host_and_no_private_address_unless_allowed() {
        assert!(check_webhook("https://discord.com/api/webhooks/1/x", false).is_ok());
        for bad in [
            "ftp://example.org/",
            "https://user:pw@example.org/",
            "http://127.0.0.1:9/",
            "http://localhost/",
            "http://[::1]/",
            "http://10.1.2.3/",
            "not a url",
        ] {
            assert!(check_webhook(bad, false).is_err(), "{bad}");
        }
        assert!(check_webhook("http://127.0.0.1:9/", true).is_ok());
    }

    #[test]
    fn an_email_must_be_one_address_without_spaces() {
        assert!(check_email("a@b.c").is_ok());
        for bad in ["ab.c", "a@b.c\r\nBcc: x@y.z", "a b@c.d", "@b.c"] {
            assert!(check_email(bad).is_err(), "{bad:?}");
        }
    }
}
