//! What one client may take, on a real port: games created a minute, connections
//! per address and overall, the header, idle and body timeouts, spectators' WebSockets
//! and their pings.

use super::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Serves `options` on a real port.
async fn serve_with(options: Options) -> SocketAddr {
    let state = AppState::open(&options).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grognard_server::serve_on(listener, state));
    addr
}

/// A raw answer: its status line's code, its headers (lowercase names) and body.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn parse(bytes: &[u8]) -> Raw {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a whole head");
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Raw {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// Reads until the server closes the connection (at most ten seconds).
async fn read_to_close(tcp: &mut TcpStream) -> Vec<u8> {
    let mut all = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut all))
        .await
        .expect("the server closes the connection within ten seconds")
        .ok();
    all
}

/// Sends one whole request that asks the server to close after it; its answer.
async fn request(addr: SocketAddr, text: &str) -> Raw {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(text.as_bytes()).await.unwrap();
    parse(&read_to_close(&mut tcp).await)
}

fn create_request(addr: SocketAddr) -> String {
    let body =
        json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}}).to_string();
    format!(
        "POST /api/games HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Reads one answer off a kept-alive connection (its body sized by content-length).
async fn read_one(tcp: &mut TcpStream) -> Raw {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), tcp.read(&mut chunk))
            .await
            .expect("an answer within ten seconds")
            .unwrap();
        assert!(n > 0, "the connection closed before a whole answer");
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let raw = parse(&buf);
            let len: usize = raw.header("content-length").unwrap().parse().unwrap();
            if buf.len() >= end + 4 + len {
                return raw;
            }
        }
    }
}

/// A kept-alive connection that has had one answer (so the server counts it).
async fn held(addr: SocketAddr) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let get = format!("GET /api/scenarios HTTP/1.1\r\nhost: {addr}\r\n\r\n");
    tcp.write_all(get.as_bytes()).await.unwrap();
    assert_eq!(read_one(&mut tcp).await.status, 200);
    tcp
}

/// Whether a fresh connection gets an answer, trying for ten seconds while the
/// server notices connections closed.
async fn a_fresh_connection_is_served(addr: SocketAddr) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let get =
            format!("GET /api/scenarios HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        if tcp.write_all(get.as_bytes()).await.is_ok() {
            let bytes = read_to_close(&mut tcp).await;
            if bytes.starts_with(b"HTTP/1.1 200") {
                return true;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_games_past_the_burst_answers_429_with_retry_after() {
    let db = Db::new("rate");
    let addr = serve_with(Options {
        create_per_minute: 1,
        create_burst: 3,
        ..db.options()
    })
    .await;
    for _ in 0..3 {
        assert_eq!(request(addr, &create_request(addr)).await.status, 201);
    }
    let refused = request(addr, &create_request(addr)).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    let retry: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "Retry-After: {retry}");
    let body: Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(error_rule(&body), "rate");
    assert!(error_message(&body).contains("a minute"), "{body}");
    // A refusal leaves a kept-alive connection usable.
    let mut c = http::Client::connect(addr).await;
    let new = json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}});
    for _ in 0..2 {
        assert_eq!(c.call("POST", "/api/games", None, Some(&new)).await.0, 429);
    }
    assert_eq!(c.call("GET", "/api/scenarios", None, None).await.0, 200);
    // The list is not limited.
    let list = request(
        addr,
        &format!("GET /api/games HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n"),
    )
    .await;
    assert_eq!(list.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_creation_rate_of_zero_lets_one_client_create_any_number() {
    let db = Db::new("rate-off");
    let addr = serve_with(Options {
        create_per_minute: 0,
        create_burst: 1,
        ..db.options()
    })
    .await;
    for _ in 0..25 {
        assert_eq!(request(addr, &create_request(addr)).await.status, 201);
    }
}

#[tokio::test]
async fn the_creation_rate_counts_each_client_address_apart() {
    let db = Db::new("rate-peers");
    let state = AppState::open(&Options {
        create_per_minute: 1,
        create_burst: 2,
        ..db.options()
    })
    .unwrap();
    let app = app(state);
    let body = json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}});
    let create = |peer: &str| {
        let mut req = Request::post("/api/games")
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let peer: SocketAddr = peer.parse().unwrap();
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(peer));
        let app = app.clone();
        async move { app.oneshot(req).await.unwrap().status() }
    };
    assert_eq!(create("10.0.0.1:1000").await, StatusCode::CREATED);
    assert_eq!(create("10.0.0.1:1001").await, StatusCode::CREATED);
    assert_eq!(create("10.0.0.1:1002").await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(create("10.0.0.2:1000").await, StatusCode::CREATED);
    // One IPv6 host holds a whole /64: it is one client.
    assert_eq!(create("[2001:db8::1]:1").await, StatusCode::CREATED);
    assert_eq!(create("[2001:db8::2]:1").await, StatusCode::CREATED);
    assert_eq!(
        create("[2001:db8::3]:1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_over_the_per_address_cap_is_refused_until_another_closes() {
    let db = Db::new("per-address");
    let addr = serve_with(Options {
        max_connections_per_address: 3,
        ..db.options()
    })
    .await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(held(addr).await);
    }
    // The fourth gets a 503 and is closed.
    let mut over = TcpStream::connect(addr).await.unwrap();
    let refused = read_to_close(&mut over).await;
    assert!(
        refused.starts_with(b"HTTP/1.1 503"),
        "{}",
        String::from_utf8_lossy(&refused)
    );
    let refused = parse(&refused);
    assert_eq!(
        refused.header("content-length"),
        Some(refused.body.len().to_string().as_str())
    );
    let body: Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(error_rule(&body), "busy");
    // The held ones still work.
    let get = format!("GET /api/scenarios HTTP/1.1\r\nhost: {addr}\r\n\r\n");
    open[0].write_all(get.as_bytes()).await.unwrap();
    assert_eq!(read_one(&mut open[0]).await.status, 200);
    drop(open.pop());
    assert!(a_fresh_connection_is_served(addr).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_over_the_overall_cap_is_refused() {
    let db = Db::new("overall");
    let addr = serve_with(Options {
        max_connections: 2,
        max_connections_per_address: 0,
        ..db.options()
    })
    .await;
    let a = held(addr).await;
    let _b = held(addr).await;
    let mut over = TcpStream::connect(addr).await.unwrap();
    assert!(read_to_close(&mut over).await.starts_with(b"HTTP/1.1 503"));
    drop(a);
    assert!(a_fresh_connection_is_served(addr).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_request_head_is_closed_after_the_header_timeout() {
    let db = Db::new("slow-head");
    let addr = serve_with(Options {
        header_timeout_millis: 300,
        ..db.options()
    })
    .await;
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    // The head never ends.
    tcp.write_all(format!("GET /api/scenarios HTTP/1.1\r\nhost: {addr}\r\n").as_bytes())
        .await
        .unwrap();
    assert!(
        read_to_close(&mut tcp).await.is_empty(),
        "closed without an answer"
    );
    // A connection that sends nothing at all is closed too.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    assert!(read_to_close(&mut silent).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_body_gets_408_and_the_connection_is_closed() {
    let db = Db::new("slow-body");
    let addr = serve_with(Options {
        body_timeout_millis: 300,
        ..db.options()
    })
    .await;
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(
        format!(
            "POST /api/games HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
             content-length: 100\r\n\r\n{{\"scenario\""
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let answer = parse(&read_to_close(&mut tcp).await);
    assert_eq!(answer.status, 408, "{}", answer.body);
    let body: Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(error_rule(&body), "timeout");
    assert!(error_message(&body).contains("300 ms"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_kept_alive_connection_is_closed_after_the_idle_timeout() {
    let db = Db::new("idle");
    let addr = serve_with(Options {
        idle_timeout_millis: 300,
        ..db.options()
    })
    .await;
    let mut tcp = held(addr).await;
    assert!(
        read_to_close(&mut tcp).await.is_empty(),
        "closed, nothing more sent"
    );
}

/// A WebSocket to game `id` on `addr`, or the HTTP status that refused it.
async fn try_ws(addr: SocketAddr, id: &str, token: Option<&str>) -> Result<real_port::Socket, u16> {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    match tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws{query}")).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("the WebSocket failed otherwise: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_websocket_over_the_cap_is_refused_and_a_seat_is_not() {
    let db = Db::new("spectators");
    let addr = serve_with(Options {
        max_spectators_per_game: 2,
        max_spectators: 3,
        ..db.options()
    })
    .await;
    let (a, blue) = morne_at(addr).await;
    let (b, _) = morne_at(addr).await;
    let _s1 = try_ws(addr, &a, None).await.unwrap();
    let _s2 = try_ws(addr, &a, None).await.unwrap();
    assert_eq!(
        try_ws(addr, &a, None).await.err(),
        Some(503),
        "the game's cap"
    );
    // A seat's token takes no spectator's slot.
    let mut seat = try_ws(addr, &a, Some(&blue)).await.unwrap();
    assert_eq!(real_port::next_object(&mut seat).await["seat"], "blue");
    let _s3 = try_ws(addr, &b, None).await.unwrap();
    assert_eq!(
        try_ws(addr, &b, None).await.err(),
        Some(503),
        "the overall cap"
    );
    // A slot given back is taken again.
    drop(_s1);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if try_ws(addr, &a, None).await.is_ok() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the closed spectator's slot came back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_peer_that_stops_answering_pings_is_dropped() {
    let db = Db::new("dead-peer");
    let addr = serve_with(Options {
        max_spectators_per_game: 1,
        ws_ping_millis: 200,
        ..db.options()
    })
    .await;
    let (id, blue) = morne_at(addr).await;
    // This spectator never reads again, so it never answers a ping.
    let mut dead = try_ws(addr, &id, None).await.unwrap();
    assert_eq!(try_ws(addr, &id, None).await.err(), Some(503));
    // A seat that reads answers every ping.
    let mut live = try_ws(addr, &id, Some(&blue)).await.unwrap();
    assert_eq!(real_port::next_object(&mut live).await["n"], 0);
    let reader = tokio::spawn(async move {
        // Reading answers the pings; the next object comes after the action below.
        let o = real_port::next_object(&mut live).await;
        (o, live)
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut spectator = loop {
        if let Ok(s) = try_ws(addr, &id, None).await {
            break s;
        }
        assert!(Instant::now() < deadline, "the dead spectator was dropped");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(real_port::next_object(&mut spectator).await["n"], 0);
    // The dead peer's socket was closed by the server.
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match dead.next().await {
                None | Some(Err(_)) => return,
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the dead peer's socket ends");
    // The live seat, past many pings, still gets the next change.
    let mut c = http::Client::connect(addr).await;
    let (status, _) = c
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&blue),
            Some(&json!({"action": {"type": "end_phase"}, "expect": 0})),
        )
        .await;
    assert_eq!(status, 200);
    let (pushed, _live) = reader.await.unwrap();
    assert_eq!(pushed["n"], 1);
}
