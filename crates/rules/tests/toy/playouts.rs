//! Random playouts of the toy through the kit's checker: the legal list is exactly the
//! candidates `explain` accepts on every state, and a saved game replays.

use super::duel::{Action, Duel};
use super::{registry, scenario};
use crate::common::playout;
use grognard_engine::{AnyGame, Dice, Game, Ruleset, UnitId};

/// Every action of every shape: each duellist's strike and step to every map hex.
fn candidates(rules: &Duel) -> Vec<Action> {
    let map = *rules.names().map();
    let mut out = Vec::new();
    for unit in [UnitId(0), UnitId(1)] {
        out.push(Action::Strike { unit });
        out.extend((0..map.len()).map(|i| Action::Move {
            unit,
            to: map.hex_at(i),
        }));
    }
    out
}

#[test]
fn legal_list_is_explain_accepted_candidates_on_random_playout_states() {
    for seed in 0..20 {
        let mut game = Game::<Duel>::new(scenario(), Some(seed)).unwrap();
        let all = candidates(game.rules());
        let check = |g: &Game<Duel>, _: &[Action], n: usize, _: &mut Dice| {
            playout::assert_gates(
                g.rules(),
                g.state(),
                &all,
                &format!("seed {seed}, action {n}"),
            );
        };
        let n = playout::play(&mut game, &mut Dice::new(seed), 100, check, |_, _| {});
        assert!(
            game.state().outcome.is_some(),
            "seed {seed}: unfinished after {n}"
        );
        let any: &dyn AnyGame = &game;
        let again = registry().load_game(&any.save()).unwrap();
        assert_eq!(again.state(), any.state(), "seed {seed}: replay differs");
    }
}
