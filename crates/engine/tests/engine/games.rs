//! Games: forced rolls, refusals that change nothing, saves, replay, undo, views and
//! the end of a game, played with The Race.

use crate::race::{Action, Event, Race, State};
use crate::{hex, race, race_scenario, registry, snapshot};
use grognard_engine::game::{GameError, SavedGame};
use grognard_engine::{Game, Roll, Ruleset, Seat, UnitId};
use serde_json::Value;

const RED: UnitId = UnitId(0);
const BLUE: UnitId = UnitId(1);

fn step(unit: UnitId, to: &str) -> Action {
    Action::Move { unit, to: hex(to) }
}

fn rolls(events: &[Event]) -> Vec<Roll> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Roll(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

fn state_json(g: &Game<Race>) -> String {
    serde_json::to_string(g.state()).unwrap()
}

/// Through JSON text, as a save travels.
fn through_text(saved: &SavedGame) -> SavedGame {
    let text = serde_json::to_string(saved).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_race_starts_as_the_scenario_says() {
    let g = race(7);
    assert_eq!(g.seed(), 7);
    assert_eq!(g.state().at, [hex("0101"), hex("0603")]);
    let d = g.rules().to_act(g.state()).unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("red", "race", false)
    );
    assert_eq!(
        g.legal_actions(),
        [step(RED, "0201"), step(RED, "0102"), Action::Draw],
        "0101 touches only 0201 and 0102 on the map"
    );
    // Without a seed the scenario's own is used.
    assert_eq!(Game::<Race>::new(race_scenario(), None).unwrap().seed(), 7);
}

#[test]
fn forced_rolls_are_used_first_marked_kept_in_saves_and_replayed() {
    let mut g = race(7);
    g.dice_mut().force([5, 3]);
    let events = g.apply(Action::Draw).unwrap().to_vec();
    let r = rolls(&events);
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].value, r[0].forced, r[0].sides), (5, true, 6));
    assert_eq!(g.state().hands[0], [5]);
    assert_eq!(
        (g.log()[0].forced.as_slice(), g.log()[0].rolls),
        (&[5][..], 1)
    );
    assert_eq!(
        g.dice().forced(),
        [3],
        "the second value waits for the next roll"
    );

    let saved = g.save();
    assert_eq!(saved.log[0].forced, [5]);
    assert_eq!(saved.pending_forced, [3]);
    let mut again = Game::<Race>::from_saved(&through_text(&saved)).unwrap();
    assert_eq!(snapshot(&again), snapshot(&g));

    // Blue's draw takes the 3 still queued, in the game and in its reloaded copy.
    g.apply(Action::Draw).unwrap();
    again.apply(Action::Draw).unwrap();
    assert_eq!(g.state().hands[1], [3]);
    assert_eq!(snapshot(&again), snapshot(&g));

    // A replay from the actions and the forced values they consumed gives the same game.
    let replayed = Game::<Race>::replay(
        race_scenario(),
        7,
        g.log().iter().map(|e| (e.action.clone(), e.forced.clone())),
    )
    .unwrap();
    assert_eq!(snapshot(&replayed), snapshot(&g));
}

#[test]
fn a_free_roll_is_not_marked_forced_and_the_log_json_shows_it() {
    let mut g = race(42);
    let events = g.apply(Action::Draw).unwrap().to_vec();
    let r = rolls(&events);
    assert!(!r[0].forced);
    assert_eq!(r[0].value, 2, "the first d6 of seed 42");
    let log = grognard_engine::AnyGame::log(&g, &Seat::Omniscient);
    let roll = &log[0]["events"][0];
    assert_eq!(roll["type"], "roll");
    assert!(roll.get("forced").is_none(), "{roll}");
}

#[test]
fn a_forced_value_that_is_no_face_of_the_die_is_refused_and_changes_nothing() {
    for bad in [7, 0, 1000] {
        let mut g = race(7);
        g.apply(step(RED, "0201")).unwrap();
        g.dice_mut().force([bad]);
        let before = snapshot(&g);
        let save_before = serde_json::to_string(&g.save()).unwrap();
        let err = g.apply(Action::Draw).unwrap_err();
        assert_eq!(err.rule(), "ENGINE-DICE");
        assert!(
            err.to_string().contains(&format!("forced roll {bad} ")),
            "{err}"
        );
        assert!(err.to_string().contains("d6"), "{err}");
        assert_eq!(snapshot(&g), before, "state, dice and log unchanged");
        assert_eq!(serde_json::to_string(&g.save()).unwrap(), save_before);
        assert_eq!(g.dice().forced(), [bad], "the queue is as it was");
    }
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.dice_mut().force([4]);
    let before = snapshot(&g);
    let refused = [
        (step(RED, "0302"), "RACE-1"),  // not red's turn
        (step(BLUE, "0403"), "RACE-2"), // rock, and not adjacent
        (step(BLUE, "0101"), "RACE-2"), // not adjacent
        (
            Action::Move {
                unit: BLUE,
                to: grognard_hex::Hex::new(9, -9),
            },
            "RACE-2",
        ), // off the map
        (
            Action::Move {
                unit: UnitId(5),
                to: hex("0602"),
            },
            "RACE-2",
        ), // no such unit
        (Action::Block { card: 3 }, "RACE-5"), // nothing to react to
        (Action::Pass, "RACE-5"),
    ];
    for (action, rule) in refused {
        let err = g.apply(action.clone()).unwrap_err();
        assert_eq!(err.rule(), rule, "{action:?}: {err}");
        assert!(!g.rules().explain(g.state(), &action).legal);
        assert_eq!(snapshot(&g), before, "{action:?} changed the game");
    }
    // Every rule broken is listed, not just the first.
    let err = g.apply(step(BLUE, "0403")).unwrap_err();
    assert_eq!(err.reasons.len(), 2, "{err}");
}

#[test]
fn save_to_json_text_and_back_reproduces_the_game() {
    let mut g = race(99);
    for _ in 0..12 {
        let Some(a) = g.legal_actions().into_iter().last() else {
            break;
        };
        g.apply(a).unwrap();
    }
    assert!(g.log().len() >= 6);
    let saved = g.save();
    assert_eq!(saved.format, "grognard-game/1");
    assert_eq!(saved.ruleset, "race");
    assert_eq!(saved.seed, 99);
    let again = Game::<Race>::from_saved(&through_text(&saved)).unwrap();
    assert_eq!(state_json(&again), state_json(&g));
    assert_eq!(snapshot(&again), snapshot(&g));
    // Saved actions are written with the scenario's names.
    let text = serde_json::to_string(&saved).unwrap();
    assert!(text.contains(r#"{"type":"draw"}"#), "{text}");
    // And through the registry, as the protocol loads it.
    let any = registry().load_game(&through_text(&saved)).unwrap();
    assert_eq!(any.state(), grognard_engine::AnyGame::state(&g));
}

#[test]
fn a_save_of_another_format_or_ruleset_or_with_a_bad_log_is_refused_with_its_place() {
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.apply(step(BLUE, "0602")).unwrap();
    let saved = g.save();

    let mut other = saved.clone();
    other.format = "grognard-game/0".into();
    let e = Game::<Race>::from_saved(&other).unwrap_err();
    assert!(
        matches!(e, GameError::Format(_)) && e.to_string().contains("grognard-game/0"),
        "{e}"
    );

    let mut other = saved.clone();
    other.ruleset = "chess".into();
    let e = Game::<Race>::from_saved(&other).unwrap_err();
    assert!(e.to_string().contains("chess"), "{e}");
    let Err(e) = registry().load_game(&other) else {
        panic!("a chess save loaded")
    };
    assert!(e.to_string().contains("unknown ruleset `chess`"), "{e}");

    let mut other = saved.clone();
    other.log[1].action = serde_json::json!({"type": "move", "unit": "blue-runner", "to": "0909"});
    let e = Game::<Race>::from_saved(&other).unwrap_err();
    assert!(matches!(e, GameError::Malformed { index: 1, .. }), "{e}");
    assert!(e.to_string().contains("0909"), "{e}");

    let mut other = saved;
    other.log.swap(0, 1);
    let e = Game::<Race>::from_saved(&other).unwrap_err();
    assert!(matches!(e, GameError::Replay { index: 0, .. }), "{e}");
    assert!(e.to_string().contains("RACE-1"), "{e}");
}

#[test]
fn undo_takes_back_actions_to_the_last_random_result_and_no_further() {
    let mut g = race(7);
    assert!(g
        .undo()
        .unwrap_err()
        .to_string()
        .contains("nothing to undo"));

    g.apply(step(RED, "0201")).unwrap();
    g.apply(Action::Draw).unwrap(); // blue rolls: a random result
    let after_draw = snapshot(&g);
    g.apply(step(RED, "0302")).unwrap(); // blue holds a card: it may react
    let reacting = snapshot(&g);
    assert!(g.rules().to_act(g.state()).unwrap().reaction);
    g.apply(Action::Pass).unwrap();
    g.dice_mut().force([2]);

    g.undo().unwrap();
    assert_eq!(g.dice().forced(), [2], "undo keeps the forced queue");
    g.dice_mut().clear_forced();
    assert_eq!(snapshot(&g), reacting);
    g.undo().unwrap();
    assert_eq!(snapshot(&g), after_draw);

    let e = g.undo().unwrap_err();
    assert!(e.to_string().contains("rolled dice"), "{e}");
    assert_eq!(snapshot(&g), after_draw, "a refused undo changes nothing");
}

#[test]
fn can_undo_answers_as_undo_would_and_changes_nothing() {
    let mut g = race(7);
    assert!(g
        .can_undo()
        .unwrap_err()
        .to_string()
        .contains("nothing to undo"));
    g.apply(step(RED, "0201")).unwrap();
    let before = snapshot(&g);
    g.can_undo().unwrap();
    assert_eq!(snapshot(&g), before, "asking changes nothing");
    g.apply(Action::Draw).unwrap(); // blue rolls
    let e = g.can_undo().unwrap_err();
    assert!(e.to_string().contains("rolled dice"), "{e}");
    assert_eq!(e.to_string(), g.undo().unwrap_err().to_string());
}

#[test]
fn log_from_k_is_the_log_without_its_first_k_entries_as_each_seat_sees_it() {
    use grognard_engine::AnyGame;
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.apply(Action::Draw).unwrap();
    g.apply(step(RED, "0302")).unwrap();
    for seat in [
        Seat::Omniscient,
        Seat::Spectator,
        Seat::Side("blue".into()),
        Seat::Side("red".into()),
    ] {
        let log = AnyGame::log(&g, &seat);
        assert_eq!(log.len(), 3);
        for k in 0..=5 {
            let from = k.min(log.len());
            let tail = g.log_from(&seat, k);
            assert_eq!(tail, log[from..], "{seat:?}, k = {k}");
            // Numbered as in the whole log: the first is entry k + 1.
            if let Some(first) = tail.first() {
                assert_eq!(first["n"], k + 1, "{seat:?}, k = {k}");
            }
        }
    }
    // Each seat's entries from k are its own: a draw's card and roll stay hidden from
    // the side that did not draw.
    let blue = g.log_from(&Seat::Side("blue".into()), 1);
    let red = g.log_from(&Seat::Side("red".into()), 1);
    assert_ne!(blue, red, "the draws are seen differently by the two sides");
}

#[test]
fn log_tail_is_the_end_of_the_log_as_each_seat_sees_it() {
    use grognard_engine::AnyGame;
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.apply(Action::Draw).unwrap();
    g.apply(step(RED, "0302")).unwrap();
    for seat in [
        Seat::Omniscient,
        Seat::Spectator,
        Seat::Side("blue".into()),
        Seat::Side("red".into()),
    ] {
        let log = AnyGame::log(&g, &seat);
        for k in 0..=4 {
            let from = log.len().saturating_sub(k);
            assert_eq!(g.log_tail(&seat, k), log[from..], "{seat:?}, k = {k}");
        }
    }
}

#[test]
fn mud_rolls_and_a_stuck_runner_stays() {
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.dice_mut().force([1]);
    let events = g.apply(step(BLUE, "0503")).unwrap().to_vec();
    assert!(events.contains(&Event::Stuck { unit: BLUE }), "{events:?}");
    assert_eq!(g.state().at[1], hex("0603"));
    assert!(g.undo().is_err(), "the mud roll cannot be taken back");

    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.dice_mut().force([3]);
    g.apply(step(BLUE, "0503")).unwrap();
    assert_eq!(g.state().at[1], hex("0503"));
}

#[test]
fn a_block_sends_the_runner_back_on_its_card_or_less() {
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.dice_mut().force([4]);
    g.apply(Action::Draw).unwrap(); // blue holds a 4
    g.apply(step(RED, "0302")).unwrap();
    let d = g.rules().to_act(g.state()).unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("blue", "reaction", true)
    );
    assert_eq!(g.legal_actions(), [Action::Block { card: 4 }, Action::Pass]);
    assert_eq!(
        g.apply(Action::Block { card: 5 }).unwrap_err().rule(),
        "RACE-5",
        "blue holds no 5"
    );
    g.dice_mut().force([4]);
    let events = g.apply(Action::Block { card: 4 }).unwrap().to_vec();
    assert!(events.contains(&Event::Blocked {
        unit: RED,
        card: 4,
        back: true
    }));
    assert_eq!(g.state().at[0], hex("0201"));
    assert!(g.state().hands[1].is_empty());
}

/// Red runs east by the dry hexes; blue steps back and forth.
fn run_red_home(g: &mut Game<Race>) {
    let red = ["0201", "0302", "0401", "0501", "0601"];
    let blue = ["0602", "0603"];
    for (i, to) in red.iter().enumerate() {
        g.apply(step(RED, to)).unwrap();
        if g.state().outcome.is_none() {
            g.apply(step(BLUE, blue[i % 2])).unwrap();
        }
    }
}

#[test]
fn a_runner_on_its_goal_edge_wins_and_the_game_then_refuses_everything() {
    let mut g = race(7);
    run_red_home(&mut g);
    let outcome = g.rules().outcome(g.state()).expect("red is home");
    assert_eq!(outcome.winner.as_deref(), Some("red"));
    assert_eq!(outcome.rule.as_deref(), Some("RACE-6"));
    assert!(g.rules().to_act(g.state()).is_none());
    assert!(g.legal_actions().is_empty());
    let before = snapshot(&g);
    assert_eq!(g.apply(Action::Draw).unwrap_err().rule(), "RACE-6");
    assert_eq!(snapshot(&g), before);
}

#[test]
fn the_turn_limit_ends_the_race_in_a_draw() {
    let mut g = race(7);
    let (red, blue) = (["0102", "0101"], ["0602", "0603"]);
    let mut i = 0;
    while g.state().outcome.is_none() {
        g.apply(step(RED, red[i % 2])).unwrap();
        g.apply(step(BLUE, blue[i % 2])).unwrap();
        i += 1;
    }
    assert_eq!(i, 8, "eight turns");
    let outcome = g.state().outcome.clone().unwrap();
    assert_eq!(
        (outcome.winner, outcome.rule.as_deref()),
        (None, Some("RACE-7"))
    );
}

fn drawn_game(red_card: u32, blue_card: u32) -> Game<Race> {
    let mut g = race(7);
    g.dice_mut().force([red_card, blue_card]);
    g.apply(Action::Draw).unwrap();
    g.apply(Action::Draw).unwrap();
    g
}

fn log_text(g: &Game<Race>, seat: &Seat) -> String {
    Value::Array(grognard_engine::AnyGame::log(g, seat)).to_string()
}

fn view_text(g: &Game<Race>, seat: &Seat) -> String {
    grognard_engine::AnyGame::view(g, seat).to_string()
}

#[test]
fn a_side_sees_its_own_hand_and_never_the_others() {
    let g = drawn_game(5, 3);
    let blue = Seat::Side("blue".into());
    let red = Seat::Side("red".into());
    let view = grognard_engine::AnyGame::view(&g, &blue);
    assert_eq!(view["sides"]["blue"]["hand"], serde_json::json!([3]));
    assert!(view["sides"]["red"].get("hand").is_none(), "{view}");
    assert_eq!(
        view["sides"]["red"]["cards"], 1,
        "the number of cards is public"
    );
    let view = grognard_engine::AnyGame::view(&g, &red);
    assert_eq!(view["sides"]["red"]["hand"], serde_json::json!([5]));
    assert!(view["sides"]["blue"].get("hand").is_none(), "{view}");

    let spectator = grognard_engine::AnyGame::view(&g, &Seat::Spectator);
    assert!(
        spectator["sides"]["red"].get("hand").is_none()
            && spectator["sides"]["blue"].get("hand").is_none()
    );
    let all = grognard_engine::AnyGame::view(&g, &Seat::Omniscient);
    assert_eq!(
        (
            all["sides"]["red"]["hand"].clone(),
            all["sides"]["blue"]["hand"].clone()
        ),
        (serde_json::json!([5]), serde_json::json!([3]))
    );

    // In blue's log red's draw shows no card and no roll.
    let log = grognard_engine::AnyGame::log(&g, &blue);
    assert_eq!(
        log[0]["events"][0],
        serde_json::json!({"type": "drew", "side": "red", "text": "Red team draws a card."})
    );
    assert!(log[0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["type"] != "roll"));
    assert_eq!(
        log[1]["events"][0]["type"], "roll",
        "blue sees its own roll"
    );
    let everything = grognard_engine::AnyGame::log(&g, &Seat::Omniscient);
    assert_eq!(everything[0]["events"][0]["value"], 5);
}

#[test]
fn what_a_side_sees_does_not_depend_on_the_others_hand() {
    // Two games that differ only in red's card: blue's view and log are the same,
    // byte for byte, so nothing of red's hand leaks to blue.
    let (a, b) = (drawn_game(5, 3), drawn_game(2, 3));
    for seat in [Seat::Side("blue".into()), Seat::Spectator] {
        assert_eq!(view_text(&a, &seat), view_text(&b, &seat), "{seat:?}");
        assert_eq!(log_text(&a, &seat), log_text(&b, &seat), "{seat:?}");
    }
    let red = Seat::Side("red".into());
    assert_ne!(view_text(&a, &red), view_text(&b, &red));
    assert_ne!(log_text(&a, &red), log_text(&b, &red));
}

#[test]
fn a_state_round_trips_through_json() {
    let g = drawn_game(6, 1);
    let text = state_json(&g);
    let back: State = serde_json::from_str(&text).unwrap();
    assert_eq!(&back, g.state());
}

/// Regression: the scenario inside a save is JSON from outside. A grid shorter than
/// its map, a unit off it or a first side that is no side made `from_saved` panic
/// (in the hex grid or the rules) instead of refusing the save.
#[test]
fn regression_a_save_with_a_tampered_scenario_is_refused_not_a_panic() {
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    let saved = serde_json::to_value(g.save()).unwrap();
    type Tamper = (&'static str, fn(&mut Value));
    let tamper: [Tamper; 9] = [
        ("terrain grid", |s| {
            s["terrain"]["cells"] = serde_json::json!([0, 0])
        }),
        ("hexsides grid", |s| {
            s["hexsides"]["cells"] = serde_json::json!([])
        }),
        ("path_links grid", |s| {
            s["path_links"]["cells"] = serde_json::json!([])
        }),
        ("terrain grid", |s| s["map"]["cols"] = serde_json::json!(40)),
        ("terrain name", |s| {
            s["terrain_names"] = serde_json::json!([])
        }),
        ("first side", |s| {
            s["first_side"] = serde_json::json!("green")
        }),
        ("no side", |s| {
            s["units"][0]["side"] = serde_json::json!("green")
        }),
        ("neither on the map", |s| {
            s["units"][1]["hex"] = serde_json::json!({"q": 40, "r": 40})
        }),
        ("unknown type", |s| {
            s["units"][1]["kind"] = serde_json::json!("dragon")
        }),
    ];
    for (says, f) in tamper {
        let mut bad = saved.clone();
        f(&mut bad["scenario"]);
        let bad: SavedGame = serde_json::from_value(bad).unwrap();
        let e = Game::<Race>::from_saved(&bad).unwrap_err();
        assert!(matches!(e, GameError::Save(_)), "{says}: {e}");
        assert!(e.to_string().contains(says), "{says}: {e}");
    }
    // The save as it was still loads.
    let good: SavedGame = serde_json::from_value(saved).unwrap();
    assert_eq!(
        snapshot(&Game::<Race>::from_saved(&good).unwrap()),
        snapshot(&g)
    );
}

#[test]
fn a_game_without_its_log_applies_an_action_as_the_game_does() {
    use grognard_engine::AnyGame;
    let mut g = race(7);
    g.apply(step(RED, "0201")).unwrap();
    g.apply(Action::Draw).unwrap();
    g.dice_mut().force([4]);
    let copy = Game::without_log(&g);
    assert!(copy.log().is_empty());
    assert_eq!(copy.state(), g.state());
    for action in g.legal_actions() {
        let mut a = Game::without_log(&g);
        let mut b = g.clone();
        assert_eq!(
            a.apply(action.clone()).map(<[_]>::to_vec),
            b.apply(action).map(<[_]>::to_vec)
        );
        assert_eq!(
            (a.state(), a.dice()),
            (b.state(), b.dice()),
            "the same state and dice after"
        );
    }
    // Through the JSON face too; its log holds only what it applied.
    let legal = AnyGame::legal(&g);
    let mut boxed = AnyGame::without_log(&g);
    let events = boxed.apply(&legal[0]).unwrap();
    assert_eq!(events, AnyGame::apply(&mut g, &legal[0]).unwrap());
    assert_eq!(
        (boxed.len(), boxed.to_act(), boxed.view(&Seat::Omniscient)),
        (1, AnyGame::to_act(&g), g.view(&Seat::Omniscient))
    );
}
