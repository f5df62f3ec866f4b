//! Play by web (issue 16), the rest, on a real port and a real file: resignations,
//! losses on time, the computer on time, reminders, and the notifications by email
//! (to an SMTP listener the test runs) and webhook (to an HTTP listener it runs).

use super::play_by_web::Browser;
use super::real_port::{next_object, ws};
use super::*;
use grognard_server::accounts::timeouts;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Serves `options` on a loopback port.
async fn serve_with(options: &Options) -> (SocketAddr, AppState) {
    let state = AppState::open(options).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(grognard_server::serve_on(listener, state.clone()));
    (addr, state)
}

/// Options whose sweep of the clocks runs once at the start and then only when a test
/// calls it ([`timeouts::sweep`]).
fn quiet(db: &Db) -> Options {
    let mut o = db.options();
    o.by_web.clock_sweep_secs = 86_400.0;
    o.by_web.webhook_private_targets = true;
    o
}

/// `a` (blue) opens a challenge with `extra` fields; `b` (orange) accepts. The game,
/// and each one's token.
async fn challenge(a: &mut Browser, b: &mut Browser, extra: &Value) -> (String, String, String) {
    let mut body = json!({"scenario": MORNE, "side": "blue", "rated": true});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (status, opened) = a.call("POST", "/api/challenges", Some(&body)).await;
    assert_eq!(status, 201, "{opened}");
    let path = format!("/api/challenges/{}/accept", opened["id"].as_str().unwrap());
    let (status, game) = b.call("POST", &path, None).await;
    assert_eq!(status, 200, "{game}");
    (
        game["id"].as_str().unwrap().to_owned(),
        opened["token"].as_str().unwrap().to_owned(),
        game["token"].as_str().unwrap().to_owned(),
    )
}

/// Two accounts, ney (blue) and soult (orange), in a challenge game.
async fn two_players(addr: SocketAddr, extra: &Value) -> (Browser, Browser, String) {
    let (mut ney, mut soult) = (Browser::new(addr), Browser::new(addr));
    ney.sign_up("ney").await;
    soult.sign_up("soult").await;
    let (id, _, _) = challenge(&mut ney, &mut soult, extra).await;
    (ney, soult, id)
}

/// Blue ends its phases until orange is to act; the answer of the last action.
async fn blue_passes_the_turn(ney: &mut Browser, id: &str) -> Value {
    for _ in 0..20 {
        let (_, g) = ney.call("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(g["to_act"]["side"], "blue", "{g}");
        let body = json!({"action": {"type": "end_phase"}, "expect": g["n"]});
        let (status, answer) = ney
            .call("POST", &format!("/api/games/{id}/actions"), Some(&body))
            .await;
        assert_eq!(status, 200, "{answer}");
        if answer["view"]["to_act"]["side"] != "blue" {
            return answer;
        }
    }
    panic!("blue never passed the turn");
}

/// Polls `GET /api/games/{id}` (at most `tries` times, a short pause between) until
/// `done` holds; the last object.
async fn poll(addr: SocketAddr, id: &str, tries: u32, done: impl Fn(&Value) -> bool) -> Value {
    let mut b = Browser::new(addr);
    for _ in 0..tries {
        let (_, g) = b.call("GET", &format!("/api/games/{id}"), None).await;
        if done(&g) {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id} never got there");
}

fn rating(board: &Value, name: &str) -> f64 {
    board
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .and_then(|e| e["rating"].as_f64())
        .unwrap_or_else(|| panic!("{name} is not on the board: {board}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_ends_the_game_pushes_it_and_settles_both_ratings_and_a_restart_keeps_it() {
    let db = Db::new("resign");
    let options = quiet(&db);
    let (addr, state) = serve_with(&options).await;
    let (mut ney, mut soult, id) = two_players(addr, &json!({})).await;
    let mut watcher = ws(addr, &id, None).await;
    assert!(next_object(&mut watcher).await["outcome"].is_null());
    // Spectators may not resign; a session without its CSRF header may not either.
    let path = format!("/api/games/{id}/resign");
    assert_eq!(Browser::new(addr).call("POST", &path, None).await.0, 401);
    assert_eq!(soult.send("POST", &path, None, false, None).await.0, 403);
    // Orange resigns while blue is to act.
    let (status, answer) = soult.call("POST", &path, None).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["outcome"]["winner"], "blue");
    assert_eq!(answer["outcome"]["rule"], "ENGINE-RESIGN");
    let pushed = next_object(&mut watcher).await;
    assert_eq!(
        pushed["outcome"], answer["outcome"],
        "pushed to every socket"
    );
    assert!(pushed["to_act"].is_null() && pushed["actions"] == json!([]));
    let (_, g) = ney.call("GET", &format!("/api/games/{id}"), None).await;
    assert!(
        g["outcome"]["reason"]
            .as_str()
            .unwrap()
            .ends_with("resigned"),
        "{g}"
    );
    // Nothing more: no action, no second resignation, no undo.
    let body = json!({"action": {"type": "end_phase"}, "expect": g["n"]});
    let (status, _) = ney
        .call("POST", &format!("/api/games/{id}/actions"), Some(&body))
        .await;
    assert_eq!(status, 403);
    assert_eq!(ney.call("POST", &path, None).await.0, 403);
    let (_, board) = ney.call("GET", "/api/ratings/morne_plaine", None).await;
    assert!(
        rating(&board, "ney") > 1500.0 && rating(&board, "soult") < 1500.0,
        "{board}"
    );
    // The ending is in the file: another server on it finds the game over.
    let (_, app) = reopen(&state, &db).await;
    let (_, again) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(again["outcome"], answer["outcome"]);
    let (_, replay) = get(&app, &format!("/api/games/{id}/replay"), None).await;
    assert!(!replay["outcome"].is_null(), "{replay}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loss_on_time_ends_the_game_and_names_the_side_that_ran_out() {
    let db = Db::new("on-time");
    let mut options = db.options();
    // The sweep runs every 50 ms; a move may take 36 ms.
    options.by_web.clock_sweep_secs = 0.05;
    let (addr, state) = serve_with(&options).await;
    let (mut ney, _soult, id) = two_players(addr, &json!({"time_per_move_hours": 0.00001})).await;
    let g = poll(addr, &id, 400, |g| !g["outcome"].is_null()).await;
    assert_eq!(g["outcome"]["winner"], "orange", "{g}");
    assert_eq!(g["outcome"]["rule"], "ENGINE-TIME");
    assert_eq!(
        g["outcome"]["reason"],
        "Blue corps lost on time (the time per move ran out)"
    );
    let (_, board) = ney.call("GET", "/api/ratings/morne_plaine", None).await;
    assert!(rating(&board, "soult") > 1500.0, "{board}");
    let (_, app) = reopen(&state, &db).await;
    let (_, again) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(again["outcome"], g["outcome"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_takes_the_seat_on_time_when_the_challenge_chose_so() {
    let db = Db::new("computer-on-time");
    let (addr, state) = serve_with(&quiet(&db)).await;
    let extra = json!({"time_per_move_hours": 0.00001, "on_time": "computer"});
    let (mut ney, _soult, id) = two_players(addr, &extra).await;
    let (_, s) = ney
        .call("GET", &format!("/api/games/{id}/settings"), None)
        .await;
    assert_eq!(s["on_time"], "computer", "{s}");
    tokio::time::sleep(Duration::from_millis(40)).await;
    // The 36 ms of blue's move are gone once this sleep is over: the sweep finds it.
    timeouts::sweep(&state).await.unwrap();
    let g = poll(addr, &id, 400, |g| g["n"].as_u64() > Some(0)).await;
    assert!(g["outcome"].is_null(), "the game goes on: {g}");
    assert_eq!(g["seats"]["blue"], "ai", "{g}");
    let (_, s) = ney
        .call("GET", &format!("/api/games/{id}/settings"), None)
        .await;
    assert_eq!(s["stand_ins"], json!(["blue"]), "{s}");
    // Blue's player no longer acts for blue.
    let (_, mine) = ney.call("GET", &format!("/api/games/{id}"), None).await;
    let body = json!({"action": {"type": "end_phase"}, "expect": mine["n"]});
    let (status, refused) = ney
        .call("POST", &format!("/api/games/{id}/actions"), Some(&body))
        .await;
    assert_eq!(
        (status, &refused["error"]["rule"]),
        (403, &json!("seat")),
        "{refused}"
    );
}

/// An HTTP listener on 127.0.0.1: each request's body in `bodies`; it answers only
/// once `release` gets a message (or at once when `hold` is false).
async fn webhook_listener(
    hold: bool,
) -> (
    String,
    mpsc::UnboundedReceiver<Value>,
    mpsc::UnboundedSender<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook?x=1", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::unbounded_channel();
    let (release, mut released) = mpsc::unbounded_channel::<()>();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let mut reader = BufReader::new(stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).await.unwrap();
            tx.send(serde_json::from_slice(&body).unwrap()).unwrap();
            if hold {
                released.recv().await;
            }
            let mut stream = reader.into_inner();
            let _ = stream
                .write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
                .await;
        }
    });
    (url, rx, release)
}

async fn next_body(rx: &mut mpsc::UnboundedReceiver<Value>) -> Value {
    tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .expect("a notification within twenty seconds")
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_gets_json_with_content_and_text_and_the_action_does_not_wait_for_it() {
    let db = Db::new("webhook");
    let (addr, _state) = serve_with(&quiet(&db)).await;
    let (mut ney, mut soult, id) = two_players(addr, &json!({"time_per_move_hours": 48})).await;
    let (url, mut bodies, release) = webhook_listener(true).await;
    let (status, set) = soult
        .call(
            "PUT",
            "/api/me/notifications",
            Some(&json!({"webhook": url})),
        )
        .await;
    assert_eq!(status, 200, "{set}");
    // The listener holds its answer until told: had the action waited for it, the
    // action's answer would never come.
    let answer = tokio::time::timeout(Duration::from_secs(60), blue_passes_the_turn(&mut ney, &id))
        .await
        .expect("the action answers while the webhook's listener has not");
    assert_eq!(answer["view"]["to_act"]["side"], "orange");
    let body = next_body(&mut bodies).await;
    release.send(()).unwrap();
    let link = format!("http://127.0.0.1:8080/play/{id}");
    assert_eq!(body["content"], body["text"], "{body}");
    assert!(body["content"].as_str().unwrap().contains(&link), "{body}");
    // The side as the scenario names it, not its id.
    assert!(
        body["content"].as_str().unwrap().contains("Orange corps"),
        "{body}"
    );
    assert_eq!(
        (
            &body["kind"],
            &body["game"],
            &body["scenario"],
            &body["side"],
            &body["url"]
        ),
        (
            &json!("turn"),
            &json!(id),
            &json!(MORNE),
            &json!("orange"),
            &json!(link)
        )
    );
}

/// A little SMTP server on 127.0.0.1: each message's DATA in `mails`.
async fn smtp_listener() -> (u16, mpsc::UnboundedReceiver<String>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 test ESMTP\r\n").await.unwrap();
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.get(..4).unwrap_or_default().to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250 test\r\n",
                        "DATA" => {
                            write.write_all(b"354 go on\r\n").await.unwrap();
                            let mut data = String::new();
                            while let Ok(Some(l)) = lines.next_line().await {
                                if l == "." {
                                    break;
                                }
                                data.push_str(&l);
                                data.push('\n');
                            }
                            tx.send(data).unwrap();
                            b"250 queued\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            break;
                        }
                        _ => b"250 ok\r\n",
                    };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, rx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_arrives_with_the_game_link_when_the_turn_passes() {
    let db = Db::new("email");
    let (port, mut mails) = smtp_listener().await;
    let mut options = quiet(&db);
    options.by_web.smtp_host = Some("127.0.0.1".into());
    options.by_web.smtp_port = port;
    options.by_web.smtp_tls = grognard_server::accounts::options::SmtpTls::None;
    options.by_web.smtp_from = "grognard <games@example.org>".into();
    options.by_web.public_url = "https://games.example.org/".into();
    let (addr, _state) = serve_with(&options).await;
    let (mut ney, mut soult, id) = two_players(addr, &json!({})).await;
    let (status, _) = soult
        .call(
            "PUT",
            "/api/me/notifications",
            Some(&json!({"email": "soult@example.org"})),
        )
        .await;
    assert_eq!(status, 200);
    blue_passes_the_turn(&mut ney, &id).await;
    let mail = tokio::time::timeout(Duration::from_secs(20), mails.recv())
        .await
        .expect("a mail within twenty seconds")
        .unwrap();
    // The body may be quoted-printable: its soft line breaks and `=3D` undone.
    let mail = mail.replace("=\n", "").replace("=3D", "=");
    assert!(mail.contains("To: soult@example.org"), "{mail}");
    assert!(
        mail.contains("From: grognard <games@example.org>"),
        "{mail}"
    );
    assert!(mail.contains("Subject: Your turn in"), "{mail}");
    assert!(
        mail.contains(&format!("https://games.example.org/play/{id}")),
        "{mail}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_is_sent_once_a_move_even_across_a_restart() {
    let db = Db::new("reminder");
    let mut options = quiet(&db);
    // A reminder once 99.99 % of the hour is left: at once.
    options.by_web.remind_at = 0.9999;
    let (addr, state) = serve_with(&options).await;
    let (_ney, mut soult, id) = two_players(addr, &json!({"time_per_move_hours": 1})).await;
    let (url, mut bodies, _release) = webhook_listener(false).await;
    // Blue is to act: ney is reminded. Soult asks for reminders too, to see none.
    let mut ney = Browser::new(addr);
    let (status, _) = ney
        .call(
            "POST",
            "/api/session",
            Some(&json!({"name": "ney", "password": "ney-secret-pw"})),
        )
        .await;
    assert_eq!(status, 200);
    for who in [&mut ney, &mut soult] {
        let (status, _) = who
            .call(
                "PUT",
                "/api/me/notifications",
                Some(&json!({"webhook": url})),
            )
            .await;
        assert_eq!(status, 200);
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    for _ in 0..3 {
        timeouts::sweep(&state).await.unwrap();
    }
    let body = next_body(&mut bodies).await;
    assert_eq!(
        (&body["kind"], &body["side"]),
        (&json!("reminder"), &json!("blue")),
        "{body}"
    );
    assert!(body["deadline"].as_str().unwrap().ends_with('Z'));
    // Another server on the file sweeps again: the reminder is in the file, not sent.
    state.lobby().close().await;
    let (addr, again) = serve_with(&options).await;
    timeouts::sweep(&again).await.unwrap();
    let rows: i64 = db.query(
        "SELECT COUNT(*) FROM reminders WHERE game_id = ?1",
        &[id.as_str().into()],
    )[0]
    .get(0)
    .unwrap();
    assert_eq!(rows, 1);
    // The next notice is the turn blue passes to orange after the sweep, queued
    // behind any second reminder: there is none.
    let mut ney = Browser::new(addr);
    let login = json!({"name": "ney", "password": "ney-secret-pw"});
    assert_eq!(ney.call("POST", "/api/session", Some(&login)).await.0, 200);
    blue_passes_the_turn(&mut ney, &id).await;
    let body = next_body(&mut bodies).await;
    assert_eq!(
        (&body["kind"], &body["side"]),
        (&json!("turn"), &json!("orange")),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_notification_settings_validate_each_field_with_a_400_naming_it() {
    let db = Db::new("notify-settings");
    let mut options = db.options();
    options.by_web.webhook_private_targets = false;
    let (addr, _state) = serve_with(&options).await;
    let mut anon = Browser::new(addr);
    assert_eq!(anon.call("GET", "/api/me/notifications", None).await.0, 401);
    let mut ney = Browser::new(addr);
    ney.sign_up("ney").await;
    let (status, s) = ney.call("GET", "/api/me/notifications", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        s,
        json!({"email": null, "webhook": null, "web_push": null, "on_turn": true, "on_reminder": true})
    );
    for (body, field) in [
        (json!({"email": "not-an-address"}), "email"),
        (json!({"email": "a@b.c\r\nBcc: x@y.z"}), "email"),
        (json!({"webhook": "ftp://example.org/"}), "webhook"),
        (json!({"webhook": "http://127.0.0.1:9/"}), "webhook"),
        (
            json!({"web_push": {"endpoint": "https://push.example/1"}}),
            "web_push",
        ),
    ] {
        let (status, e) = ney.call("PUT", "/api/me/notifications", Some(&body)).await;
        assert_eq!(
            (status, &e["error"]["rule"]),
            (400, &json!(field)),
            "{body} -> {e}"
        );
        let message = e["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(&format!("\"{field}\"")), "{message}");
    }
    let (status, e) = ney
        .call("PUT", "/api/me/notifications", Some(&json!({"sms": "+33"})))
        .await;
    assert_eq!(status, 400);
    assert!(
        e["error"]["message"].as_str().unwrap().contains("sms"),
        "{e}"
    );
    let wanted = json!({"email": "ney@example.org", "webhook": "https://example.org/hook",
                        "web_push": null, "on_turn": true, "on_reminder": false});
    let (status, set) = ney
        .call("PUT", "/api/me/notifications", Some(&wanted))
        .await;
    assert_eq!((status, &set), (200, &wanted));
    assert_eq!(
        ney.call("GET", "/api/me/notifications", None).await.1,
        wanted
    );
}

/// A push service on 127.0.0.1: each request's headers (lowercase names) and body.
async fn push_listener() -> (
    String,
    mpsc::UnboundedReceiver<(BTreeMap<String, String>, Vec<u8>)>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/push/ua-1", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let mut reader = BufReader::new(stream);
            let mut headers = BTreeMap::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).await.unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some((k, v)) = line.split_once(':') {
                    headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
                }
            }
            let length = headers
                .get("content-length")
                .map_or(0, |l| l.parse().unwrap());
            let mut body = vec![0; length];
            reader.read_exact(&mut body).await.unwrap();
            tx.send((headers, body)).unwrap();
            let _ = reader
                .into_inner()
                .write_all(
                    b"HTTP/1.1 201 Created\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                )
                .await;
        }
    });
    (url, rx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_push_reaches_the_subscriptions_endpoint_encrypted_and_signed_with_the_servers_vapid_key(
) {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let db = Db::new("web-push");
    let options = quiet(&db);
    let (addr, state) = serve_with(&options).await;
    let (_, key) = Browser::new(addr).call("GET", "/api/push/key", None).await;
    let key = key["public_key"].as_str().unwrap().to_owned();
    let point = b64.decode(&key).unwrap();
    assert_eq!(
        (point.len(), point[0]),
        (65, 4),
        "an uncompressed P-256 point"
    );
    let (mut ney, mut soult, id) = two_players(addr, &json!({})).await;
    let (endpoint, mut pushes) = push_listener().await;
    // A subscription as a browser makes it (the keys of RFC 8291's example).
    let subscription = json!({"endpoint": endpoint, "expirationTime": null, "keys": {
        "p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        "auth": "BTBZMqHH6r4Tts7J_aSIgg"}});
    let (status, set) = soult
        .call(
            "PUT",
            "/api/me/notifications",
            Some(&json!({"web_push": subscription})),
        )
        .await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(set["web_push"]["endpoint"], json!(endpoint));
    let short = json!({"web_push": {"endpoint": endpoint, "keys": {"p256dh": "AAAA", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}}});
    let (status, e) = soult
        .call("PUT", "/api/me/notifications", Some(&short))
        .await;
    assert_eq!(
        (status, &e["error"]["rule"]),
        (400, &json!("web_push")),
        "{e}"
    );
    blue_passes_the_turn(&mut ney, &id).await;
    let (headers, body) = tokio::time::timeout(Duration::from_secs(20), pushes.recv())
        .await
        .expect("a push within twenty seconds")
        .unwrap();
    assert_eq!(headers["content-encoding"], "aes128gcm", "{headers:?}");
    let vapid = &headers["authorization"];
    assert!(
        vapid.starts_with("vapid t=") && vapid.ends_with(&format!("k={key}")),
        "{vapid}"
    );
    assert!(headers.contains_key("ttl"));
    assert!(body.len() > 100, "a record of ciphertext");
    assert!(
        !String::from_utf8_lossy(&body).contains("your turn"),
        "the payload is encrypted"
    );
    // The key pair is kept in the file: another server on it has the same public key.
    state.lobby().close().await;
    let (addr, _) = serve_with(&options).await;
    let (_, again) = Browser::new(addr).call("GET", "/api/push/key", None).await;
    assert_eq!(again["public_key"], json!(key));
}
