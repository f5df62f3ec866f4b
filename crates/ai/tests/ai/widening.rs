//! Progressive widening at the root (off by default): the search opens the root's
//! plans best first.

use super::first_movement;
use grognard_ai::mcts::{search, Budget, SearchConfig};
use grognard_ai::plans;
use grognard_ai::widening::{self, Widening};

#[test]
fn the_root_opens_only_its_best_ranked_plans_at_a_small_budget() {
    let game = first_movement();
    let (rules, state) = (game.rules(), game.state());
    let config = SearchConfig {
        budget: Budget::Simulations(30),
        threads: 1,
        seed: 7,
        widening: Some(Widening::default()),
        ..SearchConfig::default()
    };
    let w = Widening::default();
    // The root's plans as the search makes them, and their ranks.
    let root = plans::candidates(rules, state, 0, Some(config.per_unit));
    assert!(root.len() > 40, "{} root plans", root.len());
    let rank = widening::ranks(rules, state, &root, config.seed);
    let open = w.open(29);
    let searched = search(rules, state, &config).expect("a search");
    let visited: Vec<_> = searched.weighed.iter().filter(|p| p.visits > 0).collect();
    assert!(visited.len() <= open, "{} plans visited", visited.len());
    for p in visited {
        let i = root.iter().position(|r| *r == p.plan).expect("a root plan");
        assert!(rank[i] < open, "a plan of rank {} was opened", rank[i]);
    }
    // Without the widening the same budget spreads over many more plans.
    let all = search(
        rules,
        state,
        &SearchConfig {
            widening: None,
            ..config
        },
    )
    .expect("a search");
    let spread = all.weighed.iter().filter(|p| p.visits > 0).count();
    assert!(
        spread > 2 * open,
        "{spread} plans visited without the widening"
    );
}

#[test]
fn the_open_plans_grow_with_the_visits() {
    let w = Widening::default();
    assert_eq!(w.open(0), 2);
    assert!(w.open(200) > w.open(50));
    assert_eq!(
        Widening {
            width: 2.0,
            growth: 0.5
        }
        .open(99),
        20
    );
}
