//! Checks every request passes before any handler: a host name this server answers
//! for (a web page elsewhere cannot reach a local server by DNS rebinding), JSON as
//! the content type of every body posted (a page elsewhere cannot post a form or
//! `text/plain` without asking the browser first), and a body that arrives in time.
//! Every answer carries `Referrer-Policy: no-referrer`, so that a link followed from a
//! game's page does not tell its address and token.

use crate::error::ApiError;
use crate::AppState;
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// The host names a server answers for.
#[derive(Clone, Debug)]
pub struct Hosts {
    any: bool,
    names: Vec<String>,
}

/// The names of the loopback interface, which a server answers for in any case.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

impl Hosts {
    /// Any host (`--public`), or the loopback names and `allowed` (`--allowed-hosts`).
    #[must_use]
    pub fn new(public: bool, allowed: &[String]) -> Hosts {
        let names = LOOPBACK
            .iter()
            .map(|s| (*s).to_owned())
            .chain(allowed.iter().map(|h| name_of(h.trim())))
            .filter(|h| !h.is_empty())
            .collect();
        Hosts { any: public, names }
    }

    /// Whether the server answers for `host` (a `Host` header: a name, an IPv4
    /// address or a bracketed IPv6 address, with or without a port).
    #[must_use]
    pub fn allows(&self, host: &str) -> bool {
        self.any || self.names.iter().any(|n| *n == name_of(host))
    }
}

/// `host` lowercased, without its port or a final dot.
fn name_of(host: &str) -> String {
    let name = if host.starts_with('[') {
        host.find(']').map_or(host, |end| &host[..=end])
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        }
    };
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// What the checks need to know, from the options.
#[derive(Clone, Debug)]
pub struct Checks {
    /// The host names answered.
    pub hosts: Hosts,
    /// How long a body may take to arrive once its headers have.
    pub body_timeout: Duration,
}

/// The checks of every request, and the `Referrer-Policy` of every answer.
pub async fn request(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let mut response = match check(state.checks(), req) {
        Ok(req) => next.run(req).await,
        Err(e) => e.into_response(),
    };
    response.headers_mut().insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

fn check(checks: &Checks, req: Request) -> Result<Request, ApiError> {
    // A browser always names the host; a request without one (HTTP/1.0) cannot come
    // from a page elsewhere.
    let host = req
        .uri()
        .authority()
        .map(|a| a.as_str().to_owned())
        .or_else(|| {
            req.headers()
                .get(header::HOST)
                .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        });
    if let Some(host) = host {
        if !checks.hosts.allows(&host) {
            return Err(ApiError::Host(format!(
                "this server does not answer for the host `{host}`; it answers for {}: start it \
                 with --allowed-hosts NAME (or --public) to be reached by another name",
                checks.hosts.names.join(", ")
            )));
        }
    }
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .is_some_and(|l| l.as_bytes() != b"0")
        || !http_body::Body::is_end_stream(req.body());
    if !has_body {
        return Ok(req);
    }
    if req.method() == Method::POST {
        let media = req
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|t| String::from_utf8_lossy(t.as_bytes()).into_owned());
        let json = media.as_deref().is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Err(ApiError::MediaType(format!(
                "a request body must be sent as `Content-Type: application/json`, not {}",
                media.map_or_else(|| "without a content type".to_owned(), |m| format!("`{m}`"))
            )));
        }
    }
    let limit = checks.body_timeout;
    Ok(req.map(|body| {
        Body::new(TimedBody {
            inner: body,
            deadline: Box::pin(tokio::time::sleep(limit)),
            limit,
        })
    }))
}

/// A body that fails once its time is up.
struct TimedBody {
    inner: Body,
    deadline: Pin<Box<tokio::time::Sleep>>,
    limit: Duration,
}

/// The error of a body that did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {} ms", .0.as_millis())]
pub struct BodyTimeout(Duration);

impl http_body::Body for TimedBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::BoxError>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(BodyTimeout(self.limit)))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The timeout behind a body that could not be read, if that is why.
pub fn body_timeout(r: &BytesRejection) -> Option<&BodyTimeout> {
    let mut e: Option<&(dyn std::error::Error + 'static)> = Some(r);
    while let Some(error) = e {
        if let Some(t) = error.downcast_ref::<BodyTimeout>() {
            return Some(t);
        }
        e = error.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_any_port_are_allowed_and_others_are_not() {
        let hosts = Hosts::new(false, &[]);
        for h in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.:80",
            "127.0.0.1",
            "127.0.0.1:1",
            "[::1]",
            "[::1]:8080",
        ] {
            assert!(hosts.allows(h), "{h}");
        }
        for h in [
            "evil.example",
            "evil.example:8080",
            "127.0.0.2",
            "localhost.evil.example",
            "[::2]:8080",
            "",
        ] {
            assert!(!hosts.allows(h), "{h}");
        }
    }

    #[test]
    fn allowed_hosts_add_to_loopback_and_public_allows_all() {
        let hosts = Hosts::new(false, &["Games.Example.org".into(), "10.0.0.5:8080".into()]);
        assert!(hosts.allows("games.example.org:443"));
        assert!(hosts.allows("10.0.0.5"));
        assert!(hosts.allows("localhost:8080"));
        assert!(!hosts.allows("example.org"));
        assert!(Hosts::new(true, &[]).allows("anything.example:1"));
    }
}
