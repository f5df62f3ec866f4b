//! The evolutionary planner ([`grognard_ai::oep`]): where it plans, that its answer is a
//! legal plan that repeats with its seed, that its population goes on to the next
//! decision, and that its games end.

use super::{first_movement, play, scenario};
use grognard_ai::mcts::{Budget, SearchConfig};
use grognard_ai::oep;
use grognard_ai::player::{decide, Memory, Options};
use grognard_ai::{arena::MAX_ACTIONS, Opponent, Player};
use grognard_engine::{Game, Ruleset};

fn config(n: u64) -> SearchConfig {
    SearchConfig {
        budget: Budget::Simulations(n),
        seed: 9,
        ..SearchConfig::default()
    }
}

/// A Morne Plaine movement phase is every unit's choice and the pass: the planner's.
/// Battle Cry's first decision is a card to play, a choice of no unit: the tree
/// search's.
#[test]
fn the_planner_takes_a_phase_of_units_and_leaves_cards_to_the_tree_search() {
    let game = first_movement();
    assert!(oep::applies(game.rules(), game.state(), &config(10)));
    let bc: Game<grognard_rules::battle_cry::BattleCry> =
        Game::new(scenario("crossing-at-hollins-ford"), Some(1)).expect("valid");
    assert!(!oep::applies(bc.rules(), bc.state(), &config(10)));
}

/// At a count of evaluations and a seed the answer repeats; it is legal, it is the
/// first plan of the best genome carried on, and the count is spent.
#[test]
fn the_planner_answers_a_legal_plan_that_repeats_with_its_seed() {
    let game = first_movement();
    let (rules, state) = (game.rules(), game.state());
    let (a, population) = oep::search(rules, state, &config(60), None).expect("a choice");
    let (b, _) = oep::search(rules, state, &config(60), None).expect("a choice");
    assert_eq!(a.best(), b.best());
    assert_eq!(a.simulations, 60);
    let plan = a.best().expect("a plan").clone();
    assert_eq!(population.first_plan(), Some(&plan));
    assert!(!population.is_empty() && population.len() <= oep::POPULATION / 2);
    let mut g = game.clone();
    for step in plan.steps {
        g.apply(step).expect("the plan's steps are legal");
    }
    // Carried to the next decision, the population still answers with a legal plan.
    let (c, _) =
        oep::search(g.rules(), g.state(), &config(30), Some(&population)).expect("a choice");
    let next = c.best().expect("a plan").clone();
    for step in next.steps {
        g.apply(step).expect("the plan's steps are legal");
    }
}

/// With a budget spent before any genome is played out, the planner still answers:
/// the policy's genome (each unit its best plan one plan ahead), not nothing.
#[test]
fn the_planner_answers_on_the_smallest_budget() {
    let game = first_movement();
    let (searched, _) =
        oep::search(game.rules(), game.state(), &config(1), None).expect("a choice");
    let plan = searched.best().expect("a plan");
    assert!(game.rules().allows(game.state(), &plan.steps[0]));
}

/// The players `oep-sims:N` finish their games, in Morne Plaine (its movement phases
/// planned) and at the Saale (JOMINI's activations planned, its orders searched).
#[test]
fn games_of_the_planner_end() {
    let mut o = Opponent::new().with_threads(1);
    grognard_rules::visit_all(&mut o);
    let oep: Player = "oep-sims:20".parse().expect("a player");
    for (id, seed) in [("passage-of-the-saale", 3), ("bridge-at-morne", 4)] {
        let r = play(&o, &scenario(id), [oep, Player::Easy], seed);
        assert!(
            !r.capped && r.actions < MAX_ACTIONS,
            "{id}: stopped at the cap"
        );
    }
    // And through `decide`, which carries the population from one decision to the next.
    let game = first_movement();
    let mut memory = Memory::default();
    let options = Options {
        simulations: Some(20),
        threads: 1,
        ..Options::default()
    };
    let c = decide(game.rules(), game.state(), oep, 1, options, &mut memory).expect("a choice");
    assert_eq!(c.simulations, 20);
}

/// The levels plan Morne Plaine's phases of units by evolution (the search where the
/// planner does not apply), and search the other rulesets with the tree; the arena's
/// `oep` players plan wherever it applies, the tree search's players never.
#[test]
fn the_levels_plan_morne_plaine_by_evolution_and_search_the_other_rulesets() {
    use grognard_rules::jomini::Jomini;
    let game = first_movement();
    let options = Options {
        simulations: Some(40),
        threads: 1,
        ..Options::default()
    };
    let run = |p: Player| {
        let c = decide(
            game.rules(),
            game.state(),
            p,
            5,
            options,
            &mut Memory::default(),
        )
        .expect("a choice");
        let stats: Vec<(u64, u64)> = c
            .weighed
            .iter()
            .map(|w| (w.visits, w.value.to_bits()))
            .collect();
        (c.plan, stats)
    };
    // Through the enemy's reply in Morne Plaine (`player::NORMAL_REPLY`).
    assert_eq!(run(Player::Normal), run(Player::OepReplySims(40)));
    assert_ne!(run(Player::Normal), run(Player::MctsSims(40)));
    assert!(super::same_search::<Jomini>(
        "passage-of-the-saale",
        Player::Normal,
        Player::MctsSims(40)
    ));
    for level in [Player::Normal, Player::Hard] {
        assert!(level.evolves_in("morne_plaine"), "{level}");
        for r in ["battle_cry", "jomini", "skirmish"] {
            assert!(!level.evolves_in(r), "{level} in {r}");
        }
    }
    for r in ["morne_plaine", "battle_cry", "jomini", "skirmish"] {
        assert!(Player::OepSims(10).evolves_in(r) && Player::Oep(10).evolves_in(r));
        assert!(!Player::MctsSims(10).evolves_in(r) && !Player::Mcts(10).evolves_in(r));
    }
}
