//! A real port: concurrent submissions and WebSocket pushes.

use super::*;

pub(super) async fn serve(db: &Db) -> (SocketAddr, AppState) {
    let state = AppState::open(&db.options()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grognard_server::serve_on(listener, state.clone()));
    (addr, state)
}

/// A new Morne Plaine game created over `c`, both sides human: its id and the blue
/// and orange tokens.
pub(super) async fn morne_over(c: &mut http::Client) -> (String, String, String) {
    let seats = json!({"blue": "human", "orange": "human"});
    let (status, created) = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": MORNE, "seats": seats})),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let token = |side: &str| created["seats"][side]["token"].as_str().unwrap().to_owned();
    let id = created["id"].as_str().unwrap().to_owned();
    (id, token("blue"), token("orange"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_concurrent_submissions_at_the_same_n_exactly_one_wins() {
    let db = Db::new("race");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    for round in 0..5u64 {
        let (id, blue, _) = morne_over(&mut c).await;
        let (_, g) = c
            .call("GET", &format!("/api/games/{id}"), Some(&blue), None)
            .await;
        let actions = g["actions"].as_array().unwrap().clone();
        let tasks = 8;
        let barrier = Arc::new(tokio::sync::Barrier::new(tasks));
        let mut handles = Vec::new();
        for i in 0..tasks {
            let (barrier, id, blue) = (Arc::clone(&barrier), id.clone(), blue.clone());
            // Different legal actions, all at n = 0.
            let action = actions[(i + round as usize) % actions.len()].clone();
            handles.push(tokio::spawn(async move {
                let mut c = http::Client::connect(addr).await;
                barrier.wait().await;
                c.call(
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(&blue),
                    Some(&json!({"action": action, "expect": 0})),
                )
                .await
            }));
        }
        let mut statuses = Vec::new();
        for h in handles {
            statuses.push(h.await.unwrap().0);
        }
        statuses.sort_unstable();
        let mut expected = vec![409; tasks - 1];
        expected.insert(0, 200);
        assert_eq!(statuses, expected, "round {round}");
        let (_, g) = c.call("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(g["n"], 1);
        assert_eq!(
            grognard_server::store::read_log(&db.location(), &id)
                .unwrap()
                .len(),
            1
        );
    }
}

pub(super) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(super) async fn ws(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let (socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws{query}"))
            .await
            .expect("WebSocket");
    socket
}

/// The next game object on a socket.
pub(super) async fn next_object(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a message within ten seconds")
            .expect("the socket is open")
            .expect("a message");
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).expect("JSON");
        }
    }
}

/// Game objects off a socket until one at `n`; all of them.
pub(super) async fn objects_until(socket: &mut Socket, n: u64) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let o = next_object(socket).await;
        let at = o["n"].as_u64().unwrap();
        seen.push(o);
        if at >= n {
            return seen;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_client_receives_the_first_clients_move_over_websocket() {
    let db = Db::new("ws");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let (id, blue, orange) = morne_over(&mut c).await;
    let (id, blue, orange) = (id.as_str(), blue.as_str(), orange.as_str());

    let mut orange_ws = ws(addr, id, Some(orange)).await;
    let mut spectator_ws = ws(addr, id, None).await;
    let first = next_object(&mut orange_ws).await;
    assert_eq!(
        (first["n"].as_u64(), first["seat"].as_str()),
        (Some(0), Some("orange"))
    );
    assert_eq!(next_object(&mut spectator_ws).await["seat"], "spectator");

    let (status, _) = c
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(blue),
            Some(&json!({"action": {"type": "end_phase"}, "expect": 0})),
        )
        .await;
    assert_eq!(status, 200);
    let pushed = next_object(&mut orange_ws).await;
    assert_eq!(pushed["n"], 1);
    assert_eq!(pushed["seat"], "orange");
    assert_eq!(pushed["log"][0]["action"], json!({"type": "end_phase"}));
    assert_eq!(pushed["actions"], json!([]));
    let (_, orange_get) = c
        .call("GET", &format!("/api/games/{id}"), Some(orange), None)
        .await;
    assert_eq!(pushed, orange_get, "the push is the seat's GET");
    assert_eq!(next_object(&mut spectator_ws).await["n"], 1);

    // The seat to act gets its actions in the push.
    let mut blue_ws = ws(addr, id, Some(blue)).await;
    assert!(!next_object(&mut blue_ws).await["actions"]
        .as_array()
        .unwrap()
        .is_empty());
}
