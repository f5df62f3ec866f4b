//! What changes a game from outside its log (issue 16): an ending (a resignation, a
//! loss on time) and the seats the computer took when a player's time ran out. Each is
//! written with the game's line of the lobby in one transaction, and read when the
//! game is loaded, after its log is replayed.

use super::Summary;
use crate::db::{self, params, Conn, DbError};
use grognard_engine::{Ending, EndingKind};
use std::collections::BTreeSet;

/// A game's ending and stand-ins, as stored.
#[derive(Clone, Debug, Default)]
pub struct Outside {
    /// How the game ended from outside its rules, if it did.
    pub ending: Option<Ending>,
    /// The sides the computer plays since their player's time ran out.
    pub stand_ins: BTreeSet<String>,
}

fn kind_to_sql(kind: EndingKind) -> &'static str {
    match kind {
        EndingKind::Resigned => "resigned",
        EndingKind::Time => "time",
    }
}

/// Reads game `id`'s ending and stand-ins.
///
/// # Errors
/// The database fails, or an ending of a kind this server does not know.
pub fn read(conn: &mut Conn, id: &str) -> db::Result<Outside> {
    let ending = match conn.query_opt(
        "SELECT side, kind, at_action FROM endings WHERE game_id = ?1",
        params![id],
    )? {
        None => None,
        Some(r) => {
            let kind: String = r.get(1)?;
            let kind = match kind.as_str() {
                "resigned" => EndingKind::Resigned,
                "time" => EndingKind::Time,
                other => return Err(DbError::new(format!("unknown ending `{other}`"))),
            };
            Some(Ending {
                side: r.get(0)?,
                kind,
                at_action: usize::try_from(r.get::<i64>(2)?).unwrap_or(usize::MAX),
            })
        }
    };
    let stand_ins = conn
        .query("SELECT side FROM stand_ins WHERE game_id = ?1", params![id])?
        .iter()
        .map(|r| r.get(0))
        .collect::<db::Result<BTreeSet<String>>>()?;
    Ok(Outside { ending, stand_ins })
}

/// Records that game `summary.id` ended as `ending` at `at` (RFC 3339), with its line
/// of the lobby after it, in one transaction.
///
/// # Errors
/// The database fails, or the game has an ending already (the primary key).
pub fn write_ending(
    conn: &mut Conn,
    ending: &Ending,
    at: &str,
    summary: &Summary,
) -> db::Result<()> {
    let mut tx = conn.transaction()?;
    tx.execute(
        "INSERT INTO endings (game_id, side, kind, at_action, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            &summary.id,
            &ending.side,
            kind_to_sql(ending.kind),
            i64::try_from(ending.at_action).unwrap_or(i64::MAX),
            at
        ],
    )?;
    super::schema::write_summary(&mut tx, summary)?;
    tx.commit()
}

/// Records that the computer plays `side` of game `summary.id` from `at` (RFC 3339),
/// with its line of the lobby after it, in one transaction.
///
/// # Errors
/// The database fails.
pub fn write_stand_in(conn: &mut Conn, side: &str, at: &str, summary: &Summary) -> db::Result<()> {
    let mut tx = conn.transaction()?;
    tx.execute(
        "INSERT INTO stand_ins (game_id, side, at) VALUES (?1, ?2, ?3)
         ON CONFLICT (game_id, side) DO NOTHING",
        params![&summary.id, side, at],
    )?;
    super::schema::write_summary(&mut tx, summary)?;
    tx.commit()
}
