//! A table: one game being played, its seats, and what each seat may see of it.

use crate::error::ApiError;
use crate::store::{SeatRecord, Summary};
use crate::token;
use grognard_engine::{AnyGame, Seat};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use tokio::sync::{broadcast, Mutex};

mod lean;
mod lock;
mod outside;
mod position;
mod undo;

pub use lock::{GameRead, GameWrite, Held};

pub use lean::{compact, expand, Form, Legal};

/// How many of the last log entries a game object carries.
pub const LOG_TAIL: usize = 30;

/// Who is asking: a side's player (they showed its token), the player of every seat
/// of a hotseat game, or a spectator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The player of this side.
    Side(String),
    /// The one player of every seat of a hotseat game (whose seats share one token):
    /// the side to act, whichever it is when asked ([`Table::resolve`]).
    Hotseat,
    /// Anyone without a token.
    Spectator,
}

impl Viewer {
    /// The engine's seat for this viewer: never [`Seat::Omniscient`]. A
    /// [`Viewer::Hotseat`] sees as a spectator until [`Table::resolve`]d.
    #[must_use]
    pub fn seat(&self) -> Seat {
        match self {
            Viewer::Side(s) => Seat::Side(s.clone()),
            Viewer::Hotseat | Viewer::Spectator => Seat::Spectator,
        }
    }

    /// The side, `"hotseat"` or `"spectator"`.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Viewer::Side(s) => s,
            Viewer::Hotseat => "hotseat",
            Viewer::Spectator => "spectator",
        }
    }
}

/// One game being played.
pub struct Table {
    /// The game's id.
    pub id: String,
    /// The built-in scenario it was started from.
    pub scenario_id: String,
    /// The scenario's title.
    pub title: String,
    /// The ruleset's name.
    pub ruleset: String,
    /// When it was created (UTC, RFC 3339).
    pub created: String,
    /// Each side's seat.
    pub seats: BTreeMap<String, SeatRecord>,
    /// True when seats may see different things: then only the seat to act may ask
    /// the rules about actions (explain, preview, reachable), since a refusal could
    /// mention what it alone knows.
    pub hidden: bool,
    /// True when one token plays every seat (see [`Viewer::Hotseat`]).
    pub hotseat: bool,
    /// The commitment to the seed, published from the start ([`token::commitment`]).
    pub commitment: String,
    /// How many actions are durable: a log or object is cached only up to it, so
    /// nothing built from an action not yet in the file is ever served again.
    committed: AtomicUsize,
    /// When the game last saw an action, or was created (ms since 1970, UTC).
    active_ms: AtomicU64,
    /// How many actions have been taken back in this game: with `n`, it orders the
    /// game's states (an undo lowers `n` but raises this), for pushes and clients.
    undos: AtomicU64,
    /// Who made the last action, for the game at `(undos, n)`: known from the commit,
    /// or found by a replay once and kept ([`Table::undoable`]).
    last_actor: std::sync::Mutex<Option<LastActor>>,
    /// Set when the game has expired: it takes no more actions.
    expired: AtomicBool,
    /// The human seats the computer took when their player's time ran out (issue 16).
    stand_ins: std::sync::Mutex<BTreeSet<String>>,
    /// The game as last committed. Readers hold it only to build a view.
    game: lock::Lock,
    /// Held by whoever is committing an action, from the check of `expect` to the
    /// swap of the new game, so that writers of one game queue.
    pub(crate) turn: Mutex<()>,
    /// Rings after every committed action with the new `n`; carries nothing else, so
    /// each subscriber builds its own seat's view.
    pub(crate) changed: broadcast::Sender<u64>,
    /// True while a task plays the computer's seats.
    pub(crate) ai_running: AtomicBool,
    /// True while a hint is searched for this game: one at a time.
    pub(crate) hint_running: AtomicBool,
    /// Each seat's log as last built, with its `n`. A seat's log at `n` depends only
    /// on the first `n` actions, so it serves every request at that `n`; building it
    /// costs the whole log, so it is built once per seat and action.
    logs: std::sync::Mutex<SeatLogs>,
    /// Each viewer's game object as text, with its `n`: one build per viewer and
    /// action, however many sockets and requests ask.
    objects: std::sync::Mutex<HashMap<String, (usize, Arc<str>)>>,
}

/// Whether one token plays every seat: every seat human, all with the same token's
/// hash (two tokens drawn apart never share one).
fn is_hotseat(seats: &BTreeMap<String, SeatRecord>) -> bool {
    let mut hashes = seats.values().map(|s| match s {
        SeatRecord::Human { token_sha256 } => Some(token_sha256),
        SeatRecord::Ai { .. } => None,
    });
    let Some(Some(first)) = hashes.next() else {
        return false;
    };
    seats.len() > 1 && hashes.all(|h| h == Some(first))
}

/// Who made the last action (`None`: nobody, or not known to the engine) of the game at
/// `(undos, n)`.
type LastActor = ((u64, usize), Option<String>);

/// Each seat's last built log: its `n` and its entries.
type SeatLogs = HashMap<String, (usize, Arc<Vec<Value>>)>;

impl Table {
    /// A table for a game, as committed to the file, last active at `active_ms`.
    #[must_use]
    pub fn new(
        id: String,
        scenario_id: String,
        seats: BTreeMap<String, SeatRecord>,
        created: String,
        hidden: bool,
        game: Box<dyn AnyGame>,
        active_ms: u64,
    ) -> Table {
        let hotseat = is_hotseat(&seats);
        Table {
            commitment: token::dice_commitment(&id, game.seed(), game.generator()),
            committed: AtomicUsize::new(game.len()),
            active_ms: AtomicU64::new(active_ms),
            undos: AtomicU64::new(0),
            last_actor: std::sync::Mutex::new(None),
            expired: AtomicBool::new(false),
            stand_ins: std::sync::Mutex::new(BTreeSet::new()),
            hotseat,
            id,
            scenario_id,
            title: game.scenario().title.clone(),
            ruleset: game.ruleset().to_owned(),
            created,
            seats,
            hidden,
            game: RwLock::new(game),
            turn: Mutex::new(()),
            changed: broadcast::channel(16).0,
            ai_running: AtomicBool::new(false),
            hint_running: AtomicBool::new(false),
            logs: std::sync::Mutex::new(HashMap::new()),
            objects: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// The table, with `undos` actions taken back before (as the file counts them).
    #[must_use]
    pub fn with_undos(self, undos: u64) -> Table {
        self.undos.store(undos, Ordering::Release);
        self
    }

    /// How many actions have been taken back in this game.
    #[must_use]
    pub fn undos(&self) -> u64 {
        self.undos.load(Ordering::Acquire)
    }

    /// [`Table::object`] as JSON text, for this table's game as committed.
    pub fn object_text(&self, game: &dyn AnyGame, viewer: &Viewer) -> Arc<str> {
        let viewer = &self.resolve(game, viewer);
        self.cached_text(viewer.name(), game.len(), || {
            self.object_text_in(game, viewer, Legal::Full, true)
        })
    }

    /// The object of [`Table::build_object`] with its `undo`, written as text: the
    /// same bytes as that `Value`'s, but the view ([`Table::view_text`]) is written
    /// by the ruleset straight to text and shared, never built as a `Value` tree.
    /// `view` sorts last of the object's keys, so it closes the text.
    fn object_text_in(
        &self,
        game: &dyn AnyGame,
        viewer: &Viewer,
        legal: Legal,
        with_log: bool,
    ) -> String {
        let mut object = self.object_head(game, viewer, legal, with_log);
        object["undo"] = json!(self.undo_flag(game, viewer));
        let seat = self.view_seat(game, viewer, false);
        let view = self.view_text(game, &seat);
        let mut text = object.to_string();
        text.pop();
        text.reserve(view.len() + 10);
        if text.len() > 1 {
            text.push(',');
        }
        text.push_str("\"view\":");
        text.push_str(&view);
        text.push('}');
        text
    }

    /// The view of `game`, this table's game as committed, for `seat`, as text:
    /// built once an action for every seat when the ruleset's views are public, else
    /// once a seat and action, however many objects carry it.
    pub(crate) fn view_text(&self, game: &dyn AnyGame, seat: &Seat) -> Arc<str> {
        let key = if game.views_are_public() {
            "\u{0}view".to_owned()
        } else {
            match seat {
                Seat::Side(s) => format!("\u{0}view\u{0}{s}"),
                Seat::Spectator => "\u{0}view\u{0}\u{0}spectator".to_owned(),
                Seat::Omniscient => "\u{0}view\u{0}\u{0}omniscient".to_owned(),
            }
        };
        self.cached_text(&key, game.len(), || game.view_text(seat))
    }

    /// The text kept under `key` for the game at `n`, or `build`'s, kept when `n` is
    /// committed: built once per key and action, however many sockets and requests
    /// ask.
    fn cached_text(&self, key: &str, n: usize, build: impl FnOnce() -> String) -> Arc<str> {
        if let Some((at, text)) = self
            .objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
        {
            if *at == n {
                return Arc::clone(text);
            }
        }
        let text: Arc<str> = build().into();
        let mut objects = self.objects.lock().unwrap_or_else(PoisonError::into_inner);
        if n <= self.committed() && objects.get(key).is_none_or(|(at, _)| *at < n) {
            objects.insert(key.to_owned(), (n, Arc::clone(&text)));
        }
        text
    }

    /// The log of `game`, this table's game as committed, as `seat` may see it. The
    /// caller holds the game (a guard of [`Table::game`]), so that a log cached here
    /// is never one an undo has taken back.
    pub fn log(&self, game: &dyn AnyGame, seat: &Seat) -> Arc<Vec<Value>> {
        let key = match seat {
            Seat::Side(s) => s.as_str(),
            Seat::Spectator => "\u{0}spectator",
            Seat::Omniscient => "\u{0}omniscient",
        };
        let n = game.len();
        if let Some((at, log)) = self
            .logs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
        {
            if *at == n {
                return Arc::clone(log);
            }
        }
        let log = Arc::new(game.log(seat));
        let mut logs = self.logs.lock().unwrap_or_else(PoisonError::into_inner);
        if n <= self.committed() && logs.get(key).is_none_or(|(at, _)| *at < n) {
            logs.insert(key.to_owned(), (n, Arc::clone(&log)));
        }
        log
    }

    /// How many actions are in the file.
    #[must_use]
    pub fn committed(&self) -> usize {
        self.committed.load(Ordering::Acquire)
    }

    /// Puts `before`, the game with its last action taken back (now out of the file),
    /// in place of the game, as done at `at_ms`: the logs and objects built from the
    /// action are forgotten under the game's lock, so no reader builds or caches one
    /// from it again.
    pub(crate) fn take_back(&self, before: Box<dyn AnyGame>, at_ms: u64) {
        let mut game = self.game_mut();
        let n = before.len();
        *game = before;
        self.logs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.undos.fetch_add(1, Ordering::AcqRel);
        self.record_commit(n, at_ms);
    }

    /// Puts the game of `fresh`, this game as loaded again from the database after
    /// another server took actions back, in this table's place, with its count of
    /// undos; the kept logs and objects are dropped. The caller holds `turn`. Returns
    /// the game's `n`.
    pub(crate) fn replace_with(&self, fresh: Table, at_ms: u64) -> usize {
        let undos = fresh.undos();
        let mut game = self.game_mut();
        *game = fresh
            .game
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let n = game.len();
        drop(game);
        self.logs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        *self
            .last_actor
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
        self.undos.store(undos, Ordering::Release);
        self.record_commit(n, at_ms);
        n
    }

    /// Records that action `n`, made at `at_ms`, is in the file.
    pub(crate) fn record_commit(&self, n: usize, at_ms: u64) {
        self.committed.store(n, Ordering::Release);
        self.active_ms.store(at_ms, Ordering::Release);
    }

    /// When the game last saw an action, or was created (ms since 1970, UTC).
    #[must_use]
    pub fn active_ms(&self) -> u64 {
        self.active_ms.load(Ordering::Acquire)
    }

    /// Whether the game has expired.
    #[must_use]
    pub fn is_expired(&self) -> bool {
        self.expired.load(Ordering::Acquire)
    }

    pub(crate) fn mark_expired(&self) {
        self.expired.store(true, Ordering::Release);
    }

    /// The viewer a [`Viewer::Hotseat`] stands for in `game`: the side to act, or the
    /// first side once nobody is; any other viewer as it is.
    #[must_use]
    pub fn resolve(&self, game: &dyn AnyGame, viewer: &Viewer) -> Viewer {
        match viewer {
            Viewer::Hotseat => game
                .to_act()
                .map(|d| d.side)
                .or_else(|| self.seats.keys().next().cloned())
                .map_or(Viewer::Spectator, Viewer::Side),
            other => other.clone(),
        }
    }

    /// The game, for reading.
    ///
    /// # Panics
    /// In debug builds, when this thread already holds the game (see [`GameRead`]).
    pub fn game(&self) -> GameRead<'_> {
        lock::read(&self.game)
    }

    /// The game, for changing it (then [`Table::record_commit`]).
    pub(crate) fn game_mut(&self) -> GameWrite<'_> {
        lock::write(&self.game)
    }

    /// When the game last saw an action, or was created (UTC, RFC 3339; sorts as
    /// text).
    #[must_use]
    pub fn active(&self) -> String {
        crate::store::rfc3339(self.active_ms())
    }

    /// Who holds `token`: a side's player, or a spectator without one.
    ///
    /// # Errors
    /// 403 when the token is none of this game's.
    pub fn viewer(&self, token: Option<&str>) -> Result<Viewer, ApiError> {
        let Some(token) = token else {
            return Ok(Viewer::Spectator);
        };
        // Compare against every seat, so the time taken does not tell which matched.
        let mut found = None;
        for (side, seat) in &self.seats {
            if let SeatRecord::Human { token_sha256 } = seat {
                if token::matches(token, token_sha256) {
                    found = Some(side.clone());
                }
            }
        }
        let found = if self.hotseat {
            found.map(|_| Viewer::Hotseat)
        } else {
            found.map(Viewer::Side)
        };
        found.ok_or_else(|| ApiError::Forbidden {
            rule: "token".into(),
            message: "this token is not one of this game's seats".into(),
        })
    }

    /// The player of the side holding `token`.
    ///
    /// # Errors
    /// 401 without a token; 403 with a token none of this game's.
    pub fn player(&self, token: Option<&str>) -> Result<String, ApiError> {
        let viewer = self.viewer(token)?;
        match self.resolve(self.game().as_ref(), &viewer) {
            Viewer::Side(s) => Ok(s),
            Viewer::Hotseat | Viewer::Spectator => Err(ApiError::Unauthorized(
                "this needs a seat's token: send `Authorization: Bearer TOKEN`".into(),
            )),
        }
    }

    /// Whether the computer plays `side`: a computer seat, or a seat it took when its
    /// player's time ran out ([`Table::is_stand_in`]).
    #[must_use]
    pub fn is_ai(&self, side: &str) -> bool {
        matches!(self.seats.get(side), Some(SeatRecord::Ai { .. })) || self.is_stand_in(side)
    }

    /// The level the game named for the computer's seat of `side`, if any.
    #[must_use]
    pub fn ai_level(&self, side: &str) -> Option<grognard_engine::Level> {
        match self.seats.get(side) {
            Some(SeatRecord::Ai { level }) => *level,
            _ => None,
        }
    }

    /// Each side's kind of seat: `human` or `ai`.
    #[must_use]
    pub fn seat_kinds(&self) -> Value {
        json!(self.kinds())
    }

    fn kinds(&self) -> BTreeMap<String, String> {
        self.seats
            .iter()
            .map(|(side, s)| {
                let kind = match s {
                    SeatRecord::Human { .. } if !self.is_stand_in(side) => "human",
                    SeatRecord::Human { .. } | SeatRecord::Ai { .. } => "ai",
                };
                (side.clone(), kind.to_owned())
            })
            .collect()
    }

    /// The game object for `viewer`: what that seat may see, and its legal actions
    /// when it is to act. Everything in it comes from the ruleset's view and log for
    /// that seat.
    ///
    /// It carries the commitment to the seed from the start, and the seed once the
    /// game is over; never before.
    ///
    /// `undo` says whether this seat may take back the last action now
    /// ([`Table::may_undo`]).
    #[must_use]
    pub fn object(&self, game: &dyn AnyGame, viewer: &Viewer) -> Value {
        let mut object = self.build_object(game, viewer, false, Legal::Full, true);
        object["undo"] = json!(self.undo_flag(game, viewer));
        object
    }

    /// The object's `undo`: whether `viewer` may take back the last action now.
    fn undo_flag(&self, game: &dyn AnyGame, viewer: &Viewer) -> bool {
        match (&self.resolve(game, viewer), game.to_act()) {
            (Viewer::Side(s), Some(d)) if *s == d.side && !game.is_empty() => {
                self.may_undo(game, s).is_ok()
            }
            _ => false,
        }
    }

    /// [`Table::object`], seen as the viewer would, or, when `reveal` holds or the game
    /// is over, with every view and log entry whole: once a game has ended there is
    /// nothing left to hide (the hands, the deck's draws, the seed).
    ///
    /// `game` may be any game of this table's (a replay of its first actions): nothing
    /// built here is cached.
    pub fn object_revealed(&self, game: &dyn AnyGame, viewer: &Viewer, reveal: bool) -> Value {
        self.build_object(game, viewer, reveal, Legal::Full, true)
    }

    /// The object; the legal actions as `legal` says, and the log's last entries
    /// when `with_log` holds. The log's tail is written alone, never the whole log,
    /// so its cost does not grow with the game's length.
    fn build_object(
        &self,
        game: &dyn AnyGame,
        viewer: &Viewer,
        reveal: bool,
        legal: Legal,
        with_log: bool,
    ) -> Value {
        let viewer = &self.resolve(game, viewer);
        let seat = self.view_seat(game, viewer, reveal);
        let mut object = self.object_head(game, viewer, legal, false);
        // Moved in, not through `json!`, which would copy the view value by value.
        object["view"] = game.view(&seat);
        if with_log {
            object["log"] = Value::Array(game.log_tail(&seat, LOG_TAIL));
        }
        object
    }

    /// The seat whose view and log `viewer` gets: every view whole once the game is
    /// over or when `reveal` holds.
    fn view_seat(&self, game: &dyn AnyGame, viewer: &Viewer, reveal: bool) -> Seat {
        if reveal || game.outcome().is_some() {
            Seat::Omniscient
        } else {
            self.resolve(game, viewer).seat()
        }
    }

    /// [`Table::build_object`] without its `view` (and without `undo`), the log as
    /// the viewer sees it when `with_log` holds.
    fn object_head(
        &self,
        game: &dyn AnyGame,
        viewer: &Viewer,
        legal: Legal,
        with_log: bool,
    ) -> Value {
        let viewer = &self.resolve(game, viewer);
        let to_act = game.to_act();
        let acting = matches!((viewer, &to_act), (Viewer::Side(s), Some(d)) if *s == d.side);
        let actions = if acting && legal != Legal::None {
            game.legal()
        } else {
            Vec::new()
        };
        let mut object = json!({
            "id": self.id,
            "scenario": self.scenario_id,
            "ruleset": self.ruleset,
            "title": self.title,
            "seat": viewer.name(),
            "seats": self.seat_kinds(),
            "n": game.len(),
            "to_act": to_act,
            "outcome": game.outcome(),
            "hotseat": self.hotseat,
            "commitment": self.commitment,
            "undos": self.undos(),
            "position": self.may_study(game, viewer).is_ok(),
        });
        match legal {
            Legal::Full => object["actions"] = Value::Array(actions),
            Legal::Compact => object["legal"] = Value::Array(compact(actions)),
            Legal::None => {}
        }
        if with_log {
            let seat = self.view_seat(game, viewer, false);
            object["log"] = Value::Array(game.log_tail(&seat, LOG_TAIL));
        }
        if game.outcome().is_some() {
            object["seed"] = json!(game.seed());
            object["generator"] = json!(game.generator());
        }
        object
    }

    /// The lobby's line for this table with `game` (its game, or the game an action
    /// is about to make it), as stored beside the game: no token, nothing hidden.
    #[must_use]
    pub fn summary(&self, game: &dyn AnyGame) -> Summary {
        let to_act = game.to_act();
        Summary {
            id: self.id.clone(),
            scenario_id: self.scenario_id.clone(),
            title: self.title.clone(),
            ruleset: self.ruleset.clone(),
            seats: self.kinds(),
            created: self.created.clone(),
            active_ms: self.active_ms(),
            n: game.len() as u64,
            ai_to_act: to_act.as_ref().is_some_and(|d| self.is_ai(&d.side)),
            to_act: to_act.map(|d| json!(d)),
            outcome: game.outcome().map(|o| json!(o)),
        }
    }

    /// Refuses a question about actions (explain, preview, reachable) from a seat
    /// that is not to act, in a game with hidden information.
    ///
    /// # Errors
    /// 403 `turn`.
    pub fn may_ask(&self, game: &dyn AnyGame, viewer: &Viewer) -> Result<(), ApiError> {
        if !self.hidden {
            return Ok(());
        }
        match (&self.resolve(game, viewer), game.to_act()) {
            (Viewer::Side(s), Some(d)) if *s == d.side => Ok(()),
            _ => Err(ApiError::Forbidden {
                rule: "turn".into(),
                message: "this game has hidden information: only the seat to act may ask \
                          the rules about actions"
                    .into(),
            }),
        }
    }
}
