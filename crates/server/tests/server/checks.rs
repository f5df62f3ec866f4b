//! The checks every request passes (host, content type, the Authorization scheme),
//! the `Referrer-Policy` of every answer, and the list of games a page at a time.

use super::*;
use axum::http::HeaderMap;

/// A request with any headers; the status, headers and body.
async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (StatusCode, HeaderMap, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
    let res = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, headers, value)
}

#[tokio::test]
async fn a_request_for_another_host_gets_421_naming_the_host() {
    let db = Db::new("host");
    let (_, app) = open(&db);
    for host in ["localhost:8080", "127.0.0.1:9", "[::1]:8080", "localhost"] {
        let (status, _, _) = send(&app, "GET", "/api/scenarios", &[("host", host)], None).await;
        assert_eq!(status, StatusCode::OK, "{host}");
    }
    for host in ["evil.example:8080", "evil.example", "192.168.1.20:8080"] {
        let (status, _, body) = send(&app, "GET", "/api/games", &[("host", host)], None).await;
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{host}");
        assert_eq!(error_rule(&body), "host");
        assert!(error_message(&body).contains(host), "{body}");
        assert!(error_message(&body).contains("--allowed-hosts"), "{body}");
    }
    // The web client's pages and the WebSocket are behind the same check.
    let (status, _, _) = send(&app, "GET", "/", &[("host", "evil.example")], None).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
}

#[tokio::test]
async fn allowed_hosts_and_public_accept_other_host_names() {
    let db = Db::new("hosts-allowed");
    let app = app(AppState::open(&Options {
        allowed_hosts: vec!["games.example.org".into()],
        ..db.options()
    })
    .unwrap());
    let host = |h: &'static str| {
        let app = app.clone();
        async move {
            send(&app, "GET", "/api/scenarios", &[("host", h)], None)
                .await
                .0
        }
    };
    assert_eq!(host("games.example.org").await, StatusCode::OK);
    assert_eq!(host("GAMES.example.org:443").await, StatusCode::OK);
    assert_eq!(host("localhost:8080").await, StatusCode::OK);
    assert_eq!(host("example.org").await, StatusCode::MISDIRECTED_REQUEST);
    drop(app);
    let public = grognard_server::app(
        AppState::open(&Options {
            public: true,
            ..db.options()
        })
        .unwrap(),
    );
    let (status, _, _) = send(
        &public,
        "GET",
        "/api/scenarios",
        &[("host", "anything.example:1")],
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_post_body_that_is_not_json_gets_415_naming_the_content_type() {
    let db = Db::new("content-type");
    let (_, app) = open(&db);
    let req = json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}});
    let (status, _, body) = send(
        &app,
        "POST",
        "/api/games",
        &[("content-type", "text/plain")],
        Some(&req),
    )
    .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(error_rule(&body), "content_type");
    assert!(error_message(&body).contains("`text/plain`"), "{body}");
    assert!(error_message(&body).contains("application/json"), "{body}");
    let (status, _, body) = send(&app, "POST", "/api/games", &[], Some(&req)).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(
        error_message(&body).contains("without a content type"),
        "{body}"
    );
    let form = [("content-type", "application/x-www-form-urlencoded")];
    assert_eq!(
        send(&app, "POST", "/api/games", &form, Some(&req)).await.0,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    let json = [("content-type", "Application/JSON; charset=utf-8")];
    let (status, _, created) = send(&app, "POST", "/api/games", &json, Some(&req)).await;
    assert_eq!(status, StatusCode::CREATED);
    // A POST without a body needs no content type (the hint reads none).
    let id = created["id"].as_str().unwrap();
    let token = created["seats"]["blue"]["token"].as_str().unwrap();
    let auth = format!("Bearer {token}");
    let (status, _, body) = send(
        &app,
        "POST",
        &format!("/api/games/{id}/hint"),
        &[("authorization", &auth)],
        None,
    )
    .await;
    assert_ne!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
}

#[tokio::test]
async fn every_answer_carries_referrer_policy_no_referrer() {
    let db = Db::new("referrer");
    let (_, app) = open(&db);
    for (uri, host) in [
        ("/", "localhost"),
        ("/api/scenarios", "localhost"),
        ("/api/games/nope", "localhost"),
        ("/api/nothing", "localhost"),
        ("/style.css", "localhost"),
        ("/api/scenarios", "evil.example"),
    ] {
        let (_, headers, _) = send(&app, "GET", uri, &[("host", host)], None).await;
        assert_eq!(
            headers.get("referrer-policy").map(|v| v.to_str().unwrap()),
            Some("no-referrer"),
            "{uri} for {host}"
        );
    }
}

#[tokio::test]
async fn the_bearer_scheme_is_read_in_any_case_and_a_header_without_it_gets_401() {
    let db = Db::new("bearer");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let uri = format!("/api/games/{id}");
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let auth = format!("{scheme} {blue}");
        let (status, _, g) = send(&app, "GET", &uri, &[("authorization", &auth)], None).await;
        assert_eq!(status, StatusCode::OK, "{scheme}");
        assert_eq!(g["seat"], "blue", "{scheme}");
    }
    for bad in [blue.as_str(), "Basic Ymx1ZTp4", "Bearer"] {
        let (status, _, body) = send(&app, "GET", &uri, &[("authorization", bad)], None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{bad}");
        assert_eq!(error_rule(&body), "token");
        assert!(error_message(&body).contains("Bearer"), "{body}");
    }
    let (status, _, body) = send(&app, "GET", &uri, &[("authorization", &blue)], None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(error_message(&body).contains("no scheme"), "{body}");
}

/// `GET uri`: the array and the next page's cursor.
async fn page(app: &Router, uri: &str) -> (Vec<Value>, Option<String>, Option<String>) {
    let (status, headers, body) = send(app, "GET", uri, &[], None).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    (
        body.as_array().unwrap().clone(),
        header("x-next-cursor"),
        header("link"),
    )
}

fn ids(games: &[Value]) -> Vec<String> {
    games
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_cursor_walk_lists_every_game_once_newest_activity_first() {
    let db = Db::new("walk");
    let (_, app) = open(&db);
    let mut created = Vec::new();
    for _ in 0..12 {
        created.push(morne(&app).await);
    }
    // The oldest game acts last: it becomes the newest activity.
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (oldest, blue, _) = &created[0];
    let (status, _) = act(&app, oldest, Some(blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK);

    let (all, next, _) = page(&app, "/api/games?limit=200").await;
    assert_eq!(all.len(), 12);
    assert_eq!(next, None, "one page holds them all");
    assert_eq!(all[0]["id"], oldest.as_str(), "the latest activity first");
    let keys: Vec<(String, String)> = all
        .iter()
        .map(|g| {
            (
                g["active"].as_str().unwrap().to_owned(),
                g["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    assert_eq!(keys, sorted, "newest activity first, then by id");

    let mut walked = Vec::new();
    let mut uri = "/api/games?limit=5".to_owned();
    let mut pages = 0;
    loop {
        let (games, next, link) = page(&app, &uri).await;
        assert!(games.len() <= 5);
        walked.extend(ids(&games));
        pages += 1;
        let Some(cursor) = next else {
            assert_eq!(link, None, "no Link on the last page");
            break;
        };
        let link = link.expect("a Link beside the cursor");
        assert_eq!(
            link,
            format!("</api/games?limit=5&cursor={cursor}>; rel=\"next\"")
        );
        uri = format!("/api/games?limit=5&cursor={cursor}");
    }
    assert_eq!(pages, 3);
    assert_eq!(walked, ids(&all), "every game once, in order");
}

#[tokio::test]
async fn the_list_holds_50_games_unless_told_and_at_most_200() {
    let db = Db::new("limits");
    let (_, app) = open(&db);
    for _ in 0..55 {
        morne(&app).await;
    }
    let (first, next, _) = page(&app, "/api/games").await;
    assert_eq!(first.len(), 50);
    let (rest, last, _) = page(&app, &format!("/api/games?cursor={}", next.unwrap())).await;
    assert_eq!(rest.len(), 5);
    assert_eq!(last, None);
    assert_eq!(page(&app, "/api/games?limit=200").await.0.len(), 55);
    assert_eq!(page(&app, "/api/games?limit=1").await.0.len(), 1);
}

#[tokio::test]
async fn a_bad_limit_cursor_ruleset_or_open_gets_400_naming_it() {
    let db = Db::new("bad-list");
    let (_, app) = open(&db);
    for (query, named) in [
        ("limit=0", "`limit`"),
        ("limit=201", "`limit`"),
        ("limit=-1", "`limit`"),
        ("limit=ten", "`limit`"),
        ("cursor=zz", "`cursor`"),
        ("cursor=7c", "`cursor`"),
        ("ruleset=chess", "`ruleset`"),
        ("open=yes", "`open`"),
    ] {
        let (status, _, body) = send(&app, "GET", &format!("/api/games?{query}"), &[], None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(error_rule(&body), "request");
        assert!(error_message(&body).contains(named), "{query}: {body}");
    }
}

#[tokio::test]
async fn the_list_filters_by_ruleset_and_by_open_seats() {
    let db = Db::new("filters");
    let (state, app) = open(&db);
    let (morne_open, _, _) = morne(&app).await;
    let (morne_taken, blue, orange) = morne(&app).await;
    // Both seats of this one have shown their tokens.
    for t in [&blue, &orange] {
        assert_eq!(
            get(&app, &format!("/api/games/{morne_taken}"), Some(t))
                .await
                .0,
            StatusCode::OK
        );
    }
    let other = state
        .lobby()
        .scenarios
        .iter()
        .find(|e| e.scenario.ruleset != "morne_plaine")
        .expect("a scenario of another ruleset");
    let seats: Vec<(&str, &str)> = other
        .scenario
        .sides
        .iter()
        .map(|s| (s.id.as_str(), "human"))
        .collect();
    let (elsewhere, _) = new_game(&app, &other.id, &seats, None).await;

    let (games, _, _) = page(&app, "/api/games?ruleset=morne_plaine").await;
    let mut listed = ids(&games);
    listed.sort();
    let mut expected = vec![morne_open.clone(), morne_taken.clone()];
    expected.sort();
    assert_eq!(listed, expected);
    let ruleset = &other.scenario.ruleset;
    let (games, _, _) = page(&app, &format!("/api/games?ruleset={ruleset}")).await;
    assert_eq!(ids(&games), std::slice::from_ref(&elsewhere));

    let (games, _, _) = page(&app, "/api/games?open=true").await;
    let mut listed = ids(&games);
    listed.sort();
    let mut expected = vec![morne_open.clone(), elsewhere];
    expected.sort();
    assert_eq!(
        listed, expected,
        "the game whose seats were both taken is not open"
    );
    let (games, _, _) = page(&app, "/api/games?open=true&ruleset=morne_plaine").await;
    assert_eq!(ids(&games), [morne_open]);
    assert_eq!(page(&app, "/api/games?open=false").await.0.len(), 3);
}
