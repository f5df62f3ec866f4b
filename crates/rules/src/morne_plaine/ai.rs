//! How the computer opponent judges a Morne Plaine position (not a rule: a heuristic
//! for `Ruleset::evaluate`).

use super::{MornePlaine, Phase, State};

impl MornePlaine {
    /// Material (strength and morale on the map), objectives held, and nearness of
    /// each unit to the nearest objective it does not hold, from `side`'s view.
    pub(crate) fn score(&self, state: &State, side: &str) -> f64 {
        let me = u8::from(self.sides[1] == side);
        let mut score = 0.0;
        let objectives: Vec<_> = self
            .scenario
            .places
            .iter()
            .enumerate()
            .filter(|(_, p)| p.objective)
            .collect();
        for (c, u) in self.counters.iter().zip(&state.units) {
            let sign = if c.side == me { 1.0 } else { -1.0 };
            let Some(hex) = u.hex else {
                if !u.waiting {
                    score -= sign * 6.0;
                }
                continue;
            };
            score += sign * (3.0 * f64::from(u.cs) + 1.5 * f64::from(u.mv));
            if c.side == me {
                // Drawn toward the objectives the side does not hold.
                let d = objectives
                    .iter()
                    .filter(|(i, _)| state.held[*i] != Some(me))
                    .map(|(_, p)| p.hex.distance(hex))
                    .min();
                if let Some(d) = d {
                    score -= 0.25 * f64::from(d);
                }
            }
        }
        for (i, p) in &objectives {
            match state.held[*i] {
                Some(h) if h == me => score += 4.0 * p.value.unwrap_or(1) as f64,
                Some(_) => score -= 4.0 * p.value.unwrap_or(1) as f64,
                None => {}
            }
        }
        // Leaving movement points unused is no loss, but ending the phase early is no
        // gain either: a tiny nudge to use them.
        if state.phase == Phase::Movement {
            score += 0.01
                * state
                    .units
                    .iter()
                    .zip(&self.counters)
                    .filter(|(u, c)| c.side == me && u.moved)
                    .count() as f64;
        }
        score
    }
}
