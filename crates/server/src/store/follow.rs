//! What the other servers over the same PostgreSQL database write (issue 17): each
//! commit of an action or an undo sends a notification on [`CHANNEL`] (delivered when
//! it commits, with the game's id and its length after it), and every server listens
//! on a connection of its own, so that a game in its memory catches up and its
//! WebSockets push what changed. A SQLite file has one server: nothing to follow.

use crate::db::{self, params, Conn, Location};
use postgres::fallible_iterator::FallibleIterator;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The channel every server notifies and listens on.
pub const CHANNEL: &str = "grognard_actions";

/// Notifies the other servers, in the transaction `tx`, that game `game` holds `n`
/// actions once it commits.
///
/// # Errors
/// The database fails.
pub(super) fn notify(tx: &mut Conn, game: &str, n: u64) -> db::Result<()> {
    if tx.backend() == db::Backend::Postgres {
        tx.execute(
            "SELECT pg_notify(?1, ?2)",
            params![CHANNEL, format!("{game} {n}")],
        )?;
    }
    Ok(())
}

/// Listens on [`CHANNEL`] on a thread of its own until `closed` is set or nobody
/// receives; each notification as (game, length). Reconnects after a failure.
pub(super) fn listen(
    location: Location,
    closed: Arc<AtomicBool>,
) -> std::io::Result<mpsc::UnboundedReceiver<(String, u64)>> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::Builder::new()
        .name("grognard-db-listen".into())
        .spawn(move || {
            while !closed.load(Ordering::Acquire) && !tx.is_closed() {
                if let Err(e) = follow(&location, &closed, &tx) {
                    eprintln!(
                        "grognard: listening to the other servers on `{location}` failed: {e}; \
                         again in a second"
                    );
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        })?;
    Ok(rx)
}

fn follow(
    location: &Location,
    closed: &AtomicBool,
    tx: &mpsc::UnboundedSender<(String, u64)>,
) -> db::Result<()> {
    let mut conn = Conn::open(location)?;
    conn.batch(&format!("LISTEN {CHANNEL}"))?;
    let Conn::Postgres(pg) = &mut conn else {
        return Ok(());
    };
    let client = pg.client()?;
    while !closed.load(Ordering::Acquire) && !tx.is_closed() {
        let mut notes = client.notifications();
        let mut it = notes.timeout_iter(Duration::from_millis(500));
        while let Some(note) = it.next().map_err(db::DbError::from)? {
            let mut parts = note.payload().rsplitn(2, ' ');
            let n = parts.next().and_then(|n| n.parse::<u64>().ok());
            if let (Some(n), Some(game)) = (n, parts.next()) {
                let _ = tx.send((game.to_owned(), n));
            }
        }
    }
    Ok(())
}

/// Takes or renews game `game`'s lease of the computer's seats for `holder` until
/// `until_ms`, unless another server holds it past `now_ms`: one statement, which
/// PostgreSQL runs as one transaction with the row locked. True when `holder` holds it.
///
/// # Errors
/// The database fails.
pub(super) fn lease(
    conn: &mut Conn,
    game: &str,
    holder: &str,
    now_ms: u64,
    until_ms: u64,
) -> db::Result<bool> {
    let ms = |t: u64| i64::try_from(t).unwrap_or(i64::MAX);
    Ok(conn
        .query_opt(
            "INSERT INTO leases (game_id, holder, until_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (game_id) DO UPDATE SET holder = excluded.holder,
                 until_ms = excluded.until_ms
             WHERE leases.holder = excluded.holder OR leases.until_ms < ?4
             RETURNING holder",
            params![game, holder, ms(until_ms), ms(now_ms)],
        )?
        .is_some())
}
