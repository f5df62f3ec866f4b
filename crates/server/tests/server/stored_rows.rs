//! A stored game that no longer loads (its scenario names a terrain, a unit type or a
//! side the rules do not know) is skipped and reported when first asked for (a start
//! replays no game), and every other game resumes: one bad row never stops the server
//! (issue 14, item 6). The bad rows are written into a SQLite file by hand: these
//! tests run on a file whatever `GROGNARD_TEST_POSTGRES` says.

use super::*;

/// One game of each built-in scenario, both seats human; their ids and a token each.
async fn one_of_each(app: &Router) -> Vec<(String, String)> {
    let registry = grognard_rules::registry();
    let mut games = Vec::new();
    for b in grognard_rules::builtin::SCENARIOS {
        let s = registry.load_scenario(b.path, b.text).unwrap();
        let seats: Vec<(&str, &str)> = s.sides.iter().map(|x| (x.id.as_str(), "human")).collect();
        let (id, tokens) = new_game(app, b.id, &seats, None).await;
        let token = tokens.values().next().unwrap().clone();
        games.push((id, token));
    }
    games
}

/// Rewrites the stored scenario of game `id` in the file.
fn tamper(db: &Db, id: &str, f: impl FnOnce(&mut Value)) {
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    let text: String = conn
        .query_row("SELECT scenario FROM games WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap();
    let mut scenario: Value = serde_json::from_str(&text).unwrap();
    f(&mut scenario);
    let n = conn
        .execute(
            "UPDATE games SET scenario = ?1 WHERE id = ?2",
            [scenario.to_string(), id.to_owned()],
        )
        .unwrap();
    assert_eq!(n, 1);
}

#[tokio::test]
async fn a_stored_game_with_an_unknown_terrain_is_skipped_and_reported_while_the_others_resume() {
    let db = Db::file("bad-rows");
    let games = {
        let (_, app) = open(&db);
        one_of_each(&app).await
    };
    // In every ruleset but one game, a row the rules cannot bind to: before, each of these
    // panicked in the rules and stopped the server's start.
    let (bad, good): (Vec<_>, Vec<_>) = games.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let bad: Vec<&(String, String)> = bad.into_iter().map(|(_, g)| g).collect();
    for (id, _) in &bad {
        tamper(&db, id, |s| s["terrain_names"][0] = json!("swamp-of-doom"));
    }
    let (state, again) = open(&db);
    assert!(
        state.lobby().skipped().is_empty(),
        "the start replayed nothing"
    );
    for (id, token) in &bad {
        let (status, body) = get(&again, &format!("/api/games/{id}"), Some(token)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{id} is not served");
        assert!(error_message(&body).contains("does not load"), "{body}");
    }
    let mut expected: Vec<String> = bad.iter().map(|(id, _)| id.clone()).collect();
    expected.sort();
    assert_eq!(
        state.lobby().skipped(),
        expected,
        "the bad rows are reported"
    );
    for (_, (id, token)) in &good {
        let (status, view) = get(&again, &format!("/api/games/{id}"), Some(token)).await;
        assert_eq!(status, StatusCode::OK, "{id} resumed: {view}");
    }
}

#[tokio::test]
async fn a_stored_game_with_a_dangling_id_or_a_hex_off_the_map_is_skipped_and_reported() {
    let db = Db::file("dangling-rows");
    let games = {
        let (_, app) = open(&db);
        one_of_each(&app).await
    };
    let tamperings: [fn(&mut Value); 4] = [
        |s| s["units"][0]["kind"] = json!("dragon"),
        |s| s["units"][0]["side"] = json!("green"),
        |s| s["units"][0]["hex"] = json!({"q": i32::MAX, "r": i32::MIN}),
        |s| s["first_side"] = json!("green"),
    ];
    for ((id, _), f) in games.iter().zip(tamperings) {
        tamper(&db, id, f);
    }
    let (state, again) = open(&db);
    for (id, _) in &games {
        get(&again, &format!("/api/games/{id}"), None).await;
    }
    assert_eq!(state.lobby().skipped().len(), tamperings.len());
    let (id, token) = games.last().unwrap();
    let (status, _) = get(&again, &format!("/api/games/{id}"), Some(token)).await;
    assert_eq!(status, StatusCode::OK, "the untouched game resumed");
}

#[tokio::test]
async fn a_stored_game_whose_scenario_is_not_json_is_left_out_and_the_others_resume() {
    let db = Db::file("unreadable-row");
    let games = {
        let (_, app) = open(&db);
        one_of_each(&app).await
    };
    let (bad, _) = &games[0];
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    conn.execute(
        "UPDATE games SET scenario = '{not json' WHERE id = ?1",
        [bad],
    )
    .unwrap();
    drop(conn);
    let (_, again) = open(&db);
    for (i, (id, token)) in games.iter().enumerate() {
        let (status, _) = get(&again, &format!("/api/games/{id}"), Some(token)).await;
        let expected = if i == 0 {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::OK
        };
        assert_eq!(status, expected, "game {i}");
    }
}
