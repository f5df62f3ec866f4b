//! How the computer opponent judges a JOMINI position (not a rule: a heuristic for
//! `Ruleset::evaluate`).

use super::{victory, Action, Jomini, State};
use crate::commands_colors::ai::{best_target, final_score, threat_share, unit_value};
use grognard_engine::{Ctx, Dice, Plan, Ruleset, UnitId};

/// A victory point (an enemy unit eliminated, an objective's value): the unit of the
/// evaluation, comparable with a Battle Cry flag under the search's logistic of 8.
const POINT: f64 = 4.0;
/// What a unit at full strength is worth on top of the point it would give the enemy.
const UNIT: f64 = 2.5;
/// An officer on the table (he activates and leads units, JO-ORD).
const OFFICER: f64 = 1.0;
/// An order token (JO-ORD-1).
const TOKEN: f64 = 0.5;
/// A hex between a unit and the nearest enemy unit.
const CLOSING: f64 = 0.1;
/// A hex between a unit and the nearest objective its side does not hold: the pull
/// that brings an attacker across a river before the last turn (JO-VIC-2).
const OBJECTIVE: f64 = 0.25;
/// A unit of the side to act that has joined an activation (JO-CMD-1 to JO-CMD-3) and
/// not yet moved: the worth of an order given. Without it an activation scores no
/// better than standing still, one plan ahead, until its units move, and the search's
/// simulations would never activate an officer. Groups are dissolved at the end of the
/// turn, so nothing of it is left in a position scored after the turn.
const READY: f64 = 0.2;
/// The chance a combat die takes a stand: an approximation (a face of the target's
/// class, and others by circumstance, JO-DIE-1).
const HIT: f64 = 1.0 / 3.0;

/// The expected worth of the damage the units of `side` can deal next turn: for each,
/// the best target in range (an adjacent one if any, JO-COM-4) by its dice less the
/// target's terrain (JO-COM-5): stands lost, and the point when the expected hits
/// reach the stands left. Line of sight and the mounts' shelter are left out.
fn threat(rules: &Jomini, state: &State, side: u8) -> f64 {
    let mut total = 0.0;
    for u in rules.piece_ids() {
        let piece = rules.piece(u);
        let (Some(from), true) = (
            state.pieces[u.index()].hex,
            piece.side == side && !piece.officer,
        ) else {
            continue;
        };
        let targets = rules.piece_ids().filter_map(|t| {
            let target = rules.piece(t);
            let q = &state.pieces[t.index()];
            let to = q.hex.filter(|_| target.side != side && !target.officer)?;
            Some((to, (target, q)))
        });
        total += best_target(&piece.row.dice, from, targets, |to, (target, q), range| {
            let n = range.saturating_sub(rules.info(to).map_or(0, |i| i.protection));
            let stands = f64::from(q.strength);
            let hits = (f64::from(n) * HIT).min(stands);
            let full = f64::from(target.strength);
            let mut worth = unit_value(UNIT, stands, full) - unit_value(UNIT, stands - hits, full);
            if hits >= stands {
                worth += POINT;
            }
            worth
        });
    }
    total
}

/// Points toward victory weigh most (each, and more as the target comes near), then the
/// units on the table by their stands, officers and order tokens, the damage each side
/// can deal next turn, closing on the enemy and on the objectives the side does not
/// hold, from `side`'s view.
pub(crate) fn score(rules: &Jomini, state: &State, side: &str) -> f64 {
    let Some(me) = rules.side_index(side) else {
        return 0.0;
    };
    if let Some(o) = &state.outcome {
        return final_score(o, side);
    }
    let mut score = 0.0;
    for s in 0..2u8 {
        let sign = if s == me { 1.0 } else { -1.0 };
        let have = f64::from(victory::points(rules, state, s));
        let need = f64::from(rules.target[usize::from(s)]);
        score += sign * (POINT * have + POINT / (need - have).max(1.0));
        score += sign * TOKEN * f64::from(state.tokens[usize::from(s)]);
        score += sign * threat_share(s, state.active) * threat(rules, state, s);
    }
    for u in rules.piece_ids() {
        let p = &state.pieces[u.index()];
        let piece = rules.piece(u);
        let Some(h) = p.hex else { continue };
        let sign = if piece.side == me { 1.0 } else { -1.0 };
        if piece.officer {
            score += sign * OFFICER;
            continue;
        }
        score += sign * unit_value(UNIT, f64::from(p.strength), f64::from(piece.strength));
        if piece.side == me && state.active == me && p.group.is_some() && !p.moved {
            score += READY;
        }
        if piece.side == me {
            let nearest = rules
                .piece_ids()
                .filter(|&e| rules.side_of(e) != me && !rules.piece(e).officer)
                .filter_map(|e| state.pieces[e.index()].hex)
                .map(|e| e.distance(h))
                .min();
            if let Some(d) = nearest {
                score -= CLOSING * f64::from(d);
            }
            let objective = rules
                .objectives
                .iter()
                .zip(&state.held)
                .filter(|(_, held)| **held != Some(me))
                .map(|(o, _)| o.hex.distance(h))
                .min();
            if let Some(d) = objective {
                score -= OBJECTIVE * f64::from(d);
            }
        }
    }
    score
}

/// The computer's plans (not a rule: how it groups the atomic actions): every legal
/// action is a plan (a move already goes the whole way, JO-MOV-1), but a piece that
/// has moved this phase is offered no second move, so that no officer walks back
/// and forth, and an officer's activation comes with the units that join it
/// ([`activations`]).
pub(crate) fn plans(rules: &Jomini, state: &State, out: &mut Vec<Plan<Action>>) {
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    for a in legal {
        match a {
            Action::Move { unit, .. } if state.pieces[unit.index()].moved => {}
            Action::Activate { unit } if rules.piece(unit).officer => {
                activations(rules, state, unit, out);
            }
            Action::Activate { unit }
            | Action::Move { unit, .. }
            | Action::Exit { unit }
            | Action::Attack { unit, .. }
            | Action::Retreat { unit, .. } => out.push(Plan::of_unit(unit, vec![a])),
            Action::Order {
                unit: Some(unit), ..
            } => out.push(Plan::of_unit(unit, vec![a])),
            _ => out.push(Plan::single(a)),
        }
    }
}

/// An officer's activation as the player thinks of it (JO-CMD-1 to JO-CMD-3): the
/// officer, then the units that join him, as one plan: the officer alone, and each
/// choice of up to three of the units that may join him then (one plan a set, in the
/// order listed; a unit that can no longer join ends the plan there).
fn activations(rules: &Jomini, state: &State, officer: UnitId, out: &mut Vec<Plan<Action>>) {
    let open = Action::Activate { unit: officer };
    let mut after = state.clone();
    let (mut dice, mut events) = (Dice::new(0), Vec::new());
    rules.apply_unchecked(&mut after, &open, &mut Ctx::new(&mut dice, &mut events));
    let mut legal = Vec::new();
    rules.legal_actions(&after, &mut legal);
    let joining: Vec<UnitId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Activate { unit } if !rules.piece(*unit).officer => Some(*unit),
            _ => None,
        })
        .collect();
    out.push(Plan::of_unit(officer, vec![open.clone()]));
    let n = joining.len();
    let plan = |units: &[UnitId]| {
        let mut steps = vec![open.clone()];
        steps.extend(units.iter().map(|&unit| Action::Activate { unit }));
        Plan::of_unit(officer, steps)
    };
    for i in 0..n {
        out.push(plan(&[joining[i]]));
        for j in i + 1..n {
            out.push(plan(&[joining[i], joining[j]]));
            for k in j + 1..n {
                out.push(plan(&[joining[i], joining[j], joining[k]]));
            }
        }
    }
}

/// The action that closes the current phase, when it is legal.
pub(crate) fn pass(rules: &Jomini, state: &State) -> Option<Action> {
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    legal.into_iter().find(|a| {
        matches!(
            a,
            Action::EndCommand | Action::EndMovement | Action::EndTurn
        )
    })
}
