//! The lobby: the scenarios, the board, new games and the list of games.

use super::*;

#[tokio::test]
async fn scenarios_lists_every_built_in_scenario_with_sides_and_map() {
    let db = Db::new("scenarios");
    let (_, app) = open(&db);
    let (status, body) = get(&app, "/api/scenarios", None).await;
    assert_eq!(status, StatusCode::OK);
    let list = body.as_array().unwrap();
    // Every built-in scenario that validates; an invalid one is left out.
    let registry = grognard_rules::registry();
    let valid: Vec<&str> = grognard_rules::builtin::SCENARIOS
        .iter()
        .filter(|b| registry.load_scenario(b.path, b.text).is_ok())
        .map(|b| b.id)
        .collect();
    let listed: Vec<&str> = list.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(listed, valid);
    let morne = list
        .iter()
        .find(|s| s["id"] == MORNE)
        .expect("the bridge at Morne");
    assert_eq!(morne["ruleset"], "morne_plaine");
    assert_eq!(morne["map"], json!({"cols": 16, "rows": 12}));
    let sides: Vec<&str> = morne["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(sides, ["orange", "blue"]);
    assert!(morne["title"].as_str().unwrap().contains("Morne"));
    assert!(!morne["description"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn board_draws_every_hex_hexside_path_and_place() {
    let db = Db::new("board");
    let (_, app) = open(&db);
    let (status, b) = get(&app, &format!("/api/scenarios/{MORNE}/board"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (b["cols"].as_u64(), b["rows"].as_u64()),
        (Some(16), Some(12))
    );
    assert_eq!(b["orientation"], "flat_top");
    assert_eq!(b["shove"], "even");
    let hexes = b["hexes"].as_array().unwrap();
    assert_eq!(hexes.len(), 16 * 12);
    let first = &hexes[0];
    assert_eq!(
        (
            first["label"].as_str(),
            first["q"].as_i64(),
            first["r"].as_i64()
        ),
        (Some("0101"), Some(0), Some(0))
    );
    assert_eq!(
        (first["col"].as_u64(), first["row"].as_u64()),
        (Some(1), Some(1))
    );
    // The redoubt on Mont Aubin stands on its summit.
    let summit = hexes.iter().find(|h| h["label"] == "0303").unwrap();
    assert_eq!(summit["elevation"], 2);
    assert!(b["hexsides"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["features"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "bridge")));
    assert!(b["paths"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["kind"] == "road"));
    assert!(!b["places"].as_array().unwrap().is_empty());
    assert_eq!(b["sides"].as_array().unwrap().len(), 2);
    // Every terrain of the map has its fill from the engine's palette, as the SVG has.
    for h in hexes {
        let terrain = h["terrain"].as_str().unwrap();
        assert_eq!(
            b["palette"]["terrain"][terrain],
            grognard_engine::palette::terrain_colour(terrain)
        );
    }
    assert_eq!(b["palette"]["terrain"]["woods"], "#7fa464");

    let (status, body) = get(&app, "/api/scenarios/no-such-battle/board", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_message(&body).contains("no-such-battle"));
}

#[tokio::test]
async fn a_new_game_hands_each_human_seat_a_token_and_a_link() {
    let db = Db::new("create");
    let (_, app) = open(&db);
    let (status, body) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap();
    let blue = &body["seats"]["blue"];
    assert_eq!(blue["kind"], "human");
    let token = blue["token"].as_str().unwrap();
    assert_eq!(token.len(), 32);
    assert!(token.bytes().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(blue["link"], format!("/play/{id}?token={token}"));
    assert_eq!(
        body["seats"]["orange"],
        json!({"kind": "ai", "level": "normal"})
    );
}

#[tokio::test]
async fn a_new_game_sets_the_level_of_each_computer_seat() {
    let db = Db::new("levels");
    let (_, app) = open(&db);
    let (status, body) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": MORNE, "seats": {"blue": "ai", "orange": "ai"}, "levels": {"orange": "easy"}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        body["seats"]["orange"],
        json!({"kind": "ai", "level": "easy"})
    );
    assert_eq!(
        body["seats"]["blue"],
        json!({"kind": "ai", "level": "normal"})
    );
}

#[tokio::test]
async fn a_new_game_names_what_is_wrong_with_the_request() {
    let db = Db::new("create-errors");
    let (_, app) = open(&db);
    let cases = [
        (
            json!({"scenario": "waterloo", "seats": {"blue": "human", "orange": "ai"}}),
            "waterloo",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "green": "ai", "orange": "ai"}}),
            "green",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human"}}),
            "missing: orange",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "robot"}}),
            "robot",
        ),
        (json!({"scenario": MORNE}), "seats"),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}, "seed": -1}),
            "-1",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}, "levels": {"blue": "hard"}}),
            "blue",
        ),
        (
            json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}, "levels": {"orange": "grandmaster"}}),
            "grandmaster",
        ),
    ];
    for (req, named) in cases {
        let (status, body) = post(&app, "/api/games", None, &req).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{req} -> {body}");
        assert!(
            error_message(&body).contains(named),
            "{req}: `{named}` not in {body}"
        );
    }
    let (_, list) = get(&app, "/api/games", None).await;
    assert_eq!(list, json!([]), "no game was made");
}

#[tokio::test]
async fn the_list_of_games_is_newest_first_and_shows_no_token() {
    let db = Db::new("list");
    let (_, app) = open(&db);
    let (older, t1) = new_game(&app, MORNE, &[("blue", "human"), ("orange", "ai")], None).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (newer, t2) = new_game(&app, MORNE, &[("blue", "human"), ("orange", "human")], None).await;
    let (status, list) = get(&app, "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [newer.as_str(), older.as_str()]);
    let g = &list[1];
    assert_eq!(g["scenario"], MORNE);
    assert_eq!(g["ruleset"], "morne_plaine");
    assert_eq!(g["seats"], json!({"blue": "human", "orange": "ai"}));
    assert_eq!(g["n"], 0);
    assert_eq!(g["to_act"]["side"], "blue");
    assert_eq!(g["outcome"], Value::Null);
    assert!(g["created"].as_str().unwrap().ends_with('Z'));
    let text = list.to_string();
    for t in t1.values().chain(t2.values()) {
        assert!(!text.contains(t.as_str()), "a token leaked into the list");
    }
}
