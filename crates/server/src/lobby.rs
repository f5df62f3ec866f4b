//! The lobby: the built-in scenarios, every table, the one durable path by which an
//! action enters a game, and the computer's seats.

mod computer;

pub use computer::HINTS;

use crate::error::ApiError;
use crate::store::{ActionRow, GameRow, SeatRecord, Store};
use crate::table::{Table, Viewer};
use crate::{token, Options};
use grognard_engine::game::{SavedAction, SavedGame, SAVE_FORMAT};
use grognard_engine::scenario::Scenario;
use grognard_engine::{AiRequest, AnyGame, Computer, Level, Registry, Seat};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError, RwLock};
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
    tables: RwLock<HashMap<String, Arc<Table>>>,
    ai: Semaphore,
    computer: Arc<grognard_ai::Opponent>,
    ai_level: Level,
    ai_budget: Duration,
    ai_delay: Duration,
    hint_millis: u64,
    hint_simulations: Option<u64>,
    max_games: usize,
    /// Games in the file whose log no longer replays (kept in the file, not served).
    pub skipped: Vec<String>,
}

/// A request for a new game.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The built-in scenario's id.
    pub scenario: String,
    /// The dice's seed; a fresh random one when absent.
    #[serde(default)]
    pub seed: Option<u64>,
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
    /// Validates the built-in scenarios, opens the database and replays every game in
    /// it.
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
        let (store, rows) = Store::open(&options.db)?;
        let mut lobby = Lobby {
            registry,
            scenarios,
            hidden_rulesets,
            store,
            tables: RwLock::new(HashMap::new()),
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
            hint_millis: options.hint_millis,
            hint_simulations: options.hint_simulations,
            max_games: options.max_games,
            skipped: Vec::new(),
        };
        let mut tables = HashMap::new();
        for (row, log) in rows {
            match lobby.resume(row, log) {
                Ok(table) => {
                    tables.insert(table.id.clone(), Arc::new(table));
                }
                Err((id, e)) => {
                    eprintln!("grognard: game {id} does not replay and is not served: {e}");
                    lobby.skipped.push(id);
                }
            }
        }
        lobby.tables = RwLock::new(tables);
        Ok(lobby)
    }

    /// Rebuilds a stored game by replaying its log.
    fn resume(&self, row: GameRow, log: Vec<ActionRow>) -> Result<Table, (String, String)> {
        let fail = |e: String| (row.id.clone(), e);
        let scenario: Scenario = serde_json::from_value(row.scenario.clone())
            .map_err(|e| fail(format!("its scenario does not read: {e}")))?;
        for (i, a) in log.iter().enumerate() {
            if a.n != i as u64 + 1 {
                return Err(fail(format!("its log skips from {} to {}", i, a.n)));
            }
        }
        let saved = SavedGame {
            format: SAVE_FORMAT.into(),
            ruleset: row.ruleset.clone(),
            scenario,
            seed: row.seed,
            log: log
                .into_iter()
                .map(|a| SavedAction {
                    action: a.action,
                    forced: a.forced,
                })
                .collect(),
            pending_forced: Vec::new(),
        };
        let game = self
            .registry
            .load_game(&saved)
            .map_err(|e| fail(e.to_string()))?;
        let hidden = self.is_hidden(game.as_ref());
        Ok(Table::new(
            row.id,
            row.scenario_id,
            row.seats,
            row.created,
            hidden,
            game,
        ))
    }

    /// Whether seats of this game may see different things.
    #[must_use]
    pub fn is_hidden(&self, game: &dyn AnyGame) -> bool {
        self.hidden_rulesets.contains(game.ruleset()) || views_differ(game)
    }

    /// The database's transactions committed and requests written so far.
    #[must_use]
    pub fn store_stats(&self) -> (u64, u64) {
        self.store.stats()
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

    /// The table of a game.
    ///
    /// # Errors
    /// 404 when there is no such game.
    pub fn table(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        self.tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(format!("no game `{id}`")))
    }

    /// Every table, newest first.
    #[must_use]
    pub fn tables(&self) -> Vec<Arc<Table>> {
        let mut all: Vec<Arc<Table>> = self
            .tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .cloned()
            .collect();
        all.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
        all
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
        if self
            .tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
            >= self.max_games
        {
            return Err(ApiError::Unavailable(format!(
                "this server holds its limit of {} games",
                self.max_games
            )));
        }
        let seed = req.seed.unwrap_or_else(token::seed);
        let game = self.registry.new_game(scenario.clone(), Some(seed))?;
        let id = token::game_id();
        let mut seats = BTreeMap::new();
        let mut answer = serde_json::Map::new();
        for (side, kind) in &req.seats {
            match kind {
                SeatKind::Human => {
                    let t = token::fresh();
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
        let created = now_rfc3339();
        self.store
            .insert_game(GameRow {
                id: id.clone(),
                scenario_id: req.scenario.clone(),
                ruleset: scenario.ruleset.clone(),
                scenario: serde_json::to_value(&scenario)
                    .map_err(|e| ApiError::Internal(format!("scenario does not serialise: {e}")))?,
                seed,
                seats: seats.clone(),
                created: created.clone(),
            })
            .await?;
        let hidden = self.is_hidden(game.as_ref());
        let table = Arc::new(Table::new(
            id.clone(),
            req.scenario,
            seats,
            created,
            hidden,
            game,
        ));
        self.tables
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), Arc::clone(&table));
        self.wake_ai(&table);
        Ok(json!({"id": id, "seats": answer}))
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
    ) -> Result<(Vec<Value>, Arc<str>), ApiError> {
        let (lobby, t) = (Arc::clone(self), Arc::clone(table));
        let result = tokio::spawn(async move { lobby.commit(&t, &side, action, expect).await })
            .await
            .map_err(|e| ApiError::Internal(format!("the commit task failed: {e}")))?;
        if result.is_ok() {
            self.wake_ai(table);
        }
        result
    }

    async fn commit(
        &self,
        table: &Table,
        side: &str,
        action: Value,
        expect: u64,
    ) -> Result<(Vec<Value>, Arc<str>), ApiError> {
        let _turn = table.turn.lock().await;
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
            game.boxed_clone()
        };
        // The ruleset checks the action; a refusal leaves the committed game untouched.
        next.apply(&action)?;
        let n = expect + 1;
        // The events as this seat may see them: an action can cause what only the
        // other side may know.
        let seat = Seat::Side(side.to_owned());
        let events = table
            .log(next.as_ref(), &seat)
            .last()
            .and_then(|e| e["events"].as_array().cloned())
            .unwrap_or_default();
        let row = ActionRow {
            n,
            action,
            forced: Vec::new(),
        };
        if !self.store.append(&table.id, row).await? {
            // Writers of this game queue on `turn`, so only another process writing
            // the same file can get here.
            return Err(ApiError::Internal(format!(
                "game {}: the database's log is not at n={expect}; is another server using the file?",
                table.id
            )));
        }
        let object = table.object_text(next.as_ref(), &Viewer::Side(side.to_owned()));
        *table.game_mut() = next;
        let _ = table.changed.send(n);
        Ok((events, object))
    }
}

/// Now, in UTC, as `YYYY-MM-DDTHH:MM:SS.mmmZ` (sorts as text).
pub(crate) fn now_rfc3339() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let (secs, millis) = (now.as_secs(), now.subsec_millis());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days to civil date (Howard Hinnant's algorithm), for days since 1970-01-01.
    let z = i64::try_from(days).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn timestamps_look_like_rfc3339() {
        let t = super::now_rfc3339();
        assert_eq!(t.len(), 24, "{t}");
        assert!(t.starts_with("20") && t.ends_with('Z'), "{t}");
    }
}
