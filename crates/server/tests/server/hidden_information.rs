//! Hidden information: nothing a seat may not know reaches it on any channel.

use super::real_port::{next_object, objects_until, serve, ws};
use super::*;

/// Every string in a JSON value.
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// What a seat may know, as the ruleset says: its view and its log.
fn known(game: &dyn AnyGame, seat: &Seat) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    strings(&game.view(seat), &mut out);
    strings(&Value::Array(game.log(seat)), &mut out);
    out
}

/// Plays a two-human game of every built-in scenario at random and checks, at every
/// step, everything each seat receives (GET, the WebSocket, the replay, the answers
/// to its errors) against the ruleset's own view and log for that seat, and that
/// none of it holds a string only the other seat may know.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_information_never_reaches_the_other_seat_on_any_channel() {
    let db = Db::new("hidden");
    let (addr, state) = serve(&db).await;
    let registry = grognard_rules::registry();
    let mut c = http::Client::connect(addr).await;
    let mut hidden_rulesets = 0;
    for entry in &state.lobby().scenarios {
        let sides: Vec<String> = entry.scenario.sides.iter().map(|s| s.id.clone()).collect();
        let seats: serde_json::Map<String, Value> =
            sides.iter().map(|s| (s.clone(), json!("human"))).collect();
        let (status, created) = c
            .call(
                "POST",
                "/api/games",
                None,
                Some(&json!({"scenario": entry.id, "seats": seats})),
            )
            .await;
        assert_eq!(status, 201);
        let id = created["id"].as_str().unwrap().to_owned();
        // The server drew the seed; the test, as the operator, reads it in the file to
        // rebuild the game beside it.
        let seed = seed_in_file(&db, &id);
        let generator = generator_in_file(&db, &id);
        let token = |side: &str| created["seats"][side]["token"].as_str().unwrap().to_owned();
        let mirror_of = |actions: &[Value]| {
            registry
                .load_game(&SavedGame {
                    format: SAVE_FORMAT.into(),
                    ruleset: entry.scenario.ruleset.clone(),
                    scenario: entry.scenario.clone(),
                    seed,
                    log: actions
                        .iter()
                        .map(|a| SavedAction {
                            action: a.clone(),
                            forced: vec![],
                        })
                        .collect(),
                    pending_forced: vec![],
                    generator: generator.clone(),
                    ending: None,
                })
                .unwrap()
        };
        let hidden = state.lobby().is_hidden(mirror_of(&[]).as_ref());
        hidden_rulesets += usize::from(hidden);
        let mut sockets = Vec::new();
        for side in &sides {
            let mut s = ws(addr, &id, Some(&token(side))).await;
            let first = next_object(&mut s).await;
            sockets.push((s, first));
        }
        let mut played: Vec<Value> = Vec::new();
        let mut secrets_checked = 0;
        let mut rng = Lcg(entry.id.len() as u64);
        let started = Instant::now();
        let mut mirror = mirror_of(&[]);
        for step in 0..30u64 {
            let Some(decision) = mirror.to_act() else {
                break;
            };
            let n = played.len() as u64;
            let knows: Vec<BTreeSet<String>> = sides
                .iter()
                .map(|s| known(mirror.as_ref(), &Seat::Side(s.clone())))
                .collect();
            let public = known(mirror.as_ref(), &Seat::Spectator);
            for (i, side) in sides.iter().enumerate() {
                let seat = Seat::Side(side.clone());
                let secret: BTreeSet<String> = (0..sides.len())
                    .filter(|&j| j != i)
                    .flat_map(|j| knows[j].iter())
                    .filter(|s| !knows[i].contains(*s) && !public.contains(*s))
                    .cloned()
                    .collect();
                secrets_checked += secret.len();
                // A secret is a string value the seat receives; a key of the same name
                // (the view's `"fight_back": null` beside a card `fight_back`) is none.
                let check = |channel: &str, text: &str| {
                    let mut received = BTreeSet::new();
                    let value = serde_json::from_str(text)
                        .unwrap_or_else(|_| Value::String(text.to_owned()));
                    strings(&value, &mut received);
                    for s in &secret {
                        assert!(!received.contains(s), "{}: step {step}: `{s}`, which only another seat may know, reached {side} by {channel}", entry.id);
                    }
                };
                let t = token(side);
                let (status, g) = c
                    .call("GET", &format!("/api/games/{id}"), Some(&t), None)
                    .await;
                assert_eq!(status, 200);
                check("GET", &g.to_string());
                assert_eq!(
                    g["view"],
                    mirror.view(&seat),
                    "the view is the ruleset's view for the seat"
                );
                let log = mirror.log(&seat);
                assert_eq!(
                    g["log"].as_array().unwrap().as_slice(),
                    &log[log.len().saturating_sub(30)..]
                );
                let acting = decision.side == *side;
                assert_eq!(
                    g["actions"].as_array().unwrap().is_empty(),
                    !acting || mirror.legal().is_empty()
                );

                let (socket, last) = &mut sockets[i];
                if last["n"].as_u64() < Some(n) {
                    let pushes = objects_until(socket, n).await;
                    for p in &pushes {
                        check("WebSocket", &p.to_string());
                    }
                    *last = pushes.last().unwrap().clone();
                }
                check("WebSocket", &last.to_string());
                assert_eq!(*last, g, "the last push is the seat's GET");

                let (_, replay) = c
                    .call("GET", &format!("/api/games/{id}/replay"), Some(&t), None)
                    .await;
                check("replay", &replay.to_string());
                assert_eq!(replay["log"], Value::Array(log));

                if !acting && !secret.is_empty() {
                    // Trying the acting seat's own actions, and asking about them.
                    for a in mirror.legal().iter().take(2) {
                        let (status, e) = c
                            .call(
                                "POST",
                                &format!("/api/games/{id}/actions"),
                                Some(&t),
                                Some(&json!({"action": a, "expect": n})),
                            )
                            .await;
                        assert_eq!(status, 403);
                        check("an action's refusal", &e.to_string());
                        for ask in ["explain", "preview"] {
                            let (_, e) = c
                                .call(
                                    "POST",
                                    &format!("/api/games/{id}/{ask}"),
                                    Some(&t),
                                    Some(&json!({"action": a})),
                                )
                                .await;
                            check(ask, &e.to_string());
                        }
                    }
                }
            }
            // The spectator sees only what everybody may.
            let (_, s) = c.call("GET", &format!("/api/games/{id}"), None, None).await;
            assert_eq!(s["view"], mirror.view(&Seat::Spectator));
            assert_eq!(s["actions"], json!([]));

            let legal = mirror.legal();
            let action = legal[rng.below(legal.len())].clone();
            let (status, answer) = c
                .call(
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(&token(&decision.side)),
                    Some(&json!({"action": action, "expect": n})),
                )
                .await;
            assert_eq!(status, 200, "{answer}");
            mirror.apply(&action).unwrap();
            played.push(action);
        }
        assert!(!played.is_empty());
        eprintln!(
            "{}: {} actions in {:.1} s",
            entry.id,
            played.len(),
            started.elapsed().as_secs_f64()
        );
        if hidden {
            assert!(
                secrets_checked > 0,
                "{}: hidden information, yet no secret to look for",
                entry.id
            );
            eprintln!(
                "{}: checked {secrets_checked} secrets over {} actions",
                entry.id,
                played.len()
            );
        }
    }
    if hidden_rulesets == 0 {
        eprintln!(
            "note: no built-in ruleset has hidden information yet; checked views and logs only"
        );
    }
}

/// Once a game is over nothing is hidden: the game object's view and log, and every
/// position of its replay, are whole for a seat and for a spectator (both Battle Cry
/// hands, each with its cards).
#[tokio::test]
async fn once_a_game_is_over_its_views_and_replay_positions_are_whole() {
    let db = Db::new("over-whole");
    let (_, app) = open(&db);
    let (status, made) = post(
        &app,
        "/api/games",
        None,
        &json!({"scenario": "crossing-at-hollins-ford", "seats": {"blue": "human", "grey": "human"}, "hotseat": true, "seed": 3}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap();
    let token = made["seats"]["blue"]["token"].as_str().unwrap().to_owned();
    // Both sides battle whenever they may and otherwise end their steps soon, so that
    // the game ends in a few hundred actions.
    let mut rng = Lcg(3);
    let mut n = 0;
    loop {
        let (_, g) = get(&app, &format!("/api/games/{id}"), Some(&token)).await;
        if !g["outcome"].is_null() {
            break;
        }
        let actions = g["actions"].as_array().expect("actions");
        let of = |kind: &str| actions.iter().find(|a| a["type"] == kind);
        let pick = of("battle")
            .or_else(|| {
                ["deal", "done_ordering", "done_moving", "end_turn"]
                    .iter()
                    .find_map(|k| of(k))
                    .filter(|_| rng.below(3) == 0)
            })
            .unwrap_or_else(|| &actions[rng.below(actions.len())])
            .clone();
        let (status, body) = act(&app, id, Some(&token), &pick, n).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        n += 1;
        assert!(n < 3000, "the game did not end");
    }
    let whole = |what: &str, view: &Value| {
        for side in ["blue", "grey"] {
            assert!(
                view["hands"][side]["cards"].is_array(),
                "{what}: {side}'s hand is shown: {}",
                view["hands"][side]
            );
        }
    };
    let (_, mine) = get(&app, &format!("/api/games/{id}"), Some(&token)).await;
    assert!(!mine["outcome"].is_null());
    whole("the seat's game object", &mine["view"]);
    let (_, public) = get(&app, &format!("/api/games/{id}"), None).await;
    whole("the spectator's game object", &public["view"]);
    for at in [0, n / 2, n] {
        let (status, then) = get(&app, &format!("/api/games/{id}/replay?at={at}"), None).await;
        assert_eq!(status, StatusCode::OK, "{then}");
        whole(&format!("the replay at {at}"), &then["view"]);
    }
}
