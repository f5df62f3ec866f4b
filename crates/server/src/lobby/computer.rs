//! The computer's seats and hints: searches run on `spawn_blocking` behind the lobby's
//! semaphore, never on the async workers.

use super::*;

impl Lobby {
    /// The computer's hint for `side`, which must be to act: the search's top
    /// [`HINTS`] plans with their estimated win chance, and the side's chance.
    ///
    /// The search starts from the game as it is, but it samples every card `side`
    /// cannot see again from the cards it has not seen (the search's own
    /// determinization for the side to act), and its seed is drawn from `side`'s view:
    /// the hint depends only on what `side` may see. It runs on a blocking thread
    /// behind the computer's semaphore, one hint at a time per game.
    ///
    /// # Errors
    /// 403 `turn` when `side` is not to act or the game is over; 429 `busy` while
    /// another hint for this game is searched.
    pub async fn hint(&self, table: &Arc<Table>, side: &str) -> Result<Value, ApiError> {
        let (snapshot, n, view) = {
            let game = table.game();
            to_act(game.as_ref(), side, ": a hint is for the seat to act")?;
            let view = game.view(&Seat::Side(side.to_owned())).to_string();
            (game.boxed_clone(), game.len() as u64, view)
        };
        if table.hint_running.swap(true, Ordering::AcqRel) {
            return Err(ApiError::TooMany(
                "a hint for this game is being searched; ask again when it is done".into(),
            ));
        }
        struct Running<'a>(&'a Table);
        impl Drop for Running<'_> {
            fn drop(&mut self) {
                self.0.hint_running.store(false, Ordering::Release);
            }
        }
        let _running = Running(table);
        let permit = self
            .ai
            .acquire()
            .await
            .map_err(|e| ApiError::Internal(format!("the computer's semaphore: {e}")))?;
        let request = AiRequest {
            level: Level::Normal,
            millis: Some(self.hint_millis),
            simulations: self.hint_simulations,
            seed: Some(fnv1a(view.as_bytes()) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        };
        let computer = Arc::clone(&self.computer);
        let side_owned = side.to_owned();
        // The search is CPU work: off the async runtime, a few at a time.
        let answer = tokio::task::spawn_blocking(move || {
            let advice = computer.advise(snapshot.as_ref(), &request)?;
            let candidates: Vec<Value> = advice
                .candidates
                .iter()
                .take(HINTS)
                .map(|c| {
                    let first = c.plan.first().cloned().unwrap_or(Value::Null);
                    // The rules' own words for the first step, from this seat's game.
                    let description = snapshot
                        .explain(&first)
                        .ok()
                        .and_then(|e| e.reasons.first().map(|r| r.message.clone()));
                    json!({
                        "action": first,
                        "plan": c.plan,
                        "description": description,
                        "visits": c.visits,
                        "win": c.win,
                        "value": c.value,
                    })
                })
                .collect();
            let win = advice.candidates.first().map(|c| c.win);
            Ok::<_, ApiError>(json!({
                "n": n,
                "side": side_owned,
                "win": win,
                "simulations": advice.simulations,
                "candidates": candidates,
            }))
        })
        .await
        .map_err(|e| ApiError::Internal(format!("the hint task failed: {e}")))?;
        drop(permit);
        answer
    }

    /// Starts the task that plays the computer's seats of a table, unless one runs.
    pub fn wake_ai(self: &Arc<Lobby>, table: &Arc<Table>) {
        if !self.ai_to_act(table) || table.ai_running.swap(true, Ordering::AcqRel) {
            return;
        }
        let (lobby, table) = (Arc::clone(self), Arc::clone(table));
        tokio::spawn(async move {
            loop {
                let stopped = lobby.play_ai(&table).await;
                table.ai_running.store(false, Ordering::Release);
                // A move committed after the last check would have found the flag set.
                // A computer that stopped (another server holds the game's lease, or
                // the search or the store failed) is not tried again at once: the
                // next action, the next start or, over a shared database, the next
                // pass of `resume_ai` wakes it.
                if stopped
                    || !lobby.ai_to_act(&table)
                    || table.ai_running.swap(true, Ordering::AcqRel)
                {
                    break;
                }
            }
        });
    }

    /// Starts the computer on every game where it is to act (after a restart), and
    /// the periodic sweep of idle games. Those games are found in the file (an index
    /// of the games where a computer seat is to act, kept by every commit), then
    /// loaded one by one, in a task of their own: the server listens meanwhile.
    ///
    /// Over a database shared with other servers, the same pass runs again every
    /// `--ai-lease-millis`: a server that died holding a game's lease leaves its computer
    /// seats to the first server that finds the lease expired, with no action or
    /// restart needed to wake the game.
    pub fn resume_ai(self: &Arc<Lobby>) {
        let lobby = Arc::clone(self);
        tokio::spawn(async move {
            lobby.resume_ai_once().await;
            if !lobby.store.is_shared() {
                return;
            }
            let mut every = tokio::time::interval(lobby.ai_lease);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            every.tick().await;
            loop {
                every.tick().await;
                lobby.resume_ai_once().await;
            }
        });
        self.start_sweep();
    }

    /// One pass of [`Lobby::resume_ai`]: wakes the computer of every stored game where
    /// it is to act.
    async fn resume_ai_once(self: &Arc<Lobby>) {
        let db = self.store.clone();
        let ids = tokio::task::spawn_blocking(move || db.read(store::read::ai_to_act))
            .await
            .map_err(|e| ApiError::Internal(format!("the resuming task failed: {e}")))
            .and_then(|ids| ids);
        let ids = match ids {
            Ok(ids) => ids,
            Err(e) => {
                eprintln!("grognard: the computer's games were not resumed: {e}");
                return;
            }
        };
        for id in ids {
            // A game that does not load is reported by the loading itself.
            if let Ok(table) = self.table(&id).await {
                self.wake_ai(&table);
            }
        }
    }

    fn ai_to_act(&self, table: &Table) -> bool {
        table.game().to_act().is_some_and(|d| table.is_ai(&d.side))
    }

    /// Plays the computer's decisions while it is to act: each decision is a plan
    /// (a unit's whole move, an attack), whose steps are committed one by one while
    /// the computer's side is still to act and the next step is legal. True when it
    /// stopped while the computer is still to act: another server holds the game's
    /// lease, or the search or the store failed.
    async fn play_ai(&self, table: &Table) -> bool {
        loop {
            let (snapshot, side, n, seed) = {
                let game = table.game();
                match game.to_act() {
                    Some(d) if table.is_ai(&d.side) => {
                        (game.boxed_clone(), d.side, game.len() as u64, game.seed())
                    }
                    _ => return false,
                }
            };
            if !self.ai_delay.is_zero() {
                tokio::time::sleep(self.ai_delay).await;
            }
            // Over a database shared with other servers, one of them plays a game's
            // computer seats at a time: the one holding the game's lease.
            let (store, id) = (self.store.clone(), table.id.clone());
            let ttl = u64::try_from(self.ai_budget.as_millis())
                .unwrap_or(u64::MAX)
                .saturating_mul(5)
                .saturating_add(u64::try_from(self.ai_lease.as_millis()).unwrap_or(u64::MAX));
            match tokio::task::spawn_blocking(move || store.lease(&id, ttl)).await {
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => return true,
                Ok(Err(e)) => {
                    eprintln!("grognard: game {}: the computer's lease: {e}", table.id);
                    return true;
                }
                Err(_) => return true,
            }
            let Ok(permit) = self.ai.acquire().await else {
                return true;
            };
            let level = table.ai_level(&side).unwrap_or(self.ai_level);
            let millis = u64::try_from(self.ai_budget.as_millis()).unwrap_or(u64::MAX);
            let request = AiRequest {
                level,
                millis: match level {
                    Level::Easy => None,
                    Level::Normal => Some(millis),
                    Level::Hard => Some(millis.saturating_mul(5)),
                },
                simulations: None,
                seed: Some(seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            };
            let computer = Arc::clone(&self.computer);
            // The search is CPU work: off the async runtime, a few at a time.
            let answer =
                tokio::task::spawn_blocking(move || computer.choose(snapshot.as_ref(), &request))
                    .await;
            drop(permit);
            let plan = match answer {
                Ok(Ok(answer)) if !answer.plan.is_empty() => answer.plan,
                Ok(Err(e)) => {
                    eprintln!("grognard: game {}: the computer cannot play: {e}", table.id);
                    return true;
                }
                _ => return true,
            };
            for (k, action) in plan.into_iter().enumerate() {
                let n = {
                    let game = table.game();
                    let still = game.to_act().is_some_and(|d| d.side == side);
                    let legal = game.explain(&action).is_ok_and(|e| e.legal);
                    if k > 0 && !(still && legal) {
                        break;
                    }
                    game.len() as u64
                };
                if k > 0 && !self.ai_delay.is_zero() {
                    tokio::time::sleep(self.ai_delay).await;
                }
                match self.commit(table, &side, action, n, None).await {
                    Ok(_) => {}
                    Err(ApiError::Conflict { .. }) => break,
                    Err(e) => {
                        eprintln!(
                            "grognard: game {}: the computer's move failed: {e}",
                            table.id
                        );
                        return true;
                    }
                }
            }
        }
    }
}

/// How many candidates a hint shows.
pub const HINTS: usize = 3;

/// FNV-1a, 64 bits: a seed from a seat's view.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
