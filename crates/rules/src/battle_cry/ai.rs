//! How the computer opponent handles Battle Cry (not a rule: how it groups the
//! atomic actions and what it may know).
//!
//! - Every legal action is a plan (a move already goes the whole way, BC-MOV-1);
//!   the pass is the action that closes the current step: stop ordering, stop
//!   moving, end the turn, or let a window go by.
//! - The computer never reads the other hand or the order of the deck (BC-CARD-1):
//!   it searches samples in which the cards it cannot see are dealt again at random
//!   between the other hand and the deck, each keeping its number of cards.

use super::data::Face;
use super::units::Kind;
use super::{cards, Action, BattleCry, State};
use crate::commands_colors::ai::{best_target, final_score, threat_share, unit_value};
use grognard_engine::{Dice, Plan, Ruleset, Seat, Term, UnitId};

impl BattleCry {
    pub(crate) fn ai_plans(&self, state: &State, out: &mut Vec<Plan<Action>>) {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        out.extend(legal.into_iter().map(|a| match a {
            Action::Order { unit }
            | Action::Move { unit, .. }
            | Action::Battle { unit, .. }
            | Action::Retreat { unit, .. } => Plan::of_unit(unit, vec![a]),
            _ => Plan::single(a),
        }));
    }

    pub(crate) fn ai_pass(&self, state: &State) -> Option<Action> {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        legal.into_iter().find(|a| {
            matches!(
                a,
                Action::DoneOrdering | Action::DoneMoving | Action::EndTurn | Action::Decline
            )
        })
    }

    pub(crate) fn ai_determinize(&self, state: &mut State, seat: &Seat, dice: &mut Dice) {
        let Seat::Side(side) = seat else {
            return;
        };
        let Some(me) = self.side_index(side) else {
            return;
        };
        let other = usize::from(1 - me);
        let mut pool: Vec<_> = state.hands[other].drain(..).collect();
        let held = pool.len();
        pool.append(&mut state.deck);
        // Sorted first, so that the sample depends only on which cards are unseen,
        // not on where they really are; then Fisher-Yates with the search's dice.
        pool.sort_unstable();
        for i in (1..pool.len()).rev() {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "a deck is far below 2^32 cards"
            )]
            let j = dice.next(i as u32 + 1).0 as usize - 1;
            pool.swap(i, j);
        }
        state.deck = pool.split_off(held);
        state.hands[other] = pool;
    }
}

/// Points a flag is worth: the unit of the evaluation (comparable with a JOMINI victory
/// point and a Morne Plaine strength point or two, under the search's logistic of 8).
const FLAG: f64 = 4.0;
/// What a unit at full strength is worth on top of the flag it would give the enemy.
const UNIT: f64 = 2.0;
/// A general on the map (Leadership orders, BC-CARD-7; flags ignored, BC-GEN-5).
const GENERAL: f64 = 1.5;
/// Units the best card in the hand can order, and each card that orders anything.
const BEST_CARD: f64 = 0.3;
const CARD: f64 = 0.1;

/// The parts of the evaluation and their weights, in the order of
/// [`BattleCry::parts`], all from the side's view (its own counted up, the enemy's
/// down):
/// - `flags`: the flags each side has won (BC-VIC-1);
/// - `target`: 1 / the flags each side still needs (at least 1);
/// - `threats`: the damage each side can deal next turn ([`BattleCry::threat`]), the
///   side to act counting half and the other a quarter ([`threat_share`]);
/// - `units`: each unit on the map, √(its figures' share of its full number);
/// - `generals`: the generals on the map;
/// - `best_card`: the units the best card of the side's own hand can order;
/// - `cards`: the cards of that hand that order anything.
pub(crate) const TERMS: [(&str, f64); 7] = [
    ("flags", FLAG),
    ("target", FLAG),
    ("threats", 1.0),
    ("units", UNIT),
    ("generals", GENERAL),
    ("best_card", BEST_CARD),
    ("cards", CARD),
];

/// The chance of at least `n` hits in `dice` dice that each hit with `p`.
fn at_least(dice: u8, p: f64, n: u8) -> f64 {
    if n == 0 {
        return 1.0;
    }
    if n > dice {
        return 0.0;
    }
    // 1 - P(fewer than n), by the binomial terms up to n - 1.
    let q = 1.0 - p;
    let mut term = q.powi(i32::from(dice));
    let mut below = term;
    for k in 1..n {
        term *= f64::from(dice - k + 1) / f64::from(k) * p / q.max(1e-9);
        below += term;
    }
    (1.0 - below).max(0.0)
}

impl BattleCry {
    fn full_figures(&self, kind: Kind) -> u8 {
        let f = &self.data.figures;
        match kind {
            Kind::Infantry => f.infantry,
            Kind::Cavalry => f.cavalry,
            Kind::Artillery => f.artillery,
            Kind::General => f.general,
        }
    }

    /// The chance a battle die hits a unit of `kind` (its own face or sabers).
    fn hit_chance(&self, kind: Kind) -> f64 {
        let faces = &self.data.dice.faces;
        let own = super::hits::matching(kind);
        #[expect(clippy::cast_precision_loss, reason = "a die has a handful of faces")]
        let n = faces
            .iter()
            .filter(|&&f| f == own || f == Face::Sabers)
            .count() as f64
            / faces.len().max(1) as f64;
        n
    }

    /// The expected worth of the damage `side` can deal next turn: for each of its
    /// units, the best target in range (the adjacent one if any, BC-BAT-2), by its
    /// dice less the target's protection (BC-TER-3): figures lost and the chance of
    /// the flag. Line of sight and the card are left out (cheap, and the card is
    /// unknown).
    fn threat(&self, state: &State, side: u8, chance: &[f64; 4]) -> f64 {
        let mut total = 0.0;
        let on_map = |u: UnitId| state.pieces[u.index()].hex;
        for u in self.piece_ids() {
            let (Some(from), true) = (on_map(u), self.side_of(u) == side && self.kind(u).is_unit())
            else {
                continue;
            };
            let targets = self
                .piece_ids()
                .filter(|&t| self.side_of(t) != side && self.kind(t).is_unit())
                .filter_map(|t| Some((on_map(t)?, t)));
            total += best_target(&self.row(u).dice, from, targets, |to, t, range| {
                let n =
                    range.saturating_sub(self.protection_total(self.protection_parts(from, to)));
                if n == 0 {
                    return 0.0;
                }
                let figures = state.pieces[t.index()].figures;
                let tk = self.kind(t);
                let pk = chance[tk as usize];
                let figs = f64::from(figures);
                let full = f64::from(self.full_figures(tk));
                let hits = (f64::from(n) * pk).min(figs);
                unit_value(UNIT, figs, full) - unit_value(UNIT, figs - hits, full)
                    + FLAG * at_least(n, pk, figures)
            });
        }
        total
    }

    /// Units the cards of `side`'s hand can order where they stand: the best card's
    /// count and the number of cards that order anything (BC-SEC-3, BC-CARD-2).
    fn hand_worth(&self, state: &State, side: u8) -> (f64, f64) {
        let mut per_section = [0u8; 3];
        let mut per_kind = [0u8; 4];
        let mut units = 0u8;
        for u in self.piece_ids() {
            let p = &state.pieces[u.index()];
            let Some(h) = p.hex else { continue };
            if self.side_of(u) != side {
                continue;
            }
            units = units.saturating_add(1);
            per_kind[self.kind(u) as usize] += 1;
            let m = self.sections_of(side, h);
            for (b, n) in per_section.iter_mut().enumerate() {
                if m & (1 << b) != 0 {
                    *n += 1;
                }
            }
        }
        let mut best = 0u8;
        let mut useful = 0u8;
        for &card in &state.hands[usize::from(side)] {
            let n = match cards::command(self, state, side, card) {
                cards::Command::Sections(caps) => (0..3)
                    .map(|b| caps[b].min(per_section[b]))
                    .fold(0u8, u8::saturating_add),
                cards::Command::Troops { kinds, n } => n.min(
                    Kind::ALL
                        .iter()
                        .filter(|&&k| kinds & cards::kind_bit(k) != 0)
                        .map(|&k| per_kind[k as usize])
                        .fold(0u8, u8::saturating_add),
                ),
                cards::Command::Leadership => per_kind[Kind::General as usize].saturating_mul(2),
                cards::Command::Any(n) => n.min(units),
            };
            best = best.max(n);
            useful += u8::from(n > 0);
        }
        (f64::from(best), f64::from(useful))
    }

    /// The values of [`TERMS`], in their order, of a game under way, for side `me`.
    fn parts(&self, state: &State, me: u8) -> [f64; TERMS.len()] {
        let mut v = [0.0; TERMS.len()];
        let mut chance = [0.0; 4];
        for k in Kind::ALL {
            chance[k as usize] = self.hit_chance(k);
        }
        for s in 0..2u8 {
            let sign = if s == me { 1.0 } else { -1.0 };
            let have = f64::from(state.flags[usize::from(s)]);
            let need = f64::from(self.flags_to_win[usize::from(s)]);
            // Each flag, and more as the last ones come near.
            v[0] += sign * have;
            v[1] += sign / (need - have).max(1.0);
            v[2] += sign * threat_share(s, state.active) * self.threat(state, s, &chance);
        }
        for u in self.piece_ids() {
            let p = &state.pieces[u.index()];
            if p.hex.is_none() {
                continue;
            }
            let sign = if self.side_of(u) == me { 1.0 } else { -1.0 };
            let kind = self.kind(u);
            if kind.is_unit() {
                v[3] += sign
                    * unit_value(
                        1.0,
                        f64::from(p.figures),
                        f64::from(self.full_figures(kind)),
                    );
            } else {
                v[4] += sign;
            }
        }
        (v[5], v[6]) = self.hand_worth(state, me);
        v
    }
}

/// How good the position is for `side`: flags won and still needed (dominant), the
/// units left by their figures, the generals, the damage each side can deal next
/// turn, and the cards of `side`'s own hand (never the other hand: the search
/// calls this on states it has dealt again, and the other hand is a guess): each of
/// [`TERMS`] times its weight.
pub(crate) fn score(rules: &BattleCry, state: &State, side: &str) -> f64 {
    let Some(me) = rules.side_index(side) else {
        return 0.0;
    };
    if let Some(o) = &state.outcome {
        return final_score(o, side);
    }
    let parts = rules.parts(state, me);
    crate::common::terms::weighed(&parts, &TERMS)
}

/// The evaluation's parts ([`TERMS`]) with their weights, for fitting the weights to
/// games. A finished game has none: its score is the result. No candidate term is
/// offered: the side's lead is already one of the terms.
pub(crate) fn terms(rules: &BattleCry, state: &State, side: &str, out: &mut Vec<Term>) {
    let Some(me) = rules.side_index(side) else {
        return;
    };
    if state.outcome.is_some() {
        return;
    }
    let parts = rules.parts(state, me);
    crate::common::terms::named(&parts, &TERMS, out);
}
