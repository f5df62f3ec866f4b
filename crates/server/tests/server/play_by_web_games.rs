//! Play by web (issue 16) on a real port: claims, "my games", open challenges, chat
//! and ratings.

use super::play_by_web::Browser;
use super::real_port::{serve, Socket};
use super::*;

/// `a` opens a challenge on `scenario` playing `side`; `b` accepts it. The game's id
/// and each one's token.
async fn challenge(
    a: &mut Browser,
    b: &mut Browser,
    scenario: &str,
    side: &str,
    rated: bool,
) -> (String, String, String) {
    let (status, opened) = a
        .call(
            "POST",
            "/api/challenges",
            Some(&json!({"scenario": scenario, "side": side, "time_per_move_hours": 48, "rated": rated})),
        )
        .await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["id"].as_str().unwrap();
    let (status, game) = b
        .call("POST", &format!("/api/challenges/{id}/accept"), None)
        .await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["id"], opened["game"]);
    (
        game["id"].as_str().unwrap().to_owned(),
        opened["token"].as_str().unwrap().to_owned(),
        game["token"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_listed_while_open_and_accepting_it_gives_both_accounts_their_seats() {
    let db = Db::new("challenge");
    let (addr, _) = serve(&db).await;
    let (mut ney, mut soult) = (Browser::new(addr), Browser::new(addr));
    ney.sign_up("ney").await;
    soult.sign_up("soult").await;
    let (status, opened) = ney
        .call(
            "POST",
            "/api/challenges",
            Some(&json!({"scenario": MORNE, "side": "blue", "time_per_move_hours": 24, "rated": true})),
        )
        .await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["id"].as_str().unwrap();
    let (status, open) = Browser::new(addr)
        .call("GET", "/api/challenges", None)
        .await;
    assert_eq!(status, 200);
    let listed = open.as_array().unwrap();
    assert_eq!(listed.len(), 1, "{open}");
    assert_eq!(
        (
            &listed[0]["id"],
            &listed[0]["creator"],
            &listed[0]["open_side"],
            &listed[0]["rated"]
        ),
        (&json!(id), &json!("ney"), &json!("orange"), &json!(true))
    );
    let accept = format!("/api/challenges/{id}/accept");
    let (status, body) = ney.call("POST", &accept, None).await;
    assert_eq!(status, 400, "not one's own: {body}");
    let (status, _) = Browser::new(addr).call("POST", &accept, None).await;
    assert_eq!(status, 401, "an account accepts");
    let (status, game) = soult.call("POST", &accept, None).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        (&game["id"], &game["side"]),
        (&opened["game"], &json!("orange"))
    );
    let mut late = Browser::new(addr);
    late.sign_up("murat").await;
    let (status, body) = late.call("POST", &accept, None).await;
    assert_eq!((status, error_rule(&body)), (409, "taken"), "{body}");
    assert_eq!(
        Browser::new(addr)
            .call("GET", "/api/challenges", None)
            .await
            .1,
        json!([])
    );
    // Each session alone is its seat, without a token.
    let gid = game["id"].as_str().unwrap();
    let (_, seen) = soult.call("GET", &format!("/api/games/{gid}"), None).await;
    assert_eq!(seen["seat"], "orange");
    let (_, seen) = ney.call("GET", &format!("/api/games/{gid}"), None).await;
    assert_eq!(seen["seat"], "blue");
    // The open seat's token left the file once handed over.
    let kept: Option<String> = db.query(
        "SELECT open_token FROM challenges WHERE id = ?1",
        &[id.into()],
    )[0]
    .get(0)
    .unwrap();
    assert_eq!(kept, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_lists_my_turn_first_then_waiting_then_finished() {
    let db = Db::new("my-games");
    let (addr, state) = serve(&db).await;
    let (mut ney, mut soult) = (Browser::new(addr), Browser::new(addr));
    ney.sign_up("ney").await;
    soult.sign_up("soult").await;
    // Three games: in one Ney is to act, in one Soult is, one is played to its end.
    let (waiting, ..) = challenge(&mut soult, &mut ney, MORNE, "blue", false).await;
    let (mine, ..) = challenge(&mut ney, &mut soult, MORNE, "blue", false).await;
    let (over, blue, orange) = challenge(&mut ney, &mut soult, MORNE, "blue", false).await;
    let tokens = BTreeMap::from([("blue".to_owned(), blue), ("orange".to_owned(), orange)]);
    play_to_the_end(&app(state.clone()), &over, &tokens, &mut Lcg(7)).await;
    let (status, games) = ney.call("GET", "/api/me/games", None).await;
    assert_eq!(status, 200, "{games}");
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [mine.as_str(), waiting.as_str(), over.as_str()],
        "{games}"
    );
    let states: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["my_turn", "waiting", "finished"]);
    let first = &games[0];
    assert_eq!(
        (&first["scenario"], &first["opponent"], &first["side"]),
        (&json!(MORNE), &json!("soult"), &json!("blue"))
    );
    assert!(first["turn"].is_string(), "{first}");
    let left = first["time_left_seconds"].as_i64().unwrap();
    assert!((24 * 3600..=48 * 3600).contains(&left), "{left}");
    assert_eq!(
        games[2]["time_left_seconds"],
        Value::Null,
        "no clock once over"
    );
    assert_eq!(
        Browser::new(addr)
            .call("GET", "/api/me/games", None)
            .await
            .0,
        401
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logged_in_player_claims_a_guest_seat_with_its_token_and_finds_the_game_in_my_games() {
    let db = Db::new("claim");
    let (addr, _) = serve(&db).await;
    let mut guest = http::Client::connect(addr).await;
    let (_, made) = guest
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}})),
        )
        .await;
    let (id, token) = (
        made["id"].as_str().unwrap(),
        made["seats"]["blue"]["token"].as_str().unwrap(),
    );
    let mut ney = Browser::new(addr);
    ney.sign_up("ney").await;
    let (status, _, body) = ney
        .send(
            "POST",
            &format!("/api/games/{id}/claim"),
            None,
            true,
            Some("f".repeat(32).as_str()),
        )
        .await;
    assert_eq!(status, 403, "a wrong token claims nothing: {body}");
    let (status, _, body) = ney
        .send(
            "POST",
            &format!("/api/games/{id}/claim"),
            None,
            true,
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (&body["side"], &body["name"]),
        (&json!("blue"), &json!("ney"))
    );
    let (_, games) = ney.call("GET", "/api/me/games", None).await;
    assert_eq!(games[0]["id"], json!(id));
    assert_eq!(games[0]["opponent"], "computer");
    let mut other = Browser::new(addr);
    other.sign_up("soult").await;
    let (status, _, body) = other
        .send(
            "POST",
            &format!("/api/games/{id}/claim"),
            None,
            true,
            Some(token),
        )
        .await;
    assert_eq!((status, error_rule(&body)), (403, "seat"), "{body}");
}

/// The next chat message on a socket, skipping game objects.
async fn next_chat(socket: &mut Socket) -> Value {
    loop {
        let o = super::real_port::next_object(socket).await;
        if o["kind"] == "chat" {
            return o;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_goes_both_ways_is_stored_and_is_pushed_live_to_sockets_that_ask() {
    let db = Db::new("chat");
    let (addr, _) = serve(&db).await;
    let (mut ney, mut soult) = (Browser::new(addr), Browser::new(addr));
    ney.sign_up("ney").await;
    soult.sign_up("soult").await;
    let (id, _, orange) = challenge(&mut ney, &mut soult, MORNE, "blue", false).await;
    let (mut live, _) = tokio_tungstenite::connect_async(format!(
        "ws://{addr}/api/games/{id}/ws?token={orange}&chat=true"
    ))
    .await
    .unwrap();
    let (status, said) = ney
        .call(
            "POST",
            &format!("/api/games/{id}/chat"),
            Some(&json!({"text": "  Vive l'Empereur  "})),
        )
        .await;
    assert_eq!(status, 201, "{said}");
    assert_eq!(
        (
            &said["side"],
            &said["side_name"],
            &said["name"],
            &said["text"]
        ),
        (
            &json!("blue"),
            &json!("Blue corps"),
            &json!("ney"),
            &json!("Vive l'Empereur")
        )
    );
    let pushed = next_chat(&mut live).await;
    assert_eq!(pushed["message"], said);
    assert_eq!(pushed["game"], json!(id));
    let (status, _) = soult
        .call(
            "POST",
            &format!("/api/games/{id}/chat"),
            Some(&json!({"text": "Et la Garde?"})),
        )
        .await;
    assert_eq!(status, 201);
    // The seat's socket without `chat=true` gets game objects only, as before.
    let (status, read) = Browser::new(addr)
        .call("GET", &format!("/api/games/{id}/chat"), None)
        .await;
    assert_eq!(status, 200, "spectators read by default");
    let texts: Vec<&str> = read["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Vive l'Empereur", "Et la Garde?"]);
    let (status, body) = Browser::new(addr)
        .call(
            "POST",
            &format!("/api/games/{id}/chat"),
            Some(&json!({"text": "hello"})),
        )
        .await;
    assert_eq!(status, 401, "a spectator does not post: {body}");
    // Stored in the file with the game.
    let n: i64 = db.query(
        "SELECT COUNT(*) FROM chat WHERE game_id = ?1",
        &[id.as_str().into()],
    )[0]
    .get(0)
    .unwrap();
    assert_eq!(n, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_refuses_long_and_empty_messages_and_more_than_five_in_ten_seconds() {
    let db = Db::new("chat-limits");
    let (addr, _) = serve(&db).await;
    let (mut ney, mut soult) = (Browser::new(addr), Browser::new(addr));
    ney.sign_up("ney").await;
    soult.sign_up("soult").await;
    let (id, ..) = challenge(&mut ney, &mut soult, MORNE, "blue", false).await;
    let path = format!("/api/games/{id}/chat");
    for text in ["x".repeat(501), "   ".to_owned()] {
        let (status, body) = ney.call("POST", &path, Some(&json!({"text": text}))).await;
        assert_eq!((status, error_rule(&body)), (400, "chat"), "{body}");
        assert!(
            error_message(&body).contains("1 to 500 characters"),
            "{body}"
        );
    }
    assert_eq!(
        ney.call("POST", &path, Some(&json!({"text": "é".repeat(500)})))
            .await
            .0,
        201
    );
    for _ in 0..4 {
        assert_eq!(
            ney.call("POST", &path, Some(&json!({"text": "encore"})))
                .await
                .0,
            201
        );
    }
    let (status, headers, body) = ney
        .send(
            "POST",
            &path,
            Some(&json!({"text": "once more"})),
            true,
            None,
        )
        .await;
    assert_eq!((status, error_rule(&body)), (429, "rate"), "{body}");
    assert!(headers.contains_key("retry-after"));
    assert_eq!(
        soult
            .call("POST", &path, Some(&json!({"text": "my own rate"})))
            .await
            .0,
        201
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_may_close_its_chat_to_spectators() {
    let db = Db::new("chat-closed");
    let (addr, _) = serve(&db).await;
    let mut ney = Browser::new(addr);
    ney.sign_up("ney").await;
    let (status, opened) = ney
        .call("POST", "/api/challenges", Some(&json!({"scenario": MORNE, "side": "blue", "rated": false, "spectators_chat": "none"})))
        .await;
    assert_eq!(status, 201, "{opened}");
    let game = opened["game"].as_str().unwrap();
    let (status, body) = Browser::new(addr)
        .call("GET", &format!("/api/games/{game}/chat"), None)
        .await;
    assert_eq!((status, error_rule(&body)), (403, "chat"), "{body}");
    assert_eq!(
        ney.call("GET", &format!("/api/games/{game}/chat"), None)
            .await
            .0,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_updates_both_ratings_once_when_it_ends() {
    let db = Db::new("ratings");
    let (addr, state) = serve(&db).await;
    let (mut ney, mut soult) = (Browser::new(addr), Browser::new(addr));
    ney.sign_up("ney").await;
    soult.sign_up("soult").await;
    let (id, blue, orange) = challenge(&mut ney, &mut soult, MORNE, "blue", true).await;
    assert_eq!(
        Browser::new(addr)
            .call("GET", "/api/ratings/morne_plaine", None)
            .await
            .1,
        json!([])
    );
    let tokens = BTreeMap::from([("blue".to_owned(), blue), ("orange".to_owned(), orange)]);
    play_to_the_end(&app(state.clone()), &id, &tokens, &mut Lcg(11)).await;
    let (status, board) = Browser::new(addr)
        .call("GET", "/api/ratings/morne_plaine", None)
        .await;
    assert_eq!(status, 200, "{board}");
    let entries = board.as_array().unwrap();
    assert_eq!(entries.len(), 2, "{board}");
    let (_, game) = ney.call("GET", &format!("/api/games/{id}"), None).await;
    let winner = game["outcome"]["winner"].as_str();
    for e in entries {
        assert_eq!(e["games"], 1, "{e}");
        let r = e["rating"].as_f64().unwrap();
        let side = if e["name"] == "ney" { "blue" } else { "orange" };
        match winner {
            None => assert!((r - 1500.0).abs() < 1.0, "{e}"),
            Some(w) if w == side => assert!(r > 1500.0, "{e}"),
            Some(_) => assert!(r < 1500.0, "{e}"),
        }
        assert!(e["deviation"].as_f64().unwrap() < 350.0);
    }
    // Counted once: reading again changes nothing.
    assert_eq!(
        Browser::new(addr)
            .call("GET", "/api/ratings/morne_plaine", None)
            .await
            .1,
        board
    );
    let (status, profile) = Browser::new(addr)
        .call("GET", "/api/players/ney", None)
        .await;
    assert_eq!(status, 200, "{profile}");
    assert_eq!(profile["ratings"][0]["ruleset"], "morne_plaine");
    assert_eq!(
        profile["games"][0]["replay"],
        json!(format!("/replay/{id}"))
    );
    assert!(["win", "loss", "draw"].contains(&profile["games"][0]["result"].as_str().unwrap()));
    assert_eq!(
        Browser::new(addr)
            .call("GET", "/api/ratings/chess", None)
            .await
            .0,
        404
    );
    assert_eq!(
        Browser::new(addr)
            .call("GET", "/api/players/nobody", None)
            .await
            .0,
        404
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_of_a_challenge_game_give_its_clock_and_none_once_over_or_without_a_limit() {
    let db = Db::new("clock");
    let (addr, state) = serve(&db).await;
    let (mut ney, mut soult) = (Browser::new(addr), Browser::new(addr));
    ney.sign_up("ney").await;
    soult.sign_up("soult").await;
    let (id, blue, orange) = challenge(&mut ney, &mut soult, MORNE, "blue", true).await;
    let (status, s) = Browser::new(addr)
        .call("GET", &format!("/api/games/{id}/settings"), None)
        .await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (
            &s["rated"],
            &s["time_per_move_hours"],
            &s["spectators_chat"],
            &s["to_act"],
            &s["to_act_name"]
        ),
        (
            &json!(true),
            &json!(48.0),
            &json!("read"),
            &json!("blue"),
            &json!("Blue corps")
        )
    );
    let left = s["seconds_left"].as_u64().unwrap();
    assert!((47 * 3600..=48 * 3600).contains(&left), "{s}");
    assert!(s["deadline"].as_str().unwrap().ends_with('Z'), "{s}");
    let tokens = BTreeMap::from([("blue".to_owned(), blue), ("orange".to_owned(), orange)]);
    play_to_the_end(&app(state.clone()), &id, &tokens, &mut Lcg(3)).await;
    let (_, s) = ney
        .call("GET", &format!("/api/games/{id}/settings"), None)
        .await;
    assert_eq!(
        (&s["seconds_left"], &s["deadline"]),
        (&Value::Null, &Value::Null),
        "{s}"
    );
    // A game made by `POST /api/games` has no limit and is not rated.
    let mut guest = http::Client::connect(addr).await;
    let (_, made) = guest
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}})),
        )
        .await;
    let (_, s) = guest
        .call(
            "GET",
            &format!("/api/games/{}/settings", made["id"].as_str().unwrap()),
            None,
            None,
        )
        .await;
    assert_eq!(
        (&s["rated"], &s["time_per_move_hours"], &s["seconds_left"]),
        (&json!(false), &Value::Null, &Value::Null)
    );
}
