//! The lobby: the built-in scenarios, the tables in memory (a bounded cache, each game
//! loaded from the file when first asked for), the one durable path by which an
//! action enters a game, and the computer's seats.

mod cache;
mod computer;
mod expiry;
mod load;
mod shared;
mod strict;
mod turns;
mod undo;

pub use computer::HINTS;
pub use expiry::days;
pub(crate) use turns::side_name;

use load::rebuild;

use crate::error::ApiError;
use crate::store::{self, ActionRow, GameRow, SeatRecord, Store, Summary};
use crate::table::{Form, Table, Viewer};
use crate::{token, Options};
use grognard_engine::dice_stream::Generator;
use grognard_engine::game::{SavedAction, SavedGame, SAVE_FORMAT};
use grognard_engine::scenario::Scenario;
use grognard_engine::{AiRequest, AnyGame, Computer, Level, Registry, Seat};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::Semaphore;

/// A built-in scenario, validated at start.
pub struct Entry {
    /// Its id.
    pub id: String,
    /// The validated scenario.
    pub scenario: Scenario,
}

/// Everything the server holds.
pub struct Lobby {
    /// The rulesets.
    pub registry: Registry,
    /// The built-in scenarios that validated, in the order of the list.
    pub scenarios: Vec<Entry>,
    /// Rulesets whose built-in scenarios show seats different things.
    hidden_rulesets: HashSet<String>,
    store: Store,
    /// The tables in memory: the recently used, and any still held elsewhere.
    tables: Mutex<cache::Cache<Table>>,
    /// A gate per game being loaded from the file (or expired), so that two requests
    /// for one cold game load it once.
    loading: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// How many games the file holds, for `--max-games`.
    games: AtomicUsize,
    /// How many games have been loaded from the file since the start.
    loads: AtomicU64,
    ai: Semaphore,
    computer: Arc<grognard_ai::Opponent>,
    ai_level: Level,
    ai_budget: Duration,
    ai_delay: Duration,
    ai_lease: Duration,
    hint_millis: u64,
    hint_simulations: Option<u64>,
    max_games: usize,
    /// How long a game may go without an action before it expires; `None`: never.
    expire_after: Option<Duration>,
    /// True once the sweep of idle games runs.
    sweeping: AtomicBool,
    /// Games in the file that do not load (their row does not read, or their log no
    /// longer replays), with why: kept in the file, not served, reported once.
    broken: Mutex<BTreeMap<String, String>>,
    /// Where the notices of a turn passed go (issue 16), once the server sets it.
    turns: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<crate::accounts::notify::Notice>>,
}

/// A request for a new game.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The built-in scenario's id.
    pub scenario: String,
    /// The dice's seed, taken only where nobody can be deceived: a hotseat game or a
    /// game of computer seats only. Otherwise the server draws it.
    #[serde(default)]
    pub seed: Option<u64>,
    /// One person plays every seat, at one screen: every seat `human`, and one token
    /// for all of them.
    #[serde(default)]
    pub hotseat: bool,
    /// Each side's seat: `human` or `ai`.
    pub seats: BTreeMap<String, SeatKind>,
    /// The level of computer seats, by side (`easy`, `normal`, `hard`); a computer
    /// seat not named plays at the server's `--ai-level`.
    #[serde(default)]
    pub levels: BTreeMap<String, Level>,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person, who gets a token.
    Human,
    /// The computer.
    Ai,
}

/// 403 `turn` unless `side` is to act in `game`; `why` ends the refusal's message.
fn to_act(game: &dyn AnyGame, side: &str, why: &str) -> Result<(), ApiError> {
    let message = match game.to_act() {
        None => "the game is over".to_owned(),
        Some(d) if d.side != side => format!("it is {}'s decision, not {side}'s{why}", d.side),
        Some(_) => return Ok(()),
    };
    Err(ApiError::Forbidden {
        rule: "turn".into(),
        message,
    })
}

/// Whether a game shows its seats different things now (a game with hidden
/// information, once what is hidden has been dealt).
pub fn views_differ(game: &dyn AnyGame) -> bool {
    if let Some(known) = game.views_differ() {
        return known;
    }
    let spectator = game.view(&Seat::Spectator);
    game.scenario()
        .sides
        .iter()
        .any(|s| game.view(&Seat::Side(s.id.clone())) != spectator)
}

/// Whether a game shows its seats different things in its first few decisions
/// (a hand of cards is often dealt only by the first action).
fn shows_seats_different_things(mut game: Box<dyn AnyGame>) -> bool {
    for _ in 0..8 {
        if views_differ(game.as_ref()) {
            return true;
        }
        let Some(action) = game.legal().into_iter().next() else {
            return false;
        };
        if game.apply(&action).is_err() {
            return false;
        }
    }
    false
}

impl Lobby {
    /// Validates the built-in scenarios and opens the database; no game is loaded
    /// until it is asked for ([`Lobby::table`]).
    ///
    /// # Errors
    /// The database cannot be opened or read.
    pub fn open(options: &Options) -> Result<Lobby, ApiError> {
        let registry = grognard_rules::registry();
        let mut scenarios = Vec::new();
        let mut hidden_rulesets = HashSet::new();
        for b in grognard_rules::builtin::SCENARIOS {
            match registry.load_scenario(b.path, b.text) {
                Ok(scenario) => {
                    if let Ok(game) = registry.new_game(scenario.clone(), None) {
                        if shows_seats_different_things(game) {
                            hidden_rulesets.insert(scenario.ruleset.clone());
                        }
                    }
                    scenarios.push(Entry {
                        id: b.id.to_owned(),
                        scenario,
                    });
                }
                Err(p) => eprintln!(
                    "grognard: built-in scenario `{}` is invalid, not offered:\n{p}",
                    b.id
                ),
            }
        }
        let expire_after = expiry::after(options.expire_days)?;
        // Only the games of a file just migrated to lines of the lobby are replayed
        // here, once each, for their lines; no other start replays any.
        let (store, opened) =
            Store::open(&options.db, &mut |row: GameRow, log: Vec<ActionRow>| {
                let table = rebuild(&registry, &hidden_rulesets, row, log, Default::default())
                    .map_err(|(_, e)| e)?;
                let game = table.game();
                Ok(table.summary(game.as_ref()))
            })?;
        for (id, why) in &opened.unloadable {
            eprintln!("grognard: game {id} does not load and is not served: {why}");
        }
        let lobby = Lobby {
            registry,
            scenarios,
            hidden_rulesets,
            store,
            tables: Mutex::new(cache::Cache::new(options.cache_games)),
            loading: Mutex::new(HashMap::new()),
            games: AtomicUsize::new(opened.games),
            loads: AtomicU64::new(0),
            ai: Semaphore::new(options.ai_threads.max(1)),
            computer: Arc::new({
                // The searches that may run at once share the cores.
                let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
                let mut o =
                    grognard_ai::Opponent::new().with_threads(cores / options.ai_threads.max(1));
                grognard_rules::visit_all(&mut o);
                o
            }),
            ai_level: options.ai_level,
            ai_budget: Duration::from_millis(options.ai_millis),
            ai_delay: Duration::from_millis(options.ai_delay_millis),
            ai_lease: Duration::from_millis(options.ai_lease_millis.max(1)),
            hint_millis: options.hint_millis,
            hint_simulations: options.hint_simulations,
            max_games: options.max_games,
            expire_after,
            sweeping: AtomicBool::new(false),
            broken: Mutex::new(opened.unloadable.into_iter().collect()),
            turns: std::sync::OnceLock::new(),
        };
        Ok(lobby)
    }

    /// Whether seats of this game may see different things.
    #[must_use]
    pub fn is_hidden(&self, game: &dyn AnyGame) -> bool {
        self.hidden_rulesets.contains(game.ruleset()) || views_differ(game)
    }

    /// Closes the database: commits what has queued, closes the file and releases
    /// its lock, so that another server may open it. Every later write gets 503.
    pub async fn close(&self) {
        self.store.close().await;
    }

    /// A fault injected for tests: each of the next `k` transactions of the database
    /// is rolled back instead of committed, and every write in it fails as on a full
    /// disk ([`Store::fail_commits`]).
    pub fn fail_commits(&self, k: u32) {
        self.store.fail_commits(k);
    }

    /// The database's transactions committed and requests written so far.
    #[must_use]
    pub fn store_stats(&self) -> (u64, u64) {
        self.store.stats()
    }

    /// How long the database's transactions and their commits took so far.
    #[must_use]
    pub fn commit_times(&self) -> store::CommitTimes {
        self.store.commit_times()
    }

    /// The built-in scenario with this id.
    ///
    /// # Errors
    /// 404 when there is none.
    pub fn scenario(&self, id: &str) -> Result<&Scenario, ApiError> {
        self.scenarios
            .iter()
            .find(|e| e.id == id)
            .map(|e| &e.scenario)
            .ok_or_else(|| ApiError::NotFound(format!("no built-in scenario `{id}`")))
    }

    /// Starts a game: checks the request, stores the game, hands out the tokens.
    ///
    /// # Errors
    /// 400 naming an unknown scenario or side, or a missing seat; 503 at the limit of
    /// games.
    pub async fn create(self: &Arc<Lobby>, req: NewGame) -> Result<Value, ApiError> {
        let scenario = self
            .scenario(&req.scenario)
            .map_err(|_| {
                let known: Vec<&str> = self.scenarios.iter().map(|e| e.id.as_str()).collect();
                ApiError::request(format!(
                    "no built-in scenario `{}`; there are: {}",
                    req.scenario,
                    known.join(", ")
                ))
            })?
            .clone();
        let sides: Vec<&str> = scenario.sides.iter().map(|s| s.id.as_str()).collect();
        for side in req.seats.keys() {
            if !sides.contains(&side.as_str()) {
                return Err(ApiError::request(format!(
                    "no side `{side}` in `{}`; its sides are: {}",
                    scenario.id,
                    sides.join(", ")
                )));
            }
        }
        let missing: Vec<&str> = sides
            .iter()
            .copied()
            .filter(|s| !req.seats.contains_key(*s))
            .collect();
        if !missing.is_empty() {
            return Err(ApiError::request(format!(
                "every side needs a seat (\"human\" or \"ai\"); missing: {}",
                missing.join(", ")
            )));
        }
        if let Some(side) = req
            .levels
            .keys()
            .find(|s| req.seats.get(*s) != Some(&SeatKind::Ai))
        {
            return Err(ApiError::request(format!(
                "\"levels\" names `{side}`, which is not a computer (\"ai\") seat"
            )));
        }
        let every = |kind: SeatKind| req.seats.values().all(|k| *k == kind);
        if req.hotseat && !every(SeatKind::Human) {
            return Err(ApiError::request(
                "\"hotseat\": true is for a game whose every seat is \"human\", played by one \
                 person at one screen",
            ));
        }
        if req.seed.is_some() && !(req.hotseat || every(SeatKind::Ai)) {
            return Err(ApiError::request(
                "`seed` is taken only where nobody can be deceived: a hotseat game \
                 (\"hotseat\": true, one token for every seat) or a game of computer seats \
                 only. In a game against a person the server draws the seed, publishes its \
                 commitment, and reveals it once the game is over",
            ));
        }
        if self.games.load(Ordering::Acquire) >= self.max_games {
            return Err(ApiError::Unavailable(format!(
                "this server holds its limit of {} games",
                self.max_games
            )));
        }
        // A seed asked for gives SplitMix64 dice, the same on every replay of the seed;
        // else the dice are ChaCha20 keyed by 256 bits drawn here (issue 19, item 6).
        let generator = if req.seed.is_some() {
            Generator::SplitMix64
        } else {
            Generator::ChaCha20 {
                key: token::dice_key(),
            }
        };
        let seed = req.seed.unwrap_or_else(token::seed);
        let game = self
            .registry
            .new_game_with(scenario.clone(), Some(seed), generator.clone())?;
        let id = token::game_id();
        // A hotseat game has one token, which plays every seat.
        let shared = req.hotseat.then(token::fresh);
        let mut seats = BTreeMap::new();
        let mut answer = serde_json::Map::new();
        for (side, kind) in &req.seats {
            match kind {
                SeatKind::Human => {
                    let t = shared.clone().unwrap_or_else(token::fresh);
                    seats.insert(
                        side.clone(),
                        SeatRecord::Human {
                            token_sha256: token::digest(&t),
                        },
                    );
                    answer.insert(
                        side.clone(),
                        json!({"kind": "human", "token": t, "link": format!("/play/{id}?token={t}")}),
                    );
                }
                SeatKind::Ai => {
                    let level = req.levels.get(side).copied();
                    seats.insert(side.clone(), SeatRecord::Ai { level });
                    answer.insert(
                        side.clone(),
                        json!({"kind": "ai", "level": level.unwrap_or(self.ai_level)}),
                    );
                }
            }
        }
        let now = store::now_ms();
        let created = store::rfc3339(now);
        let hidden = self.is_hidden(game.as_ref());
        let row = GameRow {
            id: id.clone(),
            scenario_id: req.scenario.clone(),
            ruleset: scenario.ruleset.clone(),
            scenario: serde_json::to_value(&scenario)
                .map_err(|e| ApiError::Internal(format!("scenario does not serialise: {e}")))?,
            seed,
            generator,
            seats: seats.clone(),
            created: created.clone(),
            active_ms: now,
            undos: 0,
        };
        let table = Arc::new(Table::new(
            id.clone(),
            req.scenario,
            seats,
            created,
            hidden,
            game,
            now,
        ));
        let summary = table.summary(table.game().as_ref());
        self.store.insert_game(row, summary).await?;
        self.games.fetch_add(1, Ordering::AcqRel);
        let commitment = table.commitment.clone();
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(&id, Arc::clone(&table));
        self.wake_ai(&table);
        Ok(json!({
            "id": id,
            "seats": answer,
            "hotseat": req.hotseat,
            "commitment": commitment,
        }))
    }

    /// Applies `action` for `side` at `expect` and makes it durable; returns its
    /// events and the new game object for `side` (as JSON text).
    ///
    /// The work runs in its own task, so a client that hangs up mid-request cannot
    /// leave the file and the memory disagreeing.
    ///
    /// # Errors
    /// 409 when the game is not at `expect`; 403 when `side` is not to act; 400 with
    /// the rules' reasons when they refuse (nothing changes); 500 when the database
    /// fails (nothing changes).
    pub async fn submit(
        self: &Arc<Lobby>,
        table: &Arc<Table>,
        side: String,
        action: Value,
        expect: u64,
        form: Form,
    ) -> Result<(Vec<Value>, Arc<str>), ApiError> {
        let (lobby, t) = (Arc::clone(self), Arc::clone(table));
        let result =
            tokio::spawn(async move { lobby.commit(&t, &side, action, expect, Some(form)).await })
                .await
                .map_err(|e| ApiError::Internal(format!("the commit task failed: {e}")))?;
        if result.is_ok() {
            self.wake_ai(table);
        }
        let (events, object) = result?;
        Ok((events, object.unwrap_or_else(|| "{}".into())))
    }

    /// Applies `action`, durable now, to `table`'s game as `next` (a copy of the game
    /// without its log) took it: the same state and dice give the same result. Were
    /// they ever to differ, the game is rebuilt from its log and the action as `next`
    /// holds it (the forced results it used).
    fn take_action(
        &self,
        table: &Table,
        next: &dyn AnyGame,
        action: &Value,
    ) -> Result<(), ApiError> {
        let mut game = table.game_mut();
        if game.apply(action).is_ok() {
            return Ok(());
        }
        // A refusal changed nothing: the game is still the one before the action.
        let mut saved = game.save();
        let taken = next.save();
        saved.log.extend(taken.log);
        saved.pending_forced = taken.pending_forced;
        *game = self.registry.load_game(&saved)?;
        Ok(())
    }

    async fn commit(
        &self,
        table: &Table,
        side: &str,
        action: Value,
        expect: u64,
        form: Option<Form>,
    ) -> Result<(Vec<Value>, Option<Arc<str>>), ApiError> {
        let _turn = table.turn.lock().await;
        if table.is_expired() {
            return Err(self.expired(&table.id));
        }
        let mut next = {
            let game = table.game();
            let n = game.len() as u64;
            if n != expect {
                return Err(ApiError::Conflict {
                    expected: expect,
                    actual: n,
                });
            }
            to_act(game.as_ref(), side, "")?;
            // The state and dice alone: a copy of the whole log would cost more as the
            // game grows.
            game.without_log()
        };
        // The action as the ruleset writes it is what is applied and stored; a field
        // it does not read is refused rather than dropped or kept.
        let canonical = next.canonical(&action)?;
        strict::no_unknown_field(&action, &canonical)?;
        // The ruleset checks the action; a refusal leaves the committed game untouched.
        next.apply(&canonical)?;
        let n = expect + 1;
        let row = ActionRow {
            n,
            action: canonical.clone(),
            forced: Vec::new(),
        };
        let at = store::now_ms();
        // The lobby's line of the game after the action goes in the same transaction
        // (`n` the game's: the copy's log holds this action alone).
        let summary = Summary {
            active_ms: at,
            n,
            ..table.summary(next.as_ref())
        };
        if !self.store.append(&table.id, row, summary).await? {
            // Writers of this game queue on `turn`, so only another server over the
            // same database gets here: it took action `n` first. This copy reads what
            // it missed, and the request is refused as any stale `expect` is.
            let actual = self.catch_up(table).await?;
            return Err(ApiError::Conflict {
                expected: expect,
                actual,
            });
        }
        // Durable: only now is anything a seat sees built from the action. Before,
        // a failed append would have left this seat's log of n+1 in the cache.
        self.take_action(table, next.as_ref(), &canonical)?;
        table.record_commit(usize::try_from(n).unwrap_or(usize::MAX), at);
        table.record_actor(usize::try_from(n).unwrap_or(usize::MAX), side);
        let (events, object) = {
            let game = table.game();
            // The events as this seat may see them: an action can cause what only the
            // other side may know.
            let events = game
                .log_tail(&Seat::Side(side.to_owned()), 1)
                .pop()
                .and_then(|mut e| e.get_mut("events").map(Value::take))
                .and_then(|e| match e {
                    Value::Array(events) => Some(events),
                    _ => None,
                })
                .unwrap_or_default();
            // The seat's object in the form it asked for; none for the computer's seat.
            let object =
                form.map(|f| table.object_in(game.as_ref(), &Viewer::Side(side.to_owned()), f));
            (events, object)
        };
        let _ = table.changed.send(n);
        self.turn_passed(table, side);
        Ok((events, object))
    }
}
