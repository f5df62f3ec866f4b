//! How the computer opponent judges a JOMINI position (not a rule: a heuristic for
//! `Ruleset::evaluate`).

use super::{victory, Action, Jomini, State};
use grognard_engine::{Plan, Ruleset};

/// Points toward victory weigh most, then stands on the table, then order tokens, then
/// closing on the enemy, from `side`'s view.
pub(crate) fn score(rules: &Jomini, state: &State, side: &str) -> f64 {
    let Some(me) = rules.side_index(side) else {
        return 0.0;
    };
    if let Some(o) = &state.outcome {
        return match &o.winner {
            Some(w) if w == side => 1e6,
            Some(_) => -1e6,
            None => 0.0,
        };
    }
    let mut score = 20.0
        * (f64::from(victory::points(rules, state, me))
            - f64::from(victory::points(rules, state, 1 - me)));
    score += 0.5 * f64::from(state.tokens[usize::from(me)]);
    let enemies: Vec<_> = rules
        .piece_ids()
        .filter(|&u| rules.side_of(u) != me && !rules.piece(u).officer)
        .filter_map(|u| state.pieces[u.index()].hex)
        .collect();
    for u in rules.piece_ids() {
        let p = &state.pieces[u.index()];
        let sign = if rules.side_of(u) == me { 1.0 } else { -1.0 };
        if rules.piece(u).officer {
            continue;
        }
        score += sign * 3.0 * f64::from(p.strength);
        if rules.side_of(u) == me {
            if let Some(h) = p.hex {
                if let Some(d) = enemies.iter().map(|&e| e.distance(h)).min() {
                    score -= 0.2 * f64::from(d);
                }
            }
        }
    }
    score
}

/// The computer's plans (not a rule: how it groups the atomic actions): every legal
/// action is a plan (a move already goes the whole way, JO-MOV-1), but a piece that
/// has moved this phase is offered no second move, so that no officer walks back
/// and forth.
pub(crate) fn plans(rules: &Jomini, state: &State, out: &mut Vec<Plan<Action>>) {
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    for a in legal {
        match a {
            Action::Move { unit, .. } if state.pieces[unit.index()].moved => {}
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
