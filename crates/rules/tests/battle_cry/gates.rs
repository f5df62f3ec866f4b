//! One gate per rule: the legal list is exactly the candidate actions that `explain`
//! accepts. The candidates are every action of every kind over every piece, hex, target
//! and card, so that a condition the legal list restates differently from the check
//! (or forgets) shows up here; checked on the golden positions and on states of random
//! playouts.

use super::golden::{position, POSITIONS};
use super::harness;
use grognard_engine::{Dice, Game, Ruleset, UnitId};
use grognard_rules::battle_cry::{Action, BattleCry, State};

/// Every action of every kind, legal or not.
fn candidates(rules: &BattleCry, s: &State) -> Vec<Action> {
    let units: Vec<UnitId> = (0..s.pieces.len())
        .map(|i| UnitId(u16::try_from(i).unwrap()))
        .collect();
    let map = *rules.names().map();
    let hexes: Vec<_> = (0..map.len()).map(|i| map.hex_at(i)).collect();
    let mut cards = rules.whole_deck().to_vec();
    cards.dedup();
    let mut v = vec![
        Action::Deal,
        Action::DoneOrdering,
        Action::DoneMoving,
        Action::EndTurn,
        Action::IgnoreFlag,
        Action::TakeGround,
        Action::FightBack,
        Action::Decline,
    ];
    for &card in &cards {
        v.push(Action::PlayCard { card });
        v.push(Action::Discard { card });
    }
    for &unit in &units {
        v.push(Action::Order { unit });
        for &target in &units {
            v.push(Action::Battle { unit, target });
        }
        for &to in &hexes {
            v.push(Action::Move { unit, to });
            v.push(Action::Retreat { unit, to });
        }
    }
    v
}

/// Asserts that the legal list is the candidates `explain` accepts, in `state`.
fn assert_gates(rules: &BattleCry, s: &State, ctx: &str) {
    let mut legal = Vec::new();
    rules.legal_actions(s, &mut legal);
    let all = candidates(rules, s);
    for a in &legal {
        assert!(all.contains(a), "{ctx}: listed {a:?} is no candidate");
        assert_eq!(
            legal.iter().filter(|b| *b == a).count(),
            1,
            "{ctx}: {a:?} listed twice"
        );
    }
    for a in &all {
        let e = rules.explain(s, a);
        assert_eq!(
            e.legal,
            legal.contains(a),
            "{ctx}: {a:?}: explain says {:?}",
            e.reasons
        );
    }
}

#[test]
fn legal_list_is_explain_accepted_candidates_on_golden_positions() {
    for (name, seed, n, _) in POSITIONS {
        let g = position(seed, n);
        assert_gates(g.rules(), g.state(), name);
    }
}

#[test]
fn legal_list_is_explain_accepted_candidates_on_random_playout_states() {
    let mut states = 0;
    for seed in 0..4u64 {
        let mut g = Game::<BattleCry>::new(harness::builtin(), Some(seed)).unwrap();
        let mut pick = Dice::new(seed ^ 0x6A7E);
        let mut n = 0;
        while g.rules().outcome(g.state()).is_none() {
            if n % 9 == 0 {
                assert_gates(g.rules(), g.state(), &format!("seed {seed}, action {n}"));
                states += 1;
            }
            let legal = g.legal_actions();
            let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
            g.apply(legal[i].clone()).unwrap();
            n += 1;
        }
        assert_gates(g.rules(), g.state(), &format!("seed {seed}, the end"));
    }
    assert!(states >= 200, "only {states} states checked");
}
