//! Random playouts of the built-in scenario: no panic and no dead end; invariants after
//! every action; `explain` agrees with `legal_actions` (legal iff it applies), deliberately
//! illegal candidates included; previews add up to 1; a saved game replays to the same state.

use super::harness;
use crate::common::playout;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Ctx, Dice, Game, Ruleset};
use grognard_rules::jomini::{Action, Event, Jomini, OrderKind, State};
use std::collections::HashMap;

/// The invariants every state keeps.
fn check_invariants(rules: &Jomini, s: &State, ctx: &str) {
    let mut units = HashMap::new();
    let mut officers = HashMap::new();
    let mut lost = [0u32; 2];
    for (i, p) in s.pieces.iter().enumerate() {
        let piece = &rules.pieces()[i];
        assert!(
            p.strength <= piece.strength,
            "{ctx}: {} over strength",
            piece.id
        );
        if p.strength == 0 {
            assert!(
                p.hex.is_none(),
                "{ctx}: eliminated {} on the table",
                piece.id
            );
            if !piece.officer {
                lost[usize::from(1 - piece.side)] += 1;
            }
        }
        if let Some(h) = p.hex {
            assert!(
                rules.names().map().contains(h),
                "{ctx}: {} off the table",
                piece.id
            );
            assert!(!p.waiting, "{ctx}");
            let map = if piece.officer {
                &mut officers
            } else {
                &mut units
            };
            assert!(
                map.insert(h, piece.side).is_none(),
                "{ctx}: two in {h:?} (JO-MOV-5)"
            );
        }
    }
    for (h, side) in &officers {
        if let Some(s2) = units.get(h) {
            assert_eq!(side, s2, "{ctx}: an officer with an enemy unit");
        }
    }
    assert_eq!(s.eliminated, lost, "{ctx}: eliminations counted");
    let mut legal = Vec::new();
    rules.legal_actions(s, &mut legal);
    assert_eq!(rules.to_act(s).is_some(), s.outcome.is_none(), "{ctx}");
    assert_eq!(legal.is_empty(), s.outcome.is_some(), "{ctx}: a dead end");
    // Activations within the army's allowance (JO-CMD-1).
    let officers_groups = s
        .groups
        .iter()
        .skip(usize::from(s.first_group))
        .filter(|g| g.officer.is_some())
        .count();
    let (count, size) = grognard_rules::jomini::command::activations(rules, s, s.active);
    assert!(
        officers_groups <= usize::from(count),
        "{ctx}: too many activations"
    );
    assert!(
        s.groups
            .iter()
            .all(|g| g.officer.is_none() || g.units <= size),
        "{ctx}: activation too big"
    );
}

/// Candidate actions, legal or not, for the consistency check.
fn candidates(rules: &Jomini, s: &State, dice: &mut Dice) -> Vec<Action> {
    let (unit, target, hex, near) = playout::sample(rules, dice, |u| s.pieces[u.index()].hex);
    let mut roll = |k: u32| dice.next(k).0 - 1;
    let order = OrderKind::ALL[roll(9) as usize];
    vec![
        Action::Activate { unit },
        Action::Order {
            order,
            unit: Some(unit),
            hexes: None,
        },
        Action::Order {
            order,
            unit: Some(unit),
            hexes: Some(1),
        },
        Action::Order {
            order,
            unit: None,
            hexes: None,
        },
        Action::EndCommand,
        Action::Move { unit, to: hex },
        Action::Move { unit, to: near },
        Action::Exit { unit },
        Action::EndMovement,
        Action::Attack { unit, target },
        Action::EndTurn,
        Action::Retreat { unit, to: near },
    ]
}

/// Plays one random game of the built-in scenario; returns it and the number of actions.
pub fn playout(seed: u64, checks: bool) -> (Game<Jomini>, usize) {
    playout_of(harness::builtin(), seed, checks)
}

/// Plays one random game of `scenario`; returns it and the number of actions.
pub fn playout_of(scenario: Scenario, seed: u64, checks: bool) -> (Game<Jomini>, usize) {
    let mut game = Game::<Jomini>::new(scenario, Some(seed)).unwrap();
    let mut dice = Dice::new(seed.wrapping_mul(0x9E37_79B9) ^ 0x10A1);
    let check = |game: &Game<Jomini>, legal: &[Action], n: usize, dice: &mut Dice| {
        if !checks {
            return;
        }
        if legal.is_empty() {
            check_invariants(game.rules(), game.state(), &format!("seed {seed}, the end"));
            return;
        }
        let ctx = format!("seed {seed}, action {n}");
        check_invariants(game.rules(), game.state(), &ctx);
        let (rules, state) = (game.rules(), game.state());
        let attack = |a: &Action| matches!(a, Action::Attack { .. });
        playout::assert_listed(rules, state, legal, attack, &ctx);
        for a in legal {
            // Legal iff it applies: the checked path takes it and changes the state.
            let mut next = state.clone();
            let (mut d, mut ev) = (Dice::new(seed), Vec::new());
            assert!(rules
                .apply(&mut next, a, &mut Ctx::new(&mut d, &mut ev))
                .is_ok());
        }
        let some = candidates(rules, state, dice);
        playout::assert_candidates(rules, state, legal, &some, ("JO-", true), &ctx);
    };
    let n = playout::play(&mut game, &mut dice, 20_000, check, |_, _| {});
    (game, n)
}

#[test]
fn random_playouts_finish_with_invariants_and_replay() {
    for seed in 0..60 {
        let (game, n) = playout(seed, seed < 6);
        playout::assert_ended(&game, n, seed, seed % 10 == 0);
    }
}

/// A small test scenario with elephants on both sides (JO-MOV-21): its games play to the
/// end with every action checked in some, and elephants panic in them.
#[test]
fn a_scenario_with_elephants_plays_to_the_end() {
    let scenario = crate::common::scenario(include_str!("elephants.toml"));
    let mut panics = 0;
    for seed in 0..40 {
        let (game, n) = playout_of(scenario.clone(), seed, seed < 4);
        playout::assert_ended(&game, n, seed, seed % 10 == 0);
        panics += game
            .log()
            .iter()
            .flat_map(|e| &e.events)
            .filter(|e| matches!(e, Event::Panicked { .. }))
            .count();
    }
    eprintln!("elephants: {panics} panics in 40 games");
    assert!(panics > 0, "no elephant panicked in 40 games");
}

#[test]
fn the_computer_opponent_prefers_points() {
    let s = harness::builtin();
    let rules = Jomini::new(&s).unwrap();
    let mut state = rules.initial_state();
    let before = rules.evaluate(&state, "french");
    state.eliminated[0] += 1;
    assert!(rules.evaluate(&state, "french") > before);
    assert!(
        rules.evaluate(&state, "prussian") < rules.evaluate(&rules.initial_state(), "prussian")
    );
}

/// Thousands of games, every action checked: `cargo test -p grognard-rules --release
/// jomini::playouts::thousands -- --ignored`.
#[test]
#[ignore = "slow: run with --release --ignored"]
fn thousands_of_random_playouts() {
    let mut total = 0;
    for seed in 0..2000 {
        let (_, n) = playout(seed, true);
        total += n;
    }
    eprintln!("2000 games, {total} actions");
}
