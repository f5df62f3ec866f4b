//! The `win` a decision shows, calibrated: the chance that the side to act wins,
//! fitted to the results of games (Texel-style tuning, as the design note asks).
//!
//! The search's own value is the evaluation at the end of the turn through a logistic
//! centred on the position as it stands, or on where the turn is expected to end when
//! that is far from it (`SearchConfig::centre`): 0.5 means "no better and no worse than
//! now" or "as good as expected", whatever the position. A player asks something else: "how
//! likely am I to win from here?". The calibration answers it from the position's
//! absolute evaluation after the plan, `x` (the search's centre plus the gain the
//! search's value stands for), how far the game has gone, `g` (the game turn over the
//! scenario's turn limit, 0 without one), and the seat:
//! `win = σ(slope · x + late · x · g + b)`, `b` = `first` for the scenario's first side
//! and `second` for the other (each side's evaluation has its own offset: an attacker
//! far from the objectives it must take starts well below zero). The four numbers are
//! fitted by logistic regression ([`fit`]) to self-play games of the arena
//! (`grognard calibrate`) and kept, per scenario and per ruleset, in
//! `crates/ai/data/calibration.toml` with how they were measured. A scenario without
//! its own line takes its ruleset's; a ruleset without one shows the search's value as
//! before.

use crate::mcts::Weighed;
use grognard_engine::{Dice, Ruleset, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One fitted line of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// How much a point of evaluation moves the log-odds of winning.
    pub slope: f64,
    /// How much more it moves them at the end of the game than at its start.
    #[serde(default)]
    pub late: f64,
    /// The log-odds of the first side at an evaluation of 0.
    pub first: f64,
    /// The log-odds of the second side at an evaluation of 0.
    #[serde(default)]
    pub second: f64,
    /// Searched decisions it was fitted on.
    #[serde(default)]
    pub decisions: usize,
    /// Games those decisions come from.
    #[serde(default)]
    pub games: usize,
    /// How the line was measured, and why it is provisional.
    #[serde(default)]
    pub provisional: String,
}

impl Fit {
    /// The chance that the side in `seat` (0 or 1, the scenario's order) wins from a
    /// position it evaluates at `x`, `progress` (0 to 1) through the game.
    #[must_use]
    pub fn win(&self, x: f64, seat: usize, progress: f64) -> f64 {
        let [a, c, b0, b1] = features(x, seat, progress);
        crate::tuning::logistic(self.slope * a + self.late * c + self.first * b0 + self.second * b1)
    }
}

/// The table: a line per scenario id and per ruleset id.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Lines by scenario id.
    #[serde(default)]
    pub scenario: BTreeMap<String, Fit>,
    /// Lines by ruleset id, for scenarios without their own.
    #[serde(default)]
    pub ruleset: BTreeMap<String, Fit>,
}

impl Table {
    /// The line for a scenario of a ruleset: its own, else its ruleset's.
    #[must_use]
    pub fn find(&self, scenario: &str, ruleset: &str) -> Option<&Fit> {
        self.scenario
            .get(scenario)
            .or_else(|| self.ruleset.get(ruleset))
    }
}

/// The built-in table, `crates/ai/data/calibration.toml`.
///
/// # Panics
/// Never for the file as shipped (a test reads it).
#[must_use]
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        toml::from_str(include_str!("../data/calibration.toml"))
            .expect("the built-in calibration table parses")
    })
}

/// One searched decision and how its game ended for the side that made it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The absolute evaluation after the chosen plan, from the side's view.
    pub x: f64,
    /// The side: 0 or 1.
    pub seat: usize,
    /// How far the game had gone, from 0 to 1 ([`progress`]).
    pub progress: f64,
    /// 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
}

/// The line that fits the samples best (largest likelihood, Newton's method, with a
/// small ridge so that samples all of one result stay finite), the chance never falling
/// as the evaluation rises: a slope that comes out below zero at the start or at the
/// end of the game (noise: early evaluations differ little) is fixed at zero and the
/// rest fitted again. `None` without samples.
///
/// ```
/// use grognard_ai::calibration::{fit, Sample};
/// // Whoever is ahead wins: the slope comes out positive, the sides even.
/// let samples: Vec<Sample> = (-20..=20)
///     .flat_map(|i| {
///         let x = f64::from(i) / 4.0;
///         let won = if i > 0 { 1.0 } else if i < 0 { 0.0 } else { 0.5 };
///         [
///             Sample { x, seat: 0, progress: 0.5, result: won },
///             Sample { x: -x, seat: 1, progress: 0.5, result: 1.0 - won },
///         ]
///     })
///     .collect();
/// let f = fit(&samples).unwrap();
/// assert!(f.slope + f.late / 2.0 > 1.0);
/// assert!((f.first - f.second).abs() < 0.01);
/// assert!(f.win(2.0, 0, 0.5) > 0.9);
/// ```
#[must_use]
pub fn fit(samples: &[Sample]) -> Option<Fit> {
    if samples.is_empty() {
        return None;
    }
    let mut w = newton(samples, [true; 4]);
    if w[0] < 0.0 {
        // Flat at the start, rising toward the end.
        w = newton(samples, [false, true, true, true]);
    }
    if w[0] + w[1] < 0.0 {
        // Then the end of the game may not fall either.
        w = newton(samples, [w[0] > 0.0, false, true, true]);
    }
    Some(Fit {
        slope: w[0],
        late: w[1],
        first: w[2],
        second: w[3],
        decisions: samples.len(),
        games: 0,
        provisional: String::new(),
    })
}

/// The likelihood's maximum over the parameters marked free, the others at 0.
fn newton(samples: &[Sample], free: [bool; 4]) -> [f64; 4] {
    let rows: Vec<(Vec<f64>, f64)> = samples
        .iter()
        .map(|s| (features(s.x, s.seat, s.progress).to_vec(), s.result))
        .collect();
    let w = crate::tuning::newton(&rows, &free);
    [w[0], w[1], w[2], w[3]]
}

/// The model's inputs: the evaluation, the evaluation weighted by the game's progress,
/// and which side.
fn features(x: f64, seat: usize, progress: f64) -> [f64; 4] {
    let first = if seat == 0 { 1.0 } else { 0.0 };
    [x, x * progress, first, 1.0 - first]
}

/// The mean log loss of chances against results (lower is better).
#[must_use]
pub fn log_loss(pairs: impl IntoIterator<Item = (f64, f64)>) -> f64 {
    let (mut total, mut n) = (0.0, 0u32);
    for (p, y) in pairs {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        total -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        total / f64::from(n)
    }
}

/// The absolute evaluation a search value stands for: the root's evaluation plus the
/// gain whose logistic (at `scale`) is the value.
#[must_use]
pub fn evaluation_of(root: f64, value: f64, scale: f64) -> f64 {
    let v = value.clamp(1e-3, 1.0 - 1e-3);
    root + scale * (v / (1.0 - v)).ln()
}

/// The evaluation of `state` for `side`, read from a sample of what the side may see
/// (the search's root: nothing hidden from `side` is read).
pub(crate) fn root_evaluation<R: Ruleset>(
    rules: &R,
    state: &R::State,
    side: &str,
    seed: u64,
) -> f64 {
    let mut s = state.clone();
    rules.determinize(&mut s, &Seat::Side(side.to_owned()), &mut Dice::new(seed));
    rules.evaluate(&s, side)
}

/// The evaluation's parts for `side` ([`Ruleset::evaluation_terms`]), read from a
/// sample of what the side may see, as [`root_evaluation`] reads the evaluation.
pub(crate) fn root_terms<R: Ruleset>(
    rules: &R,
    state: &R::State,
    side: &str,
    seed: u64,
    out: &mut Vec<grognard_engine::Term>,
) {
    let mut s = state.clone();
    rules.determinize(&mut s, &Seat::Side(side.to_owned()), &mut Dice::new(seed));
    rules.evaluation_terms(&s, side, out);
}

/// How far the game in `state` has gone: its turn over the scenario's turn limit, from
/// 0 to 1; 0 without a limit.
#[must_use]
pub fn progress<R: Ruleset>(rules: &R, state: &R::State) -> f64 {
    match rules.names().turns() {
        Some(t) if t > 0 => (f64::from(rules.turn(state)) / f64::from(t)).clamp(0.0, 1.0),
        _ => 0.0,
    }
}

/// Puts the calibrated chance in each plan's `win`, from its `eval`, when the table has
/// a line for the game's scenario or ruleset; leaves `win` as it is otherwise.
pub(crate) fn calibrate<R: Ruleset>(
    rules: &R,
    state: &R::State,
    side: &str,
    weighed: &mut [Weighed<R::Action>],
) {
    let names = rules.names();
    let progress = progress(rules, state);
    let (Some(fit), Some(seat)) = (
        table().find(names.scenario(), names.ruleset()),
        names.side_index(side),
    ) else {
        return;
    };
    for w in weighed {
        w.win = fit.win(w.eval, seat, progress);
    }
}

#[cfg(test)]
mod tests {
    use super::{fit, Sample};

    /// Early evaluations that say the opposite of the result (noise) do not make the
    /// chance fall as the evaluation rises: the slope at the start is held at zero,
    /// and the end of the game keeps its rise.
    #[test]
    fn a_falling_slope_is_held_at_zero() {
        let mut samples = Vec::new();
        for i in -10..=10 {
            let x = f64::from(i);
            let ahead = if i > 0 { 1.0 } else { 0.0 };
            // Early: whoever is ahead loses; late: whoever is ahead wins.
            samples.push(Sample {
                x,
                seat: 0,
                progress: 0.0,
                result: 1.0 - ahead,
            });
            for _ in 0..3 {
                samples.push(Sample {
                    x,
                    seat: 0,
                    progress: 1.0,
                    result: ahead,
                });
            }
        }
        let f = fit(&samples).expect("samples");
        assert!(f.slope.abs() < 1e-12, "{f:?}");
        assert!(f.late > 0.0, "{f:?}");
        assert!(f.win(5.0, 0, 0.0) >= f.win(-5.0, 0, 0.0));
        assert!(f.win(5.0, 0, 1.0) > f.win(-5.0, 0, 1.0));
    }
}
