//! Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013): a rating, its
//! deviation and its volatility, updated after a rating period. Here a rating period
//! is one game: each rated game updates both players once, when it ends.

use std::f64::consts::PI;

/// The factor between the Glicko scale and the Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// The system constant τ, which bounds how fast the volatility changes; 0.5 as in
/// Glickman's example (he advises 0.3 to 1.2).
pub const TAU: f64 = 0.5;
/// The tolerance of the volatility's iteration.
const EPSILON: f64 = 0.000_001;

/// A player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, on the Glicko scale (1500 for a newcomer).
    pub rating: f64,
    /// The rating deviation (350 for a newcomer).
    pub deviation: f64,
    /// The volatility (0.06 for a newcomer).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// One game of a rating period: the opponent's rating before it, and the score (1 a
/// win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug)]
pub struct Game {
    /// The opponent, as rated before the period.
    pub opponent: Rating,
    /// The score.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The rating after a period of `games` (steps 1 to 8 of Glickman's paper). A
/// period without games only widens the deviation.
#[must_use]
pub fn update(player: Rating, games: &[Game]) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        return Rating {
            deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
            ..player
        };
    }
    let (mut inv_v, mut sum) = (0.0, 0.0);
    for game in games {
        let mu_j = (game.opponent.rating - 1500.0) / SCALE;
        let phi_j = game.opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        inv_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
        sum += g(phi_j) * (game.score - e);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility, by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    let mut rounds = 0;
    while (big_b - big_a).abs() > EPSILON && rounds < 1000 {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
        rounds += 1;
    }
    let sigma2 = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * sum;
    Rating {
        rating: mu2 * SCALE + 1500.0,
        deviation: phi2 * SCALE,
        volatility: sigma2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glicko2_matches_the_worked_example_of_glickmans_paper() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = update(
            player,
            &[
                Game {
                    opponent: opp(1400.0, 30.0),
                    score: 1.0,
                },
                Game {
                    opponent: opp(1550.0, 100.0),
                    score: 0.0,
                },
                Game {
                    opponent: opp(1700.0, 300.0),
                    score: 0.0,
                },
            ],
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let r = Rating {
            rating: 1600.0,
            deviation: 100.0,
            volatility: 0.06,
        };
        let after = update(r, &[]);
        assert!((after.rating - 1600.0).abs() < f64::EPSILON);
        assert!(after.deviation > 100.0);
    }
}
