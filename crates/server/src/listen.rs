//! The accept loop: a cap on connections overall and per client address, and the
//! timeouts that keep a connection from holding its place for nothing: the headers of
//! a request must arrive within `--header-timeout-millis` of its first byte (or of the
//! connection), a kept-alive connection may wait `--idle-timeout-millis` for its next
//! request. (The body's timeout is [`crate::checks`]'s; a WebSocket, once upgraded,
//! is kept alive by its pings.) Each connection holds its places until its socket
//! closes, a WebSocket's included.

use crate::limits::Client;
use crate::Options;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tower::Service;

/// The caps and timeouts of connections, from the options.
#[derive(Clone, Debug)]
pub struct Listen {
    /// The most connections at once; 0 for no cap.
    pub max_connections: usize,
    /// The most connections at once from one client; 0 for no cap.
    pub max_per_address: usize,
    /// How long a request's headers may take.
    pub header_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
}

impl Listen {
    /// The caps and timeouts `options` set.
    #[must_use]
    pub fn new(options: &Options) -> Listen {
        Listen {
            max_connections: options.max_connections,
            max_per_address: options.max_connections_per_address,
            header_timeout: Duration::from_millis(options.header_timeout_millis.max(1)),
            idle_timeout: Duration::from_millis(options.idle_timeout_millis.max(1)),
        }
    }
}

/// Connections open by client.
type PerAddress = Arc<Mutex<HashMap<Client, usize>>>;

/// How long requests in flight get to finish once the server is told to stop.
const GRACE: Duration = Duration::from_secs(2);

/// The answer to a connection over a cap, written before it is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
    connection: close\r\nretry-after: 1\r\nreferrer-policy: no-referrer\r\ncontent-length: 83\r\n\r\n\
    {\"error\":{\"rule\":\"busy\",\"message\":\"too many connections: close one and try again\"}}";

/// Serves `router` on `listener` under `limits` until `stop` completes; then requests
/// in flight get [`GRACE`] to finish and the rest (WebSockets) are dropped.
///
/// # Errors
/// Never at present: accept errors (a full file table) are waited out.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Listen,
    stop: impl Future<Output = ()>,
) -> io::Result<()> {
    let total =
        (limits.max_connections > 0).then(|| Arc::new(Semaphore::new(limits.max_connections)));
    let per_address: PerAddress = Arc::new(Mutex::new(HashMap::new()));
    let live = Arc::new(());
    let (stopping, stopped) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            () = &mut stop => break,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors (or the like): wait for some to close rather
                // than spin.
                if !matches!(
                    e.kind(),
                    io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
                ) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        let Some(places) = take_places(&total, &per_address, limits.max_per_address, &peer) else {
            let _ = tcp.try_write(BUSY);
            drop(tcp);
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let io = Io {
            tcp,
            phase: Arc::new(Watched::new(Phase::Head(Instant::now()))),
            _places: places,
            _live: Arc::clone(&live),
        };
        tokio::spawn(connection(
            io,
            peer,
            router.clone(),
            limits.clone(),
            stopped.clone(),
        ));
    }
    drop(listener);
    let _ = stopping.send(true);
    let deadline = Instant::now() + GRACE;
    while Arc::strong_count(&live) > 1 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// A place under the overall cap and one under the client's, or `None` over either.
fn take_places(
    total: &Option<Arc<Semaphore>>,
    per_address: &PerAddress,
    max_per_address: usize,
    peer: &SocketAddr,
) -> Option<Places> {
    let permit = match total {
        Some(s) => Some(Arc::clone(s).try_acquire_owned().ok()?),
        None => None,
    };
    let client = Client::of(peer.ip());
    if max_per_address > 0 {
        let mut counts = per_address.lock().unwrap_or_else(PoisonError::into_inner);
        let n = counts.entry(client).or_insert(0);
        if *n >= max_per_address {
            return None;
        }
        *n += 1;
    }
    Some(Places {
        _permit: permit,
        counted: (max_per_address > 0).then(|| (Arc::clone(per_address), client)),
    })
}

/// A connection's places under the caps, given back when the socket closes.
struct Places {
    _permit: Option<OwnedSemaphorePermit>,
    counted: Option<(PerAddress, Client)>,
}

impl Drop for Places {
    fn drop(&mut self) {
        if let Some((counts, client)) = &self.counted {
            let mut counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(n) = counts.get_mut(client) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    counts.remove(client);
                }
            }
        }
    }
}

/// Where a connection stands, for its timeouts.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Waiting for a request's headers, since the connection or its first byte.
    Head(Instant),
    /// A request is being answered (its body has a timeout of its own).
    Busy,
    /// Answered; waiting for the next request since then.
    Idle(Instant),
}

impl Phase {
    fn deadline(self, limits: &Listen) -> Option<Instant> {
        match self {
            Phase::Head(since) => Some(since + limits.header_timeout),
            Phase::Idle(since) => Some(since + limits.idle_timeout),
            Phase::Busy => None,
        }
    }
}

/// A connection's phase, and a bell rung at each change, so that the loop that
/// watches its deadline hears of a new phase at once (an idle connection's deadline
/// comes from when it went idle, not from the header deadline it was waiting on).
struct Watched {
    phase: Mutex<Phase>,
    changed: tokio::sync::Notify,
}

impl Watched {
    fn new(phase: Phase) -> Watched {
        Watched {
            phase: Mutex::new(phase),
            changed: tokio::sync::Notify::new(),
        }
    }

    fn get(&self) -> Phase {
        *self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set(&self, phase: Phase) {
        *self.phase.lock().unwrap_or_else(PoisonError::into_inner) = phase;
        // A permit is kept when nobody waits: a change is never missed.
        self.changed.notify_one();
    }
}

/// The socket, noting when bytes arrive, and holding the connection's places for as
/// long as it lives (after an upgrade, inside the WebSocket).
struct Io {
    tcp: TcpStream,
    phase: Arc<Watched>,
    _places: Places,
    _live: Arc<()>,
}

impl AsyncRead for Io {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            if let Phase::Idle(_) = self.phase.get() {
                self.phase.set(Phase::Head(Instant::now()));
            }
        }
        r
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

/// Serves one connection until it closes, its timeout passes, or the server stops.
async fn connection(
    io: Io,
    peer: SocketAddr,
    router: Router,
    limits: Listen,
    mut stopped: watch::Receiver<bool>,
) {
    let phase = Arc::clone(&io.phase);
    let service = {
        let phase = Arc::clone(&phase);
        hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            phase.set(Phase::Busy);
            req.extensions_mut().insert(ConnectInfo(peer));
            let answer = router.clone().call(req.map(Body::new));
            let phase = Arc::clone(&phase);
            async move {
                let response = answer.await;
                phase.set(Phase::Idle(Instant::now()));
                response
            }
        })
    };
    let conn = hyper::server::conn::http1::Builder::new()
        .keep_alive(true)
        .header_read_timeout(None)
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut stopping = false;
    loop {
        let now = phase.get();
        let wake = now
            .deadline(&limits)
            .unwrap_or_else(|| Instant::now() + limits.idle_timeout);
        tokio::select! {
            _ = conn.as_mut() => return,
            // A new phase has a deadline of its own: the sleep starts again from it.
            () = phase.changed.notified() => {}
            () = tokio::time::sleep_until(wake) => {
                let now = phase.get();
                if now.deadline(&limits).is_some_and(|d| d <= Instant::now()) {
                    // Dropping the connection closes the socket.
                    return;
                }
            }
            r = stopped.wait_for(|s| *s), if !stopping => {
                stopping = true;
                if r.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}
