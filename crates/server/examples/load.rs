//! Load on the real server over loopback: many concurrent games, each played by its
//! own client on its own kept-alive connection, every action a durable commit
//! (WAL, `synchronous=FULL`). Bounded in actions and in time; stops by itself.
//!
//!     cargo run --release -p grognard-server --example load -- --games 50 --actions 20000 --seconds 60 [--end-phase 50] [--lean] [--scenario ID] [--long N]
//!
//! Prints actions per second and the latency of `POST /api/games/{id}/actions`
//! (p50, p90, p99, max) and each POST over 100 ms (when it was sent, its game's
//! scenario and `n`), of the `GET` that fetches the next seat's view, how many
//! transactions the writer needed (group commit), how long they and their commits
//! took (mean and longest), the bytes written to storage a transaction and an
//! action, how late a 5 ms tick came at most on the server's and the clients'
//! runtimes, and the server's CPU per action.
//!
//! The clients run on a runtime of their own (threads named `load-client`), so the
//! server's CPU is the process's less theirs. `--lean` asks for the lean forms
//! (`?since=K&legal=compact`); without it, the full game object. `--long N` plays
//! one game with one client up to `N` actions and prints the server's CPU per action
//! near its start (actions 10 to 59) and from action `N - 50` to `N - 1`.
//!
//! `--servers N` starts N servers in this process over one database (`--db`).
//! `--connect HOST:PORT,...` starts none and plays against servers already running,
//! each in a process of its own (`grognard serve`), client `i` on server `i mod N`;
//! `--server-pids PID,...` names those processes, whose CPU is then the servers'
//! (`/proc/PID/stat`), and `--db` the database they share, whose actions are counted
//! after the run. The writer's transactions and the servers' lag are then not seen.

#[path = "../tests/support/http.rs"]
mod http;
#[path = "../tests/support/lcg.rs"]
mod lcg;
#[path = "load_parts/measure.rs"]
mod measure;

use grognard_server::{AppState, Options};
use lcg::Lcg;
use measure::{
    client_cpu_ns, disk_written, lag, ms, percentile, processes_cpu_ns, server_cpu_ns, window, SLOW,
};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    games: usize,
    end_phase: u32,
    actions: u64,
    seconds: u64,
    db: Option<grognard_server::db::Location>,
    lean: bool,
    scenario: Option<String>,
    long: Option<u64>,
    servers: usize,
    connect: Vec<std::net::SocketAddr>,
    server_pids: Vec<u32>,
}

fn args() -> Args {
    let mut a = Args {
        games: 50,
        end_phase: 0,
        actions: 20_000,
        seconds: 60,
        db: None,
        lean: false,
        scenario: None,
        long: None,
        servers: 1,
        connect: Vec::new(),
        server_pids: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--lean" {
            a.lean = true;
            continue;
        }
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => a.games = value.parse().expect("--games N"),
            "--end-phase" => a.end_phase = value.parse().expect("--end-phase PERCENT"),
            "--actions" => a.actions = value.parse().expect("--actions N"),
            "--seconds" => a.seconds = value.parse().expect("--seconds N"),
            "--db" => a.db = Some(value.parse().expect("--db: a file or a postgres:// URL")),
            "--scenario" => a.scenario = Some(value),
            "--long" => a.long = Some(value.parse().expect("--long N")),
            "--servers" => a.servers = value.parse().expect("--servers N"),
            "--connect" => a.connect = list(&flag, &value, "HOST:PORT"),
            "--server-pids" => a.server_pids = list(&flag, &value, "a process id"),
            other => {
                panic!("unknown option {other} (--games, --actions, --seconds, --end-phase, --db, --lean, --scenario, --long, --servers, --connect, --server-pids)")
            }
        }
    }
    assert!(
        a.connect.is_empty() || a.long.is_none(),
        "--long measures one action's CPU in this process: not with --connect"
    );
    if a.long.is_some() {
        a.games = 1;
    }
    a
}

/// A comma-separated list of `what`, the value of `flag`.
fn list<T: std::str::FromStr>(flag: &str, value: &str, what: &str) -> Vec<T> {
    value
        .split(',')
        .map(|x| {
            x.parse()
                .unwrap_or_else(|_| panic!("{flag}: {x} is not {what}"))
        })
        .collect()
}

/// The parts of a game object a player reads; the rest is skipped unparsed.
#[derive(serde::Deserialize)]
struct Object {
    n: u64,
    seat: String,
    to_act: Option<Decision>,
    #[serde(default)]
    actions: Vec<Value>,
    /// The compact form of the legal actions (`?legal=compact`).
    #[serde(default)]
    legal: Vec<Group>,
}

/// One group of the compact legal actions: `common` with `vary` set to each of
/// `values` in turn, or `common` alone.
#[derive(serde::Deserialize)]
struct Group {
    common: serde_json::Map<String, Value>,
    vary: Option<String>,
    #[serde(default)]
    values: Vec<Value>,
}

impl Object {
    /// The legal actions, whichever form the server sent.
    fn legal_actions(&self) -> Vec<Value> {
        if !self.actions.is_empty() {
            return self.actions.clone();
        }
        let mut out = Vec::new();
        for g in &self.legal {
            match &g.vary {
                Some(k) => {
                    for v in &g.values {
                        let mut a = g.common.clone();
                        a.insert(k.clone(), v.clone());
                        out.push(Value::Object(a));
                    }
                }
                None => out.push(Value::Object(g.common.clone())),
            }
        }
        out
    }
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
    /// With `--long`: the server's CPU (ns) spent on each action, its GET included.
    cpu: Vec<u64>,
    /// The POSTs that took longer than [`SLOW`]: when each was sent (since the run's
    /// start), how long it took, its scenario and its `n`.
    slow: Vec<(Duration, Duration, String, u64)>,
}

/// What a player asks the server for.
#[derive(Clone, Copy)]
struct Ask {
    end_phase: u32,
    lean: bool,
    long: Option<u64>,
}

impl Ask {
    /// The query string of a request made knowing the game up to `n`.
    fn query(self, n: u64) -> String {
        if self.lean {
            format!("?since={n}&legal=compact")
        } else {
            String::new()
        }
    }
}

/// Plays games of `scenario` one after another until the budget is spent.
async fn player(
    addr: std::net::SocketAddr,
    ask: Ask,
    scenario: String,
    sides: Vec<String>,
    seed: u64,
    budget: Arc<AtomicU64>,
    (began, deadline): (Instant, Instant),
) -> Samples {
    // At most 50 clients from one loopback address: the server takes 64 connections
    // from one address (`--max-connections-per-address`).
    let from = std::net::Ipv4Addr::new(127, 0, 0, 1 + u8::try_from(seed / 50).unwrap_or(200));
    let mut c = http::Client::connect_from(addr, from.into()).await;
    let mut rng = Lcg(seed);
    let mut s = Samples::default();
    'games: loop {
        if s.games > 0 && ask.long.is_some() {
            break 'games;
        }
        let seats: serde_json::Map<String, Value> =
            sides.iter().map(|x| (x.clone(), json!("human"))).collect();
        let (status, created) = c
            .call(
                "POST",
                "/api/games",
                None,
                // The server draws the seed of a game against a person.
                Some(&json!({"scenario": scenario, "seats": seats})),
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
            if ask.long.is_some_and(|n| view.n >= n) {
                break 'games;
            }
            let Some(side) = view.to_act.as_ref().map(|d| d.side.clone()) else {
                continue 'games; // over: the next game
            };
            let t = token(&side).expect("a human seat");
            let cpu0 = ask.long.map(|_| server_cpu_ns());
            if view.seat != side {
                let start = Instant::now();
                let (status, v) = c
                    .call_bytes(
                        "GET",
                        &format!("/api/games/{id}{}", ask.query(view.n)),
                        Some(&t),
                        None,
                    )
                    .await;
                s.get.push(start.elapsed());
                assert_eq!(status, 200);
                view = serde_json::from_slice(&v).expect("a game object");
            }
            let actions = view.legal_actions();
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
                Some(a) if rng.below(100) < ask.end_phase as usize => a.clone(),
                _ => actions[rng.below(actions.len())].clone(),
            };
            let n = view.n;
            let start = Instant::now();
            let sent = start.saturating_duration_since(began);
            let (status, answer) = c
                .call_bytes(
                    "POST",
                    &format!("/api/games/{id}/actions{}", ask.query(n)),
                    Some(&t),
                    Some(&json!({"action": action, "expect": n})),
                )
                .await;
            let took = start.elapsed();
            s.post.push(took);
            if took > SLOW {
                s.slow.push((sent, took, scenario.clone(), n));
            }
            if let Some(cpu0) = cpu0 {
                s.cpu.push(server_cpu_ns().saturating_sub(cpu0));
            }
            assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
            view = serde_json::from_slice::<Answer>(&answer)
                .expect("an answer")
                .view;
        }
    }
    s
}

fn main() {
    let args = args();
    let db = args.db.clone().unwrap_or_else(|| {
        std::env::temp_dir()
            .join(format!("grognard-load-{}.db", std::process::id()))
            .into()
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    // The clients on threads of their own, so that their CPU can be told apart.
    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("load-client")
        .enable_all()
        .build()
        .expect("the clients' runtime");
    runtime.block_on(async {
        let options = Options {
            addr: "127.0.0.1:0".into(),
            db: db.clone(),
            // One client creates every game at once.
            create_per_minute: 0,
            ..Options::default()
        };
        // Several servers over one PostgreSQL database (--servers N): client `i` talks
        // to server `i mod N`, as a load balancer keeping a client on one server would.
        // With --connect, the servers run in processes of their own.
        let states: Vec<AppState> = if args.connect.is_empty() {
            (0..args.servers.max(1))
                .map(|_| AppState::open(&options).expect("the database opens"))
                .collect()
        } else {
            Vec::new()
        };
        let lobbies: Vec<_> = states.iter().map(|s| Arc::clone(s.lobby())).collect();
        let stats = || {
            lobbies.iter().fold((0, 0), |(c, w), l| {
                let (c1, w1) = l.store_stats();
                (c + c1, w + w1)
            })
        };
        let (mut scenarios, mut sides) = match lobbies.first() {
            Some(lobby) => (
                lobby.scenarios.iter().map(|e| e.id.clone()).collect::<Vec<_>>(),
                lobby
                    .scenarios
                    .iter()
                    .map(|e| e.scenario.sides.iter().map(|s| s.id.clone()).collect())
                    .collect::<Vec<Vec<String>>>(),
            ),
            None => scenarios_of(args.connect[0]).await,
        };
        if let Some(only) = &args.scenario {
            let k = scenarios
                .iter()
                .position(|s| s == only)
                .unwrap_or_else(|| panic!("no scenario {only}: {}", scenarios.join(", ")));
            scenarios = vec![scenarios[k].clone()];
            sides = vec![sides[k].clone()];
        }
        let mut addrs = args.connect.clone();
        for state in states {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            addrs.push(listener.local_addr().expect("address"));
            tokio::spawn(grognard_server::serve_on(listener, state));
        }
        let connected = !args.connect.is_empty();
        // The servers' CPU so far: this process's less the clients', or the CPU of the
        // processes named by --server-pids.
        let pids = args.server_pids.clone();
        let servers_cpu = move || {
            if connected {
                processes_cpu_ns(&pids)
            } else {
                server_cpu_ns()
            }
        };
        let count = !connected || args.db.is_some();
        let rows0 = if count { stored_actions(&db) } else { 0 };

        let ask = Ask {
            end_phase: args.end_phase,
            lean: args.lean,
            long: args.long,
        };
        let budget = Arc::new(AtomicU64::new(args.actions));
        let deadline = Instant::now() + Duration::from_secs(args.seconds);
        let start = Instant::now();
        let (cpu0, client0) = (servers_cpu(), client_cpu_ns());
        let (commits0, writes0) = stats();
        let times = || {
            lobbies.iter().fold((0, 0, 0, 0), |(b, c, lb, lc), l| {
                let t = l.commit_times();
                (b + t.busy_ns, c + t.commit_ns, lb.max(t.longest_ns), lc.max(t.longest_commit_ns))
            })
        };
        let (busy0, sync0, _, _) = times();
        // How late a 5 ms tick comes on each runtime: a worker kept from its tasks
        // shows as a late tick.
        let server_lag = lag(tokio::runtime::Handle::current(), start);
        let client_lag = lag(clients.handle().clone(), start);
        let disk0 = disk_written();
        let players: Vec<_> = (0..args.games)
            .map(|i| {
                let k = i % scenarios.len();
                clients.spawn(player(
                    addrs[i % addrs.len()],
                    ask,
                    scenarios[k].clone(),
                    sides[k].clone(),
                    i as u64 + 1,
                    Arc::clone(&budget),
                    (start, deadline),
                ))
            })
            .collect();
        let mut post = Vec::new();
        let mut get = Vec::new();
        let mut games = 0;
        let mut cpu = Vec::new();
        let mut slow = Vec::new();
        for p in players {
            let s = p.await.expect("a player");
            post.extend(s.post);
            get.extend(s.get);
            cpu.extend(s.cpu);
            slow.extend(s.slow);
            games += s.games;
        }
        for (who, l) in [("server", &server_lag), ("clients", &client_lag)] {
            if connected && who == "server" {
                continue; // the servers run elsewhere
            }
            let (at, late) = *l.lock().expect("the lag");
            println!(
                "the {who}' runtime: a 5 ms tick at most {} late (at {:.3} s)",
                ms(late),
                at.as_secs_f64()
            );
        }
        let elapsed = start.elapsed();
        let (cpu1, client1) = (servers_cpu(), client_cpu_ns());
        let (commits, writes) = stats();
        let (busy1, sync1, longest, longest_sync) = times();
        let disk = disk_written().saturating_sub(disk0);
        post.sort_unstable();
        get.sort_unstable();
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        println!(
            "{} clients (end_phase {}% when it may{}), {games} games ({}), {} actions in {:.2} s: {:.0} actions/s",
            args.games,
            args.end_phase,
            if args.lean { ", lean forms" } else { "" },
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
        slow.sort_by_key(|x| x.0);
        println!(
            "POSTs over {}: {}{}",
            ms(SLOW),
            slow.len(),
            slow.iter()
                .take(8)
                .map(|(at, took, scenario, n)| format!(
                    "; at {:.3} s {} ({scenario}, n {n})",
                    at.as_secs_f64(),
                    ms(*took)
                ))
                .collect::<String>()
        );
        println!(
            "GET view latency ({} requests): p50 {}, p99 {}",
            get.len(),
            ms(percentile(&get, 0.50)),
            ms(percentile(&get, 0.99))
        );
        if connected {
            println!("the servers' transactions: not seen from here (--connect)");
        } else {
            let (commits, writes) = (commits - commits0, writes - writes0);
            println!(
                "durable commits: {commits} transactions for {writes} writes ({:.1} a transaction)",
                writes as f64 / commits.max(1) as f64
            );
            let per = |ns: u64| ns as f64 / 1e6 / commits.max(1) as f64;
            println!(
                "transactions: {:.2} ms each ({:.2} ms of it the commit), the longest {} ({} the commit); written to disk {:.1} MiB, {:.1} KiB a transaction, {:.1} KiB an action",
                per(busy1 - busy0),
                per(sync1 - sync0),
                ms(Duration::from_nanos(longest)),
                ms(Duration::from_nanos(longest_sync)),
                disk as f64 / (1 << 20) as f64,
                disk as f64 / 1024.0 / commits.max(1) as f64,
                disk as f64 / 1024.0 / post.len().max(1) as f64,
            );
        }
        let client = client1.saturating_sub(client0);
        let server = cpu1 - cpu0;
        let actions = post.len().max(1) as f64;
        println!(
            "CPU: server {:.2} s ({:.3} ms an action), clients {:.2} s ({:.3} ms an action); load average {}",
            server as f64 / 1e9,
            server as f64 / 1e6 / actions,
            client as f64 / 1e9,
            client as f64 / 1e6 / actions,
            load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        );
        if count {
            let rows = stored_actions(&db) - rows0;
            println!(
                "{} server(s): {} actions acknowledged, {rows} stored: {}",
                addrs.len(),
                post.len(),
                if rows == post.len() as u64 { "nothing lost or doubled" } else { "MISMATCH" }
            );
        } else {
            println!("{} server(s): {} actions acknowledged (give --db to count the stored)", addrs.len(), post.len());
        }
        if let Some(n) = args.long {
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            let (early, e) = window(&cpu, 9, 59);
            let (late, l) = window(&cpu, n.saturating_sub(50), n);
            println!(
                "server CPU an action: actions 10 to 59: {early:.3} ms ({e} actions); actions {} to {}: {late:.3} ms ({l} actions); the game reached {} actions",
                n.saturating_sub(49),
                n,
                cpu.len()
            );
        }
    });
    drop(clients);
    if let (None, Some(path)) = (&args.db, db.path()) {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The built-in scenarios a running server offers (`GET /api/scenarios`) and their
/// sides.
async fn scenarios_of(addr: std::net::SocketAddr) -> (Vec<String>, Vec<Vec<String>>) {
    let mut c = http::Client::connect(addr).await;
    let (status, list) = c.call("GET", "/api/scenarios", None, None).await;
    assert_eq!(status, 200, "GET /api/scenarios on {addr}: {list}");
    let list = list.as_array().cloned().unwrap_or_default();
    let id = |v: &Value| v["id"].as_str().expect("an id").to_owned();
    let sides = list
        .iter()
        .map(|e| {
            e["sides"]
                .as_array()
                .into_iter()
                .flatten()
                .map(id)
                .collect()
        })
        .collect();
    (list.iter().map(id).collect(), sides)
}

/// How many actions the store holds, read on a connection of its own.
fn stored_actions(db: &grognard_server::db::Location) -> u64 {
    let db = db.clone();
    std::thread::spawn(move || {
        let mut c = grognard_server::db::Conn::open(&db).expect("the store opens");
        let n: i64 = c
            .query_one("SELECT COUNT(*) FROM actions", &[])
            .and_then(|r| r.get(0))
            .expect("a count");
        u64::try_from(n).unwrap_or(0)
    })
    .join()
    .expect("the counting thread")
}
