//! The tree held to the side's own turn, the enemy's reply played by the simulations'
//! own plans (`SearchConfig::tree_own_turn`, the arena's `mcts-scripted-sims:N`).

use super::{easy_until, scenario};
use grognard_ai::mcts::{search, Budget, Horizon, SearchConfig};
use grognard_ai::Player;
use grognard_engine::Game;
use grognard_rules::battle_cry::BattleCry;

/// Through the enemy's reply, the tree grows into the enemy's turn unless it is held
/// to the side's own; held, no node of it is the enemy's, and its simulations still
/// run to the same horizon (each plays on past the tree).
#[test]
fn the_tree_held_to_the_own_turn_has_no_node_of_the_enemy() {
    let mut game: Game<BattleCry> =
        Game::new(scenario("crossing-at-hollins-ford"), Some(3)).expect("valid");
    // A few decisions in, where the side's turn is under way.
    let k = std::cell::Cell::new(0);
    easy_until(&mut game, |_| {
        k.set(k.get() + 1);
        k.get() > 4
    });
    let side = game.to_act().expect("the game goes on").side;
    let searched = |held: bool| {
        let config = SearchConfig {
            budget: Budget::Simulations(150),
            horizon: Horizon::EnemyReply,
            tree_own_turn: held,
            seed: 7,
            ..SearchConfig::default()
        };
        search(game.rules(), game.state(), &config).expect("a decision")
    };
    let grown = searched(false);
    let movers = grown.forest.movers();
    assert!(
        movers.len() > 1,
        "the tree through the reply holds the enemy's choices too: {movers:?}"
    );
    let held = searched(true);
    assert_eq!(held.forest.movers(), vec![side.as_str()]);
    assert_eq!(held.simulations, 150);
    // The arena's player for measuring it searches that way; the levels do not.
    let p: Player = "mcts-scripted-sims:10".parse().expect("a player");
    let config = p.search(None, None).expect("a search");
    assert!(config.tree_own_turn);
    assert_eq!(config.horizon, Horizon::EnemyReply);
    for p in [Player::Normal, Player::Hard] {
        for r in ["morne_plaine", "battle_cry", "jomini", "skirmish"] {
            assert!(
                !p.search_in(r, None, None).expect("a search").tree_own_turn,
                "{p} in {r}"
            );
        }
    }
}
