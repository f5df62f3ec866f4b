//! Play by web (issue 16) on a real port and a real file: accounts and sessions, the
//! CSRF check, log-in limits, claims, "my games", challenges, chat and ratings.

use super::real_port::serve;
use super::*;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;

/// A browser: keeps the cookies the server sets and sends them back.
pub(super) struct Browser {
    addr: SocketAddr,
    cookies: BTreeMap<String, String>,
}

impl Browser {
    pub(super) fn new(addr: SocketAddr) -> Browser {
        Browser {
            addr,
            cookies: BTreeMap::new(),
        }
    }

    pub(super) fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies.get(name).map(String::as_str)
    }

    /// A request with the cookies and, when `csrf`, the `csrf` cookie echoed in
    /// `X-CSRF-Token`; the status, the headers and the body.
    pub(super) async fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        csrf: bool,
        bearer: Option<&str>,
    ) -> (u16, hyper::HeaderMap, Value) {
        let stream = tokio::net::TcpStream::connect(self.addr).await.unwrap();
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(conn);
        let mut req = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addr.to_string());
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            req = req.header("cookie", jar.join("; "));
        }
        if csrf {
            if let Some(c) = self.cookies.get("csrf") {
                req = req.header("x-csrf-token", c.clone());
            }
        }
        if let Some(t) = bearer {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let res = sender
            .send_request(req.body(Full::new(bytes)).unwrap())
            .await
            .unwrap();
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        for c in headers.get_all("set-cookie") {
            let c = c.to_str().unwrap();
            let (kv, _) = c.split_once(';').unwrap_or((c, ""));
            let (k, v) = kv.split_once('=').unwrap();
            if v.is_empty() {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_owned(), v.to_owned());
            }
        }
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (status, headers, value)
    }

    /// A request with the session and its CSRF token: status and body.
    pub(super) async fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let (s, _, b) = self.send(method, path, body, true, None).await;
        (s, b)
    }

    /// Signs up as `name` with a password made from it.
    pub(super) async fn sign_up(&mut self, name: &str) {
        let (status, body) = self
            .call(
                "POST",
                "/api/accounts",
                Some(&json!({"name": name, "password": format!("{name}-secret-pw")})),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_logs_in_with_an_httponly_samesite_cookie_and_log_out_ends_the_session() {
    let db = Db::new("signup");
    let (addr, _) = serve(&db).await;
    let mut b = Browser::new(addr);
    let (status, headers, body) = b
        .send(
            "POST",
            "/api/accounts",
            Some(&json!({"name": "Ney", "password": "la-moskowa"})),
            false,
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["name"], "Ney");
    let cookies: Vec<&str> = headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect();
    let session = cookies
        .iter()
        .find(|c| c.starts_with("grognard_session="))
        .unwrap();
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
    assert!(!session.contains("Secure"), "not behind https: {session}");
    let csrf = cookies.iter().find(|c| c.starts_with("csrf=")).unwrap();
    assert!(!csrf.contains("HttpOnly"), "the page reads it: {csrf}");
    assert_eq!(
        b.call("GET", "/api/session", None).await,
        (200, json!({"name": "Ney"}))
    );
    // Logged out: the cookies are cleared and the old session is dead in the file.
    let old = b.cookie("grognard_session").unwrap().to_owned();
    let (status, _) = b.call("DELETE", "/api/session", None).await;
    assert_eq!(status, 204);
    assert_eq!(b.cookie("grognard_session"), None);
    assert_eq!(
        b.call("GET", "/api/session", None).await,
        (200, json!({"name": null}))
    );
    b.cookies.insert("grognard_session".into(), old);
    assert_eq!(
        b.call("GET", "/api/session", None).await,
        (200, json!({"name": null})),
        "a logged-out session stays dead"
    );
    // Log in again, case-insensitively by name.
    let (status, body) = b
        .call(
            "POST",
            "/api/session",
            Some(&json!({"name": "ney", "password": "la-moskowa"})),
        )
        .await;
    assert_eq!((status, &body["name"]), (200, &json!("Ney")), "{body}");
    assert_eq!(
        b.call("GET", "/api/session", None).await.1,
        json!({"name": "Ney"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_or_an_unknown_name_gets_401() {
    let db = Db::new("wrong-pw");
    let (addr, _) = serve(&db).await;
    let mut b = Browser::new(addr);
    b.sign_up("grouchy").await;
    let mut other = Browser::new(addr);
    for body in [
        json!({"name": "grouchy", "password": "not-the-password"}),
        json!({"name": "nobody", "password": "whatever-it-is"}),
    ] {
        let (status, answer) = other.call("POST", "/api/session", Some(&body)).await;
        assert_eq!(status, 401, "{answer}");
        assert_eq!(error_rule(&answer), "token");
        assert_eq!(other.cookie("grognard_session"), None);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_and_passwords_are_checked_with_400s_that_say_what_is_wrong() {
    let db = Db::new("names");
    let (addr, _) = serve(&db).await;
    let mut b = Browser::new(addr);
    for (name, password, rule, says) in [
        ("ab", "long-enough", "name", "3 to 20 characters"),
        ("ney ney", "long-enough", "name", "' '"),
        ("_ney", "long-enough", "name", "starts with a letter"),
        ("ney", "short", "password", "8 to 256 bytes"),
    ] {
        let (status, body) = b
            .call(
                "POST",
                "/api/accounts",
                Some(&json!({"name": name, "password": password})),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(error_rule(&body), rule);
        assert!(error_message(&body).contains(says), "{body}");
    }
    b.sign_up("Ney").await;
    let (status, body) = Browser::new(addr)
        .call(
            "POST",
            "/api/accounts",
            Some(&json!({"name": "NEY", "password": "another-one"})),
        )
        .await;
    assert_eq!((status, error_rule(&body)), (409, "taken"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_changing_request_with_the_session_but_without_the_csrf_header_gets_403() {
    let db = Db::new("csrf");
    let (addr, _) = serve(&db).await;
    let mut b = Browser::new(addr);
    b.sign_up("soult").await;
    let challenge =
        json!({"scenario": MORNE, "side": "blue", "time_per_move_hours": 24, "rated": false});
    let (status, _, body) = b
        .send("POST", "/api/challenges", Some(&challenge), false, None)
        .await;
    assert_eq!((status, error_rule(&body)), (403, "csrf"), "{body}");
    b.cookies.insert("csrf".into(), "0".repeat(32));
    let (status, _, body) = b.send("DELETE", "/api/session", None, true, None).await;
    assert_eq!(
        (status, error_rule(&body)),
        (403, "csrf"),
        "a forged token: {body}"
    );
    // A guest's seat link, without the session cookie, works as before.
    let mut guest = http::Client::connect(addr).await;
    let (status, made) = guest
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}})),
        )
        .await;
    assert_eq!(status, 201);
    let blue = made["seats"]["blue"]["token"].as_str().unwrap();
    let id = made["id"].as_str().unwrap();
    let (status, body) = guest
        .call(
            "POST",
            &format!("/api/games/{id}/chat"),
            Some(blue),
            Some(&json!({"text": "bonjour"})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_in_attempts_past_the_limit_of_a_name_get_429_with_retry_after() {
    let db = Db::new("login-rate");
    let (addr, _) = serve(&db).await;
    let mut b = Browser::new(addr);
    b.sign_up("murat").await;
    let wrong = json!({"name": "murat", "password": "not-his-password"});
    for _ in 0..5 {
        assert_eq!(b.call("POST", "/api/session", Some(&wrong)).await.0, 401);
    }
    let (status, headers, body) = b
        .send("POST", "/api/session", Some(&wrong), true, None)
        .await;
    assert_eq!((status, error_rule(&body)), (429, "rate"), "{body}");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    // Even the right password waits: the limit counts attempts, not failures.
    let right = json!({"name": "murat", "password": "murat-secret-pw"});
    assert_eq!(b.call("POST", "/api/session", Some(&right)).await.0, 429);
    // Another name from the same address is not held back by this one's limit.
    b.sign_up("davout").await;
}

/// Every byte of the file (with its WAL) as text.
fn file_text(db: &Db) -> String {
    let mut all = Vec::new();
    for suffix in ["", "-wal"] {
        let mut p = db.0.clone().into_os_string();
        p.push(suffix);
        all.extend(std::fs::read(p).unwrap_or_default());
    }
    String::from_utf8_lossy(&all).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_password_is_stored_only_as_an_argon2id_hash_never_in_clear() {
    let db = Db::new("no-clear-pw");
    let (addr, _) = serve(&db).await;
    let mut b = Browser::new(addr);
    let password = "Austerlitz-1805-sun";
    let (status, _) = b
        .call(
            "POST",
            "/api/accounts",
            Some(&json!({"name": "lannes", "password": password})),
        )
        .await;
    assert_eq!(status, 201);
    let session = b.cookie("grognard_session").unwrap().to_owned();
    if db.is_file() {
        let text = file_text(&db);
        assert!(!text.contains(password), "the password is in the file");
        assert!(
            !text.contains(&session),
            "the session's token is in the file"
        );
    }
    let stored: String = db.query("SELECT password FROM accounts WHERE name = 'lannes'", &[])[0]
        .get(0)
        .unwrap();
    assert!(
        db.query(
            "SELECT 1 FROM sessions WHERE token_sha256 = ?1",
            &[session.as_str().into()]
        )
        .is_empty(),
        "the session's token is stored only as its hash"
    );
    assert!(stored.starts_with("$argon2id$"), "{stored}");
}
