//! The view envelope every ruleset shares (docs/ENGINE-PROTOCOL.md), played through every
//! built-in scenario: `turn` is the game turn, from 1, never past `turns` and never going
//! back, so that a client can print "Turn 3 / 8" for any ruleset without knowing it.

use grognard_engine::{Dice, Seat};

#[test]
fn the_view_turn_is_the_game_turn_in_every_built_in_scenario() {
    let registry = grognard_rules::registry();
    for b in grognard_rules::builtin::SCENARIOS {
        let scenario = registry.load_scenario(b.path, b.text).unwrap();
        let mut game = registry.new_game(scenario, Some(7)).unwrap();
        let mut pick = Dice::new(11);
        let mut last = 0;
        let mut n = 0;
        loop {
            let v = game.view(&Seat::Omniscient);
            for key in ["turn", "turns", "phase", "active", "units"] {
                assert!(v.get(key).is_some(), "{}: the view lacks `{key}`", b.id);
            }
            let turn = v["turn"].as_u64().unwrap_or(0);
            assert!(turn >= last, "{}: turn went from {last} to {turn}", b.id);
            if let Some(turns) = v["turns"].as_u64() {
                assert!(turn <= turns, "{}: turn {turn} of {turns}", b.id);
            }
            last = turn;
            let legal = game.legal();
            if game.outcome().is_some() || legal.is_empty() || n == 3_000 {
                break;
            }
            let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
            game.apply(&legal[i]).unwrap();
            n += 1;
        }
        assert!(last >= 1, "{}: never past turn 0", b.id);
    }
}

/// The shape of the score (issue 19) in one view: `objectives` a list of `{hex, name,
/// holder, value}`, `score` an object by side id of `{have, need}`, `turns_left` a count
/// or null; every side named is one of the scenario's.
fn check_score(id: &str, sides: &[String], v: &serde_json::Value) {
    let is_side = |x: &serde_json::Value| x.as_str().is_some_and(|s| sides.iter().any(|y| y == s));
    let objectives = v["objectives"]
        .as_array()
        .unwrap_or_else(|| panic!("{id}: `objectives` is not a list: {}", v["objectives"]));
    for o in objectives {
        assert!(o["hex"].is_string(), "{id}: objective without a hex: {o}");
        assert!(o["name"].is_string() || o["name"].is_null(), "{id}: {o}");
        assert!(
            o["holder"].is_null() || is_side(&o["holder"]),
            "{id}: holder {o}"
        );
        assert!(o["value"].is_i64(), "{id}: objective without a value: {o}");
    }
    let score = v["score"]
        .as_object()
        .unwrap_or_else(|| panic!("{id}: `score` is not an object: {}", v["score"]));
    let mut named: Vec<&String> = score.keys().collect();
    named.sort();
    let mut all: Vec<&String> = sides.iter().collect();
    all.sort();
    assert_eq!(named, all, "{id}: `score` is not by side");
    for (side, t) in score {
        assert!(t["have"].is_i64(), "{id}: {side} has no `have`: {t}");
        assert!(
            t["need"].is_i64() || t["need"].is_null(),
            "{id}: {side}: {t}"
        );
    }
    assert!(
        v.get("turns_left")
            .is_some_and(|t| t.is_u64() || t.is_null()),
        "{id}: `turns_left` {:?}",
        v.get("turns_left")
    );
}

#[test]
fn every_view_of_random_playouts_of_every_built_in_scenario_has_objectives_score_and_turns_left() {
    let registry = grognard_rules::registry();
    for b in grognard_rules::builtin::SCENARIOS {
        let scenario = registry.load_scenario(b.path, b.text).unwrap();
        let sides: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
        let mut seats: Vec<Seat> = sides.iter().map(|s| Seat::Side(s.clone())).collect();
        seats.extend([Seat::Spectator, Seat::Omniscient]);
        for seed in [3u64, 8] {
            let mut game = registry.new_game(scenario.clone(), Some(seed)).unwrap();
            let mut pick = Dice::new(seed + 100);
            let mut last_left = u64::MAX;
            let mut n = 0;
            loop {
                // Every seat now and then, and at the end; the whole board each time.
                let over = game.outcome().is_some();
                let shown = if n % 10 == 0 || over {
                    &seats[..]
                } else {
                    &seats[seats.len() - 1..]
                };
                for seat in shown {
                    let v = game.view(seat);
                    check_score(b.id, &sides, &v);
                    if let Some(left) = v["turns_left"].as_u64() {
                        assert!(left <= last_left, "{}: turns left went up to {left}", b.id);
                        if over {
                            assert_eq!(left, 0, "{}: turns left once over", b.id);
                        }
                        last_left = left;
                    }
                }
                let legal = game.legal();
                if game.outcome().is_some() || legal.is_empty() || n == 1_500 {
                    break;
                }
                let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
                game.apply(&legal[i]).unwrap();
                n += 1;
            }
        }
    }
}

/// The view as text (`view_text`, which a ruleset may write without a `Value` tree) has
/// the bytes of the view's `Value` written out, for every seat, all through random
/// playouts of every built-in scenario; a ruleset whose views are public shows
/// every seat the same view; and a ruleset that knows whether the views differ
/// (`views_differ`) answers as comparing them does.
#[test]
fn the_view_as_text_is_the_view_byte_for_byte_and_public_views_are_one_for_every_seat_and_known_differences_hold(
) {
    let registry = grognard_rules::registry();
    for b in grognard_rules::builtin::SCENARIOS {
        let scenario = registry.load_scenario(b.path, b.text).unwrap();
        let mut seats: Vec<Seat> = scenario
            .sides
            .iter()
            .map(|s| Seat::Side(s.id.clone()))
            .collect();
        seats.extend([Seat::Spectator, Seat::Omniscient]);
        for seed in [5u64, 21] {
            let mut game = registry.new_game(scenario.clone(), Some(seed)).unwrap();
            let mut pick = Dice::new(seed + 7);
            let mut n = 0;
            loop {
                // Every few actions, and at the end: a view costs a debug build much.
                let over = game.outcome().is_some();
                let checked = if n % 4 == 0 || over { &seats[..] } else { &[] };
                let whole = checked
                    .first()
                    .map(|_| game.view(&Seat::Omniscient).to_string());
                for seat in checked {
                    let text = game.view_text(seat);
                    assert_eq!(
                        text,
                        game.view(seat).to_string(),
                        "{} at {n}, {seat:?}",
                        b.id
                    );
                    if game.views_are_public() {
                        assert_eq!(
                            Some(&text),
                            whole.as_ref(),
                            "{} at {n}: {seat:?} sees otherwise",
                            b.id
                        );
                    }
                }
                if let Some(known) = checked.first().and(game.views_differ()) {
                    let spectator = game.view_text(&Seat::Spectator);
                    let differ = scenario
                        .sides
                        .iter()
                        .any(|s| game.view_text(&Seat::Side(s.id.clone())) != spectator);
                    assert_eq!(known, differ, "{} at {n}: views_differ", b.id);
                }
                let legal = game.legal();
                if game.outcome().is_some() || legal.is_empty() || n == 300 {
                    break;
                }
                let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
                game.apply(&legal[i]).unwrap();
                n += 1;
            }
        }
    }
}
