//! The lean forms of the game object (issue 17) on a real port and a real file: the
//! log's new entries only (`?since=K`), the legal actions grouped (`?legal=compact`) or
//! left out (`?legal=none`, then `GET .../legal`), and WebSocket pushes of what changed
//! (`?delta=true`). Each is checked against the full object of the same seat, which
//! the redaction tests check is seat-true.

use super::real_port::{next_object, serve, ws, Socket};
use super::*;

const CROSSING: &str = "crossing-at-hollins-ford";

/// A new game of `scenario` over `c`, every side human (the server draws the seed):
/// its id and each side's token.
async fn created(c: &mut http::Client, scenario: &str) -> (String, BTreeMap<String, String>) {
    let (status, board) = c
        .call(
            "GET",
            &format!("/api/scenarios/{scenario}/board"),
            None,
            None,
        )
        .await;
    assert_eq!(status, 200, "{board}");
    let seats: serde_json::Map<String, Value> = board["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap().to_owned(), json!("human")))
        .collect();
    let (status, created) = c
        .call(
            "POST",
            "/api/games",
            None,
            Some(&json!({"scenario": scenario, "seats": seats})),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let tokens = created["seats"]
        .as_object()
        .unwrap()
        .iter()
        .filter_map(|(side, s)| s["token"].as_str().map(|t| (side.clone(), t.to_owned())))
        .collect();
    (created["id"].as_str().unwrap().to_owned(), tokens)
}

/// The full object of the seat holding `token` (a spectator's without).
async fn full(c: &mut http::Client, id: &str, token: Option<&str>) -> Value {
    let (status, g) = c
        .call("GET", &format!("/api/games/{id}"), token, None)
        .await;
    assert_eq!(status, 200, "{g}");
    g
}

/// Plays `k` actions at random by the side to act; returns the game's `n`.
async fn play(
    c: &mut http::Client,
    id: &str,
    tokens: &BTreeMap<String, String>,
    k: usize,
    rng: &mut Lcg,
) -> u64 {
    let mut n = 0;
    for _ in 0..k {
        let g = full(c, id, None).await;
        let Some(side) = g["to_act"]["side"].as_str() else {
            return g["n"].as_u64().unwrap();
        };
        let mine = full(c, id, Some(&tokens[side])).await;
        let actions = mine["actions"].as_array().unwrap();
        let end = json!({"type": "end_phase"});
        let action = if actions.contains(&end) && rng.below(3) == 0 {
            end
        } else {
            actions[rng.below(actions.len())].clone()
        };
        n = mine["n"].as_u64().unwrap();
        let (status, body) = c
            .call(
                "POST",
                &format!("/api/games/{id}/actions"),
                Some(&tokens[side]),
                Some(&json!({"action": action, "expect": n})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        n += 1;
    }
    n
}

/// The actions of compact groups, written here from the documented form rather than
/// the server's own code.
fn expanded(groups: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for g in groups.as_array().expect("groups") {
        if let Some(a) = g.get("action") {
            out.push(a.clone());
        } else if let Some(k) = g.get("vary") {
            for v in g["values"].as_array().unwrap() {
                let mut a = g["common"].clone();
                a[k.as_str().unwrap()] = v.clone();
                out.push(a);
            }
        } else {
            out.push(g["common"].clone());
        }
    }
    out
}

/// The object but for its log and legal actions.
fn rest(g: &Value) -> Value {
    let mut g = g.clone();
    for k in ["log", "log_from", "actions", "legal"] {
        g.as_object_mut().unwrap().remove(k);
    }
    g
}

/// The entries of a full object's log numbered after `k`.
fn after(g: &Value, k: u64) -> Vec<Value> {
    g["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["n"].as_u64().unwrap() > k)
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_object_since_k_carries_only_the_new_entries() {
    let db = Db::new("lean-since");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let mut rng = Lcg(17);
    // Battle Cry: each side's hand is hidden from the other, and so are its draws.
    let (id, tokens) = created(&mut c, CROSSING).await;
    let n = play(&mut c, &id, &tokens, 24, &mut rng).await;
    assert!(n >= 20, "the game went on: n = {n}");
    let seats: Vec<Option<&str>> = tokens
        .values()
        .map(|t| Some(t.as_str()))
        .chain([None])
        .collect();
    for token in seats {
        let whole = full(&mut c, &id, token).await;
        assert!(
            whole.get("log_from").is_none(),
            "without since, as before: {whole}"
        );
        for k in [n - 10, n - 1, n, n + 5] {
            let (status, lean) = c
                .call("GET", &format!("/api/games/{id}?since={k}"), token, None)
                .await;
            assert_eq!(status, 200, "{lean}");
            assert_eq!(lean["log_from"], k.min(n), "since {k}");
            assert_eq!(
                lean["log"].as_array().unwrap(),
                &after(&whole, k),
                "since {k}"
            );
            // Everything else is the full object's, its actions included.
            assert_eq!(lean["actions"], whole["actions"]);
            assert_eq!(rest(&lean), rest(&whole), "since {k}");
        }
        // Without since, a lean form's log is the full object's tail, from log_from.
        let (_, compact) = c
            .call(
                "GET",
                &format!("/api/games/{id}?legal=compact"),
                token,
                None,
            )
            .await;
        assert_eq!(compact["log"], whole["log"]);
        assert_eq!(compact["log_from"], n.saturating_sub(30));
    }
    // The other side's entries stay as that side sees them: the two logs from the
    // same k differ (each sees its own draws), and each is its full object's.
    let mut logs = Vec::new();
    for t in tokens.values() {
        let uri = format!("/api/games/{id}?since={}", n - 20);
        logs.push(c.call("GET", &uri, Some(t), None).await.1["log"].clone());
    }
    assert_ne!(logs[0], logs[1], "two seats, two logs");
    let (status, bad) = c
        .call("GET", &format!("/api/games/{id}?since=-1"), None, None)
        .await;
    assert_eq!(status, 400, "{bad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compact_legal_actions_expand_to_the_full_list() {
    let db = Db::new("lean-compact");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let mut rng = Lcg(3);
    let mut checked = 0;
    for scenario in [MORNE, CROSSING] {
        let (id, tokens) = created(&mut c, scenario).await;
        for _ in 0..12 {
            let g = full(&mut c, &id, None).await;
            let Some(side) = g["to_act"]["side"].as_str() else {
                break;
            };
            let t = tokens[side].clone();
            let whole = full(&mut c, &id, Some(&t)).await;
            let (_, compact) = c
                .call(
                    "GET",
                    &format!("/api/games/{id}?legal=compact"),
                    Some(&t),
                    None,
                )
                .await;
            assert!(compact.get("actions").is_none(), "{compact}");
            let groups = compact["legal"].as_array().unwrap();
            let actions = whole["actions"].as_array().unwrap();
            assert_eq!(
                &expanded(&compact["legal"]),
                actions,
                "{scenario}: the same list, in order"
            );
            assert!(groups.len() <= actions.len());
            if actions.len() > 20 {
                assert!(
                    groups.len() * 2 < actions.len(),
                    "{scenario}: {} groups for {} actions",
                    groups.len(),
                    actions.len()
                );
                checked += 1;
            }
            assert_eq!(rest(&compact), rest(&whole));
            // The other seat is not to act: no legal actions, in any form.
            if let Some((_, other)) = tokens.iter().find(|(s, _)| *s != side) {
                let (_, theirs) = c
                    .call(
                        "GET",
                        &format!("/api/games/{id}?legal=compact"),
                        Some(other),
                        None,
                    )
                    .await;
                assert_eq!(theirs["legal"], json!([]));
            }
            // None: neither field; the unit's actions on demand.
            let (_, none) = c
                .call(
                    "GET",
                    &format!("/api/games/{id}?legal=none"),
                    Some(&t),
                    None,
                )
                .await;
            assert!(
                none.get("actions").is_none() && none.get("legal").is_none(),
                "{none}"
            );
            if let Some(unit) = actions.iter().find_map(|a| a["unit"].as_str()) {
                let (status, own) = c
                    .call(
                        "GET",
                        &format!("/api/games/{id}/legal?unit={unit}"),
                        Some(&t),
                        None,
                    )
                    .await;
                assert_eq!(status, 200, "{own}");
                let want: Vec<&Value> = actions.iter().filter(|a| a["unit"] == unit).collect();
                assert_eq!(
                    own["actions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .collect::<Vec<_>>(),
                    want
                );
                assert_eq!(own["n"], whole["n"]);
            }
            let (status, all) = c
                .call("GET", &format!("/api/games/{id}/legal"), Some(&t), None)
                .await;
            assert_eq!(status, 200, "{all}");
            assert_eq!(all["actions"], whole["actions"]);
            play(&mut c, &id, &tokens, 1 + rng.below(3), &mut rng).await;
        }
    }
    assert!(checked > 0, "some lists were long enough to group");
    let (id, _) = created(&mut c, MORNE).await;
    let (status, bad) = c
        .call("GET", &format!("/api/games/{id}?legal=some"), None, None)
        .await;
    assert_eq!(status, 400, "{bad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_answer_since_n_carries_its_own_entry_and_compact_actions() {
    let db = Db::new("lean-answer");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let mut rng = Lcg(8);
    let (id, tokens) = created(&mut c, MORNE).await;
    for _ in 0..15 {
        let g = full(&mut c, &id, None).await;
        let Some(side) = g["to_act"]["side"].as_str() else {
            break;
        };
        let t = tokens[side].clone();
        let mine = full(&mut c, &id, Some(&t)).await;
        let n = mine["n"].as_u64().unwrap();
        let actions = mine["actions"].as_array().unwrap();
        let action = actions[rng.below(actions.len())].clone();
        let (status, answer) = c
            .call(
                "POST",
                &format!("/api/games/{id}/actions?since={n}&legal=compact"),
                Some(&t),
                Some(&json!({"action": action, "expect": n})),
            )
            .await;
        assert_eq!(status, 200, "{answer}");
        let view = &answer["view"];
        assert_eq!(view["log_from"], n);
        let after_it = full(&mut c, &id, Some(&t)).await;
        assert_eq!(view["log"].as_array().unwrap(), &after(&after_it, n));
        assert_eq!(view["log"][0]["n"], n + 1);
        assert_eq!(
            expanded(&view["legal"]),
            *after_it["actions"].as_array().unwrap()
        );
        assert_eq!(rest(view), rest(&after_it));
    }
}

/// The next object on a socket that is not a chat message.
async fn pushed(socket: &mut Socket) -> Value {
    next_object(socket).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delta_socket_gets_the_new_entries_only() {
    let db = Db::new("lean-delta");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let mut rng = Lcg(11);
    let (id, tokens) = created(&mut c, CROSSING).await;
    let sides: Vec<String> = tokens.keys().cloned().collect();
    let watcher = &sides[1];
    let (socket, _) = tokio_tungstenite::connect_async(format!(
        "ws://{addr}/api/games/{id}/ws?token={}&delta=true&legal=compact",
        tokens[watcher]
    ))
    .await
    .expect("WebSocket");
    let mut socket: Socket = socket;
    let mut old = ws(addr, &id, Some(&tokens[watcher])).await;
    let first = pushed(&mut socket).await;
    assert_eq!(first["n"], 0);
    assert_eq!(first["log"], json!([]));
    assert_eq!(
        pushed(&mut old).await,
        full(&mut c, &id, Some(&tokens[watcher])).await
    );
    let mut held: Vec<Value> = Vec::new();
    let mut last = 0;
    while last < 12 {
        let n = play(&mut c, &id, &tokens, 1, &mut rng).await;
        // Pushes may be coalesced: read until this n.
        loop {
            let d = pushed(&mut socket).await;
            let from = d["log_from"].as_u64().expect("a delta names log_from");
            assert_eq!(from, last, "each push starts where the last ended");
            let entries = d["log"].as_array().unwrap();
            assert_eq!(
                entries.len() as u64,
                d["n"].as_u64().unwrap() - from,
                "only the new entries"
            );
            held.retain(|e| e["n"].as_u64().unwrap() <= from);
            held.extend(entries.iter().cloned());
            last = d["n"].as_u64().unwrap();
            if last >= n {
                let whole = full(&mut c, &id, Some(&tokens[watcher])).await;
                let tail = &held[held.len().saturating_sub(30)..];
                assert_eq!(
                    tail,
                    whole["log"].as_array().unwrap().as_slice(),
                    "the log put together is the seat's"
                );
                assert_eq!(rest(&d), rest(&whole));
                assert_eq!(expanded(&d["legal"]), *whole["actions"].as_array().unwrap());
                break;
            }
        }
        // The old socket still gets the whole object, as before.
        loop {
            let o = pushed(&mut old).await;
            assert!(
                o.get("log_from").is_none() && o.get("actions").is_some(),
                "{o}"
            );
            if o["n"].as_u64().unwrap() >= n {
                break;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_an_undo_since_and_delta_send_the_entries_again_from_where_the_log_now_ends() {
    let db = Db::new("lean-undo");
    let (addr, _) = serve(&db).await;
    let mut c = http::Client::connect(addr).await;
    let (id, tokens) = created(&mut c, MORNE).await;
    let blue = tokens["blue"].clone();
    let (socket, _) = tokio_tungstenite::connect_async(format!(
        "ws://{addr}/api/games/{id}/ws?token={blue}&delta=true"
    ))
    .await
    .expect("WebSocket");
    let mut socket: Socket = socket;
    assert_eq!(pushed(&mut socket).await["n"], 0);
    let post = |path: &str, body: Value| (format!("/api/games/{id}/{path}"), body);
    // Blue ends its bombardment, then moves (n = 2), then takes the move back (n = 1).
    let (uri, body) = post(
        "actions",
        json!({"action": {"type": "end_phase"}, "expect": 0}),
    );
    assert_eq!(c.call("POST", &uri, Some(&blue), Some(&body)).await.0, 200);
    let g = full(&mut c, &id, Some(&blue)).await;
    let mv = g["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "move")
        .unwrap()
        .clone();
    let (uri, body) = post("actions", json!({"action": mv, "expect": 1}));
    assert_eq!(c.call("POST", &uri, Some(&blue), Some(&body)).await.0, 200);
    let mut last = (0, 0);
    while last.1 < 2 {
        let d = pushed(&mut socket).await;
        last = (d["undos"].as_u64().unwrap(), d["n"].as_u64().unwrap());
    }
    let (uri, body) = post("undo?since=2&undos=0", json!({"expect": 2}));
    let (status, undone) = c.call("POST", &uri, Some(&blue), Some(&body)).await;
    assert_eq!(status, 200, "{undone}");
    // The answer: the client held 2 entries, one is taken back; from 1, nothing new.
    assert_eq!(
        (&undone["view"]["log_from"], &undone["view"]["log"]),
        (&json!(1), &json!([]))
    );
    let whole = full(&mut c, &id, Some(&blue)).await;
    assert_eq!(rest(&undone["view"]), rest(&whole));
    // A GET that names the object it holds (n = 2, no undo) is told the same.
    let (_, g) = c
        .call(
            "GET",
            &format!("/api/games/{id}?since=2&undos=0"),
            Some(&blue),
            None,
        )
        .await;
    assert_eq!(g["log_from"], 1);
    // The socket too: its push after the undo starts at 1.
    let d = pushed(&mut socket).await;
    assert_eq!((d["undos"].as_u64(), d["n"].as_u64()), (Some(1), Some(1)));
    assert_eq!((&d["log_from"], &d["log"]), (&json!(1), &json!([])));
    // Another move: the socket sends it from 1, as the new entry 2.
    let mv = whole["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "move")
        .nth(1)
        .unwrap()
        .clone();
    let (uri, body) = post("actions", json!({"action": mv, "expect": 1}));
    assert_eq!(c.call("POST", &uri, Some(&blue), Some(&body)).await.0, 200);
    let d = pushed(&mut socket).await;
    assert_eq!(d["log_from"], 1);
    assert_eq!(d["log"][0]["action"], mv);
}
