//! Where the values are centred (`SearchConfig::centre`): a Morne Plaine movement
//! phase moves the evaluation by tens of points over a turn, so that values taken as
//! the gain over the root's evaluation crowd near one end of the logistic, where plans
//! a few points apart differ by thousandths. Centred on where simulations of the turn
//! end, the values sit about 0.5. (Since the evaluation weighs objectives at risk, the
//! values from the root's evaluation no longer crowd as they did: their spread is as
//! wide as the centred values', and only the mean is asserted.)

use super::{easy_until, scenario};
use grognard_ai::mcts::{search, Budget, SearchConfig};
use grognard_engine::Game;
use grognard_rules::morne_plaine::MornePlaine;

/// The Bridge at Morne at orange's first movement phase, after `easy` has played
/// blue's first turn (its attack over the Morne).
fn orange_first_movement() -> Game<MornePlaine> {
    let mut game = Game::<MornePlaine>::new(scenario("bridge-at-morne"), Some(5)).expect("valid");
    easy_until(&mut game, |d| d.side == "orange" && d.kind == "movement");
    game
}

/// The visit-weighted mean of the root plans' values, and the spread between the
/// lowest and the highest value of a plan visited.
fn values(centre: usize) -> (f64, f64) {
    let game = orange_first_movement();
    let s = search(
        game.rules(),
        game.state(),
        &SearchConfig {
            budget: Budget::Simulations(120),
            threads: 1,
            seed: 3,
            centre,
            ..SearchConfig::default()
        },
    )
    .expect("a search");
    let visits: u64 = s.weighed.iter().map(|w| w.visits).sum();
    #[expect(clippy::cast_precision_loss, reason = "a few hundred visits")]
    let mean = s
        .weighed
        .iter()
        .map(|w| w.value * w.visits as f64)
        .sum::<f64>()
        / visits as f64;
    let seen = s.weighed.iter().filter(|w| w.visits >= 1).map(|w| w.value);
    let (low, high) = seen.fold((1.0f64, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    (mean, high - low)
}

#[test]
fn the_values_are_centred_on_where_the_turn_is_expected_to_end() {
    let (root_mean, root_spread) = values(0);
    let (mean, spread) = values(8);
    eprintln!("root: mean {root_mean:.3} spread {root_spread:.3}; centred: mean {mean:.3} spread {spread:.3}");
    assert!(
        (root_mean - 0.5).abs() > 0.15,
        "from the root's evaluation the turn's gain moves the values off 0.5: mean {root_mean}"
    );
    assert!(
        (mean - 0.5).abs() < 0.1 && (mean - 0.5).abs() < 0.5 * (root_mean - 0.5).abs(),
        "centred, the values sit about 0.5: mean {mean} against {root_mean}"
    );
}

/// Where the turn moves the evaluation less than a scale, the centre stays the root's
/// evaluation: the search's answer is the same, visit for visit.
#[test]
fn a_turn_that_moves_the_evaluation_little_leaves_the_values_as_they_were() {
    let game =
        Game::<grognard_rules::jomini::Jomini>::new(scenario("passage-of-the-saale"), Some(1))
            .expect("valid");
    let visits = |centre: usize| {
        let s = search(
            game.rules(),
            game.state(),
            &SearchConfig {
                budget: Budget::Simulations(200),
                threads: 1,
                seed: 5,
                centre,
                ..SearchConfig::default()
            },
        )
        .expect("a search");
        s.weighed
            .iter()
            .map(|w| (w.plan.clone(), w.visits, w.value))
            .collect::<Vec<_>>()
    };
    assert_eq!(visits(0), visits(8));
}
