//! How UCT weighs the values (`SearchConfig::values`): the leaf values sit a
//! few hundredths apart, so that over raw means the exploration term spreads the visits
//! almost evenly; stretched over their spread, the visits go to the better plans.

use super::first_movement;
use grognard_ai::mcts::{search, Budget, SearchConfig, Values};

#[test]
fn normalised_values_give_the_best_plans_more_of_the_visits() {
    let game = first_movement();
    let (rules, state) = (game.rules(), game.state());
    // Over four searches, so that one search's noise does not decide.
    let (mut raw, mut norm, mut dev) = (0, 0, 0);
    for seed in 11..15 {
        let config = SearchConfig {
            budget: Budget::Simulations(600),
            threads: 1,
            seed,
            ..SearchConfig::default()
        };
        let top = |values: Values| {
            let s = search(
                rules,
                state,
                &SearchConfig {
                    values,
                    ..config.clone()
                },
            )
            .expect("a search");
            let visits: Vec<u64> = s.weighed.iter().map(|w| w.visits).collect();
            (visits[0], visits.iter().sum::<u64>(), visits.len())
        };
        let (r, total, plans) = top(Values::Raw);
        let (n, total_norm, _) = top(Values::Spread);
        let (d, total_dev, _) = top(Values::Deviation);
        assert_eq!(total, total_norm);
        assert_eq!(total, total_dev);
        assert!(plans > 40, "{plans} root plans");
        (raw, norm, dev) = (raw + r, norm + n, dev + d);
    }
    // Raw means: the most visited plan has about its even share, a few times 600/plans.
    // Normalised: the best plans take a far larger share.
    assert!(
        2 * norm >= 3 * raw,
        "the most visited plans: {norm} of 2,400 visits normalised, {raw} raw"
    );
    assert!(
        2 * dev >= 3 * raw,
        "the most visited plans: {dev} of 2,400 visits by the deviation, {raw} raw"
    );
}
