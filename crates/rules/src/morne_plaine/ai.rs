//! How the computer opponent judges a Morne Plaine position (not a rule: a heuristic
//! for `Ruleset::evaluate`).

use super::{Action, MornePlaine, Phase, State};
use grognard_engine::Plan;

/// How much the result the game would have if it ended now (MP-VIC-1) weighs on the last
/// turn, from a draw to a win (or a loss to a draw): one and a half points of objective
/// value then (8 each), so that an objective or an elimination that decides the game is
/// worth an attack near the end, and a side already ahead by the margin gains no more
/// from points than their objective weight. Provisional: measured in docs/AI.md.
const RESULT: f64 = 12.0;

impl MornePlaine {
    /// Material (strength and morale on the map), objectives held, the result if the
    /// game ended now, and nearness of each fresh unit to the nearest objective it does
    /// not hold, from `side`'s view.
    pub(crate) fn score(&self, state: &State, side: &str) -> f64 {
        let me = u8::from(self.sides[1] == side);
        let mut score = 0.0;
        // Points as MP-VIC-1 counts them after the last turn, by side.
        let mut points = [0i64; 2];
        // No list of objectives is kept: this runs at every leaf of the search.
        let objectives = || {
            self.scenario
                .places
                .iter()
                .enumerate()
                .filter(|(_, p)| p.objective)
        };
        for (c, u) in self.counters.iter().zip(&state.units) {
            let sign = if c.side == me { 1.0 } else { -1.0 };
            let Some(hex) = u.hex else {
                if !u.waiting {
                    score -= sign * 6.0;
                    points[usize::from(1 - c.side)] += self.victory.per_eliminated;
                }
                continue;
            };
            // A damaged unit at its cost times the root of its strength share (the last
            // points weigh most, so a worn unit is worth finishing), morale as it stands.
            let share = f64::from(u.cs) / f64::from(c.cs.max(1));
            score += sign * (3.0 * f64::from(c.cs) * share.min(1.0).sqrt() + 1.5 * f64::from(u.mv));
            // Only fresh units (at least half their strength, morale left) are drawn
            // toward the objectives the side does not hold: a worn unit sent forward
            // is a point for the enemy (MP-VIC-1), and is kept back instead.
            if c.side == me && 2 * u.cs >= c.cs && u.mv > 0 {
                let d = objectives()
                    .filter(|(i, _)| state.held[*i] != Some(me))
                    .map(|(_, p)| p.hex.distance(hex))
                    .min();
                if let Some(d) = d {
                    score -= 0.25 * f64::from(d);
                }
            }
        }
        // Objectives count at the end (MP-VIC-1): holding one weighs more as the turns
        // run out, from 4 a point of value at the start to 8 on the last turn.
        let late = f64::from(state.turn.min(self.turns)) / f64::from(self.turns.max(1));
        let objective = 4.0 * (1.0 + late);
        for (i, p) in objectives() {
            let value = p.value.unwrap_or(1);
            let Some(h) = state.held[i] else { continue };
            if self.victory.objectives {
                points[usize::from(h)] += value;
            }
            let sign = if h == me { 1.0 } else { -1.0 };
            score += sign * objective * value as f64;
        }
        // The result if the game ended now (MP-VIC-1: a lead of the margin wins, less
        // is a draw), eased between a draw and a win by the lead, and weighing more as
        // the turns run out: the side that would only draw or lose at the end must
        // gain points, and the side ahead by the margin must keep them.
        let (margin, _) = super::victory::terms(self);
        let lead = points[usize::from(me)] - points[usize::from(1 - me)];
        let result = (lead as f64 / margin.max(1) as f64).clamp(-1.0, 1.0);
        score += RESULT * late * late * result;
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

/// The computer's plans (not a rule: how it groups the atomic actions). In the
/// movement phase each unit that has not moved yet may go the whole way to each hex
/// it can reach, as one plan of single steps; a unit that has moved is offered no
/// more steps, so that no unit walks back and forth along a road at no cost
/// (MP-ROAD-3). Every other legal action is a plan of its own; ending the phase is
/// the pass.
impl MornePlaine {
    pub(crate) fn ai_plans(&self, state: &State, out: &mut Vec<Plan<Action>>) {
        let mut legal = Vec::new();
        grognard_engine::Ruleset::legal_actions(self, state, &mut legal);
        let mut movers = Vec::new();
        let mut first_steps = Vec::new();
        for a in legal {
            match a {
                Action::Move { unit, to } => {
                    if !state.units[unit.index()].moved {
                        first_steps.push((unit, to));
                        if !movers.contains(&unit) {
                            movers.push(unit);
                        }
                    }
                }
                Action::EndPhase => out.push(Plan::single(a)),
                Action::Charge { unit, .. }
                | Action::Bombard { unit, .. }
                | Action::Attack { unit, .. } => out.push(Plan::of_unit(unit, vec![a])),
            }
        }
        for unit in movers {
            let start = state.units[unit.index()].hex;
            let Ok(reached) = grognard_engine::Ruleset::reachable(self, state, unit) else {
                continue;
            };
            for r in reached {
                if Some(r.hex) == start
                    || !r
                        .path
                        .first()
                        .is_some_and(|&h| first_steps.contains(&(unit, h)))
                {
                    continue;
                }
                let steps = r.path.iter().map(|&to| Action::Move { unit, to }).collect();
                out.push(Plan::of_unit(unit, steps));
            }
        }
    }
}
