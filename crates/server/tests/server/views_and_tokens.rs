//! Views and tokens: each seat its view, and the errors of a missing, forged or out-of-turn token.

use super::*;

#[tokio::test]
async fn each_seat_gets_its_view_and_only_the_seat_to_act_its_actions() {
    let db = Db::new("views");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    let uri = format!("/api/games/{id}");

    let (status, b) = get(&app, &uri, Some(&blue)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(b["id"], id.as_str());
    assert_eq!(b["seat"], "blue");
    assert_eq!(b["scenario"], MORNE);
    assert_eq!(b["ruleset"], "morne_plaine");
    assert_eq!(b["n"], 0);
    assert_eq!(b["to_act"]["side"], "blue");
    assert_eq!(b["outcome"], Value::Null);
    assert!(b["actions"]
        .as_array()
        .unwrap()
        .contains(&json!({"type": "end_phase"})));
    assert_eq!(b["view"]["turn"], 1);
    assert!(b["view"]["units"].as_array().unwrap().len() > 10);
    assert_eq!(b["log"], json!([]));

    let (status, o) = get(&app, &uri, Some(&orange)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(o["seat"], "orange");
    assert_eq!(o["actions"], json!([]), "not orange's decision");

    let (status, s) = get(&app, &uri, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["seat"], "spectator");
    assert_eq!(s["actions"], json!([]), "spectators never get actions");
    assert_eq!(s["view"], b["view"], "Morne Plaine hides nothing");
}

#[tokio::test]
async fn an_unknown_game_is_404_on_every_endpoint() {
    let db = Db::new("unknown");
    let (_, app) = open(&db);
    let (_, blue, _) = morne(&app).await;
    for (method, path) in [
        ("GET", "/api/games/nope"),
        ("POST", "/api/games/nope/actions"),
        ("POST", "/api/games/nope/explain"),
        ("POST", "/api/games/nope/preview"),
        ("GET", "/api/games/nope/reachable?unit=x"),
        ("GET", "/api/games/nope/replay"),
        ("GET", "/api/games/nope/ws"),
    ] {
        let body = (method == "POST")
            .then(|| json!({"action": {"type": "end_phase"}, "expect": 0}).to_string());
        let (status, body) = call(&app, method, path, Some(&blue), body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {body}");
        assert_eq!(error_rule(&body), "not_found");
    }
    let (status, body) = get(&app, "/api/nothing-here", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_rule(&body), "not_found");
}

#[tokio::test]
async fn an_action_without_a_token_is_401() {
    let db = Db::new("missing-token");
    let (_, app) = open(&db);
    let (id, _, _) = morne(&app).await;
    let (status, body) = act(&app, &id, None, &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error_rule(&body), "token");
    assert!(error_message(&body).contains("Bearer"));
}

#[tokio::test]
async fn a_forged_token_is_403_everywhere() {
    let db = Db::new("forged-token");
    let (_, app) = open(&db);
    let (id, _, _) = morne(&app).await;
    // The other game's token is a real token, of the wrong game.
    let (_, other_blue, _) = morne(&app).await;
    for token in [
        "0123456789abcdef0123456789abcdef",
        "not a token",
        other_blue.as_str(),
    ] {
        let (status, body) = get(&app, &format!("/api/games/{id}"), Some(token)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(error_rule(&body), "token");
        let (status, _) = act(&app, &id, Some(token), &json!({"type": "end_phase"}), 0).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = get(&app, &format!("/api/games/{id}/replay"), Some(token)).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = get(
            &app,
            &format!("/api/games/{id}/ws?token={}", token.replace(' ', "+")),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0, "nothing was applied");
}

#[tokio::test]
async fn a_seat_acting_out_of_turn_is_403() {
    let db = Db::new("out-of-turn");
    let (_, app) = open(&db);
    let (id, _, orange) = morne(&app).await;
    let (status, body) = act(&app, &id, Some(&orange), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(error_rule(&body), "turn");
    assert!(error_message(&body).contains("blue"));
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0);
}

/// The score (issue 19) reaches every seat of every built-in scenario as the ruleset's
/// view says it: `objectives`, `score` by side and `turns_left`, the same for each seat
/// (a hand of cards is hidden, the score never is).
#[tokio::test]
async fn every_seat_of_every_ruleset_gets_the_score_in_its_view() {
    let db = Db::new("score");
    let (_, app) = open(&db);
    for b in grognard_rules::builtin::SCENARIOS {
        let scenario = grognard_rules::registry()
            .load_scenario(b.path, b.text)
            .unwrap();
        let sides: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
        let seats: Vec<(&str, &str)> = sides.iter().map(|s| (s.as_str(), "human")).collect();
        let (id, tokens) = new_game(&app, b.id, &seats, None).await;
        let uri = format!("/api/games/{id}");
        let (_, spectator) = get(&app, &uri, None).await;
        let v = &spectator["view"];
        assert!(v["objectives"].is_array(), "{}: {v}", b.id);
        assert!(v.get("turns_left").is_some(), "{}", b.id);
        for side in &sides {
            assert!(
                v["score"][side]["have"].is_i64(),
                "{}: {}",
                b.id,
                v["score"]
            );
            assert!(v["score"][side].get("need").is_some(), "{}", b.id);
        }
        for side in &sides {
            let (status, g) = get(&app, &uri, Some(&tokens[side])).await;
            assert_eq!(status, StatusCode::OK);
            for key in ["objectives", "score", "turns_left"] {
                assert_eq!(
                    g["view"][key], v[key],
                    "{}: {side} sees another {key}",
                    b.id
                );
            }
        }
    }
}
