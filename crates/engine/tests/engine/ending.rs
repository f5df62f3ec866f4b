//! Games ended from outside their rules (issue 16): a resignation, a loss on time.

use crate::race::{Action, Race};
use crate::{hex, race, race_scenario, registry, snapshot};
use grognard_engine::game::{GameError, SavedGame};
use grognard_engine::{AnyGame, EndingKind, Game, Ruleset, UnitId};
use serde_json::{json, Value};

const RED: UnitId = UnitId(0);

fn step_red(to: &str) -> Action {
    Action::Move {
        unit: RED,
        to: hex(to),
    }
}

#[test]
fn a_loss_on_time_names_the_other_side_winner_and_leaves_nothing_to_do() {
    let mut g = race(7);
    g.apply(step_red("0201")).unwrap();
    let ending = g
        .end_from_outside("blue", EndingKind::Time)
        .unwrap()
        .clone();
    assert_eq!(
        (ending.side.as_str(), ending.kind, ending.at_action),
        ("blue", EndingKind::Time, 1)
    );
    let outcome = g.outcome().expect("the game is over");
    assert_eq!(outcome.winner.as_deref(), Some("red"));
    assert_eq!(
        outcome.reason,
        "Blue team lost on time (the time per move ran out)"
    );
    assert_eq!(outcome.rule.as_deref(), Some("ENGINE-TIME"));
    assert!(g.to_act().is_none());
    assert!(g.legal_actions().is_empty());
    // The rules themselves know nothing of it: the state is the one the log made.
    assert!(g.rules().outcome(g.state()).is_none());
}

#[test]
fn a_resignation_is_said_plainly_and_every_action_after_it_is_refused() {
    let mut g = race(7);
    g.end_from_outside("red", EndingKind::Resigned).unwrap();
    let outcome = g.outcome().unwrap();
    assert_eq!(
        (outcome.winner.as_deref(), outcome.reason.as_str()),
        (Some("blue"), "Red team resigned")
    );
    let before = snapshot(&g);
    let refusal = g.apply(Action::Draw).unwrap_err();
    assert_eq!(refusal.rule(), "ENGINE-RESIGN");
    assert_eq!(snapshot(&g), before, "a refused action changes nothing");
}

#[test]
fn undo_after_an_ending_from_outside_is_refused() {
    let mut g = race(7);
    g.apply(step_red("0201")).unwrap();
    g.can_undo()
        .expect("a move that rolled nothing may be taken back");
    g.end_from_outside("blue", EndingKind::Resigned).unwrap();
    assert!(matches!(g.can_undo(), Err(GameError::Undo(_))));
    assert!(matches!(g.undo(), Err(GameError::Undo(_))));
    assert_eq!(g.log().len(), 1);
}

#[test]
fn a_game_over_or_a_side_unknown_cannot_end_from_outside() {
    let mut g = race(7);
    assert!(matches!(
        g.end_from_outside("green", EndingKind::Time),
        Err(GameError::Ending(_))
    ));
    assert!(g.ending().is_none());
    g.end_from_outside("red", EndingKind::Time).unwrap();
    assert!(matches!(
        g.end_from_outside("blue", EndingKind::Resigned),
        Err(GameError::Ending(_))
    ));
    assert_eq!(g.ending().unwrap().side, "red", "the first ending stands");
}

#[test]
fn a_save_keeps_the_ending_and_loading_it_rebuilds_the_ended_game() {
    let mut g = race(7);
    g.apply(step_red("0201")).unwrap();
    g.end_from_outside("blue", EndingKind::Time).unwrap();
    let text = serde_json::to_string(&g.save()).unwrap();
    assert!(text.contains(r#""ending":{"side":"blue","kind":"time","at_action":1}"#));
    let saved: SavedGame = serde_json::from_str(&text).unwrap();
    let again = Game::<Race>::from_saved(&saved).unwrap();
    assert_eq!(again.ending(), g.ending());
    assert_eq!(again.outcome(), g.outcome());
    assert!(again.legal_actions().is_empty());
}

#[test]
fn a_save_without_an_ending_writes_no_ending_field_and_loads_as_before() {
    let mut g = race(7);
    g.apply(step_red("0201")).unwrap();
    let text = serde_json::to_string(&g.save()).unwrap();
    assert!(!text.contains("ending"));
    let again = Game::<Race>::from_saved(&serde_json::from_str(&text).unwrap()).unwrap();
    assert!(again.ending().is_none());
    assert!(again.to_act().is_some());
}

#[test]
fn a_saved_ending_that_does_not_fit_its_log_is_refused() {
    let mut g = race(7);
    g.apply(step_red("0201")).unwrap();
    g.end_from_outside("blue", EndingKind::Time).unwrap();
    let mut saved = g.save();
    if let Some(e) = saved.ending.as_mut() {
        e.at_action = 5;
    }
    assert!(matches!(
        Game::<Race>::from_saved(&saved),
        Err(GameError::Ending(_))
    ));
}

#[test]
fn any_game_ends_from_outside_through_json_and_a_registry_load_rebuilds_it() {
    let mut g: Box<dyn AnyGame> = registry().new_game(race_scenario(), Some(7)).unwrap();
    let ending = g.end_from_outside("red", EndingKind::Resigned).unwrap();
    assert_eq!(ending.at_action, 0);
    assert!(g.to_act().is_none());
    assert!(g.legal().is_empty());
    assert!(g
        .ai_action(grognard_engine::ai::AiConfig::default())
        .is_none());
    assert_eq!(g.outcome().unwrap().winner.as_deref(), Some("blue"));
    let again = registry().load_game(&g.save()).unwrap();
    assert_eq!(again.ending(), g.ending());
    assert_eq!(again.outcome(), g.outcome());
}

/// One request to a protocol session, its answer as JSON.
fn ask(session: &mut grognard_engine::protocol::Session, request: &Value) -> Value {
    let line = session.handle(&request.to_string()).line;
    serde_json::from_str(&line).unwrap()
}

fn loaded() -> grognard_engine::protocol::Session {
    let mut s = grognard_engine::protocol::Session::new(registry());
    let v = ask(
        &mut s,
        &json!({"cmd": "load", "scenario_toml": crate::race::RACE_TOML}),
    );
    assert_eq!(v["ok"], true, "{v}");
    s
}

#[test]
fn the_protocols_resign_ends_the_game_for_the_side_named_and_a_seat_resigns_only_its_own() {
    let mut c = loaded();
    assert_eq!(
        ask(&mut c, &json!({"cmd": "resign"}))["error"]["rule"],
        "request"
    );
    let bored = json!({"cmd": "resign", "side": "red", "kind": "bored"});
    assert_eq!(ask(&mut c, &bored)["error"]["rule"], "request");
    let v = ask(
        &mut c,
        &json!({"cmd": "resign", "side": "blue", "kind": "time"}),
    );
    assert_eq!((&v["ok"], &v["to_act"]), (&json!(true), &Value::Null));
    assert_eq!(v["outcome"]["winner"], "red");
    assert_eq!(
        v["outcome"]["reason"],
        "Blue team lost on time (the time per move ran out)"
    );
    assert_eq!(ask(&mut c, &json!({"cmd": "legal"}))["actions"], json!([]));
    assert_eq!(
        ask(&mut c, &json!({"cmd": "undo"}))["error"]["rule"],
        "undo"
    );
    let saved = ask(&mut c, &json!({"cmd": "save"}))["game"].clone();
    assert_eq!(saved["ending"]["kind"], "time");
    let mut again = grognard_engine::protocol::Session::new(registry());
    let v = ask(&mut again, &json!({"cmd": "load", "game": saved}));
    assert_eq!(v["outcome"]["winner"], "red");

    let mut seat = loaded();
    assert_eq!(
        ask(&mut seat, &json!({"cmd": "seat", "side": "red"}))["ok"],
        true
    );
    let other = json!({"cmd": "resign", "side": "blue"});
    assert_eq!(ask(&mut seat, &other)["error"]["rule"], "seat");
    let v = ask(&mut seat, &json!({"cmd": "resign"}));
    assert_eq!(v["outcome"]["reason"], "Red team resigned");
}
