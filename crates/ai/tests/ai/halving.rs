//! Sequential halving at the root (`SearchConfig::halving`, the arena's
//! `mcts-halving-sims:N`).

use super::{easy_until, scenario};
use grognard_ai::mcts::{search, Budget, SearchConfig};
use grognard_ai::Player;
use grognard_engine::Game;
use grognard_rules::jomini::Jomini;

/// The budget runs in ⌈log₂ n⌉ rounds: in the first every root plan takes its share
/// in turn, and a plan dropped after it takes no more; the plan played is one that
/// lasted to the last round, where the plans left share the visits alike; a count
/// gives the same answer twice.
#[test]
fn halving_shares_each_round_among_the_plans_left_and_plays_the_last_one() {
    let mut game: Game<Jomini> =
        Game::new(scenario("passage-of-the-saale"), Some(2)).expect("valid");
    let k = std::cell::Cell::new(0);
    easy_until(&mut game, |_| {
        k.set(k.get() + 1);
        k.get() > 3
    });
    let quota = 240u64;
    let config = SearchConfig {
        budget: Budget::Simulations(quota),
        halving: true,
        reuse: false,
        seed: 11,
        ..SearchConfig::default()
    };
    let searched = search(game.rules(), game.state(), &config).expect("a decision");
    let n = searched.weighed.len();
    assert!(n > 2, "a choice worth halving: {n} plans");
    assert_eq!(searched.simulations, quota);
    let rounds = u64::from(n.next_power_of_two().trailing_zeros());
    let first_share = (quota / rounds).div_ceil(n as u64);
    let visits: Vec<u64> = searched.weighed.iter().map(|w| w.visits).collect();
    // Every plan had its share of the first round.
    assert!(
        visits.iter().all(|&v| v + 1 >= quota / rounds / n as u64),
        "{visits:?}"
    );
    // At least half were dropped after it and took nothing more.
    let dropped = visits.iter().filter(|&&v| v <= first_share).count();
    assert!(dropped >= n / 2, "{visits:?}");
    // The plan played lasted to the end: no plan has more visits than it by more than
    // the rounds' odd simulations.
    let top = *visits.iter().max().expect("plans");
    assert!(visits[0] + rounds >= top, "{visits:?}");
    let again = search(game.rules(), game.state(), &config).expect("a decision");
    assert_eq!(again.best(), searched.best());
    // The arena's player for measuring it halves; the levels do not.
    let p: Player = "mcts-halving-sims:10".parse().expect("a player");
    assert!(p.search(None, None).expect("a search").halving);
    for p in [Player::Normal, Player::Hard] {
        for r in ["morne_plaine", "battle_cry", "jomini", "skirmish"] {
            assert!(
                !p.search_in(r, None, None).expect("a search").halving,
                "{p} in {r}"
            );
        }
    }
}
