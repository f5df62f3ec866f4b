//! Play by web (issue 16): accounts and sessions, the seats that belong to accounts,
//! open challenges, chat per game, Glicko-2 ratings per ruleset, the clock of slow
//! play (resignations, losses on time, reminders) and the notifications.
//!
//! These live in the same database as the games (schema version 5) but are
//! written through a connection of their own: they are small writes, off the path of
//! the games' group commit, and nothing of a game's log depends on them.

pub mod challenges;
pub mod chat;
pub mod clock;
pub mod glicko;
pub mod names;
pub mod notify;
pub mod options;
pub mod password;
pub mod ratings;
pub mod routes;
pub mod session;
pub mod timeouts;

use crate::db::{self, Conn, Location};
use crate::error::ApiError;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// An account, as a session finds it.
#[derive(Clone, Debug)]
pub struct Account {
    /// Its row id.
    pub id: i64,
    /// Its name, as signed up.
    pub name: String,
    /// The session's CSRF token, which state-changing requests echo in `X-CSRF-Token`.
    pub csrf: String,
}

/// The options of play by web, beside the server's.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Mark the cookies `Secure`: the server is reached over https.
    pub secure_cookies: bool,
    /// Log-in attempts one name may make a minute; an address may make four times as
    /// many.
    pub logins_per_minute: u32,
    /// Chat messages one seat may post in [`Settings::chat_window`].
    pub chat_burst: u32,
    /// The window of [`Settings::chat_burst`].
    pub chat_window: Duration,
    /// The clock and the notifications.
    pub by_web: options::ByWeb,
}

/// Counts of recent events per key, in a sliding window.
#[derive(Default)]
pub struct Window(Mutex<HashMap<String, VecDeque<Instant>>>);

impl Window {
    /// Counts one event for `key` at `now` if fewer than `max` fell in the last
    /// `span`; else the seconds until one more may (at least 1).
    pub fn take(&self, key: &str, max: u32, span: Duration, now: Instant) -> Result<(), u64> {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // Keys whose every event is old are dropped, so the map does not grow for ever.
        if map.len() > 10_000 {
            map.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < span));
        }
        let q = map.entry(key.to_owned()).or_default();
        while q.front().is_some_and(|t| now.duration_since(*t) >= span) {
            q.pop_front();
        }
        if q.len() >= usize::try_from(max).unwrap_or(usize::MAX) {
            let wait = q
                .front()
                .map_or(span, |t| span.saturating_sub(now.duration_since(*t)));
            return Err(wait.as_secs().max(1));
        }
        q.push_back(now);
        Ok(())
    }
}

/// Accounts, sessions, challenges, chat and ratings.
pub struct Accounts {
    conn: Mutex<Conn>,
    /// The options.
    pub settings: Settings,
    /// Log-in attempts per name and per address.
    pub logins: Window,
    /// Chat messages per game and seat.
    pub chats: Window,
    /// The live chat of each game with a listener.
    channels: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// The queue of notifications.
    pub notifier: notify::Notifier,
}

impl Accounts {
    /// Opens a connection to the database the store has opened and migrated.
    ///
    /// # Errors
    /// The database cannot be opened.
    pub fn open(location: &Location, settings: Settings) -> Result<Accounts, ApiError> {
        let conn = db::off_runtime(|| -> db::Result<Conn> {
            let mut conn = Conn::open(location)?;
            if let Some(c) = conn.sqlite() {
                db::patient(c)?;
                c.pragma_update(None, "foreign_keys", "ON")?;
            }
            Ok(conn)
        })
        .map_err(|e| ApiError::Internal(format!("database `{location}`: {e}")))?;
        Ok(Accounts {
            conn: Mutex::new(conn),
            settings,
            logins: Window::default(),
            chats: Window::default(),
            channels: Mutex::new(HashMap::new()),
            notifier: notify::Notifier::default(),
        })
    }

    /// Runs `f` on the connection, off the async runtime.
    ///
    /// # Errors
    /// What `f` answers, or 500 when the file fails.
    pub async fn db<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Conn) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let me = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut conn = me.conn.lock().unwrap_or_else(PoisonError::into_inner);
            f(&mut conn)
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the database task failed: {e}")))?
    }

    /// The live chat of `game`, to listen to.
    pub fn listen(&self, game: &str) -> broadcast::Receiver<Arc<str>> {
        let mut map = self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        map.retain(|_, tx| tx.receiver_count() > 0);
        map.entry(game.to_owned())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Tells `game`'s listeners of a message.
    pub fn tell(&self, game: &str, message: Arc<str>) {
        let map = self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = map.get(game) {
            let _ = tx.send(message);
        }
    }
}

/// A failure of the database as a 500.
pub fn sql(e: &db::DbError) -> ApiError {
    ApiError::Internal(format!("the database failed: {e}"))
}
