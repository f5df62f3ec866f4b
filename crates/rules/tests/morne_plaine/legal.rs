//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts, on the golden positions (and every position one action after them) and on
//! states of random playouts of the built-in scenarios. The legal list and `explain` ask
//! the same cheap checks (`NoMove`, `Block`, `NoCharge`, `NoFire`, `NoAttack`), so a
//! condition written in one and not the other shows up here.

use super::golden;
use crate::common::{self, playout};
use grognard_engine::{Ctx, Dice, Game, Ruleset, UnitId};
use grognard_rules::morne_plaine::{Action, Event, MornePlaine, State};

/// Every action that could be legal in `state`: each unit's step to each neighbour, each
/// unit's charge, attack and fire at each unit (fire at the unit's hex), and ending the
/// phase.
fn candidates(state: &State) -> Vec<Action> {
    let units: Vec<UnitId> = (0..state.units.len())
        .map(|i| UnitId(u16::try_from(i).unwrap()))
        .collect();
    let mut out = vec![Action::EndPhase];
    for &unit in &units {
        if let Some(h) = state.units[unit.index()].hex {
            out.extend(h.neighbors().map(|to| Action::Move { unit, to }));
        }
        for &target in &units {
            out.push(Action::Charge { unit, target });
            out.push(Action::Attack { unit, target });
            if let Some(at) = state.units[target.index()].hex {
                out.push(Action::Bombard { unit, target: at });
            }
        }
    }
    out
}

/// Asserts that the legal list of `state` holds each candidate `explain` accepts, once,
/// and nothing else; returns how many legal actions there were.
fn check(rules: &MornePlaine, state: &State, at: &str) -> usize {
    playout::assert_gates(rules, state, &candidates(state), at);
    common::legal(rules, state).len()
}

#[test]
fn legal_list_is_exactly_what_explain_accepts() {
    let mut states = 0;
    let mut actions = 0;
    // The golden positions, and every position one action after each.
    for p in golden::positions() {
        let (rules, state) = (&*p.game.rules, &p.game.state);
        actions += check(rules, state, p.name);
        states += 1;
        let mut legal = Vec::new();
        rules.legal_actions(state, &mut legal);
        for a in legal {
            let (mut s, mut dice, mut events) =
                (state.clone(), p.game.dice.clone(), Vec::<Event>::new());
            rules.apply_unchecked(&mut s, &a, &mut Ctx::new(&mut dice, &mut events));
            actions += check(rules, &s, &format!("{} then {a:?}", p.name));
            states += 1;
        }
    }
    // Random playouts: every 4th state, and every state that offers a charge.
    let mut charges = 0;
    for (id, seed) in [
        ("heights-of-aubrac", 3),
        ("heights-of-aubrac", 7),
        ("bridge-at-morne", 4),
    ] {
        let mut game = Game::<MornePlaine>::new(common::builtin(id), Some(seed)).unwrap();
        let mut pick = Dice::new(seed);
        let mut n = 0u32;
        while game.state().outcome.is_none() {
            let legal = game.legal_actions();
            let charge = legal.iter().any(|a| matches!(a, Action::Charge { .. }));
            if n % 4 == 0 || charge {
                actions += check(
                    game.rules(),
                    game.state(),
                    &format!("{id} seed {seed}, action {n}"),
                );
                states += 1;
                charges += usize::from(charge);
            }
            let i = pick.next(u32::try_from(legal.len()).unwrap()).0 - 1;
            game.apply(legal[i as usize]).unwrap();
            n += 1;
        }
    }
    assert!(states >= 300, "only {states} states checked");
    println!("{states} states, {actions} legal actions, {charges} offering a charge");
}
