//! The grognard server: one process, one SQLite file. The lobby offers the built-in
//! scenarios; a game is its scenario, seed and action log; each seat gets its view
//! and its legal actions over HTTP and WebSocket; the computer plays the seats given
//! to it. The server holds no rules: it asks the ruleset.
//!
//! ```no_run
//! # async fn demo() -> Result<(), grognard_server::ApiError> {
//! let options = grognard_server::Options::default(); // 127.0.0.1:8080, grognard.db
//! let state = grognard_server::AppState::open(&options)?;
//! let router = grognard_server::app(state); // test it with `tower::ServiceExt::oneshot`
//! # let _ = router;
//! # Ok(()) }
//! ```
//!
//! The HTTP API is documented in `docs/HTTP-API.md`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod accounts;
pub mod api;
pub mod board;
pub mod checks;
pub mod db;
pub mod error;
pub mod limits;
pub mod listen;
pub mod listing;
pub mod lobby;
pub mod rules_pages;
pub mod store;
pub mod table;
pub mod token;
pub mod web;

pub use error::ApiError;
pub use lobby::Lobby;

use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// The largest request body accepted, in bytes; larger bodies get 413. An action
/// is a few hundred bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// How to serve: the `grognard serve` options.
#[derive(Clone, Debug, clap::Args)]
pub struct Options {
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Where every game is kept: a SQLite file (created if missing), or a PostgreSQL
    /// database as `postgres://USER@HOST/DB` (several servers may share one).
    #[arg(long, value_name = "FILE|URL", default_value = "grognard.db")]
    pub db: db::Location,
    /// How long the computer may think about one decision at `normal`, in
    /// milliseconds (`hard` thinks five times as long; `easy` does not search).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub ai_millis: u64,
    /// The level of a computer seat whose game does not name one: easy, normal or hard.
    #[arg(long, value_name = "LEVEL", default_value_t = grognard_engine::Level::Normal)]
    pub ai_level: grognard_engine::Level,
    /// A pause before each of the computer's decisions, in milliseconds, so that
    /// people can follow its moves.
    #[arg(long, value_name = "MS", default_value_t = 150)]
    pub ai_delay_millis: u64,
    /// Over a database shared by several servers: how long a server keeps a game's
    /// computer seats beyond its longest search, in milliseconds, and how often each
    /// server looks for computer seats whose lease ran out (a server that died).
    #[arg(long, value_name = "MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub ai_lease_millis: u64,
    /// How many of the computer's searches may run at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub ai_threads: usize,
    /// How long a player's hint may search, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub hint_millis: u64,
    /// A fixed number of simulations for a hint instead of `--hint-millis`: the same
    /// view then gets the same hint on any machine.
    #[arg(long, value_name = "N")]
    pub hint_simulations: Option<u64>,
    /// The most games the server keeps (counted in the database).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_games: usize,
    /// How many games the server keeps in memory, the most recently used; any other
    /// is loaded from the database (its log replayed) when next asked for.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub cache_games: usize,
    /// Days a game may go without an action before it expires and is removed
    /// (finished games are kept); 0 keeps every game.
    #[arg(long, value_name = "DAYS", default_value_t = 30.0, value_parser = lobby::days)]
    pub expire_days: f64,
    /// How many games one client address may create a minute, on average (a token
    /// bucket); 0 lets any client create any number.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub create_per_minute: u32,
    /// How many games one client address may create at once before the rate applies.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub create_burst: u32,
    /// The most connections open at once, from every client (keep it under the
    /// process's open-file limit); 0 for no cap.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_connections: usize,
    /// The most connections open at once from one client address; 0 for no cap.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub max_connections_per_address: usize,
    /// How long a client may take to send a request's headers, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub header_timeout_millis: u64,
    /// How long a kept-alive connection may wait for its next request, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub idle_timeout_millis: u64,
    /// How long a client may take to send a request's body, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub body_timeout_millis: u64,
    /// The most spectators' WebSockets (sockets without a seat's token) open at once.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_spectators: usize,
    /// The most spectators' WebSockets open at once on one game.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub max_spectators_per_game: usize,
    /// How often a WebSocket is pinged, in milliseconds; a peer that has sent nothing
    /// (not even the pong) by the next ping is dropped.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub ws_ping_millis: u64,
    /// Accept requests for any host name: for a server reachable from outside.
    /// Without it (or `--allowed-hosts`) only localhost, 127.0.0.1 and [::1] are
    /// accepted, which keeps web pages elsewhere from reaching a local server
    /// through DNS rebinding.
    #[arg(long)]
    pub public: bool,
    /// Host names accepted besides the loopback ones, separated by commas
    /// (`--allowed-hosts games.example.org,192.168.1.20`).
    #[arg(long, value_name = "HOSTS", value_delimiter = ',')]
    pub allowed_hosts: Vec<String>,
    /// Mark the session and `csrf` cookies `Secure`: for a server reached over https
    /// (directly or behind a proxy that speaks https to the browsers).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Log-in attempts one account name may make a minute; one client address may
    /// make four times as many; 0 for no limit.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub logins_per_minute: u32,
    /// Chat messages one seat of a game may post in `--chat-window-secs`; 0 for no
    /// limit.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub chat_burst: u32,
    /// The window of `--chat-burst`, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub chat_window_secs: u64,
    /// The clock of slow play and the notifications (issue 16).
    #[command(flatten)]
    pub by_web: accounts::options::ByWeb,
}

impl Default for Options {
    /// The defaults of the command line.
    fn default() -> Options {
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            options: Options,
        }
        <Defaults as clap::Parser>::parse_from(["grognard"]).options
    }
}

/// What the handlers share: the lobby, and the limits on what a client may take.
#[derive(Clone)]
pub struct AppState(Arc<Lobby>, Arc<Shared>);

/// The limits' state and settings, beside the lobby.
struct Shared {
    guard: limits::Guard,
    accounts: Arc<accounts::Accounts>,
    checks: checks::Checks,
    listen: listen::Listen,
}

impl AppState {
    /// Opens the database; no game is loaded until it is asked for (the computer's
    /// pending decisions start with [`Lobby::resume_ai`]).
    ///
    /// # Errors
    /// The database cannot be opened or read.
    pub fn open(options: &Options) -> Result<AppState, ApiError> {
        let lobby = Arc::new(Lobby::open(options)?);
        // After the lobby: its store has migrated the file to the accounts' tables.
        let accounts = Arc::new(accounts::Accounts::open(
            &options.db,
            accounts::Settings {
                secure_cookies: options.secure_cookies,
                logins_per_minute: options.logins_per_minute,
                chat_burst: options.chat_burst,
                chat_window: std::time::Duration::from_secs(options.chat_window_secs.max(1)),
                by_web: options.by_web.clone(),
            },
        )?);
        // Whoever is to act after an action is told, if they asked to be.
        lobby.on_turn(accounts.notifier.sender());
        Ok(AppState(
            lobby,
            Arc::new(Shared {
                guard: limits::Guard::new(options),
                accounts,
                checks: checks::Checks {
                    hosts: checks::Hosts::new(options.public, &options.allowed_hosts),
                    body_timeout: std::time::Duration::from_millis(
                        options.body_timeout_millis.max(1),
                    ),
                },
                listen: listen::Listen::new(options),
            }),
        ))
    }

    /// The lobby.
    #[must_use]
    pub fn lobby(&self) -> &Arc<Lobby> {
        &self.0
    }

    /// The limits on what one client may take.
    #[must_use]
    pub fn guard(&self) -> &limits::Guard {
        &self.1.guard
    }

    /// Accounts, sessions, challenges, chat and ratings.
    #[must_use]
    pub fn accounts(&self) -> &Arc<accounts::Accounts> {
        &self.1.accounts
    }

    /// What every request is checked for.
    #[must_use]
    pub fn checks(&self) -> &checks::Checks {
        &self.1.checks
    }

    /// The caps and timeouts of connections.
    #[must_use]
    pub fn listen(&self) -> &listen::Listen {
        &self.1.listen
    }
}

/// The whole server as a router: the API under `/api/`, the web client elsewhere.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/api/scenarios", get(api::scenarios))
        .route("/api/scenarios/{id}/board", get(api::scenario_board))
        .route(
            "/api/games",
            get(api::games).post(api::create.layer(axum::middleware::from_fn_with_state(
                state.clone(),
                limits::creation_rate,
            ))),
        )
        .route("/api/games/{id}", get(api::game))
        .route("/api/games/{id}/actions", post(api::action))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/explain", post(api::explain))
        .route("/api/games/{id}/preview", post(api::preview))
        .route("/api/games/{id}/reachable", get(api::reachable))
        .route("/api/games/{id}/legal", get(api::legal))
        .route("/api/games/{id}/replay", get(api::replay))
        .route("/api/games/{id}/position", get(api::position))
        .route("/api/games/{id}/hint", post(api::hint))
        .route("/api/games/{id}/ws", get(api::ws))
        .route(
            "/api/games/{id}/chat",
            get(accounts::chat::read).post(accounts::chat::post),
        )
        .route("/api/games/{id}/claim", post(accounts::routes::claim))
        .route("/api/games/{id}/settings", get(accounts::clock::settings))
        .route("/api/games/{id}/resign", post(accounts::timeouts::resign))
        .route("/api/push/key", get(accounts::notify::push::key))
        .route(
            "/api/me/notifications",
            get(accounts::notify::settings::get).put(accounts::notify::settings::put),
        )
        .route("/api/accounts", post(accounts::routes::sign_up))
        .route(
            "/api/session",
            get(accounts::routes::who)
                .post(accounts::routes::log_in)
                .delete(accounts::routes::log_out),
        )
        .route("/api/me/games", get(accounts::routes::my_games))
        .route(
            "/api/challenges",
            get(accounts::challenges::list).post(accounts::challenges::open),
        )
        .route(
            "/api/challenges/{id}/accept",
            post(accounts::challenges::accept),
        )
        .route(
            "/api/ratings/{ruleset}",
            get(accounts::ratings::leaderboard),
        )
        .route("/api/players/{name}", get(accounts::ratings::profile))
        .route("/", get(web::index))
        .route("/play/{id}", get(web::play))
        .route("/replay/{id}", get(web::replay))
        .route("/rules", get(rules_pages::index))
        .route("/rules/{page}", get(rules_pages::page))
        .fallback(api::fallback)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            accounts::session::request,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            checks::request,
        ))
        .with_state(state)
}

/// Opens the database, listens, prints the address, and serves until Ctrl-C or
/// SIGTERM.
///
/// # Errors
/// The database cannot be opened, or the address cannot be bound.
pub async fn serve(options: Options) -> Result<(), ApiError> {
    let state = AppState::open(&options)?;
    let lobby = Arc::clone(state.lobby());
    // Each game is loaded when first asked for; none is replayed here.
    println!(
        "grognard: {} game(s) resumed from {}",
        lobby.games(),
        options.db
    );
    let listener = tokio::net::TcpListener::bind(&options.addr)
        .await
        .map_err(|e| ApiError::Internal(format!("cannot listen on {}: {e}", options.addr)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| ApiError::Internal(format!("cannot read the bound address: {e}")))?;
    println!("grognard: serving the lobby on http://{addr}");
    lobby.resume_ai();
    lobby.follow_others();
    start_clock(&state);
    // Requests in flight get a moment to finish; open WebSockets would keep a graceful
    // shutdown waiting for ever, so they are dropped after it (clients reconnect).
    let limits = state.listen().clone();
    listen::serve(listener, app(state), limits, shutdown())
        .await
        .map_err(|e| ApiError::Internal(format!("the server stopped: {e}")))
}

/// Serves `state` on a bound listener until the task is dropped: for tests and
/// benchmarks on a real port. Starts the computer where it is to act.
///
/// # Errors
/// The listener fails.
pub async fn serve_on(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    state.lobby().resume_ai();
    state.lobby().follow_others();
    start_clock(&state);
    let limits = state.listen().clone();
    listen::serve(listener, app(state), limits, std::future::pending()).await
}

/// Starts the sweep of the clocks of slow play and the sending of notifications.
fn start_clock(state: &AppState) {
    accounts::timeouts::start(state);
    accounts::notify::start(state.accounts());
}

/// [`serve`] on a runtime of its own, for the command line.
///
/// # Errors
/// As [`serve`], or the runtime cannot start.
pub fn run(options: Options) -> Result<(), ApiError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ApiError::Internal(format!("cannot start the runtime: {e}")))?
        .block_on(serve(options))
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    println!("grognard: stopping");
}
