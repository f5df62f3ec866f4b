//! Web Push (VAPID, RFC 8291 and 8292): the browser's push service carries a
//! notification to a subscribed page's service worker (`web/sw.js`), even when no tab of
//! the game is open. The server's VAPID key pair is generated once (P-256) and kept in
//! the file (`vapid`), unless `--vapid-private-key FILE` gives one; its public half is
//! `GET /api/push/key`, which the page hands to the browser to subscribe.

use super::send::{self, is_private};
use crate::accounts::options::ByWeb;
use crate::accounts::sql;
use crate::db::{params, Conn};
use crate::error::ApiError;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use base64::Engine;
use serde_json::{json, Value};
use web_push::{
    request_builder, ContentEncoding, SubscriptionInfo, VapidSignatureBuilder,
    WebPushMessageBuilder,
};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The server's VAPID private key (PEM): `--vapid-private-key`'s, or the file's, made
/// the first time it is asked for.
///
/// # Errors
/// The key file cannot be read, or the database fails.
pub fn private_pem(conn: &mut Conn, o: &ByWeb) -> Result<String, ApiError> {
    if let Some(file) = &o.vapid_private_key {
        return std::fs::read_to_string(file).map_err(|e| {
            ApiError::Internal(format!("--vapid-private-key {}: {e}", file.display()))
        });
    }
    let read = |c: &mut Conn| -> Result<Option<String>, ApiError> {
        c.query_opt("SELECT private_pem FROM vapid WHERE id = 1", params![])
            .and_then(|r| r.map(|r| r.get(0)).transpose())
            .map_err(|e| sql(&e))
    };
    if let Some(pem) = read(conn)? {
        return Ok(pem);
    }
    let pem = generate().map_err(|e| ApiError::Internal(format!("a VAPID key: {e}")))?;
    // Two servers racing keep the first key written.
    conn.execute(
        "INSERT INTO vapid (id, private_pem) VALUES (1, ?1) ON CONFLICT (id) DO NOTHING",
        params![&pem],
    )
    .map_err(|e| sql(&e))?;
    read(conn)?.ok_or_else(|| ApiError::Internal("the VAPID key was not kept".into()))
}

/// A new P-256 private key, as SEC1 PEM.
fn generate() -> Result<String, openssl::error::ErrorStack> {
    let group = openssl::ec::EcGroup::from_curve_name(openssl::nid::Nid::X9_62_PRIME256V1)?;
    let key = openssl::ec::EcKey::generate(&group)?;
    Ok(String::from_utf8_lossy(&key.private_key_to_pem()?).into_owned())
}

/// The public half of a VAPID private key, as the browser takes it: the uncompressed
/// point, base64url without padding.
///
/// # Errors
/// A key that is not a P-256 private key.
pub fn public_key(pem: &str) -> Result<String, String> {
    let builder = VapidSignatureBuilder::from_pem_no_sub(pem.as_bytes())
        .map_err(|e| format!("the VAPID key: {e}"))?;
    Ok(B64.encode(builder.get_public_key()))
}

/// `GET /api/push/key`: `{"public_key"}`, the server's VAPID public key (base64url), for
/// `pushManager.subscribe({applicationServerKey})`.
///
/// # Errors
/// 500 when the key cannot be read or made.
pub async fn key(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let o = state.accounts().settings.by_web.clone();
    let pem = state
        .accounts()
        .db(move |conn| private_pem(conn, &o))
        .await?;
    let key = public_key(&pem).map_err(ApiError::Internal)?;
    Ok(Json(json!({"public_key": key})))
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::BadRequest {
        rule: "web_push".into(),
        message: format!("\"web_push\": {}", message.into()),
    }
}

/// Checks a browser's push subscription (`PushSubscription.toJSON()`): an `endpoint`
/// (https, or http to a private address only with `--webhook-private-targets`) and
/// `keys.p256dh` (a P-256 point, 65 bytes) and `keys.auth` (16 bytes), base64url. The
/// subscription as stored.
///
/// # Errors
/// 400 `web_push` naming what is wrong.
pub fn check(value: &Value, private_ok: bool) -> Result<String, ApiError> {
    let info: SubscriptionInfo = serde_json::from_value(value.clone())
        .map_err(|e| bad(format!("not a push subscription ({e})")))?;
    if info.endpoint.len() > super::settings::MAX_URL {
        return Err(bad("the endpoint is too long"));
    }
    let uri: hyper::Uri = info
        .endpoint
        .parse()
        .map_err(|e| bad(format!("the endpoint is not a URL ({e})")))?;
    let host = uri
        .host()
        .map(|h| h.trim_start_matches('[').trim_end_matches(']').to_owned())
        .unwrap_or_default();
    let local = host.eq_ignore_ascii_case("localhost") || host.parse().ok().is_some_and(is_private);
    match (uri.scheme_str(), private_ok) {
        (Some("https"), _) | (Some("http"), true) if !host.is_empty() => {}
        _ => return Err(bad("the endpoint must be an https URL")),
    }
    if local && !private_ok {
        return Err(bad("the endpoint is a loopback or private address"));
    }
    let len = |key: &str, what: &str| {
        B64.decode(key.trim_end_matches('='))
            .map(|b| b.len())
            .map_err(|_| bad(format!("keys.{what} is not base64url")))
    };
    if len(&info.keys.p256dh, "p256dh")? != 65 {
        return Err(bad("keys.p256dh is not a P-256 public key (65 bytes)"));
    }
    if len(&info.keys.auth, "auth")? != 16 {
        return Err(bad("keys.auth is not 16 bytes"));
    }
    serde_json::to_string(&info).map_err(|e| bad(e.to_string()))
}

/// Sends `payload` (JSON: `title`, `body`, `url`) to a stored subscription, encrypted
/// (aes128gcm) and signed with the server's VAPID key, `sub` the server's public URL.
///
/// # Errors
/// A subscription or key that does not read, or the push service refuses.
pub async fn send(o: &ByWeb, pem: &str, subscription: &str, payload: &Value) -> Result<(), String> {
    let info: SubscriptionInfo =
        serde_json::from_str(subscription).map_err(|e| format!("the subscription: {e}"))?;
    let mut signature = VapidSignatureBuilder::from_pem(pem.as_bytes(), &info)
        .map_err(|e| format!("the VAPID key: {e}"))?;
    signature.add_claim("sub", o.public_url.clone());
    let signature = signature
        .build()
        .map_err(|e| format!("the VAPID signature: {e}"))?;
    let content = payload.to_string().into_bytes();
    let mut builder = WebPushMessageBuilder::new(&info);
    builder.set_payload(ContentEncoding::Aes128Gcm, &content);
    builder.set_ttl(24 * 3600);
    builder.set_vapid_signature(signature);
    let message = builder
        .build()
        .map_err(|e| format!("the push message: {e}"))?;
    let request = request_builder::build_request::<Vec<u8>>(message);
    let url = request.uri().to_string();
    let headers = request
        .headers()
        .iter()
        .filter_map(|(name, value)| {
            Some((
                hyper::header::HeaderName::from_bytes(name.as_str().as_bytes()).ok()?,
                hyper::header::HeaderValue::from_bytes(value.as_bytes()).ok()?,
            ))
        })
        .collect();
    send::post(o, &url, headers, request.into_body()).await
}
