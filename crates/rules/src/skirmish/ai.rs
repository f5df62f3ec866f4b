//! How the computer opponent judges a skirmish position (not a rule: a heuristic for
//! `Ruleset::evaluate`). It weighs the characters still fighting and their wounds and
//! statuses, keeps its own characters' flanks and rears away from enemies, closes in on
//! the enemy, and values a Quick Action kept for reactions and a charge under way. In the
//! passive side's windows the same score makes it react when a reaction (turning to face
//! an enemy come round its flank, stepping away) is worth more than the Quick Action it
//! spends, and strike at a character leaving its zone unless the riposte is worth more.

mod exposure;

use super::{Action, Skirmish, State};
use exposure::{Arcs, Pairs};
use grognard_engine::{Plan, Ruleset, Term, UnitId};
use std::cell::RefCell;

thread_local! {
    /// What the evaluation reads of each character that never changes, and the pairs
    /// of enemies as the last score found them, kept from one score to the next.
    static PLACED: RefCell<Scratch> = RefCell::new(Scratch {
        binding: u64::MAX,
        fixed: Vec::new(),
        arcs: Vec::new(),
        pairs: Pairs::default(),
    });
}

/// [`PLACED`]'s lists: all belong to the binding numbered `binding` (`Skirmish::id`),
/// rebuilt when another binding asks.
struct Scratch {
    binding: u64,
    fixed: Vec<Fixed>,
    /// [`Arcs`] for the binding's front (`front_turns`).
    arcs: Arcs,
    /// The pairs of enemies in play at the last score.
    pairs: Pairs,
}

/// What the evaluation reads of a character that no state changes.
#[derive(Clone, Copy)]
struct Fixed {
    side: u8,
    /// The distance it strikes at: its longest reach and a step.
    strike: u32,
    /// Its reach, at least 1, for closing in.
    reach: u32,
    /// Its health (SK-STA-7), as the wounds' share divides by it.
    health: f64,
}

/// The parts of the evaluation and their weights, in the order of
/// [`Skirmish::parts`], all from the side's view (its characters counted up, the
/// enemy's down, but the time's terms, which are the same for both):
/// - `fighting`: the characters in play; `wounds`: their shares of health lost;
///   `out`: the characters out of the fight;
/// - `dazed`, `panicked`: the characters in play so (SK-MOR);
/// - `quick`: Quick Actions kept for the enemy's turn's reactions; `riposte`: a
///   counterattack or attack of opportunity left (SK-CHG-12); `defending`;
/// - `flank`, `rear`: each enemy within its striking distance (its longest reach and a
///   step) at a character's flank or rear, by the facing's arcs;
/// - `closing`: the hexes between each of the side's characters (not Panicked) and the
///   nearest enemy, beyond its own reach (its own only);
/// - `half_turns`: the half-turns played; `melee`: 1 in the melee phase; `turned`, and
///   its square: the facing changes in the phase;
/// - `charge`: the legs of a charge under way not yet run.
pub(crate) const TERMS: [(&str, f64); 16] = [
    ("fighting", 10.0),
    ("wounds", -6.0),
    ("out", -12.0),
    ("dazed", -2.0),
    ("panicked", -3.0),
    ("quick", 0.3),
    ("riposte", 0.2),
    ("defending", 0.5),
    ("flank", -0.8),
    ("rear", -1.5),
    ("closing", -0.25),
    // Time passing is worth a hair, and every facing change in a phase costs more than
    // the last: between actions that change nothing that matters (turning a character
    // nobody threatens), ending the phase wins, and a forced action that looks bad (a
    // flight, a berserk attack) is not put off for ever by turning on the spot.
    ("half_turns", 0.02),
    ("melee", 0.01),
    ("turned", -0.25),
    ("turned_squared", -0.1),
    ("charge", 1.5),
];

impl Skirmish {
    /// The values of [`TERMS`], in their order, of a game under way, from `side`'s view.
    fn parts(&self, state: &State, side: &str) -> [f64; TERMS.len()] {
        let me = u8::from(self.sides[1] == side);
        PLACED.with(|cell| {
            let scratch = &mut *cell.borrow_mut();
            if scratch.binding != self.id || scratch.fixed.len() != self.chars.len() {
                scratch.binding = self.id;
                scratch.fixed = self
                    .ids()
                    .map(|u| Fixed {
                        side: self.side_of(u),
                        strike: u32::from(self.weapons[u.index()].longest()) + 1,
                        reach: u32::from(self.weapons[u.index()].reach.max(1)),
                        health: f64::from(self.health(u)),
                    })
                    .collect();
                scratch.arcs = exposure::arcs(self.data.facing.front_turns);
                scratch.pairs = Pairs::new(self.side_of_char.clone());
            }
            self.parts_placed(
                state,
                me,
                (&scratch.fixed, &scratch.arcs),
                &mut scratch.pairs,
            )
        })
    }

    /// [`Skirmish::parts`] with what never changes of each character, and this
    /// thread's pairs of enemies as the last score found them (brought to `state`). The
    /// terms that count characters are counted as whole numbers for each side and
    /// taken one from the other at the end: the same numbers as adding ±1 one at a time
    /// (whole numbers are exact), in any order. The wounds' shares are summed in
    /// scenario order, as always.
    fn parts_placed(
        &self,
        state: &State,
        me: u8,
        (fixed, arcs): (&[Fixed], &Arcs),
        pairs: &mut Pairs,
    ) -> [f64; TERMS.len()] {
        // The counted terms (the side's count less the enemy's): the characters
        // fighting, out, Dazed, Panicked, with a Quick Action, able to riposte,
        // defending.
        let mut n = [0i32; 7];
        let mut v = [0.0; TERMS.len()];
        for (c, f) in state.chars.iter().zip(fixed) {
            let sign = if f.side == me { 1 } else { -1 };
            if c.hex.is_none() {
                n[1] += sign;
                continue;
            }
            n[0] += sign;
            if c.damage > 0 {
                // A share of nothing adds nothing (the sum is never -0).
                v[1] += f64::from(sign) * f64::from(c.damage) / f.health;
            }
            n[2] += sign * i32::from(c.dazed);
            n[3] += sign * i32::from(c.panicked);
            n[4] += sign * i32::from(c.quick);
            // SK-CHG-12: Skirmish::can_riposte of a character in play.
            n[5] += sign * i32::from(c.ripostes < u8::from(!c.dazed));
            n[6] += sign * i32::from(c.defending.is_some());
        }
        pairs.note(&state.chars, fixed);
        pairs.settle(arcs, self.data.facing.front_turns, &self.side_members);
        if cfg!(debug_assertions) {
            for (u, c) in self.ids().zip(&state.chars) {
                assert!(pairs.stands(u.index(), c.hex.map(|h| (h, c.facing))));
                assert!(
                    !c.in_play()
                        || Self::can_riposte(state, u) == (c.ripostes < u8::from(!c.dazed))
                );
            }
        }
        for (k, count) in [0, 2, 3, 4, 5, 6, 7].into_iter().zip(n) {
            v[k] = f64::from(count);
        }
        // Exposure: enemies within striking distance at a character's flank or rear.
        let ((my_flank, my_rear), (their_flank, their_rear)) =
            (pairs.exposed(me), pairs.exposed(1 - me));
        v[8] = f64::from(my_flank - their_flank);
        v[9] = f64::from(my_rear - their_rear);
        // Closing in: the fight is won by striking. The side's own characters in play,
        // not Panicked, beyond their reach of the nearest enemy.
        let mut closing = 0u32;
        for u in &self.side_members[usize::from(me)] {
            let c = Self::ch(state, *u);
            if c.hex.is_some() && !c.panicked {
                let nearest = pairs.nearest(u.index());
                if nearest != u32::MAX {
                    closing += nearest.saturating_sub(fixed[u.index()].reach);
                }
            }
        }
        v[10] = f64::from(closing);
        v[11] = f64::from(super::turn::half(state));
        v[12] = f64::from(u8::from(state.phase == super::Phase::Melee));
        v[13] = f64::from(state.turned);
        v[14] = f64::from(state.turned).powi(2);
        if let Some(ch) = &state.charge {
            for l in ch.legs.iter().filter(|l| !l.done) {
                v[15] += if self.side_of(l.run.unit) == me {
                    1.0
                } else {
                    -1.0
                };
            }
        }
        v
    }
}

/// The score of `state` for `side`: higher is better. Each of [`TERMS`] times its
/// weight; a finished game is ±1,000, a drawn one 0.
pub(crate) fn score(rules: &Skirmish, state: &State, side: &str) -> f64 {
    if let Some(o) = &state.outcome {
        return match &o.winner {
            Some(w) if w == side => 1000.0,
            Some(_) => -1000.0,
            None => 0.0,
        };
    }
    let parts = rules.parts(state, side);
    crate::common::terms::weighed(&parts, &TERMS)
}

/// The evaluation's parts ([`TERMS`]) with their weights, for fitting the weights to
/// games. A finished game has none: its score is the result. No candidate term is
/// offered: the side's lead is already one of the terms.
pub(crate) fn terms(rules: &Skirmish, state: &State, side: &str, out: &mut Vec<Term>) {
    if state.outcome.is_some() {
        return;
    }
    let parts = rules.parts(state, side);
    crate::common::terms::named(&parts, &TERMS, out);
}

/// The computer's plans (not a rule: how it groups the atomic actions). In the
/// movement phase a character may go the whole way to each hex it can reach, as one
/// plan of steps; turning on the spot (a free action, SK-ACT-4) is offered only
/// while the phase has had fewer turns than the acting side has characters that may
/// turn, so that nobody turns back and forth for ever (nor, the last one standing,
/// ten times a phase to no purpose: a turn that changes nothing ties with the others). Every other legal action is a plan of its own;
/// ending the phase or letting a window pass is the pass.
impl Skirmish {
    pub(crate) fn ai_plans(&self, state: &State, out: &mut Vec<Plan<Action>>) {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        let mut first_steps = Vec::new();
        // The characters that may turn now: the acting side's, in play.
        let mut turners: Vec<UnitId> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Face { unit, .. } => Some(*unit),
                _ => None,
            })
            .collect();
        turners.sort_unstable();
        turners.dedup();
        let turns_left = usize::from(state.turned) < turners.len();
        for a in legal {
            match a {
                Action::Move { unit, to, evasive } => {
                    if !evasive {
                        first_steps.push((unit, to));
                    }
                }
                Action::Face { unit, .. } => {
                    if turns_left {
                        out.push(Plan::of_unit(unit, vec![a]));
                    }
                }
                Action::Charge { unit, .. }
                | Action::Defend { unit }
                | Action::Flee { unit }
                | Action::Attack { unit, .. }
                | Action::Opportunity { unit, .. }
                | Action::ShortMove { unit, .. }
                | Action::Shoot { unit, .. }
                | Action::Maneuver { unit, .. } => out.push(Plan::of_unit(unit, vec![a])),
                Action::Pass | Action::EndPhase => out.push(Plan::single(a)),
            }
        }
        let mut movers: Vec<UnitId> = first_steps.iter().map(|&(u, _)| u).collect();
        movers.dedup();
        for unit in movers {
            let step = |to| Action::Move {
                unit,
                to,
                evasive: false,
            };
            let mut led = Vec::new();
            if state.charge.is_some() {
                // A charger's reach is its next steps (SK-CHG-5): those listed, in the
                // neighbours' order as `reachable` checks them, less a step into a
                // friend's hex that ends the run there (put back, SK-MOV-18).
                for &(_, to) in first_steps.iter().filter(|&&(u, _)| u == unit) {
                    if !self.friend_at(state, unit, to) || super::view::stays(self, state, unit, to)
                    {
                        led.push(to);
                        out.push(Plan::of_unit(unit, vec![step(to)]));
                    }
                }
                if cfg!(debug_assertions) {
                    let reached: Vec<_> = self.reachable(state, unit).unwrap_or_default();
                    let firsts: Vec<_> = reached.iter().filter_map(|r| r.path.first()).collect();
                    assert!(reached.iter().all(|r| r.path.len() == 1), "{reached:?}");
                    assert_eq!(
                        led.iter().collect::<Vec<_>>(),
                        firsts,
                        "{unit:?}'s charge steps"
                    );
                }
            } else {
                super::view::reached_paths(self, state, unit, |path| {
                    let Some(&first) = path.first() else {
                        return;
                    };
                    if first_steps.contains(&(unit, first)) {
                        led.push(first);
                        out.push(Plan::of_unit(
                            unit,
                            path.iter().map(|&to| step(to)).collect(),
                        ));
                    }
                });
            }
            // A character with legal steps but no reached path (reachable refused, or
            // its one step goes into a friend's hex and is put back, SK-MOV-18) has
            // each step as a plan: a Panicked one must still be able to take it.
            if led.is_empty() {
                for &(_, to) in first_steps.iter().filter(|&&(u, _)| u == unit) {
                    out.push(Plan::of_unit(unit, vec![step(to)]));
                }
            }
        }
    }

    pub(crate) fn ai_pass(&self, state: &State) -> Option<Action> {
        if state.outcome.is_some() {
            return None;
        }
        Some(if state.window.is_some() {
            Action::Pass
        } else {
            Action::EndPhase
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skirmish::facing::{attack_arc, Arc};

    /// The score as it was written before the characters were placed once: each
    /// character walks the other side's.
    fn walked_score(rules: &Skirmish, state: &State, side: &str) -> f64 {
        let me = u8::from(rules.sides[1] == side);
        if let Some(o) = &state.outcome {
            return match &o.winner {
                Some(w) if w == side => 1000.0,
                Some(_) => -1000.0,
                None => 0.0,
            };
        }
        let front = rules.data.facing.front_turns;
        let mut score = 0.0;
        for u in rules.ids() {
            let sign = if rules.side_of(u) == me { 1.0 } else { -1.0 };
            let c = Skirmish::ch(state, u);
            let Some(h) = c.hex else {
                score -= sign * 12.0;
                continue;
            };
            let health = f64::from(rules.health(u));
            let mut v = 10.0 - 6.0 * f64::from(c.damage) / health;
            if c.dazed {
                v -= 2.0;
            }
            if c.panicked {
                v -= 3.0;
            }
            if c.quick {
                v += 0.3;
            }
            if Skirmish::can_riposte(state, u) {
                v += 0.2;
            }
            if c.defending.is_some() {
                v += 0.5;
            }
            // Exposure: enemies within striking distance at its flank or rear.
            let mut nearest = u32::MAX;
            for e in rules.side_ids(1 - rules.side_of(u)) {
                let Some(eh) = Skirmish::ch(state, e).hex else {
                    continue;
                };
                let d = eh.distance(h);
                nearest = nearest.min(d);
                if d <= u32::from(rules.weapons[e.index()].longest()) + 1 {
                    match attack_arc(h, c.facing, eh, front) {
                        Arc::Front => {}
                        Arc::Flank => v -= 0.8,
                        Arc::Rear => v -= 1.5,
                    }
                }
            }
            if rules.side_of(u) == me && !c.panicked && nearest != u32::MAX {
                // Closing in: the fight is won by striking.
                v -= 0.25
                    * f64::from(
                        nearest.saturating_sub(u32::from(rules.weapons[u.index()].reach.max(1))),
                    );
            }
            score += sign * v;
        }
        // Time passing is worth a hair, and every facing change in a phase costs more
        // than the last: between actions that change nothing that matters (turning a
        // character nobody threatens), ending the phase wins, and a forced action that
        // looks bad (a flight, a berserk attack) is not put off for ever by turning on
        // the spot.
        score += 0.02 * f64::from(super::super::turn::half(state))
            + if state.phase == super::super::Phase::Melee {
                0.01
            } else {
                0.0
            }
            - 0.25 * f64::from(state.turned)
            - 0.1 * f64::from(state.turned).powi(2);
        if let Some(ch) = &state.charge {
            for l in &ch.legs {
                if !l.done {
                    let sign = if rules.side_of(l.run.unit) == me {
                        1.0
                    } else {
                        -1.0
                    };
                    score += sign * 1.5;
                }
            }
        }
        score
    }

    /// The score reads the characters placed once as each character's walk over the
    /// other side read them: the same number (to the bit before the score was summed
    /// by its named terms, to the rounding since), for both sides, at every state of
    /// random games of the built-in scenario.
    #[test]
    fn the_score_of_the_placed_characters_is_the_walked_score() {
        let mut checked = 0;
        for seed in 1..=4 {
            let (rules, states) =
                crate::skirmish::test_games::random_states(seed, seed.wrapping_mul(7_919), 400);
            for state in states {
                for side in [rules.side_name(0), rules.side_name(1)] {
                    let (a, b) = (
                        score(&rules, &state, side),
                        walked_score(&rules, &state, side),
                    );
                    assert!((a - b).abs() < 1e-9, "{side}: {a} {b}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
    }
}
