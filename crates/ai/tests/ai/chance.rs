//! Chance nodes (`SearchConfig::chance`, the arena's `mcts-chance-sims:N`): below a
//! plan that rolls dice, each outcome drawn keeps a subtree of its own.

use super::{easy_until, scenario};
use grognard_ai::mcts::{search, Budget, SearchConfig};
use grognard_engine::Game;
use grognard_rules::skirmish::Skirmish;

fn config(chance: Option<f64>) -> SearchConfig {
    SearchConfig {
        budget: Budget::Simulations(400),
        threads: 1,
        seed: 11,
        chance,
        reuse: false,
        ..SearchConfig::default()
    }
}

/// Broken Cairn once red's band has closed with blue's: `easy` on both sides to red's
/// third turn, where plans strike and roll.
fn in_contact() -> Game<Skirmish> {
    let mut game = Game::<Skirmish>::new(scenario("broken-cairn"), Some(4)).expect("valid");
    easy_until(&mut game, |d| d.side == "red" && d.kind == "melee");
    game
}

#[test]
fn a_plan_that_rolls_draws_outcomes_as_its_visits_grow_and_one_without_dice_keeps_one() {
    let game = in_contact();
    let open = search(game.rules(), game.state(), &config(None)).expect("a search");
    assert!(
        open.forest.outcomes_drawn().is_empty(),
        "the open loop draws none"
    );
    let a = search(game.rules(), game.state(), &config(Some(0.5))).expect("a search");
    let drawn = a.forest.outcomes_drawn();
    assert!(!drawn.is_empty());
    let mut several = 0;
    for &(outcomes, visits, rolled) in &drawn {
        // At most ⌈√(visits + 1)⌉ outcomes (the last drawn before its visit counted).
        let bound = ((visits + 1) as f64).sqrt().ceil() as usize;
        assert!(
            outcomes <= bound.max(1),
            "{outcomes} outcomes for {visits} visits"
        );
        if !rolled {
            assert_eq!(outcomes, 1, "a plan without dice has one outcome");
        }
        if outcomes > 1 {
            several += 1;
        }
    }
    assert!(several > 0, "no plan drew a second outcome: {drawn:?}");
    // The same seed, the same search.
    let b = search(game.rules(), game.state(), &config(Some(0.5))).expect("a search");
    let visits = |s: &grognard_ai::mcts::Searched<_>| {
        s.weighed
            .iter()
            .map(|w| (w.plan.clone(), w.visits))
            .collect::<Vec<_>>()
    };
    assert_eq!(visits(&a), visits(&b));
}

#[test]
fn hard_searches_with_chance_nodes_in_the_skirmish_and_the_open_loop_elsewhere() {
    use grognard_ai::player::HARD_CHANCE;
    use grognard_ai::Player;
    assert_eq!(HARD_CHANCE, ["skirmish"]);
    let search = |p: Player, ruleset| p.search_in(ruleset, None, None).expect("a search");
    let hard = search(Player::Hard, "skirmish");
    assert_eq!(hard.chance, Some(0.5));
    assert!(
        !hard.reuse,
        "a chance node's subtree holds for its own roll only"
    );
    assert_eq!(search(Player::Normal, "skirmish").chance, None);
    for ruleset in ["morne_plaine", "battle_cry", "jomini"] {
        assert_eq!(search(Player::Hard, ruleset).chance, None, "{ruleset}");
        assert_eq!(search(Player::Normal, ruleset).chance, None, "{ruleset}");
    }
    let p: Player = "mcts-chance-sims:300".parse().expect("a player");
    assert_eq!(search(p, "jomini").chance, Some(0.5));
    // The same at a time a decision, for measuring chance nodes at a level's time.
    use grognard_ai::mcts::Horizon;
    use std::time::Duration;
    let timed = search("mcts-chance:700".parse().expect("a player"), "battle_cry");
    assert_eq!(timed.chance, Some(0.5));
    assert!(!timed.reuse);
    assert_eq!(timed.budget, Budget::Time(Duration::from_millis(700)));
    assert_eq!(timed.horizon, Horizon::OwnTurn);
}
