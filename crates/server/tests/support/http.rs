//! A small HTTP/1.1 client over one kept-alive connection, for tests and the load
//! generator on a real port.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use std::net::SocketAddr;

/// One connection to the server.
#[allow(dead_code, reason = "each user of this module calls a part of it")]
pub struct Client {
    addr: SocketAddr,
    sender: SendRequest<Full<Bytes>>,
}

#[allow(dead_code, reason = "each user of this module calls a part of it")]
impl Client {
    /// Connects to `addr`.
    pub async fn connect(addr: SocketAddr) -> Client {
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        Client::over(addr, stream).await
    }

    /// Connects to `addr` from the local address `from` (a loopback address other
    /// than 127.0.0.1, so that many clients stay under the cap per address).
    pub async fn connect_from(addr: SocketAddr, from: std::net::IpAddr) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.bind(SocketAddr::new(from, 0)).expect("bind");
        let stream = socket.connect(addr).await.expect("connect");
        Client::over(addr, stream).await
    }

    async fn over(addr: SocketAddr, stream: tokio::net::TcpStream) -> Client {
        stream.set_nodelay(true).expect("nodelay");
        let (sender, conn) = http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(conn);
        Client { addr, sender }
    }

    /// Sends a request; returns the status and the body as JSON (or as a string
    /// when it is not JSON).
    pub async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let (status, body) = self.call_bytes(method, path, token, body).await;
        let value = serde_json::from_slice(&body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
        (status, value)
    }

    /// Sends a request; returns the status and the body's bytes.
    pub async fn call_bytes(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Bytes) {
        self.sender.ready().await.expect("connection ready");
        let mut req = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addr.to_string());
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let res = self
            .sender
            .send_request(req.body(Full::new(bytes)).expect("request"))
            .await
            .expect("response");
        let status = res.status().as_u16();
        let body = res.into_body().collect().await.expect("body").to_bytes();
        (status, body)
    }
}
