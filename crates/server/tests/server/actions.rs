//! Actions: applied, logged and answered; refused with their rule; stale, oversized and malformed requests.

use super::*;

#[tokio::test]
async fn a_legal_action_is_applied_logged_and_answered_with_its_events_and_the_new_view() {
    let db = Db::new("apply");
    let (_, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    let (status, body) = act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "phase_began"),
        "{body}"
    );
    let view = &body["view"];
    assert_eq!(view["n"], 1);
    assert_eq!(view["seat"], "blue");
    assert_eq!(view["view"]["phase"], "movement");
    assert_eq!(view["log"][0]["n"], 1);
    assert_eq!(view["log"][0]["action"], json!({"type": "end_phase"}));
    let (_, again) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(&again, view, "the answer is the same object as GET");
    let (_, o) = get(&app, &format!("/api/games/{id}"), Some(&orange)).await;
    assert_eq!(o["n"], 1);
    // Acknowledged means committed: the action is in the file already.
    let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].n, &log[0].action),
        (1, &json!({"type": "end_phase"}))
    );
}

#[tokio::test]
async fn an_illegal_action_is_400_with_its_rule_and_changes_nothing() {
    let db = Db::new("illegal");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let uri = format!("/api/games/{id}");
    let (_, before) = get(&app, &uri, Some(&blue)).await;
    // A move in the bombardment phase.
    let unit = before["view"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["side"] == "blue" && u["class"] == "infantry")
        .unwrap();
    let action = json!({"type": "move", "unit": unit["id"], "to": unit["hex"]});
    let (status, body) = post(
        &app,
        &format!("{uri}/actions"),
        Some(&blue),
        &json!({"action": action, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(error_rule(&body).starts_with("MP-"), "{body}");
    let reasons = body["error"]["reasons"].as_array().unwrap();
    assert!(!reasons.is_empty());
    assert!(reasons
        .iter()
        .all(|r| r["rule"].as_str().unwrap().starts_with("MP-")
            && !r["message"].as_str().unwrap().is_empty()));
    let (_, after) = get(&app, &uri, Some(&blue)).await;
    assert_eq!(after, before, "nothing changed");
    assert!(grognard_server::store::read_log(&db.location(), &id)
        .unwrap()
        .is_empty());

    // An action the ruleset cannot read is a 400 too.
    let (status, body) = post(
        &app,
        &format!("{uri}/actions"),
        Some(&blue),
        &json!({"action": {"type": "fly", "unit": "x"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error_rule(&body), "request");
    assert!(error_message(&body).contains("fly"), "{body}");
}

#[tokio::test]
async fn a_stale_expect_is_409() {
    let db = Db::new("stale");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let uri = format!("/api/games/{id}/actions");
    let (status, _) = post(
        &app,
        &uri,
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = post(
        &app,
        &uri,
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        json!({"rule": "conflict", "message": "expected n=0 but the game is at n=1"})
    );
    let (status, _) = post(
        &app,
        &uri,
        Some(&blue),
        &json!({"action": {"type": "end_phase"}, "expect": 5}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 1);
}

#[tokio::test]
async fn an_oversized_body_is_413() {
    let db = Db::new("oversized");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let padding = "x".repeat(grognard_server::BODY_LIMIT + 1);
    let body =
        json!({"action": {"type": "end_phase", "padding": padding}, "expect": 0}).to_string();
    for uri in [
        format!("/api/games/{id}/actions"),
        format!("/api/games/{id}/explain"),
        "/api/games".to_owned(),
    ] {
        let (status, answer) = call(&app, "POST", &uri, Some(&blue), Some(body.clone())).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{uri}: {answer}");
        assert_eq!(error_rule(&answer), "limit");
    }
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0);
}

#[tokio::test]
async fn malformed_json_is_400_naming_the_problem() {
    let db = Db::new("malformed");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let uri = format!("/api/games/{id}/actions");
    let cases = [
        (
            r#"{"action": {"type": "end_phase"}, "expect": }"#,
            "line 1 column",
        ),
        ("", "EOF"),
        (
            r#"{"action": {"type": "end_phase"}}"#,
            "missing field `expect`",
        ),
        (
            r#"{"action": {"type": "end_phase"}, "expect": "zero"}"#,
            "invalid type",
        ),
        (
            r#"{"action": {"type": "end_phase"}, "expect": 0, "extra": 1}"#,
            "unknown field `extra`",
        ),
        ("[1, 2", "EOF"),
    ];
    for (body, named) in cases {
        let (status, answer) = call(&app, "POST", &uri, Some(&blue), Some(body.to_owned())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(error_rule(&answer), "json");
        assert!(
            error_message(&answer).contains(named),
            "{body}: `{named}` not in {answer}"
        );
    }
    let (status, answer) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some("{\"scenario\": \"x\"".into()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        error_message(&answer).starts_with("malformed JSON"),
        "{answer}"
    );
}

#[tokio::test]
async fn the_game_objects_log_entries_and_the_answers_events_carry_their_sentence() {
    let db = Db::new("event-text");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let (status, body) = act(&app, &id, Some(&blue), &json!({"type": "end_phase"}), 0).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let fit = |e: &Value| {
        let text = e["text"].as_str().unwrap_or("");
        !text.is_empty() && !text.contains('{') && !text.contains('_')
    };
    let events = body["events"].as_array().unwrap();
    assert!(!events.is_empty() && events.iter().all(fit), "{body}");
    // The phase begins for the side by its name, not its id.
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "phase_began" && e["text"].as_str().unwrap().contains("corps")),
        "{body}"
    );
    let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&blue)).await;
    let logged = g["log"][0]["events"].as_array().unwrap();
    assert_eq!(logged, events, "the log keeps the sentences of the answer");
    assert!(
        g["to_act"]["text"].as_str().is_some_and(|t| !t.is_empty()),
        "{g}"
    );
}
