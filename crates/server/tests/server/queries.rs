//! Explain, preview, reachable, replay, and the web client served beside the API.

use super::*;

#[tokio::test]
async fn explain_preview_and_reachable_answer_from_the_rules() {
    let db = Db::new("ask");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    let bombard = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "bombard")
        .expect("a battery can fire")
        .clone();

    let (status, e) = post(
        &app,
        &format!("/api/games/{id}/explain"),
        Some(&blue),
        &json!({"action": bombard}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{e}");
    assert_eq!(e["legal"], true);
    let (status, e) = post(
        &app,
        &format!("/api/games/{id}/explain"),
        None,
        &json!({"action": {"type": "move", "unit": bombard["unit"], "to": "0101"}}),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a spectator may ask in an open game"
    );
    assert_eq!(e["legal"], false);
    assert!(e["reasons"][0]["rule"].as_str().unwrap().starts_with("MP-"));

    let (status, p) = post(
        &app,
        &format!("/api/games/{id}/preview"),
        Some(&blue),
        &json!({"action": bombard}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let outcomes = p["outcomes"].as_array().unwrap();
    assert!(!outcomes.is_empty());
    let total: f64 = outcomes.iter().map(|o| o["p"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let (status, p) = post(
        &app,
        &format!("/api/games/{id}/preview"),
        Some(&blue),
        &json!({"action": {"type": "end_phase"}}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_rule(&p).starts_with("MP-"), "{p}");

    // To the movement phase; then a unit's reachable hexes.
    let (status, _) = act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    let mover = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "move")
        .unwrap();
    let unit = mover["unit"].as_str().unwrap();
    let (status, r) = get(
        &app,
        &format!("/api/games/{id}/reachable?unit={unit}"),
        Some(&blue),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let hexes: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["hex"].as_str().unwrap())
        .collect();
    assert!(hexes.contains(&mover["to"].as_str().unwrap()), "{r}");
    assert!(r[0]["cost"].is_u64() && r[0]["path"].is_array());
    let (status, r) = get(&app, &format!("/api/games/{id}/reachable"), Some(&blue)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_message(&r).contains("unit"));
    let (status, r) = get(
        &app,
        &format!("/api/games/{id}/reachable?unit=ghost"),
        Some(&blue),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_message(&r).contains("ghost"));
}

#[tokio::test]
async fn the_replay_is_the_log_as_the_seat_may_see_it_and_steps_back_in_time() {
    let db = Db::new("replay");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    assert_eq!(end_phases(&app, &id, &[&blue, &orange], 3).await, 3);
    let (status, r) = get(&app, &format!("/api/games/{id}/replay"), Some(&blue)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["scenario"], MORNE);
    assert_eq!(
        r["seed"],
        Value::Null,
        "the seed tells the dice to come: not before the end"
    );
    let log = r["log"].as_array().unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!(
        log.iter()
            .map(|e| e["n"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert!(log
        .iter()
        .all(|e| e["action"] == json!({"type": "end_phase"}) && e["events"].is_array()));

    let (status, at1) = get(&app, &format!("/api/games/{id}/replay?at=1"), Some(&blue)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(at1["n"], 1);
    assert_eq!(at1["view"]["phase"], "movement");
    assert_eq!(at1["actions"], json!([]));
    let (status, at0) = get(&app, &format!("/api/games/{id}/replay?at=0"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(at0["n"], 0);
    let (status, _) = get(&app, &format!("/api/games/{id}/replay?at=9"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_web_client_is_served_beside_the_api() {
    let db = Db::new("static");
    let (_, app) = open(&db);
    for path in ["/", "/play/abc", "/replay/abc"] {
        let res = app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(ct.starts_with("text/html"), "{path}: {ct}");
    }
    // Every file of web/, as it is on disk, with its type.
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut files = Vec::new();
    let mut dirs = vec![web.clone()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if e.file_type().unwrap().is_dir() {
                dirs.push(e.path());
            } else {
                files.push(e.path());
            }
        }
    }
    for file in files {
        let rel = file
            .strip_prefix(&web)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with('.') || rel.contains("/.") {
            continue;
        }
        let res = app
            .clone()
            .oneshot(Request::get(format!("/{rel}")).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{rel}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(
            bytes.as_ref(),
            std::fs::read(&file).unwrap().as_slice(),
            "{rel}"
        );
        let expected = match file.extension().and_then(|x| x.to_str()) {
            Some("html") => "text/html",
            Some("js" | "mjs") => "text/javascript",
            Some("css") => "text/css",
            Some("svg") => "image/svg+xml",
            _ => "",
        };
        assert!(ct.starts_with(expected), "{rel}: {ct}");
    }
    let (status, _) = get(&app, "/no-such-file.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&app, "/../Cargo.toml", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn preview_with_empty_if_no_dice_answers_a_legal_action_that_rolls_nothing_with_no_outcome() {
    let db = Db::new("ask-empty");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let end = json!({"type": "end_phase"});
    let url = format!("/api/games/{id}/preview");
    // Without the field: the refusal, as before.
    let (status, _) = post(&app, &url, Some(&blue), &json!({"action": end})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // With it: 200, no roll, no outcome, and the rule that says why.
    let (status, p) = post(
        &app,
        &url,
        Some(&blue),
        &json!({"action": end, "empty_if_no_dice": true}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["roll"], Value::Null);
    assert_eq!(p["outcomes"], json!([]));
    assert!(!p["reasons"].as_array().unwrap().is_empty(), "{p}");
    // An illegal action is still refused.
    let (status, _) = post(
        &app,
        &url,
        Some(&blue),
        &json!({"action": {"type": "move", "unit": "nobody", "to": "0101"}, "empty_if_no_dice": true}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The field is preview's alone.
    let (status, _) = post(
        &app,
        &format!("/api/games/{id}/explain"),
        Some(&blue),
        &json!({"action": end, "empty_if_no_dice": true}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// A page that asks as the pointer moves may ask just after the other side acted: a
/// question naming a past `n` answers 200 `stale` with the game's `n`, refusing nothing
/// and revealing nothing; one naming the current `n` is answered as before.
#[tokio::test]
async fn explain_and_preview_of_a_position_the_game_has_left_answer_stale() {
    let db = Db::new("ask-stale");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let end = json!({"type": "end_phase"});
    let ghost = json!({"type": "move", "unit": "nobody", "to": "0101"});
    for what in ["explain", "preview"] {
        let url = format!("/api/games/{id}/{what}");
        let (status, s) = post(&app, &url, Some(&blue), &json!({"action": ghost, "n": 7})).await;
        assert_eq!(status, StatusCode::OK, "{what}: {s}");
        assert_eq!(s, json!({"stale": true, "n": 0}), "{what}");
        let (status, _) = post(&app, &url, Some(&blue), &json!({"action": ghost, "n": 0})).await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{what}: the current n is answered"
        );
    }
    let (status, x) = post(
        &app,
        &format!("/api/games/{id}/explain"),
        Some(&blue),
        &json!({"action": end, "n": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{x}");
    assert_eq!(x["legal"], true, "{x}");
}
