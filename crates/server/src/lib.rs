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

pub mod api;
pub mod board;
pub mod error;
pub mod lobby;
pub mod store;
pub mod table;
pub mod token;
pub mod web;

pub use error::ApiError;
pub use lobby::Lobby;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::Router;
use std::path::PathBuf;
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
    /// The SQLite file that keeps every game (created if missing).
    #[arg(long, value_name = "FILE", default_value = "grognard.db")]
    pub db: PathBuf,
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
    /// The most games the server keeps.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_games: usize,
    /// Days a game may go without an action before it expires and is removed
    /// (finished games are kept); 0 keeps every game.
    #[arg(long, value_name = "DAYS", default_value_t = 30.0, value_parser = lobby::days)]
    pub expire_days: f64,
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

/// What the handlers share: the lobby.
#[derive(Clone)]
pub struct AppState(Arc<Lobby>);

impl AppState {
    /// Opens the database and resumes every game in it (the computer's pending
    /// decisions start with [`Lobby::resume_ai`]).
    ///
    /// # Errors
    /// The database cannot be opened or read.
    pub fn open(options: &Options) -> Result<AppState, ApiError> {
        Ok(AppState(Arc::new(Lobby::open(options)?)))
    }

    /// The lobby.
    #[must_use]
    pub fn lobby(&self) -> &Arc<Lobby> {
        &self.0
    }
}

/// The whole server as a router: the API under `/api/`, the web client elsewhere.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/api/scenarios", get(api::scenarios))
        .route("/api/scenarios/{id}/board", get(api::scenario_board))
        .route("/api/games", get(api::games).post(api::create))
        .route("/api/games/{id}", get(api::game))
        .route("/api/games/{id}/actions", post(api::action))
        .route("/api/games/{id}/explain", post(api::explain))
        .route("/api/games/{id}/preview", post(api::preview))
        .route("/api/games/{id}/reachable", get(api::reachable))
        .route("/api/games/{id}/replay", get(api::replay))
        .route("/api/games/{id}/hint", post(api::hint))
        .route("/api/games/{id}/ws", get(api::ws))
        .route("/", get(web::index))
        .route("/play/{id}", get(web::play))
        .route("/replay/{id}", get(web::replay))
        .fallback(api::fallback)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
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
    println!(
        "grognard: {} game(s) resumed from {}",
        lobby.tables().len(),
        options.db.display()
    );
    let listener = tokio::net::TcpListener::bind(&options.addr)
        .await
        .map_err(|e| ApiError::Internal(format!("cannot listen on {}: {e}", options.addr)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| ApiError::Internal(format!("cannot read the bound address: {e}")))?;
    println!("grognard: serving the lobby on http://{addr}");
    lobby.resume_ai();
    let (stopping, mut stop) = tokio::sync::watch::channel(false);
    let server =
        axum::serve(listener.tap_io(no_delay), app(state)).with_graceful_shutdown(async move {
            shutdown().await;
            let _ = stopping.send(true);
        });
    // Requests in flight get a moment to finish; open WebSockets would keep a graceful
    // shutdown waiting for ever, so they are dropped after it (clients reconnect).
    let grace = async move {
        let _ = stop.wait_for(|s| *s).await;
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    };
    tokio::select! {
        r = server => r.map_err(|e| ApiError::Internal(format!("the server stopped: {e}"))),
        () = grace => Ok(()),
    }
}

/// Serves `state` on a bound listener until the task is dropped: for tests and
/// benchmarks on a real port. Starts the computer where it is to act.
///
/// # Errors
/// The listener fails.
pub async fn serve_on(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    state.lobby().resume_ai();
    axum::serve(listener.tap_io(no_delay), app(state)).await
}

/// Small answers go out at once rather than waiting for more to send (Nagle).
fn no_delay(tcp: &mut tokio::net::TcpStream) {
    let _ = tcp.set_nodelay(true);
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
