//! Dice nobody can predict (issue 14, item 1): the server draws the seed of every game
//! against a person and publishes its commitment; the seed is in no answer, view,
//! replay or push before the end, and the game object and the replay reveal it after.

use super::real_port::{next_object, serve, ws};
use super::*;
use grognard_server::token::commitment;

async fn create(app: &Router, body: &Value) -> (StatusCode, Value) {
    post(app, "/api/games", None, body).await
}

#[tokio::test]
async fn a_seed_is_refused_for_a_game_against_a_person() {
    let db = Db::new("seed-refused");
    let (_, app) = open(&db);
    for seats in [
        json!({"blue": "human", "orange": "human"}),
        json!({"blue": "human", "orange": "ai"}),
        json!({"blue": "ai", "orange": "human"}),
    ] {
        let (status, body) =
            create(&app, &json!({"scenario": MORNE, "seats": seats, "seed": 7})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{seats}: {body}");
        assert_eq!(error_rule(&body), "request");
        assert!(error_message(&body).contains("`seed`"), "{body}");
    }
    // A hotseat game is every seat human.
    let (status, body) = create(
        &app,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "ai"}, "hotseat": true, "seed": 7}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(error_message(&body).contains("hotseat"), "{body}");
    let (_, games) = get(&app, "/api/games", None).await;
    assert_eq!(games, json!([]), "no game was made");
}

#[tokio::test]
async fn a_seed_is_taken_for_a_hotseat_game_or_computer_seats_only_and_gives_the_same_dice() {
    let db = Db::new("seed-taken");
    let (_, app) = open(&db);
    let mut rolls = Vec::new();
    for _ in 0..2 {
        let (status, made) = create(
            &app,
            &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}, "hotseat": true, "seed": 7}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["id"].as_str().unwrap();
        assert_eq!(made["hotseat"], true);
        assert_eq!(made["commitment"], commitment(id, 7));
        let token = made["seats"]["blue"]["token"].as_str().unwrap();
        assert_eq!(
            made["seats"]["orange"]["token"], token,
            "one token for every seat of a hotseat game"
        );
        let (_, g) = get(&app, &format!("/api/games/{id}"), Some(token)).await;
        let bombard = g["actions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["type"] == "bombard")
            .cloned()
            .expect("blue may bombard");
        let (status, answer) = act(&app, id, Some(token), &bombard, 0).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        rolls.push(answer["events"].clone());
    }
    assert_eq!(rolls[0], rolls[1], "the same seed, the same dice");
    assert!(rolls[0].to_string().contains("\"roll\""), "{}", rolls[0]);

    let (status, made) = create(
        &app,
        &json!({"scenario": MORNE, "seats": {"blue": "ai", "orange": "ai"}, "seed": 11}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(
        made["commitment"],
        commitment(made["id"].as_str().unwrap(), 11)
    );
    assert_eq!(made["hotseat"], false);
}

#[tokio::test]
async fn a_hotseat_token_plays_the_seat_to_act_and_sees_as_it() {
    let db = Db::new("hotseat");
    let (_, app) = open(&db);
    let (status, made) = create(
        &app,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}, "hotseat": true}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap();
    let token = made["seats"]["blue"]["token"].as_str().unwrap();
    let mut seen = BTreeSet::new();
    for n in 0..12 {
        let (_, g) = get(&app, &format!("/api/games/{id}"), Some(token)).await;
        assert_eq!(g["hotseat"], true);
        assert_eq!(
            g["seat"], g["to_act"]["side"],
            "the token sees as the side to act"
        );
        assert!(!g["actions"].as_array().unwrap().is_empty());
        seen.insert(g["seat"].as_str().unwrap().to_owned());
        let (status, body) = act(&app, id, Some(token), &json!({"type": "end_phase"}), n).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert_eq!(seen.len(), 2, "the one token played both sides: {seen:?}");
}

/// Every game object of a socket until the game is over.
async fn pushes_to_the_end(mut socket: super::real_port::Socket) -> Vec<Value> {
    let mut all = Vec::new();
    loop {
        let o = next_object(&mut socket).await;
        let over = !o["outcome"].is_null();
        all.push(o);
        if over {
            return all;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seed_is_in_no_answer_before_the_end_and_revealed_after() {
    let db = Db::new("seed-secret");
    let (addr, state) = serve(&db).await;
    let app = grognard_server::app(state.clone());
    let (status, made) = create(
        &app,
        &json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = made["id"].as_str().unwrap().to_owned();
    let tokens: BTreeMap<String, String> = ["blue", "orange"]
        .iter()
        .map(|s| {
            (
                (*s).to_owned(),
                made["seats"][s]["token"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let seed = seed_in_file(&db, &id);
    let secret = seed.to_string();
    assert_eq!(
        made["commitment"],
        commitment(&id, seed),
        "the commitment is to the seed played"
    );
    let mut answers = vec![made.to_string()];

    let sockets = [
        Some(tokens["blue"].clone()),
        Some(tokens["orange"].clone()),
        None,
    ]
    .map(|t| {
        let id = id.clone();
        tokio::spawn(async move { pushes_to_the_end(ws(addr, &id, t.as_deref()).await).await })
    });

    let mut rng = Lcg(5);
    let mut rolled = 0;
    loop {
        for t in [
            Some(tokens["blue"].as_str()),
            Some(tokens["orange"].as_str()),
            None,
        ] {
            for path in [
                format!("/api/games/{id}"),
                format!("/api/games/{id}/replay"),
            ] {
                let (_, a) = get(&app, &path, t).await;
                answers.push(a.to_string());
            }
        }
        let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
        let n = g["n"].as_u64().unwrap();
        let (_, back) = get(&app, &format!("/api/games/{id}/replay?at={}", n / 2), None).await;
        answers.push(back.to_string());
        let (_, list) = get(&app, "/api/games", None).await;
        answers.push(list.to_string());
        let Some(side) = g["to_act"]["side"].as_str() else {
            break;
        };
        for a in &answers {
            assert!(
                !a.contains(&secret),
                "the seed in an answer before the end: {a}"
            );
        }
        answers.clear();
        let token = &tokens[side];
        let (_, mine) = get(&app, &format!("/api/games/{id}"), Some(token)).await;
        let actions = mine["actions"].as_array().unwrap();
        let end = json!({"type": "end_phase"});
        let action = if actions.contains(&end) && rng.below(2) == 0 {
            end
        } else {
            actions[rng.below(actions.len())].clone()
        };
        let (status, answer) = act(&app, &id, Some(token), &action, n).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        rolled += answer["events"].to_string().matches("\"roll\"").count();
        answers.push(answer.to_string());
    }
    assert!(rolled > 0, "dice rolled on the way");

    // Over: every push before the last was before the end.
    for socket in sockets {
        let pushes = socket.await.unwrap();
        let (last, before) = pushes.split_last().unwrap();
        for p in before {
            assert!(
                !p.to_string().contains(&secret),
                "the seed in a push before the end"
            );
        }
        assert_eq!(last["seed"], seed, "the last push reveals the seed");
    }
    for t in [Some(tokens["blue"].as_str()), None] {
        let (_, g) = get(&app, &format!("/api/games/{id}"), t).await;
        assert_eq!(g["seed"], seed, "the game object reveals the seed");
        assert_eq!(g["commitment"], commitment(&id, seed));
    }
    let (_, replay) = get(&app, &format!("/api/games/{id}/replay"), None).await;
    assert_eq!(replay["seed"], seed);
    assert_eq!(replay["commitment"], commitment(&id, seed));
    assert_eq!(replay["scenario_data"]["id"], MORNE);
    let log = grognard_server::store::read_log(&db.0, &id).unwrap();
    assert_eq!(
        replay["log"].as_array().unwrap().len(),
        log.len(),
        "the whole log"
    );
}
