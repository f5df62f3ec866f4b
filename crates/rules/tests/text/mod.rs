//! Text from the rules, not from the page (issue 15): in random playouts of every
//! scenario in `scenarios/`, every event, decision, previewed result, refusal and result
//! of the game carries a sentence, and no sentence shows what is meant for machines:
//! a unit's or side's id, a snake_case word, a `{` of JSON or a `[object` of a page.

use grognard_engine::scenario::Scenario;
use grognard_engine::{AnyGame, Dice, Seat};
use serde_json::Value;
use std::path::Path;

/// Why a sentence is not fit to show, if it is not.
fn flaw(text: &str, scenario: &Scenario) -> Option<String> {
    if text.trim().is_empty() {
        return Some("no text".into());
    }
    if text.contains('{') || text.contains('}') {
        return Some("a brace".into());
    }
    if text.contains("[object") {
        return Some("`[object`".into());
    }
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')) {
        if word.contains('_') {
            return Some(format!("the snake_case word `{word}`"));
        }
        if scenario.units.iter().any(|u| u.id == word) {
            return Some(format!("the unit id `{word}`"));
        }
        if scenario
            .sides
            .iter()
            .any(|s| s.id == word && s.name != word)
        {
            return Some(format!("the side id `{word}`"));
        }
    }
    None
}

fn check(text: Option<&str>, what: &dyn Fn() -> String, scenario: &Scenario) {
    let text = text.unwrap_or("");
    if let Some(f) = flaw(text, scenario) {
        panic!("{}: {}: {f} in {text:?}", scenario.id, what());
    }
}

/// Every scenario file under `scenarios/`, loaded through the registry.
fn every_scenario() -> Vec<Scenario> {
    let registry = grognard_rules::registry();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "toml") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            registry
                .load_scenario(&f.display().to_string(), &text)
                .unwrap_or_else(|p| panic!("{}: {p}", f.display()))
        })
        .collect()
}

/// Checks the sentences of one state: whose decision, the result, a preview of one
/// legal action and the refusals of actions legal a step before and refused now.
fn check_state(game: &dyn AnyGame, before: &[Value], pick: &mut Dice, s: &Scenario, n: usize) {
    if let Some(d) = game.to_act() {
        check(Some(&d.text), &|| format!("decision at action {n}"), s);
    }
    if let Some(o) = game.outcome() {
        check(Some(&o.reason), &|| format!("outcome at action {n}"), s);
    }
    let legal = game.legal();
    if !legal.is_empty() {
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        if let Ok(p) = game.preview(&legal[i]) {
            for c in &p.outcomes {
                check(
                    Some(&c.text),
                    &|| format!("preview of {} at action {n}: {}", legal[i], c.result),
                    s,
                );
            }
        }
    }
    for a in before.iter().take(8) {
        if let Ok(e) = game.explain(a) {
            if !e.legal {
                for r in &e.reasons {
                    check(
                        Some(&r.message),
                        &|| format!("refusal of {a} at action {n} ({})", r.rule),
                        s,
                    );
                }
            }
        }
    }
}

#[test]
fn every_event_outcome_decision_preview_and_refusal_of_random_playouts_has_clean_text() {
    let registry = grognard_rules::registry();
    let scenarios = every_scenario();
    let rulesets: std::collections::BTreeSet<&str> =
        scenarios.iter().map(|s| s.ruleset.as_str()).collect();
    for r in ["morne_plaine", "battle_cry", "jomini", "skirmish"] {
        assert!(rulesets.contains(r), "no scenario of {r} in scenarios/");
    }
    for s in &scenarios {
        for seed in [1u64, 2, 3] {
            let mut game = registry.new_game(s.clone(), Some(seed)).unwrap();
            let mut pick = Dice::new(seed * 101);
            let mut before: Vec<Value> = Vec::new();
            let mut n = 0;
            loop {
                check_state(game.as_ref(), &before, &mut pick, s, n);
                let legal = game.legal();
                if game.outcome().is_some() || legal.is_empty() || n == 1_500 {
                    break;
                }
                let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
                let events = game.apply(&legal[i]).unwrap();
                for e in &events {
                    check(
                        e["text"].as_str(),
                        &|| format!("event {e} of action {n} (seed {seed})"),
                        s,
                    );
                }
                before = legal;
                n += 1;
            }
            // The log says the same as the answers, for every seat.
            for seat in [Seat::Omniscient, Seat::Spectator] {
                for entry in game.log(&seat) {
                    for e in entry["events"].as_array().unwrap() {
                        check(e["text"].as_str(), &|| format!("logged event {e}"), s);
                    }
                }
            }
        }
    }
}

#[test]
fn a_sentence_with_an_id_a_brace_or_a_snake_case_word_is_flawed() {
    let s = every_scenario()
        .into_iter()
        .find(|s| s.ruleset == "skirmish")
        .unwrap();
    let unit = &s.units[0];
    let side = &s.sides[0];
    assert!(flaw("plays attack_right", &s).is_some());
    assert!(flaw(&format!("melee attack of {} on him", unit.id), &s).is_some());
    assert!(flaw(&format!("{} has nobody left", side.id), &s).is_some());
    assert!(flaw("{\"type\":\"moved\"}", &s).is_some());
    assert!(flaw("[object Object]", &s).is_some());
    assert!(flaw("", &s).is_some());
    let name = unit.name.clone().unwrap();
    assert_eq!(flaw(&format!("{name} moves to 0304."), &s), None);
    assert_eq!(flaw(&format!("Victory to {}.", side.name), &s), None);
}
