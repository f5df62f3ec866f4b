//! Whole games between two players, for measuring strength and balancing
//! scenarios: one game ([`play`]), many in parallel ([`run`]), and the Wilson
//! interval of a share of wins ([`wilson`]).

use crate::opponent::Opponent;
use crate::player::{self, Memory, Options, Player};
use grognard_engine::game::GameError;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Game, Ruleset};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The most actions a game may take before the arena stops it (and records that).
pub const MAX_ACTIONS: usize = 5_000;

/// One game to play.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The player of each side, in the scenario's order of sides.
    pub players: [Player; 2],
    /// The game's seed (dice and players).
    pub seed: u64,
    /// The cap on actions.
    pub max_actions: usize,
}

/// How one game went.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The scenario's id.
    pub scenario: String,
    /// The scenario's ruleset.
    #[serde(default)]
    pub ruleset: String,
    /// The sides, in the scenario's order.
    pub sides: [String; 2],
    /// Each side's player.
    pub players: [String; 2],
    /// The seed.
    pub seed: u64,
    /// The winning side; `None` for a draw or a game stopped at the cap.
    pub winner: Option<String>,
    /// Why it ended.
    pub reason: String,
    /// Actions played.
    pub actions: usize,
    /// True when the cap on actions stopped it.
    pub capped: bool,
    /// Wall time, in milliseconds.
    pub millis: u64,
    /// The longest decision, in milliseconds.
    pub slowest_decision_millis: u64,
    /// Each searched decision's estimate of the chance that the side to act wins
    /// (its chosen plan's `win`), for checking that estimate against results
    /// ([`calibration`]).
    #[serde(default)]
    pub predictions: Vec<Prediction>,
    /// The names of the evaluation's parts (`Ruleset::evaluation_terms`) that each
    /// prediction's `terms` gives, with their weights in the evaluation; empty for a
    /// ruleset that gives none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terms: Vec<(String, f64)>,
}

impl GameRecord {
    /// How the game ended for the side in `seat` (0 or 1): 1 won, 0.5 drawn or
    /// stopped, 0 lost.
    #[must_use]
    pub fn result_of(&self, seat: usize) -> f64 {
        match &self.winner {
            Some(w) if *w == self.sides[seat.min(1)] => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// The game's searched decisions as samples for [`crate::calibration::fit`]
    /// (none from a game stopped at the cap).
    pub fn samples(&self) -> impl Iterator<Item = crate::calibration::Sample> + '_ {
        self.predictions
            .iter()
            .filter(|_| !self.capped)
            .map(|p| crate::calibration::Sample {
                x: p.eval,
                seat: p.seat,
                progress: p.progress,
                result: self.result_of(p.seat),
            })
    }
}

/// A searched decision's estimate.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Prediction {
    /// The side to act: 0 or 1, in the scenario's order.
    pub seat: usize,
    /// Its estimated chance to win (the chosen plan's `win`).
    pub win: f64,
    /// The search's value of the plan (its `value`).
    #[serde(default)]
    pub value: f64,
    /// The evaluation after the plan, from the side's view (its `eval`): what
    /// `grognard calibrate` fits the chance of winning to.
    #[serde(default)]
    pub eval: f64,
    /// How far the game had gone, from 0 to 1 (`calibration::progress`).
    #[serde(default)]
    pub progress: f64,
    /// The evaluation's parts in the position the decision was made in, from the
    /// side's view (what may be seen of it), in the order of the record's `terms`:
    /// what `grognard calibrate --terms` fits the evaluation's weights to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terms: Vec<f64>,
}

/// Plays one game of ruleset `R` between the spec's players.
///
/// # Errors
/// A scenario that does not fit the ruleset.
pub fn play<R: Ruleset>(scenario: &Scenario, spec: &GameSpec) -> Result<GameRecord, GameError> {
    let start = Instant::now();
    let mut game = Game::<R>::new(scenario.clone(), Some(spec.seed))?;
    let sides: [String; 2] = [0, 1].map(|i| {
        scenario
            .sides
            .get(i)
            .map_or_else(String::new, |s| s.id.clone())
    });
    let mut memories = [Memory::default(), Memory::default()];
    let mut actions = 0usize;
    let mut decision = 0u64;
    let mut capped = false;
    let mut slowest = 0u64;
    let mut predictions = Vec::new();
    let mut terms = Vec::new();
    let mut parts = Vec::new();
    'game: while let Some(d) = game.rules().to_act(game.state()) {
        let seat = usize::from(sides[1] == d.side);
        let seed = spec.seed ^ decision.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xA4E4A;
        decision += 1;
        let rules = game.rules_arc();
        let asked = Instant::now();
        let Some(choice) = player::decide(
            &*rules,
            game.state(),
            spec.players[seat],
            seed,
            Options::default(),
            &mut memories[seat],
        ) else {
            break;
        };
        slowest = slowest.max(u64::try_from(asked.elapsed().as_millis()).unwrap_or(u64::MAX));
        if choice.simulations > 0 {
            if let Some(w) = choice.weighed.first() {
                // The terms of the position decided in (not yet played): only for the
                // searched decisions that are recorded.
                parts.clear();
                crate::calibration::root_terms(&*rules, game.state(), &d.side, seed, &mut parts);
                if terms.is_empty() {
                    terms = parts
                        .iter()
                        .map(|t| (t.name.to_owned(), t.weight))
                        .collect();
                }
                predictions.push(Prediction {
                    seat,
                    win: w.win,
                    value: w.value,
                    eval: w.eval,
                    progress: crate::calibration::progress(&*rules, game.state()),
                    terms: parts.iter().map(|t| t.value).collect(),
                });
            }
        }
        for (n, step) in choice.plan.steps.into_iter().enumerate() {
            if actions >= spec.max_actions {
                capped = true;
                break 'game;
            }
            if n > 0
                && rules
                    .to_act(game.state())
                    .is_none_or(|now| now.side != d.side)
            {
                break;
            }
            if game.apply(step).is_err() {
                // A later step no longer legal (the first always is): the plan ends.
                if n == 0 {
                    break 'game;
                }
                break;
            }
            actions += 1;
        }
    }
    let outcome = game.rules().outcome(game.state());
    Ok(GameRecord {
        scenario: scenario.id.clone(),
        ruleset: scenario.ruleset.clone(),
        players: spec.players.map(|p| p.to_string()),
        sides,
        seed: spec.seed,
        winner: if capped {
            None
        } else {
            outcome.as_ref().and_then(|o| o.winner.clone())
        },
        reason: if capped {
            format!("stopped at {} actions", spec.max_actions)
        } else {
            outcome.map_or_else(|| "no one to act".to_owned(), |o| o.reason)
        },
        actions,
        capped,
        millis: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
        slowest_decision_millis: slowest,
        predictions,
        terms,
    })
}

/// One band of estimates in [`calibration`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Band {
    /// The band's lowest estimate (inclusive), a tenth wide.
    pub from: f64,
    /// Searched decisions whose estimate falls in it.
    pub decisions: usize,
    /// Their mean estimate.
    pub predicted: f64,
    /// The share of them made by the side that went on to win (a draw counts a half).
    pub won: f64,
}

/// How the searched decisions' estimates of winning compare with the results, in ten
/// bands of a tenth (games stopped at the cap left out; empty bands too). An estimate
/// that means what it says has `won` close to `predicted` in every band.
///
/// ```
/// use grognard_ai::arena::{calibration, GameRecord, Prediction};
/// let game = |winner: &str, wins: &[f64]| GameRecord {
///     scenario: "s".into(),
///     ruleset: "r".into(),
///     sides: ["a".into(), "b".into()],
///     players: ["normal".into(), "easy".into()],
///     seed: 1,
///     winner: Some(winner.into()),
///     reason: String::new(),
///     actions: 10,
///     capped: false,
///     millis: 1,
///     slowest_decision_millis: 1,
///     predictions: wins
///         .iter()
///         .map(|&win| Prediction { seat: 0, win, value: win, eval: 0.0, progress: 0.0, terms: vec![] })
///         .collect(),
///     terms: vec![],
/// };
/// let bands = calibration(&[game("a", &[0.82, 0.88]), game("b", &[0.85])]);
/// assert_eq!(bands.len(), 1);
/// assert_eq!(bands[0].decisions, 3);
/// assert!((bands[0].predicted - 0.85).abs() < 1e-9);
/// assert!((bands[0].won - 2.0 / 3.0).abs() < 1e-9);
/// ```
#[must_use]
pub fn calibration(records: &[GameRecord]) -> Vec<Band> {
    let mut sums = [(0usize, 0.0f64, 0.0f64); 10];
    for r in records.iter().filter(|r| !r.capped) {
        for p in &r.predictions {
            let won = r.result_of(p.seat);
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a share from 0 to 1 times 10, clamped"
            )]
            let band = ((p.win.clamp(0.0, 1.0) * 10.0) as usize).min(9);
            let s = &mut sums[band];
            s.0 += 1;
            s.1 += p.win;
            s.2 += won;
        }
    }
    sums.iter()
        .enumerate()
        .filter(|(_, s)| s.0 > 0)
        .map(|(i, &(n, predicted, won))| {
            #[expect(clippy::cast_precision_loss, reason = "counts are small")]
            let d = n as f64;
            Band {
                #[expect(clippy::cast_precision_loss, reason = "a band index")]
                from: i as f64 / 10.0,
                decisions: n,
                predicted: predicted / d,
                won: won / d,
            }
        })
        .collect()
}

/// Plays the games on `threads` threads (one game each at a time), calling `done`
/// after each; the records in the order of `games`. Once `done` answers `false`, no
/// further game starts (the games under way finish): the records are then of the games
/// played, still in their order.
///
/// # Errors
/// The first game whose scenario does not fit its ruleset.
pub fn run(
    opponent: &Opponent,
    games: &[(Scenario, GameSpec)],
    threads: usize,
    done: &(dyn Fn(&GameRecord) -> bool + Sync),
) -> Result<Vec<GameRecord>, GameError> {
    let next = AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<GameRecord, GameError>>>> =
        Mutex::new((0..games.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(games.len().max(1)) {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((scenario, spec)) = games.get(i) else {
                    break;
                };
                let record = opponent.play(scenario, spec);
                if let Ok(r) = &record {
                    if !done(r) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                results
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(record);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            Some(r) => Some(r),
            None if stop.load(Ordering::Relaxed) => None,
            None => Some(Err(GameError::Format(format!("game {i} was not played")))),
        })
        .collect()
}

/// The 95% Wilson score interval of `wins` (a draw counts a half) out of `n`.
///
/// ```
/// let (lo, hi) = grognard_ai::arena::wilson(48.0, 80);
/// assert!((lo - 0.491).abs() < 0.01 && (hi - 0.700).abs() < 0.01);
/// assert_eq!(grognard_ai::arena::wilson(0.0, 0), (0.0, 1.0));
/// ```
#[must_use]
pub fn wilson(wins: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    #[expect(clippy::cast_precision_loss, reason = "game counts are small")]
    let n = n as f64;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
