//! The hint: the computer's top candidates for the seat to act, from what it may see.

use super::*;

fn hint_options(db: &Db) -> Options {
    let mut o = db.options();
    o.hint_simulations = Some(60);
    o
}

/// Asks for a hint in game `id`.
async fn hint(app: &Router, id: &str, token: Option<&str>) -> (StatusCode, Value) {
    post(app, &format!("/api/games/{id}/hint"), token, &json!({})).await
}

/// The legal actions of `token`'s seat now.
async fn legal(app: &Router, id: &str, token: &str) -> Vec<Value> {
    let (_, g) = get(app, &format!("/api/games/{id}"), Some(token)).await;
    g["actions"].as_array().cloned().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_answers_up_to_three_legal_candidates_and_a_win_chance() {
    let db = Db::new("hint");
    let app = app(AppState::open(&hint_options(&db)).unwrap());
    let (id, blue, _orange) = morne(&app).await;
    // Into blue's first movement phase: many plans.
    let n = end_phases(&app, &id, &[&blue], 1).await;
    let actions = legal(&app, &id, &blue).await;
    let (status, h) = hint(&app, &id, Some(&blue)).await;
    assert_eq!(status, StatusCode::OK, "{h}");
    assert_eq!(h["n"], n);
    assert_eq!(h["side"], "blue");
    let win = h["win"].as_f64().expect("a win chance");
    assert!((0.0..=1.0).contains(&win), "{h}");
    let candidates = h["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 3, "{h}");
    for c in candidates {
        assert!(actions.contains(&c["action"]), "{c} is legal: {actions:?}");
        let plan = c["plan"].as_array().expect("a plan");
        assert_eq!(plan[0], c["action"]);
        assert!(c["visits"].is_u64() && c["win"].is_f64(), "{c}");
        assert!(c["description"].is_string() || c["description"].is_null());
    }
    // Best first: the plan the computer would play (in Morne Plaine its planner's
    // choice, which may have fewer visits), then the others most visited first.
    let visits: Vec<u64> = candidates
        .iter()
        .map(|c| c["visits"].as_u64().unwrap())
        .collect();
    assert!(visits[1..].windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_has_fewer_candidates_when_fewer_are_legal() {
    let db = Db::new("hint-few");
    let app = app(AppState::open(&hint_options(&db)).unwrap());
    let (id, blue, _) = morne(&app).await;
    let actions = legal(&app, &id, &blue).await;
    let (status, h) = hint(&app, &id, Some(&blue)).await;
    assert_eq!(status, StatusCode::OK, "{h}");
    let candidates = h["candidates"].as_array().unwrap();
    assert!(
        !candidates.is_empty() && candidates.len() <= 3.min(actions.len()),
        "{h}"
    );
    for c in candidates {
        assert!(actions.contains(&c["action"]), "{c}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_refuses_a_bad_token_a_spectator_and_a_seat_not_to_act() {
    let db = Db::new("hint-refuse");
    let app = app(AppState::open(&hint_options(&db)).unwrap());
    let (id, _blue, orange) = morne(&app).await;
    let (status, body) = hint(&app, &id, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(error_rule(&body), "token");
    let (status, body) = hint(&app, &id, Some("0123456789abcdef0123456789abcdef")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(error_rule(&body), "token");
    let (status, body) = hint(&app, &id, Some(&orange)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(error_rule(&body), "turn");
    assert!(error_message(&body).contains("blue's decision"), "{body}");
    let (status, _) = hint(&app, "nope", Some(&orange)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// In Battle Cry the hint is the same whenever the seat sees the same game: one game,
/// played until the hands are dealt, and the hint of the seat to act, asked of its
/// server and of a second server on a copy of the file (the same game rebuilt from its
/// log); the other seat, not to act, gets none. (That the search itself ignores the
/// other hand is `battle_cry_choice_ignores_the_other_hand` in grognard-ai: the HTTP
/// API cannot set a hand, and no two of 20,000 seeds deal the same view.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_cry_hint_reads_only_the_seats_view() {
    let scenario = "crossing-at-hollins-ford";
    // The second server reads a copy of the first one's SQLite file.
    let db = Db::file("hint-hidden-a");
    let state = AppState::open(&hint_options(&db)).unwrap();
    let first = app(state.clone());
    let sides: Vec<String> = state
        .lobby()
        .scenario(scenario)
        .unwrap()
        .sides
        .iter()
        .map(|s| s.id.clone())
        .collect();
    let seats: Vec<(&str, &str)> = sides.iter().map(|s| (s.as_str(), "human")).collect();
    let (id, tokens) = new_game(&first, scenario, &seats, None).await;
    // The first legal actions, until the seats see different things (the hands dealt).
    let side = loop {
        let mut views = Vec::new();
        for s in &sides {
            views.push(
                get(&first, &format!("/api/games/{id}"), Some(&tokens[s]))
                    .await
                    .1,
            );
        }
        let to_act = views[0]["to_act"]["side"].as_str().unwrap().to_owned();
        if views[0]["view"] != views[1]["view"] {
            break to_act;
        }
        let (_, mine) = get(&first, &format!("/api/games/{id}"), Some(&tokens[&to_act])).await;
        let (status, body) = act(
            &first,
            &id,
            Some(&tokens[&to_act]),
            &mine["actions"][0],
            mine["n"].as_u64().unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    };
    let other = sides.iter().find(|s| **s != side).unwrap().clone();
    let mut hints = Vec::new();
    let copy = Db::file("hint-hidden-b");
    for app in [Some(first), None] {
        let app = match app {
            Some(app) => app,
            None => {
                // A second server, on a copy of the first one's file.
                state.lobby().close().await;
                for suffix in ["", "-wal"] {
                    let from = grognard_server::store::sibling(&db.0, suffix);
                    if from.exists() {
                        std::fs::copy(from, grognard_server::store::sibling(&copy.0, suffix))
                            .unwrap();
                    }
                }
                grognard_server::app(AppState::open(&hint_options(&copy)).unwrap())
            }
        };
        let actions = legal(&app, &id, &tokens[&side]).await;
        let (status, h) = hint(&app, &id, Some(&tokens[&side])).await;
        assert_eq!(status, StatusCode::OK, "{h}");
        let candidates = h["candidates"].as_array().unwrap();
        assert!(!candidates.is_empty() && candidates.len() <= 3, "{h}");
        for c in candidates {
            assert!(actions.contains(&c["action"]), "{c}");
        }
        let (status, body) = hint(&app, &id, Some(&tokens[&other])).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(error_rule(&body), "turn");
        hints.push(h);
    }
    assert_eq!(hints[0], hints[1], "the same view, the same hint");
}
