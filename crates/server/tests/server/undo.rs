//! Undo (`POST /api/games/{id}/undo`): a seat takes back its own last action, in its
//! own turn, back to the last random result and no further; durable, and pushed.

use super::real_port::{next_object, objects_until, serve, ws};
use super::*;

async fn undo(app: &Router, id: &str, token: Option<&str>, expect: u64) -> (StatusCode, Value) {
    post(
        app,
        &format!("/api/games/{id}/undo"),
        token,
        &json!({"expect": expect}),
    )
    .await
}

async fn object(app: &Router, id: &str, token: Option<&str>) -> Value {
    let (status, g) = get(app, &format!("/api/games/{id}"), token).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    g
}

/// The first listed action of `kind` in game object `g`.
fn first_of(g: &Value, kind: &str) -> Value {
    g["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["type"] == kind)
        .unwrap_or_else(|| panic!("no `{kind}` among {}", g["actions"]))
        .clone()
}

/// The `k`-th listed move of `g` (k counted among moves only).
fn nth_move(g: &Value, k: usize) -> Value {
    g["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .filter(|a| a["type"] == "move")
        .nth(k)
        .unwrap_or_else(|| panic!("no move {k} among {}", g["actions"]))
        .clone()
}

/// A Morne Plaine game at blue's movement phase (blue ended its bombardment): its id,
/// blue's and orange's tokens, and blue's game object there (n = 1).
async fn at_movement(app: &Router) -> (String, String, String, Value) {
    let (id, blue, orange) = morne(app).await;
    let (status, body) = act(app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let g = object(app, &id, Some(&blue)).await;
    assert_eq!(
        (g["n"].as_u64(), g["view"]["phase"].as_str()),
        (Some(1), Some("movement"))
    );
    (id, blue, orange, g)
}

/// What an undo must give back: the game object but for the count of undos.
fn position(g: &Value) -> Value {
    let mut g = g.clone();
    g.as_object_mut().unwrap().remove("undos");
    g
}

#[tokio::test]
async fn undo_of_a_move_gives_back_the_game_as_it_was_before_the_move() {
    let db = Db::new("undo-move");
    let (_, app) = open(&db);
    let (id, blue, orange, before) = at_movement(&app).await;
    let orange_before = object(&app, &id, Some(&orange)).await;
    let spectator_before = object(&app, &id, None).await;
    let mv = nth_move(&before, 0);
    let (status, body) = act(&app, &id, Some(&blue), &mv, 1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["view"]["undo"], true, "blue may take its move back");
    assert_eq!(object(&app, &id, Some(&orange)).await["undo"], false);

    let (status, answer) = undo(&app, &id, Some(&blue), 2).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["undone"], json!({"n": 2, "action": mv}));
    let view = &answer["view"];
    assert_eq!(view["n"], 1);
    assert_eq!(view["undos"], 1);
    assert_eq!(
        *view,
        object(&app, &id, Some(&blue)).await,
        "the answer is blue's GET"
    );
    assert_eq!(
        position(view),
        position(&before),
        "blue's game is as before the move"
    );
    assert_eq!(
        position(&object(&app, &id, Some(&orange)).await),
        position(&orange_before)
    );
    assert_eq!(
        position(&object(&app, &id, None).await),
        position(&spectator_before)
    );
    // In the file: the log is one shorter, the move kept in `undone`, the lobby's
    // line at n = 1.
    assert_eq!(
        grognard_server::store::read_log(&db.location(), &id)
            .unwrap()
            .len(),
        1
    );
    let row = &db.query(
        "SELECT n, action FROM undone WHERE game_id = ?1",
        &[id.as_str().into()],
    )[0];
    let (n, action): (i64, String) = (row.get(0).unwrap(), row.get(1).unwrap());
    assert_eq!(
        (n, serde_json::from_str::<Value>(&action).unwrap()),
        (2, mv)
    );
    let (_, list) = get(&app, "/api/games", None).await;
    assert_eq!(list[0]["n"], 1, "{list}");
}

#[tokio::test]
async fn undo_is_refused_after_an_action_that_rolled_dice() {
    let db = Db::new("undo-roll");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let g = object(&app, &id, Some(&blue)).await;
    let bombard = first_of(&g, "bombard");
    let (status, body) = act(&app, &id, Some(&blue), &bombard, 0).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "roll"),
        "a bombardment rolls: {body}"
    );
    assert_eq!(body["view"]["undo"], false);
    let (status, refused) = undo(&app, &id, Some(&blue), 1).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert_eq!(error_rule(&refused), "undo");
    assert!(error_message(&refused).contains("rolled dice"), "{refused}");
    assert_eq!(object(&app, &id, None).await["n"], 1, "nothing changed");
    assert_eq!(
        grognard_server::store::read_log(&db.location(), &id)
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn undo_is_refused_for_the_other_seat_for_a_spectator_and_before_any_action() {
    let db = Db::new("undo-seat");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    let (status, refused) = undo(&app, &id, Some(&blue), 0).await;
    assert_eq!(
        (status, error_rule(&refused)),
        (StatusCode::BAD_REQUEST, "undo"),
        "nothing to take back at n = 0: {refused}"
    );
    let (status, _) = act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (status, refused) = undo(&app, &id, Some(&orange), 1).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(error_rule(&refused), "turn");
    assert!(
        error_message(&refused).contains("blue's decision"),
        "{refused}"
    );
    let (status, refused) = undo(&app, &id, None, 1).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{refused}");
    assert_eq!(error_rule(&refused), "token");
    let (status, refused) = undo(&app, &id, Some("0123456789abcdef0123456789abcdef"), 1).await;
    assert_eq!(
        (status, error_rule(&refused)),
        (StatusCode::FORBIDDEN, "token")
    );
    assert_eq!(object(&app, &id, None).await["n"], 1, "nothing changed");
}

#[tokio::test]
async fn undo_is_refused_in_the_other_sides_turn_and_of_the_other_sides_action() {
    let db = Db::new("undo-turn");
    let (_, app) = open(&db);
    let (id, blue, orange, _) = at_movement(&app).await;
    // Blue ends its turn: movement and combat (its rally has nothing to do, nor has
    // orange's bombardment); orange is to act.
    let n = end_phases(&app, &id, &[&blue], 2).await;
    let g = object(&app, &id, Some(&orange)).await;
    assert_eq!(g["to_act"]["side"], "orange", "{g}");
    let last = g["log"].as_array().unwrap().last().unwrap().clone();
    assert!(
        !last["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "roll"),
        "the end of blue's turn rolled nothing: {last}"
    );
    let (status, refused) = undo(&app, &id, Some(&blue), n).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(error_rule(&refused), "turn");
    assert!(
        error_message(&refused).contains("orange's decision"),
        "{refused}"
    );
    let (status, refused) = undo(&app, &id, Some(&orange), n).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(error_rule(&refused), "seat");
    assert!(
        error_message(&refused).contains("blue's, not orange's"),
        "{refused}"
    );
    assert_eq!(g["undo"], false, "orange's object says so too");
    assert_eq!(object(&app, &id, None).await["n"], n, "nothing changed");
}

#[tokio::test]
async fn undo_with_a_stale_expect_is_a_conflict() {
    let db = Db::new("undo-stale");
    let (_, app) = open(&db);
    let (id, blue, _, g) = at_movement(&app).await;
    let (status, _) = act(&app, &id, Some(&blue), &nth_move(&g, 0), 1).await;
    assert_eq!(status, StatusCode::OK);
    for stale in [1, 3] {
        let (status, refused) = undo(&app, &id, Some(&blue), stale).await;
        assert_eq!(status, StatusCode::CONFLICT, "{refused}");
        assert_eq!(error_rule(&refused), "conflict");
        assert_eq!(
            error_message(&refused),
            format!("expected n={stale} but the game is at n=2")
        );
    }
    // Of two undos at the same `expect`, one wins and the other is stale.
    let (status, _) = undo(&app, &id, Some(&blue), 2).await;
    assert_eq!(status, StatusCode::OK);
    let (status, refused) = undo(&app, &id, Some(&blue), 2).await;
    assert_eq!(
        (status, error_rule(&refused)),
        (StatusCode::CONFLICT, "conflict")
    );
    let (status, refused) = post(
        &app,
        &format!("/api/games/{id}/undo"),
        Some(&blue),
        &json!({"expect": 1, "why": "no"}),
    )
    .await;
    assert_eq!(
        (status, error_rule(&refused)),
        (StatusCode::BAD_REQUEST, "json")
    );
}

#[tokio::test]
async fn an_undo_survives_a_restart_and_play_goes_on_from_it() {
    let db = Db::new("undo-restart");
    let (state, app) = open(&db);
    let (id, blue, _, before) = at_movement(&app).await;
    let (status, _) = act(&app, &id, Some(&blue), &nth_move(&before, 0), 1).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = undo(&app, &id, Some(&blue), 2).await;
    assert_eq!(status, StatusCode::OK);
    let (state, app) = reopen(&state, &db).await;
    let again = object(&app, &id, Some(&blue)).await;
    assert_eq!(
        position(&again),
        position(&before),
        "the undone state, from the file"
    );
    assert_eq!(again["undos"], 1, "the count of undos is kept");
    // Another move at the same n, then a restart: the log replays with it.
    let other = nth_move(&before, 1);
    let (status, body) = act(&app, &id, Some(&blue), &other, 1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, app) = reopen(&state, &db).await;
    let g = object(&app, &id, Some(&blue)).await;
    assert_eq!(g["n"], 2);
    assert_eq!(g["log"][1]["action"], other);
}

#[tokio::test]
async fn after_an_undo_every_seat_sees_the_action_played_in_its_place() {
    let db = Db::new("undo-redo");
    let (_, app) = open(&db);
    let (id, blue, orange, before) = at_movement(&app).await;
    let (first, second) = (nth_move(&before, 0), nth_move(&before, 1));
    assert_ne!(first, second);
    let (status, _) = act(&app, &id, Some(&blue), &first, 1).await;
    assert_eq!(status, StatusCode::OK);
    // Every seat's object at n = 2 is built (and kept) with the first move.
    for t in [Some(blue.as_str()), Some(orange.as_str()), None] {
        assert_eq!(object(&app, &id, t).await["log"][1]["action"], first);
    }
    let (status, _) = undo(&app, &id, Some(&blue), 2).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = act(&app, &id, Some(&blue), &second, 1).await;
    assert_eq!(status, StatusCode::OK);
    for t in [Some(blue.as_str()), Some(orange.as_str()), None] {
        let g = object(&app, &id, t).await;
        assert_eq!(
            (g["n"].as_u64(), &g["log"][1]["action"]),
            (Some(2), &second)
        );
    }
    let (_, replay) = get(&app, &format!("/api/games/{id}/replay"), Some(&orange)).await;
    assert_eq!(replay["log"][1]["action"], second);
}

#[tokio::test]
async fn a_hotseat_player_takes_back_a_move_with_the_one_token() {
    let db = Db::new("undo-hotseat");
    let (_, app) = open(&db);
    let (status, created) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"},
                "hotseat": true, "seed": 7}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["seats"]["blue"]["token"].as_str().unwrap();
    let (status, _) = act(&app, id, Some(token), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK);
    let before = object(&app, id, Some(token)).await;
    let (status, _) = act(&app, id, Some(token), &nth_move(&before, 0), 1).await;
    assert_eq!(status, StatusCode::OK);
    let (status, answer) = undo(&app, id, Some(token), 2).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(position(&answer["view"]), position(&before));
    // Blue's turn ends: the one token now plays orange, which did not end it.
    let n = end_phases(&app, id, &[token], 2).await;
    assert_eq!(object(&app, id, Some(token)).await["seat"], "orange");
    let (status, refused) = undo(&app, id, Some(token), n).await;
    assert_eq!(
        (status, error_rule(&refused)),
        (StatusCode::FORBIDDEN, "seat"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_websocket_of_the_game_gets_the_undone_object() {
    let db = Db::new("undo-ws");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let (id, blue) = morne_at(addr).await;
    let (status, _) = c
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&blue),
            Some(&json!({"action": {"type": "end_phase"}, "expect": 0})),
        )
        .await;
    assert_eq!(status, 200);
    let mut blue_ws = ws(addr, &id, Some(&blue)).await;
    let mut spectator_ws = ws(addr, &id, None).await;
    let before = next_object(&mut blue_ws).await;
    assert_eq!(next_object(&mut spectator_ws).await["n"], 1);
    let (status, _) = c
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&blue),
            Some(&json!({"action": nth_move(&before, 0), "expect": 1})),
        )
        .await;
    assert_eq!(status, 200);
    objects_until(&mut blue_ws, 2).await;
    objects_until(&mut spectator_ws, 2).await;
    let (status, answer) = c
        .call(
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(&blue),
            Some(&json!({"expect": 2})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let pushed = next_object(&mut blue_ws).await;
    assert_eq!(
        (pushed["n"].as_u64(), pushed["undos"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(pushed, answer["view"], "blue's push is the answer");
    assert_eq!(position(&pushed), position(&before));
    let watched = next_object(&mut spectator_ws).await;
    assert_eq!(
        (watched["n"].as_u64(), watched["undos"].as_u64()),
        (Some(1), Some(1))
    );
    let (_, spectator_get) = c.call("GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(watched, spectator_get);
}

/// The log as version 2 left it: append-only but for an expired game's rows.
const SCHEMA_2_TRIGGER: &str = r"
DROP TABLE undone;
DROP TRIGGER actions_no_delete;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN NOT EXISTS (SELECT 1 FROM expired WHERE id = OLD.game_id)
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
PRAGMA user_version = 2;
";

#[tokio::test]
async fn the_file_lets_only_an_undo_delete_a_games_last_action() {
    // SQLite's triggers and migration; PostgreSQL's are checked in `postgres.rs`.
    let db = Db::file("undo-file");
    let (state, app) = open(&db);
    let (id, blue, _, g) = at_movement(&app).await;
    let (status, _) = act(&app, &id, Some(&blue), &nth_move(&g, 0), 1).await;
    assert_eq!(status, StatusCode::OK);
    state.lobby().close().await;
    {
        let conn = rusqlite::Connection::open(&db.0).unwrap();
        let delete = |n: i64| {
            conn.execute(
                "DELETE FROM actions WHERE game_id = ?1 AND n = ?2",
                rusqlite::params![id, n],
            )
        };
        assert!(delete(2).is_err(), "not without an undo recorded");
        let record = |n: i64| {
            conn.execute(
                "INSERT INTO undone (game_id, n, action, forced, undone_ms)
                 SELECT game_id, n, action, forced, 0 FROM actions WHERE game_id = ?1 AND n = ?2",
                rusqlite::params![id, n],
            )
        };
        assert!(record(1).is_err(), "only the last action is undone");
        assert!(delete(1).is_err(), "never a row before the last");
        // An undo as the server makes one: recorded, then deleted.
        assert_eq!(record(2).unwrap(), 1);
        assert!(delete(1).is_err(), "never a row before the last");
        assert_eq!(delete(2).unwrap(), 1);
        assert!(conn.execute("UPDATE undone SET n = 1", []).is_err());
        assert!(conn.execute("DELETE FROM undone", []).is_err());
        // Back to schema version 2, as an older server left it.
        conn.execute_batch(SCHEMA_2_TRIGGER).unwrap();
    }
    let (_, app) = open(&db);
    let version: i64 = rusqlite::Connection::open(&db.0)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 7);
    assert_eq!(object(&app, &id, None).await["n"], 1);
    let (status, body) = undo(&app, &id, Some(&blue), 1).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the migrated file takes an undo: {body}"
    );
    assert!(grognard_server::store::read_log(&db.location(), &id)
        .unwrap()
        .is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_never_takes_back_the_computers_move() {
    let db = Db::new("undo-ai");
    let (_, app) = open(&db);
    // The computer plays blue, which moves first, at its quickest level.
    let (status, made) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "ai", "orange": "human"},
                "levels": {"blue": "easy"}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap();
    let orange = made["seats"]["orange"]["token"].as_str().unwrap();
    let start = Instant::now();
    let g = loop {
        let g = object(&app, id, Some(orange)).await;
        if g["to_act"]["side"] == "orange" {
            break g;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "waited two minutes: {g}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let n = g["n"].as_u64().unwrap();
    assert_eq!(g["undo"], false, "orange's object offers no undo");
    let (status, refused) = undo(&app, id, Some(orange), n).await;
    let last = g["log"].as_array().unwrap().last().unwrap().clone();
    if last["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["type"] == "roll")
    {
        // The computer's last action rolled: the engine's rule refuses first.
        assert_eq!(
            (status, error_rule(&refused)),
            (StatusCode::BAD_REQUEST, "undo")
        );
    } else {
        assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
        assert_eq!(error_rule(&refused), "seat");
        assert!(
            error_message(&refused).contains("the computer's (blue), not orange's"),
            "{refused}"
        );
    }
    assert_eq!(object(&app, id, None).await["n"], n, "nothing changed");
}
