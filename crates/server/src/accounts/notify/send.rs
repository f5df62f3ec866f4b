//! Sending: an email through the SMTP relay (lettre), a webhook's POST (hyper, over
//! rustls for https). Neither logs a credential: errors name the step that failed.

use crate::accounts::options::{ByWeb, SmtpTls};
use axum::body::Bytes;
use http_body_util::Full;
use hyper_util::rt::TokioIo;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use serde_json::Value;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The SMTP relay, as the options give it.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: lettre::message::Mailbox,
}

impl Mailer {
    /// The relay of `--smtp-host`, or `None` without one.
    ///
    /// # Errors
    /// A sender that is no address, a password file that cannot be read, or a relay
    /// that cannot be set up.
    pub fn new(o: &ByWeb) -> Result<Option<Mailer>, String> {
        let Some(host) = &o.smtp_host else {
            return Ok(None);
        };
        let from = o
            .smtp_from
            .parse()
            .map_err(|e| format!("--smtp-from is not an address: {e}"))?;
        let builder = match o.smtp_tls {
            SmtpTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
            SmtpTls::Starttls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host)
                .map_err(|e| format!("STARTTLS to {host}: {e}"))?,
        };
        let mut builder = builder
            .port(o.smtp_port)
            .timeout(Some(Duration::from_secs(o.notify_timeout_secs.max(1))));
        let password = match (&o.smtp_password, &o.smtp_password_file) {
            (Some(p), _) => Some(p.0.clone()),
            (None, Some(file)) => Some(
                std::fs::read_to_string(file)
                    .map_err(|e| format!("--smtp-password-file {}: {e}", file.display()))?
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            ),
            (None, None) => None,
        };
        if let Some(user) = &o.smtp_user {
            builder =
                builder.credentials(Credentials::new(user.clone(), password.unwrap_or_default()));
        }
        Ok(Some(Mailer {
            transport: builder.build(),
            from,
        }))
    }

    /// Sends one plain-text mail to `to`.
    ///
    /// # Errors
    /// An address that does not parse, or the relay refuses or does not answer.
    pub async fn send(&self, to: &str, subject: &str, text: &str) -> Result<(), String> {
        let message = lettre::Message::builder()
            .from(self.from.clone())
            .to(to.parse().map_err(|e| format!("the address: {e}"))?)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(text.to_owned())
            .map_err(|e| format!("the message: {e}"))?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| format!("the relay: {e}"))
    }
}

/// Whether `ip` is an address a webhook may not reach without
/// `--webhook-private-targets`: loopback, private, link-local, unspecified, multicast.
#[must_use]
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => {
            a.is_loopback()
                || a.is_private()
                || a.is_link_local()
                || a.is_unspecified()
                || a.is_multicast()
                || a.is_broadcast()
                || a.octets()[0] == 100 && (a.octets()[1] & 0xC0) == 64
        }
        IpAddr::V6(a) => {
            a.is_loopback()
                || a.is_unspecified()
                || a.is_multicast()
                || (a.segments()[0] & 0xfe00) == 0xfc00
                || (a.segments()[0] & 0xffc0) == 0xfe80
                || a.to_ipv4_mapped()
                    .is_some_and(|v4| is_private(IpAddr::V4(v4)))
        }
    }
}

/// POSTs `body` as JSON to `url`, within `--notify-timeout-secs`.
///
/// # Errors
/// A URL that does not parse, a target refused (a private address), no answer in
/// time, or an answer other than 2xx.
pub async fn webhook(o: &ByWeb, url: &str, body: &Value) -> Result<(), String> {
    let headers = vec![(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    )];
    post(o, url, headers, body.to_string().into_bytes()).await
}

/// POSTs `body` with `headers` to `url`, within `--notify-timeout-secs`: a webhook's
/// JSON, a push message's ciphertext.
///
/// # Errors
/// A URL that does not parse, a target refused (a private address), no answer in
/// time, or an answer other than 2xx.
pub async fn post(
    o: &ByWeb,
    url: &str,
    headers: Vec<(hyper::header::HeaderName, hyper::header::HeaderValue)>,
    body: Vec<u8>,
) -> Result<(), String> {
    let timeout = Duration::from_secs(o.notify_timeout_secs.max(1));
    tokio::time::timeout(timeout, post_now(o, url, headers, body))
        .await
        .map_err(|_| format!("no answer within {} s", timeout.as_secs()))?
}

async fn post_now(
    o: &ByWeb,
    url: &str,
    headers: Vec<(hyper::header::HeaderName, hyper::header::HeaderValue)>,
    body: Vec<u8>,
) -> Result<(), String> {
    let uri: hyper::Uri = url.parse().map_err(|e| format!("the URL: {e}"))?;
    let https = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => false,
        _ => return Err("the URL is not http or https".into()),
    };
    let host = uri.host().ok_or("the URL has no host")?.to_owned();
    let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
    let bare = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((bare.as_str(), port))
        .await
        .map_err(|e| format!("{host}: {e}"))?
        .collect();
    // Every address is checked, and the one connected to is one checked: a name that
    // resolves elsewhere a moment later reaches nothing new.
    if !o.webhook_private_targets && addrs.iter().any(|a| is_private(a.ip())) {
        return Err(format!(
            "{host} is a private address (the server takes such targets only with --webhook-private-targets)"
        ));
    }
    let addr = addrs
        .first()
        .ok_or_else(|| format!("{host} has no address"))?;
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connecting to {host}: {e}"))?;
    let path = uri.path_and_query().map_or("/", |p| p.as_str()).to_owned();
    let authority = uri
        .authority()
        .map_or(host.clone(), |a| a.as_str().to_owned());
    let mut request = hyper::Request::post(path)
        .header(hyper::header::HOST, authority)
        .header(hyper::header::USER_AGENT, "grognard");
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let request = request
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| format!("the request: {e}"))?;
    let status = if https {
        let mut roots = tokio_rustls::rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        let config = tokio_rustls::rustls::ClientConfig::builder_with_provider(Arc::new(
            tokio_rustls::rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
        let name = tokio_rustls::rustls::pki_types::ServerName::try_from(bare)
            .map_err(|e| format!("TLS name: {e}"))?;
        let tls = tokio_rustls::TlsConnector::from(Arc::new(config))
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS with {host}: {e}"))?;
        send_over(TokioIo::new(tls), request).await?
    } else {
        send_over(TokioIo::new(tcp), request).await?
    };
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("{host} answered {status}"))
    }
}

async fn send_over<T>(
    io: T,
    request: hyper::Request<Full<Bytes>>,
) -> Result<hyper::StatusCode, String>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let answer = sender
        .send_request(request)
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    Ok(answer.status())
}
