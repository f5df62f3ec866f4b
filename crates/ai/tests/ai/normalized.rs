//! How UCT weighs the values (`SearchConfig::values`): the leaf values sit a
//! few hundredths apart, so that over raw means the exploration term spreads the visits
//! almost evenly; stretched over their spread, the visits go to the better plans.

use super::first_movement;
use grognard_ai::mcts::{search, Budget, SearchConfig, Values};

#[test]
fn normalised_values_give_the_best_plans_more_of_the_visits() {
    let game = first_movement();
    let (rules, state) = (game.rules(), game.state());
    let config = SearchConfig {
        budget: Budget::Simulations(600),
        threads: 1,
        seed: 11,
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
    let (raw, total, plans) = top(Values::Raw);
    let (norm, total_norm, _) = top(Values::Spread);
    let (dev, total_dev, _) = top(Values::Deviation);
    assert_eq!(total, total_norm);
    assert_eq!(total, total_dev);
    assert!(plans > 40, "{plans} root plans");
    // Raw means: the most visited plan has about its even share, a few times 600/plans.
    // Normalised: the best plans take a far larger share.
    assert!(
        norm >= 2 * raw,
        "the most visited plan: {norm} of {total} normalised, {raw} raw"
    );
    assert!(
        dev >= 2 * raw,
        "the most visited plan: {dev} of {total} by the deviation, {raw} raw"
    );
}
