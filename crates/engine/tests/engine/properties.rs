//! Properties over random races: replay reproduces the state byte for byte, saves
//! travel as JSON text, and an action is in `legal` exactly when `apply` takes it.

use crate::race::{Action, Race};
use crate::{race, race_scenario, registry, snapshot};
use grognard_engine::{AnyGame, Game, Ruleset, UnitId};
use grognard_hex::Hex;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// One step of a random game: which legal action, and perhaps a forced roll first.
#[derive(Clone, Debug)]
struct Step {
    pick: usize,
    force: Option<u32>,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (any::<usize>(), prop::option::weighted(0.2, 1u32..=6))
            .prop_map(|(pick, force)| Step { pick, force }),
        0..60,
    )
}

/// Plays `steps` from a new race; forced values are always faces of a d6.
fn play(seed: u64, steps: &[Step]) -> Game<Race> {
    let mut g = race(seed);
    for s in steps {
        let legal = g.legal_actions();
        if legal.is_empty() {
            break;
        }
        if let Some(v) = s.force {
            g.dice_mut().force([v]);
        }
        let a = legal[s.pick % legal.len()].clone();
        g.apply(a.clone())
            .unwrap_or_else(|r| panic!("legal {a:?} refused: {r}"));
    }
    g
}

/// Any action at all, legal or not: units past the end of the list, hexes off the
/// map, cards no hand holds.
fn candidate() -> impl Strategy<Value = Action> {
    prop_oneof![
        (0u16..4, -3i32..9, -6i32..6).prop_map(|(u, q, r)| Action::Move {
            unit: UnitId(u),
            to: Hex::new(q, r)
        }),
        Just(Action::Draw),
        (0u8..9).prop_map(|card| Action::Block { card }),
        Just(Action::Pass),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 200,
        // The file lives beside this one: proptest cannot find a crate root from here.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/engine/properties.proptest-regressions",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn replaying_the_log_reproduces_the_state_byte_for_byte(seed in any::<u64>(), steps in steps()) {
        let g = play(seed, &steps);
        let replayed = Game::<Race>::replay(
            race_scenario(),
            seed,
            g.log().iter().map(|e| (e.action.clone(), e.forced.clone())),
        )
        .unwrap();
        prop_assert_eq!(serde_json::to_string(replayed.state()).unwrap(), serde_json::to_string(g.state()).unwrap());
        // A replay rebuilds the log's forced values, not those still queued.
        let mut g = g;
        g.dice_mut().clear_forced();
        prop_assert_eq!(snapshot(&replayed), snapshot(&g));
    }

    #[test]
    fn a_save_through_json_text_loads_back_to_the_same_game(seed in any::<u64>(), steps in steps(), pending in prop::collection::vec(1u32..=6, 0..3)) {
        let mut g = play(seed, &steps);
        g.dice_mut().force(pending);
        let text = serde_json::to_string(&g.save()).unwrap();
        let again = Game::<Race>::from_saved(&serde_json::from_str(&text).unwrap()).unwrap();
        prop_assert_eq!(snapshot(&again), snapshot(&g));
        let any = registry().load_game(&serde_json::from_str(&text).unwrap()).unwrap();
        prop_assert_eq!(any.state(), AnyGame::state(&g));
        prop_assert_eq!(serde_json::to_string(&any.save()).unwrap(), text);
    }

    #[test]
    fn an_action_is_legal_exactly_when_apply_takes_it(
        seed in any::<u64>(),
        steps in steps(),
        candidates in prop::collection::vec(candidate(), 1..20),
    ) {
        let g = play(seed, &steps);
        let legal = g.legal_actions();
        prop_assert_eq!(legal.is_empty(), g.rules().to_act(g.state()).is_none());
        let all = legal.iter().cloned().chain(candidates);
        for a in all {
            let listed = legal.contains(&a);
            let explained = g.rules().explain(g.state(), &a);
            let mut copy = g.clone();
            let applied = copy.apply(a.clone());
            prop_assert_eq!(listed, applied.is_ok(), "{:?}: listed {} but apply gave {:?}", a, listed, applied.as_ref().err());
            prop_assert_eq!(listed, explained.legal, "{:?}: explain disagrees: {:?}", a, explained.reasons);
            prop_assert!(!explained.reasons.is_empty(), "{:?}: explain gives no reason", a);
            if applied.is_err() {
                prop_assert_eq!(snapshot(&copy), snapshot(&g));
            }
        }
    }

    #[test]
    fn undo_after_an_action_without_dice_restores_the_game(seed in any::<u64>(), steps in steps(), pick in any::<usize>()) {
        let mut g = play(seed, &steps);
        let legal = g.legal_actions();
        prop_assume!(!legal.is_empty());
        let before = snapshot(&g);
        g.apply(legal[pick % legal.len()].clone()).unwrap();
        if g.log().last().unwrap().rolls == 0 {
            g.undo().unwrap();
            prop_assert_eq!(snapshot(&g), before);
        } else {
            let after = snapshot(&g);
            prop_assert!(g.undo().is_err());
            prop_assert_eq!(snapshot(&g), after);
        }
    }
}
