//! Random playouts of the built-in scenario.

use crate::common;

#[test]
fn random_playouts_finish_and_replay() {
    for seed in 0..20 {
        let mut g = common::game(common::builtin("bridge-at-morne"));
        let n = common::random_playout(g.as_mut(), seed, 20_000);
        assert!(
            g.outcome().is_some(),
            "seed {seed}: no outcome after {n} actions"
        );
        let again = grognard_rules::registry().load_game(&g.save()).unwrap();
        assert_eq!(
            again.state().to_string(),
            g.state().to_string(),
            "seed {seed}: replay differs"
        );
    }
}
