//! Dice nobody can predict (issue 14, item 1): the server draws the seed of every game
//! against a person and publishes its commitment; the seed is in no answer, view,
//! replay or push before the end, and the game object and the replay reveal it after.

use super::real_port::{next_object, serve, ws};
use super::*;
use grognard_engine::dice_stream::Generator;
use grognard_server::token::{commitment, dice_commitment};
use sha2::{Digest, Sha256};

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
    let generator = generator_in_file(&db, &id);
    let Generator::ChaCha20 { key } = &generator else {
        panic!("a game against a person rolls ChaCha20 dice: {generator:?}");
    };
    let key = key.to_hex();
    assert_eq!(
        made["commitment"],
        dice_commitment(&id, seed, &generator),
        "the commitment is to the dice played"
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
            assert!(
                !a.contains(&key),
                "the dice's key in an answer before the end: {a}"
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
            assert!(
                !p.to_string().contains(&key),
                "the key in a push before the end"
            );
        }
        assert_eq!(last["seed"], seed, "the last push reveals the seed");
        assert_eq!(last["generator"]["key"], key, "and the key");
    }
    for t in [Some(tokens["blue"].as_str()), None] {
        let (_, g) = get(&app, &format!("/api/games/{id}"), t).await;
        assert_eq!(g["seed"], seed, "the game object reveals the seed");
        assert_eq!(g["generator"], json!({"kind": "chacha20", "key": key}));
        assert_eq!(g["commitment"], made["commitment"]);
    }
    let (_, replay) = get(&app, &format!("/api/games/{id}/replay"), None).await;
    assert_eq!(replay["seed"], seed);
    assert_eq!(replay["generator"], json!({"kind": "chacha20", "key": key}));
    assert_eq!(replay["commitment"], made["commitment"]);
    assert_eq!(replay["scenario_data"]["id"], MORNE);
    let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
    assert_eq!(
        replay["log"].as_array().unwrap().len(),
        log.len(),
        "the whole log"
    );
}

#[tokio::test]
async fn a_game_against_a_person_rolls_chacha20_dice_whose_whole_key_the_commitment_covers() {
    let db = Db::new("chacha-dice");
    let (_, app) = open(&db);
    let mut keys = BTreeSet::new();
    for seats in [
        json!({"blue": "human", "orange": "human"}),
        json!({"blue": "human", "orange": "ai"}),
    ] {
        let (status, made) = create(&app, &json!({"scenario": MORNE, "seats": seats})).await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["id"].as_str().unwrap();
        let seed = seed_in_file(&db, id);
        let Generator::ChaCha20 { key } = generator_in_file(&db, id) else {
            panic!("{seats}: not ChaCha20 dice");
        };
        // The documented text, hashed here: every one of the key's 64 digits is in it.
        let text = format!("grognard-dice/2:{id}:{seed}:chacha20:{}", key.to_hex());
        let expected: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(made["commitment"], expected, "{seats}");
        assert_ne!(made["commitment"], commitment(id, seed));
        let mut other = key.0;
        other[31] ^= 1;
        assert_ne!(
            dice_commitment(
                id,
                seed,
                &Generator::ChaCha20 {
                    key: grognard_engine::dice_stream::DiceKey(other)
                }
            ),
            expected,
            "the last bit of the key changes the commitment"
        );
        assert!(keys.insert(key.to_hex()), "a fresh key for every game");
    }
    // A seed asked for keeps SplitMix64 dice, the same for the same seed.
    let (_, made) = create(
        &app,
        &json!({"scenario": MORNE, "seats": {"blue": "ai", "orange": "ai"}, "seed": 11}),
    )
    .await;
    let id = made["id"].as_str().unwrap();
    assert_eq!(generator_in_file(&db, id), Generator::SplitMix64);
}

/// The spectator's game object of `id` after blue's first bombardment, which rolls.
async fn bombarded(app: &Router, made: &Value) -> (String, Value) {
    let id = made["id"].as_str().unwrap().to_owned();
    let token = made["seats"]["blue"]["token"].as_str().unwrap();
    let (_, g) = get(app, &format!("/api/games/{id}"), Some(token)).await;
    let bombard = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "bombard")
        .cloned()
        .expect("blue may bombard");
    let (status, answer) = act(app, &id, Some(token), &bombard, 0).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(
        answer["events"].to_string().contains("\"roll\""),
        "{answer}"
    );
    let (_, g) = get(app, &format!("/api/games/{id}"), None).await;
    (id, g)
}

#[tokio::test]
async fn stored_games_replay_with_their_dice_and_a_file_from_before_reads_as_splitmix64() {
    let db = Db::new("dice-restart");
    let (state, app) = open(&db);
    let mut before = Vec::new();
    for body in [
        json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}}),
        json!({"scenario": MORNE, "seats": {"blue": "human", "orange": "human"}, "hotseat": true, "seed": 7}),
    ] {
        let (_, made) = create(&app, &body).await;
        before.push(bombarded(&app, &made).await);
    }
    state.lobby().close().await;
    // Read again from the file: the ChaCha20 game from its key.
    let (state, app) = open(&db);
    for (id, g) in &before {
        let (_, again) = get(&app, &format!("/api/games/{id}"), None).await;
        assert_eq!(&again, g, "{id} after a restart");
    }
    state.lobby().close().await;
    // The file as a server of schema version 3 left it, without the `dice` column:
    // its games are SplitMix64 from their seed and replay as they did. (A SQLite
    // file's migration: PostgreSQL starts at the current schema.)
    if !db.is_file() {
        return;
    }
    rusqlite::Connection::open(&db.0)
        .unwrap()
        .execute_batch("ALTER TABLE games DROP COLUMN dice; PRAGMA user_version = 3;")
        .unwrap();
    let (_, app) = open(&db);
    let (id, g) = &before[1];
    let (_, again) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(&again, g, "a game stored before issue 19");
    assert_eq!(generator_in_file(&db, id), Generator::SplitMix64);
}
