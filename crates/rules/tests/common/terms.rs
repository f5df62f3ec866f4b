//! The evaluation's named terms (`Ruleset::evaluation_terms`), checked against
//! `Ruleset::evaluate` through random games: the check every ruleset's tests share.

use grognard_engine::scenario::Scenario;
use grognard_engine::{Dice, Game, Ruleset};

/// Plays random games of `scenario` with `seeds`, and every `every` actions checks, for
/// both `sides`: the terms have distinct names, `count` of them; their weighted sum is
/// the evaluation; a candidate `lead`, where there is one, has weight 0, a whole value,
/// and the two sides' leads are opposite. A finished game may have none (its score is then the result:
/// Battle Cry's and JOMINI's have none). Returns the positions checked.
pub fn sum_to_the_evaluation<R: Ruleset>(
    scenario: &Scenario,
    sides: [&str; 2],
    seeds: std::ops::RangeInclusive<u64>,
    every: usize,
    count: usize,
) -> usize
where
    R::Action: Clone,
{
    let mut checked = 0;
    for seed in seeds {
        let mut game = Game::<R>::new(scenario.clone(), Some(seed)).unwrap();
        let mut dice = Dice::new(seed);
        for step in 0..2_000 {
            if game.outcome().is_some() {
                let mut terms = Vec::new();
                game.rules()
                    .evaluation_terms(game.state(), sides[0], &mut terms);
                let sum: f64 = terms.iter().map(|t| t.weighted()).sum();
                let e = game.rules().evaluate(game.state(), sides[0]);
                assert!(
                    terms.is_empty() || (sum - e).abs() < 1e-6,
                    "{seed}: {sum} {e}"
                );
                assert!(
                    !terms.is_empty() || e.abs() == 1e3 || e == 0.0,
                    "{seed}: {e}"
                );
                break;
            }
            if step % every == 0 {
                let mut leads = [0.0; 2];
                for (k, side) in sides.into_iter().enumerate() {
                    let mut terms = Vec::new();
                    game.rules()
                        .evaluation_terms(game.state(), side, &mut terms);
                    let mut names: Vec<&str> = terms.iter().map(|t| t.name).collect();
                    names.sort_unstable();
                    names.dedup();
                    assert_eq!(names.len(), terms.len(), "{names:?}");
                    assert_eq!(terms.len(), count, "{names:?}");
                    let sum: f64 = terms.iter().map(|t| t.weighted()).sum();
                    let e = game.rules().evaluate(game.state(), side);
                    assert!((sum - e).abs() < 1e-6, "{seed} {step} {side}: {sum} {e}");
                    if let Some(lead) = terms.iter().find(|t| t.name == "lead") {
                        assert_eq!(lead.weight, 0.0);
                        assert_eq!(lead.value.fract(), 0.0);
                        leads[k] = lead.value;
                    }
                }
                assert_eq!(leads[0], -leads[1]);
                checked += 1;
            }
            let legal = game.legal_actions();
            let pick = (dice.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
            game.apply(legal[pick].clone()).unwrap();
        }
    }
    checked
}
