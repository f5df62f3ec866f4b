//! Strict actions (issue 14, item 8): a field the rules do not read is refused, and
//! the file keeps each action as the rules write it, never the client's bytes.

use super::*;

#[tokio::test]
async fn an_unknown_field_inside_an_action_is_400_naming_it_and_nothing_is_stored() {
    let db = Db::new("strict");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    let padding = "x".repeat(30_000);
    for (action, field) in [
        (
            json!({"type": "end_phase", "padding": padding}),
            "action.padding",
        ),
        (
            json!({"type": "end_phase", "note": {"a": 1}}),
            "action.note",
        ),
        (json!({"type": "end_phase", "n": 0}), "action.n"),
    ] {
        let (status, body) = act(&app, &id, Some(&blue), &action, 0).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(error_rule(&body), "json");
        assert!(
            error_message(&body).contains(&format!("unknown field `{field}`")),
            "{body}"
        );
    }
    assert!(grognard_server::store::read_log(&db.location(), &id)
        .unwrap()
        .is_empty());
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(g["n"], 0);
}

#[tokio::test]
async fn the_stored_action_is_the_canonical_form_not_the_clients_bytes() {
    let db = Db::new("canonical");
    let (_, app) = open(&db);
    let (id, blue, _) = morne(&app).await;
    // A field left empty is no field the rules read: taken, and not stored.
    let body = r#"{"expect": 0, "action": {  "type" : "end_phase", "unit": null, "path": [] }}"#;
    let (status, answer) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(&blue),
        Some(body.to_owned()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let stored: String = db.query(
        "SELECT action FROM actions WHERE game_id = ?1",
        &[id.as_str().into()],
    )[0]
    .get(0)
    .unwrap();
    assert_eq!(stored, r#"{"type":"end_phase"}"#);
    // The computer's and every player's action is stored as the rules write it: the
    // file's log is the log of the game as served.
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    let served = g["log"][0]["action"].to_string();
    assert_eq!(stored, served);
}
