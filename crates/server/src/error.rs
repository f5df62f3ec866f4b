//! One error type for every request, each variant with its HTTP status.
//!
//! The body is always `{"error": {"rule": ..., "message": ..., "reasons"?: [...]}}`.
//! Messages are written for the seat that asked: a refusal comes from the ruleset's
//! explanation of that seat's own action, and nothing here quotes another seat's
//! view.

use axum::extract::rejection::BytesRejection;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use grognard_engine::{EngineError, Reason, Refusal};
use serde_json::json;

/// What went wrong with a request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request does not say anything the server can act on.
    #[error("{message}")]
    BadRequest {
        /// A category (`request`, `json`, `scenario`, ...) or a rule ID.
        rule: String,
        /// What is wrong.
        message: String,
    },
    /// 400: the rules refuse the action; every rule that forbids it.
    #[error("{0}")]
    Refused(Refusal),
    /// 401: the request needs a seat's token and has none.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: the token is not one of this game's, or the seat may not do this now.
    #[error("{message}")]
    Forbidden {
        /// `token` or `turn`.
        rule: String,
        /// Why.
        message: String,
    },
    /// 404: no such game, scenario or file.
    #[error("{0}")]
    NotFound(String),
    /// 409: the game has moved on since the view the request was built from.
    #[error("expected n={expected} but the game is at n={actual}")]
    Conflict {
        /// The `expect` the request gave.
        expected: u64,
        /// How many actions the game holds.
        actual: u64,
    },
    /// 409: what the request would take is taken (a name, a challenge's seat).
    #[error("{0}")]
    Taken(String),
    /// 413: the body is over the limit.
    #[error("{0}")]
    TooLarge(String),
    /// 429: the request must wait for one like it to finish (a game's hint).
    #[error("{0}")]
    TooMany(String),
    /// 429: this client has created games faster than the server allows.
    #[error("{message}")]
    RateLimited {
        /// What the limit is.
        message: String,
        /// Seconds until the client may create a game again (`Retry-After`).
        retry_after: u64,
    },
    /// 408: the request's body did not arrive in time; the connection is closed.
    #[error("{0}")]
    Timeout(String),
    /// 415: a body that is not `application/json`.
    #[error("{0}")]
    MediaType(String),
    /// 421: a host name this server does not answer for (DNS rebinding).
    #[error("{0}")]
    Host(String),
    /// 503: the server is at a limit (too many games).
    #[error("{0}")]
    Unavailable(String),
    /// 500: the database or the server failed.
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// A 400 in category `request`.
    pub fn request(message: impl Into<String>) -> ApiError {
        ApiError::BadRequest {
            rule: "request".into(),
            message: message.into(),
        }
    }

    /// The HTTP status.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } | ApiError::Refused(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden { .. } => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict { .. } | ApiError::Taken(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooMany(_) | ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::MediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Host(_) => StatusCode::MISDIRECTED_REQUEST,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The rule ID, or the category of a non-rules error.
    #[must_use]
    pub fn rule(&self) -> String {
        match self {
            ApiError::BadRequest { rule, .. } | ApiError::Forbidden { rule, .. } => rule.clone(),
            ApiError::Refused(r) => r.rule().to_owned(),
            ApiError::Unauthorized(_) => "token".into(),
            ApiError::NotFound(_) => "not_found".into(),
            ApiError::Conflict { .. } => "conflict".into(),
            ApiError::Taken(_) => "taken".into(),
            ApiError::TooLarge(_) => "limit".into(),
            ApiError::TooMany(_) | ApiError::Unavailable(_) => "busy".into(),
            ApiError::RateLimited { .. } => "rate".into(),
            ApiError::Timeout(_) => "timeout".into(),
            ApiError::MediaType(_) => "content_type".into(),
            ApiError::Host(_) => "host".into(),
            ApiError::Internal(_) => "server".into(),
        }
    }

    /// The reasons of a refusal.
    #[must_use]
    pub fn reasons(&self) -> Option<&[Reason]> {
        match self {
            ApiError::Refused(r) => Some(&r.reasons),
            _ => None,
        }
    }

    /// The JSON body.
    #[must_use]
    pub fn body(&self) -> serde_json::Value {
        let mut error = json!({ "rule": self.rule(), "message": self.to_string() });
        if let Some(reasons) = self.reasons() {
            error["reasons"] = json!(reasons);
        }
        json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(m) = &self {
            eprintln!("grognard: {m}");
        }
        let mut response = (self.status(), Json(self.body())).into_response();
        let headers = response.headers_mut();
        match &self {
            ApiError::RateLimited { retry_after, .. } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
            }
            // The rest of the body may still be on its way: the connection cannot
            // carry another request.
            ApiError::Timeout(_) => {
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            _ => {}
        }
        response
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> ApiError {
        match e {
            EngineError::Refused(r) => ApiError::Refused(r),
            EngineError::BadRequest(m) => ApiError::request(m),
            EngineError::Scenario(p) => ApiError::BadRequest {
                rule: "scenario".into(),
                message: p.to_string(),
            },
            other => ApiError::BadRequest {
                rule: other.rule(),
                message: other.to_string(),
            },
        }
    }
}

impl From<BytesRejection> for ApiError {
    fn from(r: BytesRejection) -> ApiError {
        if let Some(timeout) = crate::checks::body_timeout(&r) {
            ApiError::Timeout(timeout.to_string())
        } else if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(format!(
                "the request body is over the limit of {} bytes",
                crate::BODY_LIMIT
            ))
        } else {
            ApiError::request(format!("cannot read the request body: {}", r.body_text()))
        }
    }
}
