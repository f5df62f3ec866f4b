//! How the computer opponent judges a skirmish position (not a rule: a heuristic for
//! `Ruleset::evaluate`). It weighs the characters still fighting and their wounds and
//! statuses, keeps its own characters' flanks and rears away from enemies, closes in on
//! the enemy, and values a Quick Action kept for reactions and a charge under way. In the
//! passive side's windows the same score makes it react when a reaction (turning to face
//! an enemy come round its flank, stepping away) is worth more than the Quick Action it
//! spends, and strike at a character leaving its zone unless the riposte is worth more.

use super::facing::{attack_arc, Arc};
use super::{Action, Skirmish, State};
use grognard_engine::{Plan, Ruleset, Term, UnitId};
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;

thread_local! {
    /// The characters in play, and what the evaluation reads of each character that
    /// never changes, kept from one score to the next.
    static PLACED: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            binding: u64::MAX,
            fixed: Vec::new(),
            arcs: Vec::new(),
            placed: [Vec::new(), Vec::new()],
        })
    };
}

/// [`PLACED`]'s lists: `fixed` and `arcs` belong to the binding numbered `binding`
/// (`Skirmish::id`), rebuilt when another binding asks.
struct Scratch {
    binding: u64,
    fixed: Vec<Fixed>,
    /// [`Arcs`] for the binding's front (`front_turns`).
    arcs: Arcs,
    /// Each side's characters in play, in scenario order.
    placed: [Vec<Placed>; 2],
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

/// A character in play as the evaluation reads it.
#[derive(Clone, Copy)]
struct Placed {
    hex: Hex,
    /// Its hex's third cube coordinate, for the distances.
    s: i32,
    /// Its hex's key in [`Arcs`]' square of offsets (`q × SIDE + r`).
    key: i32,
    /// Where the arcs of its facing lie in [`Arcs`], less its own key: an attacker
    /// within [`NEAR`] strikes the arc at `front + attacker.key`.
    front: i32,
    facing: Direction,
    /// 0 for the side whose view the score takes, 1 for the enemy.
    whose: u8,
    /// The distance it strikes at: its longest reach and a step.
    strike: u32,
    /// Its reach, at least 1, for closing in.
    reach: u32,
    /// Whether it closes in: the side's own and not Panicked.
    closes: bool,
    /// The distance to the nearest enemy in play.
    nearest: u32,
}

impl Placed {
    /// A character of `whose` side standing at `hex` facing `facing`.
    fn new(hex: Hex, facing: Direction, whose: u8, f: &Fixed, closes: bool) -> Placed {
        let key = hex.q * SIDE_I + hex.r;
        Placed {
            hex,
            s: -hex.q - hex.r,
            key,
            front: facing as i32 * SIDE_I * SIDE_I + NEAR * (SIDE_I + 1) - key,
            facing,
            whose,
            strike: f.strike,
            reach: f.reach,
            closes,
            nearest: u32::MAX,
        }
    }

    /// The distance between two characters' hexes (`Hex::distance`).
    fn distance(&self, other: &Placed) -> u32 {
        let d = (self.hex.q - other.hex.q).unsigned_abs()
            + (self.hex.r - other.hex.r).unsigned_abs()
            + (self.s - other.s).unsigned_abs();
        d / 2
    }
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

/// The terms of [`TERMS`] that count characters (or enemies at their flanks and
/// rears): each the side's count less the enemy's.
const COUNTED: [usize; 9] = [0, 2, 3, 4, 5, 6, 7, 8, 9];

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
                scratch.arcs = arcs(self.data.facing.front_turns);
            }
            self.parts_placed(
                state,
                me,
                (&scratch.fixed, &scratch.arcs),
                &mut scratch.placed,
            )
        })
    }

    /// [`Skirmish::parts`] with what never changes of each character, and this
    /// thread's lists of the characters in play, by side. The terms that count
    /// characters are counted as whole numbers for each side and taken one from the
    /// other at the end: the same numbers as adding ±1 one at a time (whole numbers are
    /// exact), in any order. The wounds' shares are summed in scenario order, as
    /// always.
    fn parts_placed(
        &self,
        state: &State,
        me: u8,
        (fixed, arcs): (&[Fixed], &Arcs),
        placed: &mut [Vec<Placed>; 2],
    ) -> [f64; TERMS.len()] {
        let front_turns = self.data.facing.front_turns;
        placed[0].clear();
        placed[1].clear();
        // The counted terms, the side's (0) and the enemy's (1).
        let mut n = [[0i32; TERMS.len()]; 2];
        let mut v = [0.0; TERMS.len()];
        for (u, f) in self.ids().zip(fixed) {
            let whose = u8::from(f.side != me);
            let counts = &mut n[usize::from(whose)];
            let c = Self::ch(state, u);
            let Some(hex) = c.hex else {
                counts[2] += 1;
                continue;
            };
            counts[0] += 1;
            if c.damage > 0 {
                // A share of nothing adds nothing (the sum is never -0).
                let sign = if whose == 0 { 1.0 } else { -1.0 };
                v[1] += sign * f64::from(c.damage) / f.health;
            }
            counts[3] += i32::from(c.dazed);
            counts[4] += i32::from(c.panicked);
            counts[5] += i32::from(c.quick);
            counts[6] += i32::from(Self::can_riposte(state, u));
            counts[7] += i32::from(c.defending.is_some());
            placed[usize::from(f.side & 1)].push(Placed::new(
                hex,
                c.facing,
                whose,
                f,
                whose == 0 && !c.panicked,
            ));
        }
        // Exposure: enemies within striking distance at a character's flank or rear.
        // Each pair of enemies once: one distance, each the other's attacker.
        let mut exposed = |target: &Placed, from: &Placed, d: u32| {
            let arc = arc_of(arcs, target, from, d, front_turns);
            match arc {
                Arc::Front => {}
                Arc::Flank => n[usize::from(target.whose)][8] += 1,
                Arc::Rear => n[usize::from(target.whose)][9] += 1,
            }
        };
        let [zero, one] = placed;
        for pa in zero.iter_mut() {
            for pb in one.iter_mut() {
                let d = pa.distance(pb);
                debug_assert_eq!(d, pa.hex.distance(pb.hex));
                pa.nearest = pa.nearest.min(d);
                pb.nearest = pb.nearest.min(d);
                if d <= pb.strike {
                    exposed(pa, pb, d);
                }
                if d <= pa.strike {
                    exposed(pb, pa, d);
                }
            }
        }
        for k in COUNTED {
            v[k] = f64::from(n[0][k] - n[1][k]);
        }
        // Closing in: the fight is won by striking.
        let closing: u32 = zero
            .iter()
            .chain(one.iter())
            .filter(|p| p.closes && p.nearest != u32::MAX)
            .map(|p| p.nearest.saturating_sub(p.reach))
            .sum();
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

/// The farthest offset, in each axis, of the arcs kept in [`Arcs`].
const NEAR: i32 = 8;
/// The side of the square of offsets kept in [`Arcs`].
const SIDE: usize = 2 * NEAR as usize + 1;
/// [`SIDE`] for the keys' arithmetic.
const SIDE_I: i32 = 2 * NEAR + 1;

/// For each facing (in [`Direction::ALL`]'s order) and each offset `(q, r)` of an
/// attacker from its target within [`NEAR`] in both axes, the arc it strikes
/// (SK-FAC-2, [`attack_arc`]) for one front.
type Arcs = Vec<Arc>;

/// [`Arcs`] for a front of `front_turns`.
fn arcs(front_turns: u8) -> Arcs {
    let mut table = Vec::with_capacity(6 * SIDE * SIDE);
    for facing in Direction::ALL {
        for q in -NEAR..=NEAR {
            for r in -NEAR..=NEAR {
                table.push(attack_arc(Hex::ORIGIN, facing, Hex::new(q, r), front_turns));
            }
        }
    }
    table
}

/// [`attack_arc`] (SK-FAC-2) of an attacker at distance `d` from its target, read
/// from `arcs` when within [`NEAR`] (as it is whenever the evaluation asks: within
/// striking distance, and then within [`NEAR`] in both axes): the same arc.
#[expect(
    clippy::cast_sign_loss,
    reason = "an offset within NEAR in both axes indexes the table"
)]
fn arc_of(arcs: &Arcs, target: &Placed, from: &Placed, d: u32, front_turns: u8) -> Arc {
    if d > NEAR.unsigned_abs() {
        return attack_arc(target.hex, target.facing, from.hex, front_turns);
    }
    let a = arcs[(target.front + from.key) as usize];
    debug_assert_eq!(
        a,
        attack_arc(target.hex, target.facing, from.hex, front_turns)
    );
    a
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
                for r in self.reachable(state, unit).unwrap_or_default() {
                    let Some(&first) = r.path.first() else {
                        continue;
                    };
                    if first_steps.contains(&(unit, first)) {
                        led.push(first);
                        out.push(Plan::of_unit(
                            unit,
                            r.path.iter().map(|&to| step(to)).collect(),
                        ));
                    }
                }
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

    /// SK-FAC-2: the arcs read from the table are the arcs worked out, for every front,
    /// facing and offset within the table's distance and a little beyond it (where the
    /// table is not read).
    #[test]
    fn sk_fac_2_the_arcs_read_from_the_table_are_the_arcs_worked_out() {
        let target = Hex::new(3, -2);
        let f = Fixed {
            side: 0,
            strike: 1,
            reach: 1,
            health: 1.0,
        };
        let mut checked = 0;
        for front in 0..=3u8 {
            let table = arcs(front);
            for facing in Direction::ALL {
                let t = Placed::new(target, facing, 0, &f, true);
                for q in -NEAR - 2..=NEAR + 2 {
                    for r in -NEAR - 2..=NEAR + 2 {
                        let from = Hex::new(target.q + q, target.r + r);
                        let a = Placed::new(from, Direction::ALL[0], 1, &f, false);
                        assert_eq!(
                            arc_of(&table, &t, &a, target.distance(from), front),
                            attack_arc(target, facing, from, front),
                            "front {front}, facing {facing:?}, offset ({q}, {r})"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 4 * 6 * 21 * 21);
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
