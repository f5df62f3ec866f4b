//! `GET /api/games`, a page at a time: newest activity first, at most `limit` games,
//! the next page named by an opaque cursor, filtered by ruleset and open seats. The
//! answer stays the array it always was; the way to the next page is in the headers
//! (`X-Next-Cursor`, `Link: <...>; rel="next"`), so a client that reads the array
//! alone keeps working and sees the newest page.
//!
//! A page is read from the database: each game's line of the lobby is stored beside
//! it and kept by every commit, under an index on activity, so a page costs its own
//! lines, however many games there are, and no game is loaded for it.

use crate::error::ApiError;
use crate::limits::Guard;
use crate::lobby::Lobby;
use crate::store::{self, PageQuery, Summary};
use axum::http::{header, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// Games a page holds when the request names no `limit`.
pub const DEFAULT_LIMIT: usize = 50;
/// The most games a page may hold.
pub const MAX_LIMIT: usize = 200;

/// The header that carries the next page's cursor.
pub const NEXT_CURSOR: HeaderName = HeaderName::from_static("x-next-cursor");

/// The query of `GET /api/games`, as written; [`Listing::parse`] reads it.
#[derive(Debug, Default, serde::Deserialize)]
pub struct ListQuery {
    /// How many games, 1 to [`MAX_LIMIT`].
    pub limit: Option<String>,
    /// The previous page's `X-Next-Cursor`.
    pub cursor: Option<String>,
    /// Only games of this ruleset.
    pub ruleset: Option<String>,
    /// `true`: only games with an open seat.
    pub open: Option<String>,
}

/// A page asked for.
#[derive(Clone, Debug)]
pub struct Listing {
    limit: usize,
    after: Option<Key>,
    ruleset: Option<String>,
    open: bool,
}

/// Where a game stands in the list (newest activity first, then by id): its
/// activity in milliseconds since 1970 and its id.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    active_ms: u64,
    id: String,
}

impl Key {
    /// The cursor that names the games after this one: the hex of its activity as the
    /// list writes it (`active`) and its id.
    fn cursor(&self) -> String {
        hex(format!("{}|{}", store::rfc3339(self.active_ms), self.id).as_bytes())
    }

    fn from_cursor(cursor: &str) -> Option<Key> {
        if cursor.len() > 256 || cursor.len() % 2 != 0 {
            return None;
        }
        let bytes = (0..cursor.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(cursor.get(i..i + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()?;
        let text = String::from_utf8(bytes).ok()?;
        let (active, id) = text.split_once('|')?;
        let active_ms = store::parse_rfc3339(active)?;
        (!id.is_empty()).then(|| Key {
            active_ms,
            id: id.to_owned(),
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

impl Listing {
    /// Reads the query.
    ///
    /// # Errors
    /// 400 `request` naming `limit` (not a number from 1 to [`MAX_LIMIT`]), `cursor`
    /// (not one this server gave), `ruleset` (none of the lobby's) or `open` (neither
    /// `true` nor `false`).
    pub fn parse(q: ListQuery, lobby: &Lobby) -> Result<Listing, ApiError> {
        let limit = match q.limit.as_deref() {
            None => DEFAULT_LIMIT,
            Some(l) => l
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_LIMIT).contains(n))
                .ok_or_else(|| {
                    ApiError::request(format!(
                        "`limit` must be a number from 1 to {MAX_LIMIT}, not `{l}`"
                    ))
                })?,
        };
        let after = match q.cursor.as_deref() {
            None | Some("") => None,
            Some(c) => Some(Key::from_cursor(c).ok_or_else(|| {
                ApiError::request(
                    "`cursor` is not one this server gave: send back the `X-Next-Cursor` \
                     of the previous page, or no cursor for the first page",
                )
            })?),
        };
        let known: BTreeSet<&str> = lobby
            .scenarios
            .iter()
            .map(|e| e.scenario.ruleset.as_str())
            .collect();
        if let Some(r) = q.ruleset.as_deref() {
            if !known.contains(r) {
                return Err(ApiError::request(format!(
                    "no ruleset `{r}` for `ruleset`; there are: {}",
                    known.into_iter().collect::<Vec<_>>().join(", ")
                )));
            }
        }
        let open = match q.open.as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(o) => {
                return Err(ApiError::request(format!(
                    "`open` must be `true` or `false`, not `{o}`"
                )))
            }
        };
        Ok(Listing {
            limit,
            after,
            ruleset: q.ruleset,
            open,
        })
    }

    /// The page, read from the database: blocking work, for a blocking thread.
    ///
    /// # Errors
    /// The database cannot be read.
    pub fn page(&self, lobby: &Lobby, guard: &Guard) -> Result<Page, ApiError> {
        let query = PageQuery {
            after: self.after.as_ref().map(|k| (k.active_ms, k.id.clone())),
            ruleset: self.ruleset.clone(),
            open: self.open,
        };
        let open = self.open;
        // What the file cannot tell: a game found not to load is not listed, and a seat
        // is open until a request shows its token.
        let mut keep = |s: &Summary| !lobby.is_broken(&s.id) && (!open || is_open(s, guard));
        let mut lines = lobby
            .store()
            .read(|c| store::read::page(c, &query, self.limit + 1, &mut keep))?;
        let more = lines.len() > self.limit;
        lines.truncate(self.limit);
        let next = if more {
            lines.last().map(|s| {
                Key {
                    active_ms: s.active_ms,
                    id: s.id.clone(),
                }
                .cursor()
            })
        } else {
            None
        };
        Ok(Page {
            games: lines.iter().map(line).collect(),
            next,
            listing: self.clone(),
        })
    }
}

/// The lobby's line for a game: no tokens, nothing hidden.
fn line(s: &Summary) -> Value {
    json!({
        "id": s.id,
        "scenario": s.scenario_id,
        "title": s.title,
        "ruleset": s.ruleset,
        "seats": s.seats,
        "n": s.n,
        "to_act": s.to_act,
        "outcome": s.outcome,
        "created": s.created,
        "active": store::rfc3339(s.active_ms),
    })
}

/// Whether a game is open: not over, with a human seat whose token no request has
/// shown since the server started.
fn is_open(s: &Summary, guard: &Guard) -> bool {
    if s.outcome.is_some() {
        return false;
    }
    let joined = guard.joined_sides(&s.id);
    s.seats
        .iter()
        .any(|(side, kind)| kind == "human" && !joined.contains(side))
}

/// A page of games, and the cursor of the next if there is one.
pub struct Page {
    /// The games' summaries, in order.
    pub games: Vec<Value>,
    /// The cursor of the next page.
    pub next: Option<String>,
    listing: Listing,
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let mut response = axum::Json(Value::Array(self.games)).into_response();
        if let Some(next) = self.next {
            let mut link = format!("/api/games?limit={}&cursor={next}", self.listing.limit);
            if let Some(r) = &self.listing.ruleset {
                link.push_str(&format!("&ruleset={r}"));
            }
            if self.listing.open {
                link.push_str("&open=true");
            }
            let headers = response.headers_mut();
            if let Ok(v) = HeaderValue::from_str(&next) {
                headers.insert(NEXT_CURSOR, v);
            }
            if let Ok(v) = HeaderValue::from_str(&format!("<{link}>; rel=\"next\"")) {
                headers.insert(header::LINK, v);
            }
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_its_key_and_junk_does_not() {
        let k = Key {
            active_ms: 1_767_323_045_678,
            id: "00ff00ff00ff00ff".into(),
        };
        assert_eq!(Key::from_cursor(&k.cursor()), Some(k));
        let not_a_time = hex(b"yesterday|00ff00ff00ff00ff");
        for junk in [
            "",
            "z",
            "abc",
            "7c",
            "zz00",
            "ff",
            &"00".repeat(200),
            &not_a_time,
        ] {
            assert_eq!(Key::from_cursor(junk), None, "{junk}");
        }
    }
}
