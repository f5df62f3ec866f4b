//! The evaluation's weights fitted to the results of games: Texel-style tuning, the
//! design note's "tuning by self-play".
//!
//! A ruleset names the parts of its evaluation (`Ruleset::evaluation_terms`): each
//! term's value in a position and the weight it has, the evaluation being their sum.
//! The arena records the terms at every searched decision (`--json`). [`fit`] then
//! fits two logistic models of the chance that the side to act wins:
//!
//! - the evaluation as it is: `σ(s · E + l · E · g + b)`, with `E` = Σ weight × value,
//!   `g` how far the game has gone (0 to 1) and `b` an offset for each side (as
//!   [`crate::calibration`] does);
//! - every term's weight free, the terms growing with the game as the evaluation's
//!   points do in the first model: `σ((1 + r · g) · Σ wᵢ · valueᵢ + b)`, `r` = `l / s`.
//!
//! The second model's weights over `s` are the weights the games ask for, on the
//! evaluation's own scale. Both models' log losses say how much is to be gained;
//! the loss on games left out of the fit (`grognard calibrate --terms --check`) says
//! whether the gain is more than the noise of the games fitted.

use crate::arena::GameRecord;
use crate::calibration::log_loss;

/// One searched decision: the terms of its position, from the side to act's view, and
/// how the game ended for that side.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The terms' values, in the order of the record's names.
    pub terms: Vec<f64>,
    /// The side: 0 or 1, in the scenario's order.
    pub seat: usize,
    /// How far the game had gone, from 0 to 1.
    pub progress: f64,
    /// 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
}

/// The samples of a record's searched decisions that carry terms (none from a game
/// stopped at the cap).
pub fn samples(record: &GameRecord) -> impl Iterator<Item = Sample> + '_ {
    record
        .predictions
        .iter()
        .filter(|p| !record.capped && p.terms.len() == record.terms.len() && !p.terms.is_empty())
        .map(|p| Sample {
            terms: p.terms.clone(),
            seat: p.seat,
            progress: p.progress,
            result: record.result_of(p.seat),
        })
}

/// One term's weight: as the evaluation has it and as the games ask for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Weight {
    /// The term's name.
    pub name: String,
    /// Its weight in the evaluation.
    pub now: f64,
    /// The weight fitted.
    pub fitted: f64,
}

/// What [`fit`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// Each term's weight, now and fitted.
    pub weights: Vec<Weight>,
    /// Decisions fitted.
    pub samples: usize,
    /// The evaluation as it is: its log-odds a point at the start and the end.
    pub scale: (f64, f64),
    /// The mean log loss of the evaluation as it is, fitted.
    pub loss_now: f64,
    /// The mean log loss with every term free.
    pub loss_fitted: f64,
    /// The two models' parameters, for [`Tuning::losses`] on other games.
    now_model: Vec<f64>,
    free_model: Vec<f64>,
    now_weights: Vec<f64>,
    growth: f64,
}

impl Tuning {
    /// The two models' mean log losses on `samples` (games not fitted, to check the
    /// fit against its noise): the evaluation as it is, then every term free.
    #[must_use]
    pub fn losses(&self, samples: &[Sample]) -> (f64, f64) {
        let now = samples.iter().map(|s| {
            let x = now_features(&self.now_weights, s);
            (logistic(dot(&self.now_model, &x)), s.result)
        });
        let free = samples.iter().map(|s| {
            let x = free_features(self.growth, s);
            (logistic(dot(&self.free_model, &x)), s.result)
        });
        (log_loss(now), log_loss(free))
    }
}

/// Fits the evaluation's weights to `samples` (see the module's note). `terms` are the
/// names and weights the samples' values come with. `None` without samples, or when a
/// sample's terms do not match the names.
///
/// ```
/// use grognard_ai::tuning::{fit, Sample};
/// // Two terms: the first decides the games, the second is noise the evaluation
/// // weighs as much.
/// let mut samples = Vec::new();
/// for i in -20i32..=20 {
///     for j in [-3.0, 0.0, 3.0] {
///         let a = f64::from(i) / 4.0;
///         let won = if i > 0 { 1.0 } else if i < 0 { 0.0 } else { 0.5 };
///         samples.push(Sample { terms: vec![a, j], seat: 0, progress: 0.5, result: won });
///         samples.push(Sample { terms: vec![-a, -j], seat: 1, progress: 0.5, result: 1.0 - won });
///     }
/// }
/// let terms = [("decides".to_owned(), 1.0), ("noise".to_owned(), 1.0)];
/// let t = fit(&terms, &samples).unwrap();
/// assert!(t.loss_fitted < t.loss_now);
/// assert!(t.weights[1].fitted.abs() < 0.1 * t.weights[0].fitted);
/// ```
#[must_use]
pub fn fit(terms: &[(String, f64)], samples: &[Sample]) -> Option<Tuning> {
    if samples.is_empty() || samples.iter().any(|s| s.terms.len() != terms.len()) {
        return None;
    }
    let now_weights: Vec<f64> = terms.iter().map(|(_, w)| *w).collect();
    let rows_now: Vec<(Vec<f64>, f64)> = samples
        .iter()
        .map(|s| (now_features(&now_weights, s), s.result))
        .collect();
    let now_model = newton(&rows_now, &[true; 4]);
    let (s, l) = (now_model[0], now_model[1]);
    let growth = ratio(l, s);
    let rows_free: Vec<(Vec<f64>, f64)> = samples
        .iter()
        .map(|x| (free_features(growth, x), x.result))
        .collect();
    let free_model = newton(&rows_free, &vec![true; rows_free[0].0.len()]);
    let weights = terms
        .iter()
        .enumerate()
        .map(|(i, (name, now))| Weight {
            name: name.clone(),
            now: *now,
            fitted: ratio(free_model[i], s),
        })
        .collect();
    let loss = |model: &[f64], rows: &[(Vec<f64>, f64)]| {
        log_loss(rows.iter().map(|(x, y)| (logistic(dot(model, x)), *y)))
    };
    Some(Tuning {
        weights,
        samples: samples.len(),
        scale: (s, s + l),
        loss_now: loss(&now_model, &rows_now),
        loss_fitted: loss(&free_model, &rows_free),
        now_model,
        free_model,
        now_weights,
        growth,
    })
}

fn ratio(a: f64, b: f64) -> f64 {
    if b.abs() < 1e-12 {
        0.0
    } else {
        a / b
    }
}

/// The evaluation as it is, at a sample: `E`, `E · g`, and the side.
fn now_features(weights: &[f64], s: &Sample) -> Vec<f64> {
    let e: f64 = s.terms.iter().zip(weights).map(|(v, w)| v * w).sum();
    let first = if s.seat == 0 { 1.0 } else { 0.0 };
    vec![e, e * s.progress, first, 1.0 - first]
}

/// Every term free: the values grown by `(1 + growth · g)`, and the side.
fn free_features(growth: f64, s: &Sample) -> Vec<f64> {
    let first = if s.seat == 0 { 1.0 } else { 0.0 };
    let k = 1.0 + growth * s.progress;
    let mut x: Vec<f64> = s.terms.iter().map(|v| v * k).collect();
    x.extend([first, 1.0 - first]);
    x
}

pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub(crate) fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The logistic model's parameters of largest likelihood over `rows` (features and
/// result), by Newton's method with a small ridge so that rows all of one result stay
/// finite; the parameters not marked `free` stay at 0.
pub(crate) fn newton(rows: &[(Vec<f64>, f64)], free: &[bool]) -> Vec<f64> {
    const RIDGE: f64 = 1e-3;
    let n = free.len();
    let mut w = vec![0.0f64; n];
    for _ in 0..100 {
        let mut g: Vec<f64> = w.iter().map(|v| -RIDGE * v).collect();
        let mut h = vec![vec![0.0f64; n]; n];
        for (i, row) in h.iter_mut().enumerate() {
            row[i] = RIDGE;
        }
        for (x, y) in rows {
            let p = logistic(
                x.iter()
                    .zip(&w)
                    .zip(free)
                    .map(|((x, w), on)| if *on { x * w } else { 0.0 })
                    .sum(),
            );
            for i in (0..n).filter(|&i| free[i]) {
                g[i] += (y - p) * x[i];
                for j in (0..n).filter(|&j| free[j]) {
                    h[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        let Some(step) = solve(h, g) else { break };
        for (v, d) in w.iter_mut().zip(&step) {
            *v += d;
        }
        if step.iter().all(|d| d.abs() < 1e-9) {
            break;
        }
    }
    w
}

/// Solves `h · d = g` by Gaussian elimination with partial pivoting; `None` when `h`
/// is singular.
fn solve(mut h: Vec<Vec<f64>>, mut g: Vec<f64>) -> Option<Vec<f64>> {
    let n = g.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| h[a][col].abs().total_cmp(&h[b][col].abs()))?;
        if h[pivot][col].abs() < 1e-12 {
            return None;
        }
        h.swap(col, pivot);
        g.swap(col, pivot);
        let top = h[col].clone();
        for row in col + 1..n {
            let k = h[row][col] / top[col];
            for (cell, above) in h[row].iter_mut().zip(&top).skip(col) {
                *cell -= k * above;
            }
            g[row] -= k * g[col];
        }
    }
    let mut d = vec![0.0f64; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|c| h[row][c] * d[c]).sum();
        d[row] = (g[row] - rest) / h[row][row];
    }
    Some(d)
}
