//! Load on the real server over loopback: many concurrent games, each played by its
//! own client on its own kept-alive connection, every action a durable commit
//! (WAL, `synchronous=FULL`). Bounded in actions and in time; stops by itself.
//!
//!     cargo run --release -p grognard-server --example load -- --games 50 --actions 20000 --seconds 60 [--end-phase 50]
//!
//! Prints actions per second and the latency of `POST /api/games/{id}/actions`
//! (p50, p90, p99, max), of the `GET` that fetches the next seat's view, and how many
//! transactions the writer needed (group commit).

#[path = "../tests/support/http.rs"]
mod http;
#[path = "../tests/support/lcg.rs"]
mod lcg;

use grognard_server::{AppState, Options};
use lcg::Lcg;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    games: usize,
    end_phase: u32,
    actions: u64,
    seconds: u64,
    db: Option<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        games: 50,
        end_phase: 0,
        actions: 20_000,
        seconds: 60,
        db: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => a.games = value.parse().expect("--games N"),
            "--end-phase" => a.end_phase = value.parse().expect("--end-phase PERCENT"),
            "--actions" => a.actions = value.parse().expect("--actions N"),
            "--seconds" => a.seconds = value.parse().expect("--seconds N"),
            "--db" => a.db = Some(PathBuf::from(value)),
            other => {
                panic!("unknown option {other} (--games, --actions, --seconds, --end-phase, --db)")
            }
        }
    }
    a
}

/// The parts of a game object a player reads; the rest is skipped unparsed.
#[derive(serde::Deserialize)]
struct Object {
    n: u64,
    seat: String,
    to_act: Option<Decision>,
    actions: Vec<Value>,
}

#[derive(serde::Deserialize)]
struct Decision {
    side: String,
}

#[derive(serde::Deserialize)]
struct Answer {
    view: Object,
}

#[derive(Default)]
struct Samples {
    post: Vec<Duration>,
    get: Vec<Duration>,
    games: u64,
}

/// Plays games of `scenario` one after another until the budget is spent.
async fn player(
    addr: std::net::SocketAddr,
    end_phase: u32,
    scenario: String,
    sides: Vec<String>,
    seed: u64,
    budget: Arc<AtomicU64>,
    deadline: Instant,
) -> Samples {
    let mut c = http::Client::connect(addr).await;
    let mut rng = Lcg(seed);
    let mut s = Samples::default();
    'games: loop {
        let seats: serde_json::Map<String, Value> =
            sides.iter().map(|x| (x.clone(), json!("human"))).collect();
        let (status, created) = c
            .call(
                "POST",
                "/api/games",
                None,
                Some(&json!({"scenario": scenario, "seed": seed ^ s.games, "seats": seats})),
            )
            .await;
        assert_eq!(status, 201, "{created}");
        s.games += 1;
        let id = created["id"].as_str().expect("id").to_owned();
        let token = |side: &str| created["seats"][side]["token"].as_str().map(str::to_owned);
        let (_, public) = c
            .call_bytes("GET", &format!("/api/games/{id}"), None, None)
            .await;
        let mut view: Object = serde_json::from_slice(&public).expect("a game object");
        loop {
            if Instant::now() > deadline {
                break 'games;
            }
            let Some(side) = view.to_act.as_ref().map(|d| d.side.clone()) else {
                continue 'games; // over: the next game
            };
            let t = token(&side).expect("a human seat");
            if view.seat != side {
                let start = Instant::now();
                let (status, v) = c
                    .call_bytes("GET", &format!("/api/games/{id}"), Some(&t), None)
                    .await;
                s.get.push(start.elapsed());
                assert_eq!(status, 200);
                view = serde_json::from_slice(&v).expect("a game object");
            }
            let actions = &view.actions;
            if actions.is_empty() {
                continue 'games;
            }
            if budget
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| b.checked_sub(1))
                .is_err()
            {
                break 'games;
            }
            // With --end-phase P, end the phase P% of the time it may be ended:
            // shorter games, shorter logs.
            let ender = actions.iter().find(|a| a["type"] == "end_phase");
            let action = match ender {
                Some(a) if rng.below(100) < end_phase as usize => a.clone(),
                _ => actions[rng.below(actions.len())].clone(),
            };
            let n = view.n;
            let start = Instant::now();
            let (status, answer) = c
                .call_bytes(
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(&t),
                    Some(&json!({"action": action, "expect": n})),
                )
                .await;
            s.post.push(start.elapsed());
            assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
            view = serde_json::from_slice::<Answer>(&answer)
                .expect("an answer")
                .view;
        }
    }
    s
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "an index into a few thousand samples"
    )]
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    let args = args();
    let db = args.db.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("grognard-load-{}.db", std::process::id()))
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let options = Options {
            addr: "127.0.0.1:0".into(),
            db: db.clone(),
            // One client creates every game at once.
            create_per_minute: 0,
            ..Options::default()
        };
        let state = AppState::open(&options).expect("the database opens");
        let lobby = Arc::clone(state.lobby());
        let scenarios: Vec<String> = lobby.scenarios.iter().map(|e| e.id.clone()).collect();
        let sides: Vec<Vec<String>> = lobby
            .scenarios
            .iter()
            .map(|e| e.scenario.sides.iter().map(|s| s.id.clone()).collect())
            .collect();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        tokio::spawn(grognard_server::serve_on(listener, state));

        let budget = Arc::new(AtomicU64::new(args.actions));
        let deadline = Instant::now() + Duration::from_secs(args.seconds);
        let start = Instant::now();
        let (commits0, writes0) = lobby.store_stats();
        let players: Vec<_> = (0..args.games)
            .map(|i| {
                let k = i % scenarios.len();
                tokio::spawn(player(
                    addr,
                    args.end_phase,
                    scenarios[k].clone(),
                    sides[k].clone(),
                    i as u64 + 1,
                    Arc::clone(&budget),
                    deadline,
                ))
            })
            .collect();
        let mut post = Vec::new();
        let mut get = Vec::new();
        let mut games = 0;
        for p in players {
            let s = p.await.expect("a player");
            post.extend(s.post);
            get.extend(s.get);
            games += s.games;
        }
        let elapsed = start.elapsed();
        let (commits, writes) = lobby.store_stats();
        post.sort_unstable();
        get.sort_unstable();
        println!(
            "{} clients (end_phase {}% when it may), {games} games ({}), {} actions in {:.2} s: {:.0} actions/s",
            args.games,
            args.end_phase,
            scenarios.join(", "),
            post.len(),
            elapsed.as_secs_f64(),
            post.len() as f64 / elapsed.as_secs_f64()
        );
        println!(
            "POST action latency: p50 {}, p90 {}, p99 {}, max {}",
            ms(percentile(&post, 0.50)),
            ms(percentile(&post, 0.90)),
            ms(percentile(&post, 0.99)),
            ms(post.last().copied().unwrap_or_default())
        );
        println!(
            "GET view latency ({} requests): p50 {}, p99 {}",
            get.len(),
            ms(percentile(&get, 0.50)),
            ms(percentile(&get, 0.99))
        );
        let (commits, writes) = (commits - commits0, writes - writes0);
        println!(
            "durable commits (WAL, synchronous=FULL): {commits} transactions for {writes} writes ({:.1} a transaction)",
            writes as f64 / commits.max(1) as f64
        );
    });
    if args.db.is_none() {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = db.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}
