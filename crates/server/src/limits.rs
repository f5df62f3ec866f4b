//! What one client may take of the server: games created a minute (a token bucket
//! per client address), spectators' WebSockets (a cap per game and overall), and the
//! seats whose tokens have been shown (for the list's `open` filter). The caps on
//! connections and the timeouts are in [`crate::listen`]; the checks of every request
//! (host, content type) in [`crate::checks`]. Each limit and its default is in
//! `docs/SECURITY.md`.

use crate::error::ApiError;
use crate::{AppState, Options};
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::{BTreeSet, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A client as the limits count it: its IP address, or for IPv6 its /64 network,
/// since one host commonly holds a whole /64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    /// The client at `ip`.
    #[must_use]
    pub fn of(ip: IpAddr) -> Client {
        match ip {
            IpAddr::V4(_) => Client(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                None => {
                    let mut s = v6.segments();
                    s[4..].fill(0);
                    Client(IpAddr::V6(s.into()))
                }
            },
        }
    }
}

/// The limits' state, shared by every request.
pub struct Guard {
    creations: Buckets,
    spectators: Arc<Mutex<Spectators>>,
    max_spectators: usize,
    max_spectators_per_game: usize,
    /// How often a WebSocket is pinged.
    pub ws_ping: Duration,
    joined: Mutex<HashMap<String, BTreeSet<String>>>,
}

impl Guard {
    /// The limits `options` set.
    #[must_use]
    pub fn new(options: &Options) -> Guard {
        Guard {
            creations: Buckets::new(options.create_per_minute, options.create_burst),
            spectators: Arc::new(Mutex::new(Spectators::default())),
            max_spectators: options.max_spectators,
            max_spectators_per_game: options.max_spectators_per_game,
            ws_ping: Duration::from_millis(options.ws_ping_millis.max(1)),
            joined: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a spectator's slot on game `id`, held until the slot is dropped.
    ///
    /// # Errors
    /// 503 `busy` when the game or the server holds its most spectators.
    pub fn spectator(&self, id: &str) -> Result<SpectatorSlot, ApiError> {
        let mut s = self
            .spectators
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if s.total >= self.max_spectators {
            return Err(ApiError::Unavailable(format!(
                "the server holds its limit of {} spectators' WebSockets; watch with \
                 GET /api/games/{id}, or come back later",
                self.max_spectators
            )));
        }
        let on_game = s.games.get(id).copied().unwrap_or(0);
        if on_game >= self.max_spectators_per_game {
            return Err(ApiError::Unavailable(format!(
                "game {id} holds its limit of {} spectators' WebSockets; watch with \
                 GET /api/games/{id}, or come back later",
                self.max_spectators_per_game
            )));
        }
        s.total += 1;
        s.games.insert(id.to_owned(), on_game + 1);
        Ok(SpectatorSlot {
            spectators: Arc::clone(&self.spectators),
            game: id.to_owned(),
        })
    }

    /// Notes that a request showed the token of `side` in game `id`.
    pub fn joined(&self, id: &str, side: &str) {
        let mut joined = self.joined.lock().unwrap_or_else(PoisonError::into_inner);
        if !joined.get(id).is_some_and(|s| s.contains(side)) {
            joined
                .entry(id.to_owned())
                .or_default()
                .insert(side.to_owned());
        }
    }

    /// The sides of game `id` whose tokens have been shown since the server started.
    #[must_use]
    pub fn joined_sides(&self, id: &str) -> BTreeSet<String> {
        self.joined
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
            .unwrap_or_default()
    }
}

#[derive(Default)]
struct Spectators {
    total: usize,
    games: HashMap<String, usize>,
}

/// A spectator's place on a game; given back when dropped.
pub struct SpectatorSlot {
    spectators: Arc<Mutex<Spectators>>,
    game: String,
}

impl Drop for SpectatorSlot {
    fn drop(&mut self) {
        let mut s = self
            .spectators
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        s.total = s.total.saturating_sub(1);
        if let Some(n) = s.games.get_mut(&self.game) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                s.games.remove(&self.game);
            }
        }
    }
}

/// A token bucket per client: `burst` games at once, then one every
/// `60 / per_minute` seconds.
struct Buckets {
    per_second: f64,
    burst: f64,
    buckets: Mutex<BucketMap>,
}

struct BucketMap {
    map: HashMap<Client, Bucket>,
    /// The size at which full buckets are forgotten (a full bucket is as good as none).
    prune_at: usize,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Buckets {
    fn new(per_minute: u32, burst: u32) -> Buckets {
        Buckets {
            per_second: f64::from(per_minute) / 60.0,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(BucketMap {
                map: HashMap::new(),
                prune_at: 1024,
            }),
        }
    }

    /// Takes one creation for `client` at `now`; the wait until one is available when
    /// none is.
    fn take(&self, client: Client, now: Instant) -> Result<(), Duration> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let mut b = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let (per_second, burst) = (self.per_second, self.burst);
        let refill = |bucket: &Bucket| {
            let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
            (bucket.tokens + elapsed * per_second).min(burst)
        };
        if b.map.len() >= b.prune_at {
            b.map.retain(|_, bucket| refill(bucket) < burst);
            b.prune_at = (b.map.len() * 2).max(1024);
        }
        let bucket = b.map.entry(client).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let tokens = refill(bucket);
        if tokens >= 1.0 {
            *bucket = Bucket {
                tokens: tokens - 1.0,
                at: now,
            };
            Ok(())
        } else {
            *bucket = Bucket { tokens, at: now };
            Err(Duration::from_secs_f64((1.0 - tokens) / per_second))
        }
    }
}

/// The rate limit on `POST /api/games`: every request counts, answered or refused.
/// A router served without a socket (tests with `oneshot`) knows no client address
/// and is not limited.
pub async fn creation_rate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>() {
        if let Err(wait) = state
            .guard()
            .creations
            .take(Client::of(peer.ip()), Instant::now())
        {
            // The body is read (and dropped) so that the connection can carry the
            // client's next request: a refusal here is the ordinary course of things.
            let _ = axum::body::to_bytes(req.into_body(), crate::BODY_LIMIT).await;
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            return ApiError::RateLimited {
                message: format!(
                    "this address may create {} games a minute ({} at once); try again in {secs} s",
                    state.guard().creations.per_second * 60.0,
                    state.guard().creations.burst,
                ),
                retry_after: secs.max(1),
            }
            .into_response();
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_one_a_period() {
        let b = Buckets::new(60, 3);
        let c = Client::of("10.0.0.1".parse().unwrap());
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(b.take(c, t0).is_ok());
        }
        let wait = b.take(c, t0).unwrap_err();
        assert!(wait <= Duration::from_secs(1) && wait > Duration::ZERO);
        assert!(b.take(c, t0 + Duration::from_millis(1001)).is_ok());
        assert!(b.take(c, t0 + Duration::from_millis(1002)).is_err());
        // Another client has its own bucket.
        assert!(b.take(Client::of("10.0.0.2".parse().unwrap()), t0).is_ok());
    }

    #[test]
    fn a_rate_of_zero_limits_nothing() {
        let b = Buckets::new(0, 1);
        let c = Client::of("10.0.0.1".parse().unwrap());
        let t0 = Instant::now();
        for _ in 0..100 {
            assert!(b.take(c, t0).is_ok());
        }
    }

    #[test]
    fn an_ipv6_client_is_its_64_network_and_a_mapped_v4_is_the_v4() {
        let a = Client::of("2001:db8:1:2:3:4:5:6".parse().unwrap());
        let b = Client::of("2001:db8:1:2:ffff::1".parse().unwrap());
        let c = Client::of("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            Client::of("::ffff:10.0.0.1".parse().unwrap()),
            Client::of("10.0.0.1".parse().unwrap())
        );
    }
}
