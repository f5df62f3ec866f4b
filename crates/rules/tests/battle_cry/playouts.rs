//! Random playouts of the built-in scenario.

use super::harness;
use grognard_engine::{Dice, Game, Ruleset};
use grognard_rules::battle_cry::BattleCry;

#[test]
fn random_playouts_finish() {
    let mut lengths = Vec::new();
    for seed in 0..50 {
        let mut game = Game::<BattleCry>::new(harness::builtin(), Some(seed)).unwrap();
        let mut dice = Dice::new(seed ^ 0x5eed);
        let mut n = 0;
        while game.rules().outcome(game.state()).is_none() {
            let legal = game.legal_actions();
            assert!(
                !legal.is_empty(),
                "seed {seed}: dead end at action {n}: {:?}",
                game.state()
            );
            let pick = (dice.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
            let action = legal[pick].clone();
            if let Err(e) = game.apply(action.clone()) {
                panic!("seed {seed}: legal {action:?} refused: {e}");
            }
            n += 1;
            assert!(n < 100_000, "seed {seed}: no end after {n} actions");
        }
        lengths.push((n, game.state().turn));
    }
    eprintln!("{lengths:?}");
}
