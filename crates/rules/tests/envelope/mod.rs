//! The view envelope every ruleset shares (docs/ENGINE-PROTOCOL.md), played through every
//! built-in scenario: `turn` is the game turn, from 1, never past `turns` and never going
//! back, so that a client can print "Turn 3 / 8" for any ruleset without knowing it.

use grognard_engine::{Dice, Seat};

#[test]
fn the_view_turn_is_the_game_turn_in_every_built_in_scenario() {
    let registry = grognard_rules::registry();
    for b in grognard_rules::builtin::SCENARIOS {
        let scenario = registry.load_scenario(b.path, b.text).unwrap();
        let mut game = registry.new_game(scenario, Some(7)).unwrap();
        let mut pick = Dice::new(11);
        let mut last = 0;
        let mut n = 0;
        loop {
            let v = game.view(&Seat::Omniscient);
            for key in ["turn", "turns", "phase", "active", "units"] {
                assert!(v.get(key).is_some(), "{}: the view lacks `{key}`", b.id);
            }
            let turn = v["turn"].as_u64().unwrap_or(0);
            assert!(turn >= last, "{}: turn went from {last} to {turn}", b.id);
            if let Some(turns) = v["turns"].as_u64() {
                assert!(turn <= turns, "{}: turn {turn} of {turns}", b.id);
            }
            last = turn;
            let legal = game.legal();
            if game.outcome().is_some() || legal.is_empty() || n == 3_000 {
                break;
            }
            let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
            game.apply(&legal[i]).unwrap();
            n += 1;
        }
        assert!(last >= 1, "{}: never past turn 0", b.id);
    }
}
