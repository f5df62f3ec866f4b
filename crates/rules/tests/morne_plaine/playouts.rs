//! Random playouts of the built-in scenarios: complete games of uniformly random legal
//! actions finish without a panic or a dead end, keep the invariants after every action,
//! and replay to the same final state.

use crate::common;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Dice, Game, Ruleset};
use grognard_rules::morne_plaine::{Action, Event, MornePlaine, Phase, State};
use std::collections::BTreeMap;

/// What a playout did.
#[derive(Default, Debug)]
struct Tally {
    games: u64,
    actions: u64,
    longest: u64,
    attacks: u64,
    charges: u64,
    /// Legal lists that offered a charge.
    offered: u64,
    eliminated: u64,
    outcomes: BTreeMap<String, u64>,
}

/// Each unit's printed values: (cs, mv, ma).
fn printed(s: &Scenario) -> Vec<(u8, u8, u8)> {
    let v =
        |u: &grognard_engine::scenario::Unit, k: &str| u8::try_from(u.int(k).unwrap_or(0)).unwrap();
    s.units
        .iter()
        .map(|u| (v(u, "cs"), v(u, "mv"), v(u, "ma")))
        .collect()
}

/// The invariants of a state.
fn check(state: &State, values: &[(u8, u8, u8)], at: &str) {
    let mut seen = BTreeMap::new();
    for (i, (u, &(cs, mv, ma))) in state.units.iter().zip(values).enumerate() {
        if let Some(h) = u.hex {
            if let Some(j) = seen.insert((h.q, h.r), i) {
                panic!("{at}: units {j} and {i} share a hex");
            }
            assert!(
                u.cs >= 1 && u.cs <= cs,
                "{at}: unit {i} strength {} of {cs}",
                u.cs
            );
        } else if !u.waiting {
            assert_eq!(u.cs, 0, "{at}: eliminated unit {i} keeps strength");
        }
        assert!(u.mv <= mv, "{at}: unit {i} morale {} above {mv}", u.mv);
        assert!(
            u.mp <= ma,
            "{at}: unit {i} has {} movement points of {ma}",
            u.mp
        );
    }
}

/// Plays one random game through the typed engine, checking every action.
fn playout(scenario: &Scenario, seed: u64, tally: &mut Tally, full_checks: bool) {
    let values = printed(scenario);
    let mut game = Game::<MornePlaine>::new(scenario.clone(), Some(seed)).unwrap();
    let mut pick = Dice::new(seed ^ 0x5eed);
    let mut attackers = BTreeMap::new();
    let mut defenders = BTreeMap::new();
    let mut n = 0u64;
    while game.state().outcome.is_none() {
        let legal = game.legal_actions();
        assert!(!legal.is_empty(), "seed {seed}: dead end after {n} actions");
        assert!(
            legal.contains(&Action::EndPhase),
            "seed {seed}: no way to end the phase"
        );
        if full_checks {
            for a in &legal {
                let e = game.rules().explain(game.state(), a);
                assert!(e.legal, "seed {seed}: listed but refused: {a:?}: {e:?}");
            }
        }
        // A charge is offered only after a run-up and drawn at random only now and then:
        // when one is offered it is taken half the time, so that the playouts resolve
        // charges (the retreat, reaction fire, the charger going on) and not only list
        // them.
        let charge = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Charge { .. }));
        if charge.is_some() {
            tally.offered += 1;
        }
        let a = match charge {
            Some(c) if pick.next(2).0 == 1 => c,
            _ => {
                legal
                    [usize::try_from(pick.next(u32::try_from(legal.len()).unwrap()).0 - 1).unwrap()]
            }
        };
        let events = game
            .apply(a)
            .unwrap_or_else(|r| panic!("seed {seed}: {a:?} refused: {r}"))
            .to_vec();
        n += 1;
        for e in &events {
            match e {
                Event::PhaseBegan {
                    phase: Phase::Combat,
                    ..
                } => {
                    attackers.clear();
                    defenders.clear();
                }
                Event::Attacked { unit, target, .. } => {
                    tally.attacks += 1;
                    *attackers.entry(unit.0).or_insert(0) += 1;
                    *defenders.entry(target.0).or_insert(0) += 1;
                    assert!(
                        attackers[&unit.0] <= 1,
                        "seed {seed}: unit {} attacked twice",
                        unit.0
                    );
                    assert!(
                        defenders[&target.0] <= 1,
                        "seed {seed}: unit {} attacked twice",
                        target.0
                    );
                }
                Event::Charged { .. } => tally.charges += 1,
                Event::Eliminated { .. } => tally.eliminated += 1,
                _ => {}
            }
        }
        check(
            game.state(),
            &values,
            &format!("seed {seed}, action {n} ({a:?})"),
        );
        assert!(n < 200_000, "seed {seed}: no end after {n} actions");
    }
    assert!(game.legal_actions().is_empty());
    let again = Game::<MornePlaine>::from_saved(&game.save()).unwrap();
    assert_eq!(again.state(), game.state(), "seed {seed}: replay differs");
    let o = game.state().outcome.clone().unwrap();
    *tally
        .outcomes
        .entry(format!(
            "{} {}",
            o.winner.as_deref().unwrap_or("draw"),
            o.rule.unwrap_or_default()
        ))
        .or_insert(0) += 1;
    tally.games += 1;
    tally.actions += n;
    tally.longest = tally.longest.max(n);
}

#[test]
fn random_playouts_finish_and_replay() {
    for seed in 0..10 {
        let mut g = common::game(common::builtin("bridge-at-morne"));
        let n = common::random_playout(g.as_mut(), seed, 200_000);
        assert!(
            g.outcome().is_some(),
            "seed {seed}: no outcome after {n} actions"
        );
        let again = grognard_rules::registry().load_game(&g.save()).unwrap();
        assert_eq!(
            again.state().to_string(),
            g.state().to_string(),
            "seed {seed}: replay differs"
        );
    }
}

#[test]
fn random_playouts_keep_the_invariants() {
    let mut tally = Tally::default();
    for id in ["heights-of-aubrac", "bridge-at-morne"] {
        let s = common::builtin(id);
        for seed in 0..30 {
            playout(&s, seed, &mut tally, seed < 3);
        }
    }
    assert_eq!(tally.games, 60);
    assert!(
        tally.attacks > 0 && tally.charges > 0 && tally.eliminated > 0,
        "{tally:?}"
    );
    println!("{tally:?}");
}

/// `cargo test --release -p grognard-rules random_playouts_thousands -- --ignored --nocapture`
#[test]
#[ignore = "thousands of games: run in release"]
fn random_playouts_thousands() {
    let mut tally = Tally::default();
    let s = common::builtin("heights-of-aubrac");
    let start = std::time::Instant::now();
    for seed in 0..2_000 {
        playout(&s, 1_000 + seed, &mut tally, seed % 100 == 0);
    }
    let b = common::builtin("bridge-at-morne");
    for seed in 0..500 {
        playout(&b, 1_000 + seed, &mut tally, false);
    }
    println!("{} games, {} actions ({} a game, longest {}), {} attacks, {} charges, {} eliminations, outcomes {:?}, {:.1} s", tally.games, tally.actions, tally.actions / tally.games, tally.longest, tally.attacks, tally.charges, tally.eliminated, tally.outcomes, start.elapsed().as_secs_f64());
}

/// The ruleset's fast path (`legal_actions` + `apply_unchecked`) agrees with the checked
/// engine on a whole game.
#[test]
fn the_fast_path_plays_the_same_game() {
    let s = common::builtin("heights-of-aubrac");
    let rules = MornePlaine::new(&s).unwrap();
    let mut state = rules.initial_state();
    let mut dice = Dice::new(11);
    let mut pick = Dice::new(12);
    let mut game = Game::<MornePlaine>::new(s, Some(11)).unwrap();
    let mut legal = Vec::new();
    let mut events = Vec::new();
    while state.outcome.is_none() {
        legal.clear();
        rules.legal_actions(&state, &mut legal);
        let a =
            legal[usize::try_from(pick.next(u32::try_from(legal.len()).unwrap()).0 - 1).unwrap()];
        events.clear();
        let mut ctx = grognard_engine::Ctx::new(&mut dice, &mut events);
        rules.apply_unchecked(&mut state, &a, &mut ctx);
        game.apply(a).unwrap();
        assert_eq!(&state, game.state());
    }
}

/// The movement board follows a game by its states' stamps (a step names the one unit
/// it moved): every list it gives is the list of the same state read back from its
/// text, which carries no stamp and makes the board compare every unit. The stamps
/// are not part of the game: the states compare equal and write the same text.
#[test]
fn the_movement_board_follows_steps_by_stamp_and_lists_what_every_unit_compared_lists() {
    for id in ["heights-of-aubrac", "bridge-at-morne"] {
        let s = common::builtin(id);
        let rules = MornePlaine::new(&s).unwrap();
        let names = rules.names().clone();
        for seed in 1..=4 {
            let mut state = rules.initial_state();
            let mut dice = Dice::new(seed);
            let mut pick = Dice::new(seed ^ 0xB0A7);
            let (mut legal, mut read_legal, mut events) = (Vec::new(), Vec::new(), Vec::new());
            let mut steps = 0;
            while state.outcome.is_none() {
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                let text = names.scope(|| serde_json::to_string(&state)).unwrap();
                let read: State = names.scope(|| serde_json::from_str(&text)).unwrap();
                assert_eq!(
                    read, state,
                    "{id} seed {seed}: a state read back is the same"
                );
                assert_eq!(names.scope(|| serde_json::to_string(&read)).unwrap(), text);
                read_legal.clear();
                rules.legal_actions(&read, &mut read_legal);
                assert_eq!(legal, read_legal, "{id} seed {seed}: the lists agree");
                // The same state again, now that the board has seen it.
                read_legal.clear();
                rules.legal_actions(&state, &mut read_legal);
                assert_eq!(legal, read_legal, "{id} seed {seed}: asked twice");
                let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
                steps += u32::from(matches!(legal[i], Action::Move { .. }));
                events.clear();
                let mut ctx = grognard_engine::Ctx::quiet(&mut dice, &mut events);
                rules.apply_unchecked(&mut state, &legal[i], &mut ctx);
            }
            assert!(steps > 100, "{id} seed {seed}: {steps} steps played");
        }
    }
}

/// A fixed workload for profiling the fast path (`perf stat` counts its instructions):
/// `cargo test --release -p grognard-rules playout_workload -- --ignored --nocapture`.
#[test]
#[ignore = "a profiling workload: run in release"]
fn playout_workload() {
    let s = common::builtin("heights-of-aubrac");
    let rules = MornePlaine::new(&s).unwrap();
    let start = rules.initial_state();
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    let t = std::time::Instant::now();
    let mut actions = 0u64;
    let games: u64 = std::env::var("MP_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for seed in 0..games {
        let mut state = start.clone();
        let mut dice = Dice::new(seed);
        let mut pick = Dice::new(!seed);
        while state.outcome.is_none() {
            legal.clear();
            rules.legal_actions(&state, &mut legal);
            let i = pick.next(u32::try_from(legal.len()).unwrap()).0 - 1;
            events.clear();
            let mut ctx = grognard_engine::Ctx::new(&mut dice, &mut events);
            rules.apply_unchecked(&mut state, &legal[i as usize], &mut ctx);
            actions += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{games} games, {actions} actions, {:.0} games/s wall",
        games as f64 / secs
    );
}
