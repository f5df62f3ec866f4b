//! `GET /api/games/{id}/position` (issue 19, item 4): the scenario file that starts
//! where a game stands, for its players while nothing is hidden, for anyone once over.

use super::*;

/// The position's status, headers and text.
async fn position(
    app: &Router,
    id: &str,
    token: Option<&str>,
) -> (StatusCode, String, String, Value) {
    let mut req = Request::builder().uri(format!("/api/games/{id}/position"));
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let res = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let disposition = res
        .headers()
        .get("content-disposition")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, disposition, text, json)
}

#[tokio::test]
async fn position_of_a_running_game_without_hidden_information_is_its_players_attachment() {
    let db = Db::new("position-open");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let n = end_phases(&app, &id, &[&blue], 1).await;
    let (status, disposition, text, _) = position(&app, &id, Some(&blue)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(
        disposition,
        format!("attachment; filename=\"{MORNE}-{id}-{n}.toml\"")
    );
    assert!(text.contains("[position]"), "{text}");
    // It is a scenario, and the game it starts is the game the server holds.
    let registry = grognard_rules::registry();
    let game = registry
        .new_game(registry.load_scenario("p.toml", &text).unwrap(), Some(1))
        .unwrap();
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(
        game.view(&Seat::Side("blue".into()))["units"],
        g["view"]["units"]
    );
    assert_eq!(g["position"], true, "the page offers it to the player");

    let (status, _, _, body) = position(&app, &id, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (_, s) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(
        s["position"], false,
        "not offered to a spectator of a running game"
    );
}

#[tokio::test]
async fn position_of_a_running_game_with_a_hand_dealt_is_403_hidden_and_anyones_once_over() {
    let db = Db::new("position-hidden");
    let (_, app) = open(&db);
    let (id, tokens) = new_game(
        &app,
        "crossing-at-hollins-ford",
        &[("blue", "human"), ("grey", "human")],
        None,
    )
    .await;
    // The first action deals the hands.
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&tokens["blue"])).await;
    let first = g["actions"][0].clone();
    let (status, body) = act(&app, &id, Some(&tokens["blue"]), &first, 0).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for side in ["blue", "grey"] {
        let (status, _, _, body) = position(&app, &id, Some(&tokens[side])).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(error_rule(&body), "hidden");
        let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&tokens[side])).await;
        assert_eq!(g["position"], false);
    }
    play_to_the_end(&app, &id, &tokens, &mut Lcg(3)).await;
    let (status, _, text, _) = position(&app, &id, None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.contains("[position.hands]"), "{text}");
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(
        g["position"], true,
        "a finished game's position is anyone's"
    );
}
