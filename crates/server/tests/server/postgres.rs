//! PostgreSQL as the store and several servers over one database (issue 17). The tests
//! that need a cluster run when `GROGNARD_TEST_POSTGRES` names one (the test command
//! starts a throwaway cluster and runs the server's tests a second time on it); on a
//! SQLite file one server holds the file, and they have nothing to check there. The
//! refusals of a bad URL or an unreachable server need no cluster and always run.

use super::*;
use grognard_server::db::{Conn, Location, Value as Sql};
use grognard_server::store::{ActionRow, Summary};

/// A database of the test cluster, or `None` when the tests run on SQLite files.
fn cluster(name: &str) -> Option<Db> {
    let db = Db::new(name);
    (!db.is_file()).then_some(db)
}

fn open_err(location: Location) -> String {
    let options = Options {
        db: location,
        ..Db::file("unused").options()
    };
    match AppState::open(&options) {
        Ok(_) => panic!("the server opened"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_url_that_does_not_read_is_refused_naming_it_without_its_password() {
    let err = "postgres://ney:austerlitz@localhost:port/games"
        .parse::<Location>()
        .unwrap_err();
    assert!(err.contains("postgres://ney@localhost:port/games"), "{err}");
    assert!(
        !err.contains("austerlitz"),
        "the password is printed: {err}"
    );
    // A path stays a SQLite file.
    assert_eq!(
        "games.db".parse::<Location>().unwrap(),
        Location::Sqlite("games.db".into())
    );
}

#[tokio::test]
async fn an_unreachable_server_is_refused_at_start_naming_it_without_its_password() {
    // Port 1 of the loopback: nothing listens there.
    let err = open_err(Location::Postgres(
        "postgresql://ney:austerlitz@127.0.0.1:1/games?connect_timeout=5".into(),
    ));
    assert!(
        err.contains("cannot connect to `postgresql://ney@127.0.0.1:1/games`"),
        "{err}"
    );
    assert!(
        !err.contains("austerlitz"),
        "the password is printed: {err}"
    );
}

#[tokio::test]
async fn a_database_that_is_not_grognards_is_refused_and_left_as_it_was() {
    let Some(db) = cluster("not-grognards") else {
        return;
    };
    db.execute("CREATE TABLE ledger (entry BIGINT)", &[])
        .unwrap();
    let err = open_err(db.location());
    assert!(err.contains("not a grognard database"), "{err}");
    let tables = db.query(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'",
        &[],
    );
    assert_eq!(tables[0].get::<i64>(0).unwrap(), 1, "nothing was created");
}

#[tokio::test]
async fn a_database_of_version_6_moves_to_7_and_one_newer_than_the_server_is_refused() {
    let Some(db) = cluster("versions") else {
        return;
    };
    let version = |db: &Db| -> String {
        db.query("SELECT value FROM meta WHERE key = 'version'", &[])[0]
            .get(0)
            .unwrap()
    };
    let (state, _app) = open(&db);
    state.lobby().close().await;
    assert_eq!(version(&db), "7");
    // As a server of version 6 left it: the number alone moves on (no table changes),
    // so that such a server no longer opens the database.
    db.execute("UPDATE meta SET value = '6' WHERE key = 'version'", &[])
        .unwrap();
    let (state, _app) = open(&db);
    state.lobby().close().await;
    assert_eq!(version(&db), "7");
    db.execute("UPDATE meta SET value = '8' WHERE key = 'version'", &[])
        .unwrap();
    let err = open_err(db.location());
    assert!(
        err.contains("schema version 8, newer than this server's 7"),
        "{err}"
    );
    assert_eq!(version(&db), "8", "left as it was");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_created_on_one_store_is_read_and_continued_by_a_second_store() {
    let Some(db) = cluster("two-stores") else {
        return;
    };
    let (first_state, first) = open(&db);
    let (id, blue, orange) = morne(&first).await;
    assert_eq!(end_phases(&first, &id, &[&blue, &orange], 2).await, 2);
    // A second server on the same database while the first runs.
    let (second_state, second) = open(&db);
    let (status, seen) = get(&second, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(status, StatusCode::OK, "{seen}");
    assert_eq!(seen["n"], 2);
    let (_, on_first) = get(&first, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(
        seen["to_act"], on_first["to_act"],
        "both serve the same game"
    );
    let to_act = |g: &Value| g["to_act"]["side"].as_str().unwrap().to_owned();
    let token = |side: String| if side == "blue" { &blue } else { &orange };
    let (status, _) = act(
        &second,
        &id,
        Some(token(to_act(&seen))),
        &json!({"type": "end_phase"}),
        2,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The first server's copy is behind: its action at n = 2 loses to the one
    // stored, as a stale `expect` does, and its copy catches up.
    let (status, body) = act(
        &first,
        &id,
        Some(token(to_act(&on_first))),
        &json!({"type": "end_phase"}),
        2,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (_, caught_up) = get(&first, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(caught_up["n"], 3, "{caught_up}");
    let (status, _) = act(
        &first,
        &id,
        Some(token(to_act(&caught_up))),
        &json!({"type": "end_phase"}),
        3,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
    assert_eq!(log.iter().map(|a| a.n).collect::<Vec<_>>(), [1, 2, 3, 4]);
    first_state.lobby().close().await;
    // A restart of either serves the game as stored.
    let (_, again) = reopen(&second_state, &db).await;
    let (_, resumed) = get(&again, &format!("/api/games/{id}"), Some(&blue)).await;
    assert_eq!(resumed["n"], 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_two_stores_appending_at_once_exactly_one_wins_each_n() {
    let Some(db) = cluster("append-race") else {
        return;
    };
    let (a_state, a) = open(&db);
    let (b_state, _) = open(&db);
    let (id, _, _) = morne(&a).await;
    let summary = |n: u64| Summary {
        id: id.clone(),
        scenario_id: MORNE.into(),
        title: "race".into(),
        ruleset: "morne_plaine".into(),
        seats: BTreeMap::new(),
        created: "2026-01-01T00:00:00.000Z".into(),
        active_ms: n,
        n,
        to_act: None,
        outcome: None,
        ai_to_act: false,
    };
    let stores = [
        a_state.lobby().store().clone(),
        b_state.lobby().store().clone(),
    ];
    let rounds = 30u64;
    let mut winners = Vec::new();
    for n in 1..=rounds {
        let mut racers = Vec::new();
        for (k, store) in stores.iter().enumerate() {
            for j in 0..3 {
                let (store, id, summary) = (store.clone(), id.clone(), summary(n));
                let row = ActionRow {
                    n,
                    action: json!({"store": k, "writer": j}),
                    forced: Vec::new(),
                };
                racers.push(tokio::spawn(async move {
                    store.append(&id, row, summary).await.unwrap()
                }));
            }
        }
        let mut won = Vec::new();
        for (i, r) in racers.into_iter().enumerate() {
            if r.await.unwrap() {
                won.push(i);
            }
        }
        assert_eq!(won.len(), 1, "action {n}: winners {won:?}");
        winners.push(won[0]);
    }
    let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
    assert_eq!(
        log.iter().map(|a| a.n).collect::<Vec<_>>(),
        (1..=rounds).collect::<Vec<_>>(),
        "nothing lost or doubled"
    );
    for (row, w) in log.iter().zip(&winners) {
        assert_eq!(
            row.action,
            json!({"store": w / 3, "writer": w % 3}),
            "the stored action is the winner's"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_requests_at_the_same_n_on_two_servers_exactly_one_is_accepted() {
    let Some(db) = cluster("server-race") else {
        return;
    };
    let (_, a) = open(&db);
    let (_, b) = open(&db);
    for round in 0..4u64 {
        let (id, blue, _) = morne(&a).await;
        // The second server reads the game before the race, so both hold a copy.
        let (_, g) = get(&b, &format!("/api/games/{id}"), Some(&blue)).await;
        let actions = g["actions"].as_array().unwrap().clone();
        let mut racers = Vec::new();
        for i in 0..8usize {
            let app = if i % 2 == 0 { a.clone() } else { b.clone() };
            let (id, blue) = (id.clone(), blue.clone());
            let action = actions[(i + round as usize) % actions.len()].clone();
            racers.push(tokio::spawn(async move {
                act(&app, &id, Some(&blue), &action, 0).await.0
            }));
        }
        let mut accepted = 0;
        for r in racers {
            let status = r.await.unwrap();
            assert!(
                status == StatusCode::OK || status == StatusCode::CONFLICT,
                "{status}"
            );
            accepted += usize::from(status == StatusCode::OK);
        }
        assert_eq!(accepted, 1, "round {round}");
        let log = grognard_server::store::read_log(&db.location(), &id).unwrap();
        assert_eq!(log.len(), 1, "round {round}: nothing doubled");
        for app in [&a, &b] {
            let (_, g) = get(app, &format!("/api/games/{id}"), Some(&blue)).await;
            assert_eq!(g["n"], 1, "round {round}: each server has caught up");
        }
    }
}

#[tokio::test]
async fn postgresql_keeps_the_log_append_only_but_for_an_undo_in_one_transaction() {
    let Some(db) = cluster("pg-triggers") else {
        return;
    };
    let (state, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    assert_eq!(end_phases(&app, &id, &[&blue, &orange], 2).await, 2);
    state.lobby().close().await;
    let location = db.location();
    let id2 = id.clone();
    grognard_server::db::off_runtime(move || {
        let mut c = Conn::open(&location).unwrap();
        let game = || Sql::from(id2.as_str());
        assert!(c.execute("UPDATE actions SET action = '{}'", &[]).is_err());
        let delete = |c: &mut Conn, n: i64| {
            c.execute(
                "DELETE FROM actions WHERE game_id = ?1 AND n = ?2",
                &[game(), n.into()],
            )
        };
        let record = |c: &mut Conn, n: i64| {
            c.execute(
                "INSERT INTO undone (game_id, n, action, forced, undone_ms)
                 SELECT game_id, n, action, forced, 0 FROM actions
                 WHERE game_id = ?1 AND n = ?2",
                &[game(), n.into()],
            )
        };
        assert!(delete(&mut c, 2).is_err(), "not without an undo recorded");
        assert!(record(&mut c, 1).is_err(), "only the last action is undone");
        // Recorded in one transaction and deleted in another: refused.
        assert_eq!(record(&mut c, 2).unwrap(), 1);
        assert!(
            delete(&mut c, 2).is_err(),
            "the undo is of another transaction"
        );
        // An undo as the server makes one: recorded, then deleted, in one transaction.
        let mut tx = c.transaction().unwrap();
        assert_eq!(record(&mut tx, 2).unwrap(), 1);
        assert!(delete(&mut tx, 1).is_err(), "never a row before the last");
        drop(tx);
        let mut tx = c.transaction().unwrap();
        assert_eq!(record(&mut tx, 2).unwrap(), 1);
        assert_eq!(delete(&mut tx, 2).unwrap(), 1);
        tx.commit().unwrap();
        assert!(c.execute("UPDATE undone SET n = 1", &[]).is_err());
        assert!(c.execute("DELETE FROM undone", &[]).is_err());
        assert!(c.execute("DELETE FROM games", &[]).is_err());
    });
    let (_, app) = open(&db);
    assert_eq!(object(&app, &id).await["n"], 1);
}

async fn object(app: &Router, id: &str) -> Value {
    get(app, &format!("/api/games/{id}"), None).await.1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_on_one_server_is_pushed_to_the_websockets_of_another() {
    use super::real_port::{morne_over, next_object, serve, ws};
    let Some(db) = cluster("ws-two-servers") else {
        return;
    };
    let (a, _) = serve(&db).await;
    let (b, _) = serve(&db).await;
    let mut on_a = http::Client::connect(a).await;
    let (id, blue, orange) = morne_over(&mut on_a).await;
    // Orange and a spectator watch the game on the second server.
    let mut orange_ws = ws(b, &id, Some(&orange)).await;
    let mut spectator_ws = ws(b, &id, None).await;
    assert_eq!(next_object(&mut orange_ws).await["n"], 0);
    assert_eq!(next_object(&mut spectator_ws).await["n"], 0);
    // Blue plays on the first.
    let (status, _) = on_a
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(&blue),
            Some(&json!({"action": {"type": "end_phase"}, "expect": 0})),
        )
        .await;
    assert_eq!(status, 200);
    let pushed = next_object(&mut orange_ws).await;
    assert_eq!(pushed["n"], 1, "{pushed}");
    assert_eq!(pushed["seat"], "orange");
    assert_eq!(pushed["log"][0]["action"], json!({"type": "end_phase"}));
    let mut on_b = http::Client::connect(b).await;
    let (_, orange_get) = on_b
        .call("GET", &format!("/api/games/{id}"), Some(&orange), None)
        .await;
    assert_eq!(
        pushed, orange_get,
        "the push is the seat's GET on its server"
    );
    assert_eq!(next_object(&mut spectator_ws).await["n"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_made_on_one_server_is_pushed_to_the_websockets_of_another() {
    use super::real_port::{morne_over, next_object, objects_until, serve, ws};
    let Some(db) = cluster("ws-undo-two-servers") else {
        return;
    };
    let (a, _) = serve(&db).await;
    let (b, _) = serve(&db).await;
    let mut on_a = http::Client::connect(a).await;
    let mut on_b = http::Client::connect(b).await;
    let (id, blue, _) = morne_over(&mut on_a).await;
    let actions = format!("/api/games/{id}/actions");
    let (status, _) = on_a
        .call(
            "POST",
            &actions,
            Some(&blue),
            Some(&json!({"action": {"type": "end_phase"}, "expect": 0})),
        )
        .await;
    assert_eq!(status, 200);
    // Blue and a spectator watch the game on the second server.
    let mut blue_ws = ws(b, &id, Some(&blue)).await;
    let mut spectator_ws = ws(b, &id, None).await;
    let before = objects_until(&mut blue_ws, 1).await.pop().unwrap();
    objects_until(&mut spectator_ws, 1).await;
    let mv = before["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "move")
        .unwrap_or_else(|| panic!("no move among {}", before["actions"]))
        .clone();
    // Blue moves and takes it back on the first server.
    let (status, _) = on_a
        .call(
            "POST",
            &actions,
            Some(&blue),
            Some(&json!({"action": mv, "expect": 1})),
        )
        .await;
    assert_eq!(status, 200);
    objects_until(&mut blue_ws, 2).await;
    objects_until(&mut spectator_ws, 2).await;
    let (status, answer) = on_a
        .call(
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(&blue),
            Some(&json!({"expect": 2})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    // The second server's sockets see the game as it was before the move.
    let pushed = next_object(&mut blue_ws).await;
    assert_eq!(
        (pushed["n"].as_u64(), pushed["undos"].as_u64()),
        (Some(1), Some(1)),
        "{pushed}"
    );
    assert_eq!(pushed["actions"], before["actions"]);
    let (_, blue_get) = on_b
        .call("GET", &format!("/api/games/{id}"), Some(&blue), None)
        .await;
    assert_eq!(pushed, blue_get, "the push is the seat's GET on its server");
    let watched = next_object(&mut spectator_ws).await;
    assert_eq!(
        (watched["n"].as_u64(), watched["undos"].as_u64()),
        (Some(1), Some(1))
    );
    // And the game goes on from there on the second server.
    let (status, body) = on_b
        .call(
            "POST",
            &actions,
            Some(&blue),
            Some(&json!({"action": mv, "expect": 1})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(objects_until(&mut blue_ws, 2).await.pop().unwrap()["n"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_at_a_time_holds_a_games_computer_seats() {
    let Some(db) = cluster("ai-lease") else {
        return;
    };
    let (a_state, a) = open(&db);
    let (b_state, _) = open(&db);
    let (id, _, _) = morne(&a).await;
    let (sa, sb) = (
        a_state.lobby().store().clone(),
        b_state.lobby().store().clone(),
    );
    let lease = |s: &grognard_server::store::Store, ttl: u64| {
        let (s, id) = (s.clone(), id.clone());
        std::thread::spawn(move || s.lease(&id, ttl).unwrap())
            .join()
            .unwrap()
    };
    assert!(lease(&sa, 60_000), "the first server takes it");
    assert!(!lease(&sb, 60_000), "not the second while it is held");
    assert!(
        lease(&sa, 0),
        "the holder renews it (here to expire at once)"
    );
    std::thread::sleep(Duration::from_millis(5));
    assert!(lease(&sb, 60_000), "the second takes it once expired");
    assert!(!lease(&sa, 60_000));
    let holders = db.query("SELECT COUNT(*) FROM leases", &[]);
    assert_eq!(holders[0].get::<i64>(0).unwrap(), 1, "one row a game");
}

/// A server that dies holding a game's lease leaves the computer's seats to the next
/// server that finds the lease run out: every `--ai-lease-millis` each server over a
/// shared database looks for games where the computer is to act.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_left_by_a_server_that_died_is_taken_up_by_another() {
    let Some(db) = cluster("ai-dead-lease") else {
        return;
    };
    // The first server's computer waits an hour before each decision: it never moves.
    let mut slow = db.options();
    slow.ai_delay_millis = 3_600_000;
    let first_state = AppState::open(&slow).unwrap();
    let first = app(first_state.clone());
    let (id, _) = new_game(&first, MORNE, &[("blue", "ai"), ("orange", "human")], None).await;
    // A server that has died holds the game's lease for another second.
    let until = i64::try_from(grognard_server::store::now_ms() + 1_000).unwrap();
    db.execute(
        "INSERT INTO leases (game_id, holder, until_ms) VALUES (?1, 'dead', ?2)",
        &[id.as_str().into(), until.into()],
    )
    .unwrap();
    let mut quick = db.options();
    quick.ai_lease_millis = 200;
    let second_state = AppState::open(&quick).unwrap();
    let second = app(second_state.clone());
    second_state.lobby().resume_ai();
    let deadline = Instant::now() + Duration::from_secs(30);
    let moved = loop {
        let (_, g) = get(&second, &format!("/api/games/{id}"), None).await;
        if g["n"].as_u64().is_some_and(|n| n > 0) {
            break true;
        }
        if Instant::now() > deadline {
            break false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(moved, "the second server never played the computer's seat");
    let holder: String = db.query(
        "SELECT holder FROM leases WHERE game_id = ?1",
        &[id.as_str().into()],
    )[0]
    .get(0)
    .unwrap();
    assert_ne!(holder, "dead");
}

/// The database ends every session of the server (a restart of PostgreSQL, an operator's
/// `pg_terminate_backend`): the request that meets a closed connection may fail, the
/// ones after it connect again and go through, and the action is stored exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_the_database_closed_are_opened_again() {
    let Some(db) = cluster("reconnect") else {
        return;
    };
    let (_state, app) = open(&db);
    let (id, blue, orange) = morne(&app).await;
    let (_, g) = get(&app, &format!("/api/games/{id}"), None).await;
    let side = g["to_act"]["side"].as_str().unwrap().to_owned();
    let token = if side == "blue" { &blue } else { &orange };
    let (_, mine) = get(&app, &format!("/api/games/{id}"), Some(token)).await;
    let action = mine["actions"][0].clone();
    db.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
        &[],
    )
    .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut accepted = None;
    for _ in 0..5 {
        let (status, body) = act(&app, &id, Some(token), &action, 0).await;
        if status == StatusCode::OK || status == StatusCode::CONFLICT {
            accepted = Some((status, body));
            break;
        }
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    }
    let (status, body) = accepted.expect("an action is taken again within five tries");
    assert!(status == StatusCode::OK, "{status} {body}");
    let mut listed = false;
    for _ in 0..5 {
        if get(&app, "/api/games", None).await.0 == StatusCode::OK {
            listed = true;
            break;
        }
    }
    assert!(listed, "the lobby reads again");
    let stored = db.query(
        "SELECT COUNT(*) FROM actions WHERE game_id = ?1",
        &[id.as_str().into()],
    );
    assert_eq!(stored[0].get::<i64>(0).unwrap(), 1, "stored exactly once");
}
