//! The sequential probability ratio test that accepts or rejects a change of the search
//! on as few games as it takes (the design note's "Measuring strength": cutechess and
//! fishtest's test, Elo 0 against Elo 30 at α = β = 0.05 by default).
//!
//! H0: the first player is `elo0` Elo stronger than the second; H1: `elo1`. After every
//! game the log-likelihood ratio of the results (wins, draws, losses) is compared with
//! `ln(β / (1 - α))` and `ln((1 - β) / α)`: below the first, H0 is accepted (the change is
//! not worth `elo1`); above the second, H1 (it is worth it). The ratio is the generalised
//! one over the trinomial results, with the score's variance read from the games
//! (Michel Van den Bergh's approximation, as fishtest computes it).

use std::fmt;
use std::str::FromStr;

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the first player over the second under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H0 accepted: the first player is not `elo1` stronger.
    H0,
    /// H1 accepted: the first player is `elo1` stronger.
    H1,
    /// Neither yet: more games.
    Undecided,
}

/// A test written wrongly: what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad SPRT `{0}`: {1} (ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, e.g. 0,30 or 0,30,0.05,0.05)")]
pub struct BadSprt(pub String, pub &'static str);

impl FromStr for Sprt {
    type Err = BadSprt;
    fn from_str(s: &str) -> Result<Sprt, BadSprt> {
        let bad = |why| BadSprt(s.to_owned(), why);
        let numbers = s
            .split(',')
            .map(|n| n.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| bad("not a list of numbers"))?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(bad("two or four numbers")),
        };
        if elo1 <= elo0 {
            return Err(bad("ELO1 must be above ELO0"));
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err(bad("ALPHA and BETA must lie between 0 and 0.5"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Elo {} against {}, alpha {}, beta {}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// The expected score of a player `elo` Elo stronger than its opponent.
#[must_use]
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that an expected `score` stands for (infinite at 0 and 1).
///
/// ```
/// use grognard_ai::sprt::{elo_of, score_of};
/// assert!((elo_of(score_of(30.0)) - 30.0).abs() < 1e-9);
/// assert_eq!(elo_of(0.5), 0.0);
/// ```
#[must_use]
pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Sprt {
    /// The bounds on the log-likelihood ratio: below the first H0 is accepted, above
    /// the second H1.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `wins`, `draws` and `losses` of
    /// the first player; 0 before any game. While one of the three has not happened it
    /// counts as half a game.
    #[must_use]
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        if wins + draws + losses == 0 {
            return 0.0;
        }
        // An outcome not yet seen counts as half a game, so that a run of wins alone
        // (no variance) can decide.
        let seen = |k: u32| {
            if wins.min(draws).min(losses) == 0 {
                f64::from(k) + 0.5
            } else {
                f64::from(k)
            }
        };
        let (wins, draws, losses) = (seen(wins), seen(draws), seen(losses));
        let n = wins + draws + losses;
        let (w, d, l) = (wins / n, draws / n, losses / n);
        let mean = w + d / 2.0;
        let variance =
            w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * (0.0 - mean).powi(2);
        if variance <= 1e-12 {
            return 0.0;
        }
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The verdict after these results.
    #[must_use]
    pub fn verdict(&self, wins: u32, draws: u32, losses: u32) -> Verdict {
        let llr = self.llr(wins, draws, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Undecided
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_at_five_percent_are_about_three() {
        let (lo, hi) = Sprt::default().bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    }

    #[test]
    fn the_ratio_grows_with_wins_and_falls_with_losses() {
        let t = Sprt::default();
        // Level results favour H0 (0 Elo) over H1 (30 Elo).
        assert!(t.llr(40, 20, 40) < 0.0);
        assert!(t.llr(60, 20, 20) > t.llr(50, 20, 30));
        assert_eq!(t.llr(0, 0, 0), 0.0);
        // Draws alone: the score of H0, and no outcome counts for nothing.
        assert!(t.llr(0, 7, 0) < 0.0);
        // Wins alone decide, after enough of them.
        assert_eq!(t.verdict(3, 0, 0), Verdict::Undecided);
        assert_eq!(t.verdict(40, 0, 0), Verdict::H1);
        // A worked case: 60 wins, 20 draws, 20 losses. Mean 0.7, variance
        // 0.6·0.09 + 0.2·0.04 + 0.2·0.49 = 0.16; s0 = 0.5, s1 = 0.542 99;
        // LLR = 100 · 0.042 99 · (1.4 - 1.042 99) / 0.32 = 4.796.
        assert!(
            (t.llr(60, 20, 20) - 4.796).abs() < 0.01,
            "{}",
            t.llr(60, 20, 20)
        );
        assert_eq!(t.verdict(60, 20, 20), Verdict::H1);
        assert_eq!(t.verdict(30, 20, 70), Verdict::H0);
        assert_eq!(t.verdict(6, 2, 4), Verdict::Undecided);
    }

    #[test]
    fn tests_are_read_from_their_text_and_bad_ones_named() {
        assert_eq!("0,30".parse::<Sprt>(), Ok(Sprt::default()));
        let t: Sprt = "-10, 20, 0.1, 0.2".parse().expect("a test");
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (-10.0, 20.0, 0.1, 0.2));
        for bad in ["", "30", "30,0", "0,30,0.6,0.05", "0,x", "0,30,0.05"] {
            let e = bad.parse::<Sprt>().expect_err(bad);
            assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");
        }
    }
}
