//! Whole sequences driven through the engine protocol (JSON lines, as an AI or a front
//! end sends them): load, legal, apply, explain, preview, reachable, force_rolls, state,
//! save and load again.

use super::harness::clear;
use grognard_engine::protocol::Session;
use serde_json::{json, Value};

struct P(Session);

impl P {
    fn new() -> P {
        P(Session::new(grognard_rules::registry()))
    }

    fn send(&mut self, req: Value) -> Value {
        let r = self.0.handle(&req.to_string());
        serde_json::from_str(&r.line).expect("a JSON line")
    }

    fn ok(&mut self, req: Value) -> Value {
        let r = self.send(req.clone());
        assert_eq!(r["ok"], true, "{req} -> {r}");
        r
    }

    fn err(&mut self, req: Value) -> String {
        let r = self.send(req.clone());
        assert_eq!(r["ok"], false, "{req} -> {r}");
        r["error"]["rule"].as_str().unwrap().to_owned()
    }

    fn apply(&mut self, action: Value) -> Value {
        self.ok(json!({"cmd": "apply", "action": action}))
    }

    fn deciding(&mut self) -> (String, String) {
        let r = self.ok(json!({"cmd": "state"}));
        (
            r["to_act"]["side"].as_str().unwrap().to_owned(),
            r["to_act"]["kind"].as_str().unwrap().to_owned(),
        )
    }
}

fn mv(unit: &str, to: &str) -> Value {
    json!({"type": "move", "unit": unit, "to": to})
}

/// A charge and the attack that follows, through the protocol, with every answer
/// citing its rules.
#[test]
fn a_charge_then_an_attack_through_the_protocol() {
    let text = clear(6, 9)
        .cav("o-c", "0302", 4, 5)
        .inf("o-i", "0405", 5, 4)
        .inf("b-t", "0305", 4, 4)
        .inf("b-far", "0609", 5, 4)
        .toml();
    let mut p = P::new();
    let r = p.ok(json!({"cmd": "load", "scenario_toml": text}));
    assert_eq!(r["to_act"]["kind"], "movement");
    // Reachable: the cavalry's hexes with costs; next to the enemy it must stop.
    let r = p.ok(json!({"cmd": "reachable", "unit": "o-c"}));
    let reach = r["reachable"].as_array().unwrap();
    let at = |label: &str| reach.iter().find(|x| x["hex"] == label).cloned();
    assert_eq!(at("0303").unwrap()["cost"], 1);
    assert_eq!(at("0304").unwrap()["stop"], true);
    // A refused step names its rule.
    assert_eq!(
        p.err(json!({"cmd": "apply", "action": mv("b-t", "0306")})),
        "MP-MOV-1"
    );
    let e = p.ok(json!({"cmd": "explain", "action": mv("o-i", "0305")}));
    assert_eq!(
        (e["legal"].clone(), e["reasons"][0]["rule"].clone()),
        (json!(false), json!("MP-MOV-7"))
    );
    // The run-up; the charge is then in the legal list in place of the step.
    let r = p.apply(mv("o-c", "0303"));
    assert_eq!(r["events"][0]["type"], "moved");
    let legal = p.ok(json!({"cmd": "legal"}))["actions"]
        .as_array()
        .unwrap()
        .clone();
    let charge = json!({"type": "charge", "unit": "o-c", "target": "b-t"});
    assert!(legal.contains(&charge));
    assert!(!legal.contains(&mv("o-c", "0304")));
    assert_eq!(
        p.err(json!({"cmd": "apply", "action": mv("o-c", "0304")})),
        "MP-CHG-7"
    );
    // Preview: morale 4, no correction: 5 chances in 9.
    let pr = p.ok(json!({"cmd": "preview", "action": charge}))["preview"].clone();
    assert_eq!(
        (
            pr["outcomes"][0]["num"].clone(),
            pr["outcomes"][0]["den"].clone()
        ),
        (json!(5), json!(9))
    );
    p.ok(json!({"cmd": "force_rolls", "rolls": [8]}));
    let r = p.apply(charge);
    let events = r["events"].as_array().unwrap();
    assert!(events
        .iter()
        .any(|e| e["type"] == "charged" && e["success"] == true));
    assert!(events
        .iter()
        .any(|e| e["type"] == "retreated" && e["unit"] == "b-t" && e["to"] == "0306"));
    assert!(events
        .iter()
        .any(|e| e["type"] == "took_hex" && e["unit"] == "o-c" && e["rule"] == "MP-CHG-17"));
    // Combat: the attack on the charged unit at 1.5 times, with the infantry in support.
    p.apply(json!({"type": "end_phase"}));
    assert_eq!(p.deciding(), ("orange".into(), "combat".into()));
    let attack = json!({"type": "attack", "unit": "o-c", "target": "b-t"});
    let pr = p.ok(json!({"cmd": "preview", "action": attack}))["preview"].clone();
    assert_eq!(
        (
            pr["inputs"]["attack"].clone(),
            pr["inputs"]["defence"].clone()
        ),
        (json!(11), json!(4))
    );
    assert_eq!(pr["inputs"]["odds"], "2-1");
    let total: u64 = pr["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["num"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 6);
    p.ok(json!({"cmd": "force_rolls", "rolls": [6, 9]}));
    let r = p.apply(attack.clone());
    let ev = r["events"].as_array().unwrap();
    assert!(ev
        .iter()
        .any(|e| e["type"] == "attacked" && e["odds"] == "2-1" && e["supports"] == json!(["o-i"])));
    // Once attacked, never again this phase.
    assert_eq!(p.err(json!({"cmd": "apply", "action": json!({"type": "attack", "unit": "o-i", "target": "b-t"})})), "MP-CMB-2");
    // The save replays to the same state.
    let saved = p.ok(json!({"cmd": "save"}))["game"].clone();
    let state = p.ok(json!({"cmd": "state"}))["state"].clone();
    let mut q = P::new();
    q.ok(json!({"cmd": "load", "game": saved}));
    assert_eq!(q.ok(json!({"cmd": "state"}))["state"], state);
}

/// Two full turns of the built-in scenario through the protocol: the first legal move of
/// each unit in turn, every attack offered, and the phases as the rules order them.
#[test]
fn two_turns_of_the_heights_of_aubrac_through_the_protocol() {
    let b = grognard_rules::builtin::find("heights-of-aubrac").unwrap();
    let mut p = P::new();
    let r = p.ok(json!({"cmd": "load", "scenario_toml": b.text, "seed": 3}));
    assert_eq!(r["scenario"], "heights-of-aubrac");
    let mut phases: Vec<(String, String)> = Vec::new();
    let mut moved = std::collections::BTreeSet::new();
    let mut n = 0;
    loop {
        let state = p.ok(json!({"cmd": "state"}));
        if state["state"]["turn"] == 3 || !state["outcome"].is_null() {
            break;
        }
        let (side, kind) = p.deciding();
        if phases.last() != Some(&(side.clone(), kind.clone())) {
            phases.push((side.clone(), kind.clone()));
            moved.clear();
        }
        let legal = p.ok(json!({"cmd": "legal"}))["actions"]
            .as_array()
            .unwrap()
            .clone();
        // Every listed action is explained as legal, with reasons.
        for a in legal.iter().take(5) {
            let e = p.ok(json!({"cmd": "explain", "action": a}));
            assert_eq!(e["legal"], true, "{a}");
            assert!(!e["reasons"].as_array().unwrap().is_empty());
        }
        let pick = match kind.as_str() {
            // Walk one step toward the enemy's edge with every unit, once.
            "movement" => legal.iter().find(|a| {
                a["type"] == "move" && {
                    let to = a["to"].as_str().unwrap();
                    let row: u32 = to[2..].parse().unwrap();
                    let unit = a["unit"].as_str().unwrap();
                    let mine = if side == "blue" {
                        unit.starts_with("b-")
                    } else {
                        unit.starts_with("o-")
                    };
                    mine && !moved.contains(unit) && if side == "blue" { row < 15 } else { row > 1 }
                }
            }),
            "bombardment" | "combat" => legal.iter().find(|a| a["type"] != "end_phase"),
            _ => None,
        }
        .cloned()
        .unwrap_or_else(|| json!({"type": "end_phase"}));
        if pick["type"] == "move" {
            moved.insert(pick["unit"].as_str().unwrap().to_owned());
        }
        if pick["type"] == "attack" || pick["type"] == "bombard" {
            let pr = p.ok(json!({"cmd": "preview", "action": pick}));
            let sum: u64 = pr["preview"]["outcomes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["num"].as_u64().unwrap())
                .sum();
            assert_eq!(sum, pr["preview"]["outcomes"][0]["den"].as_u64().unwrap());
        }
        p.apply(pick);
        n += 1;
        assert!(n < 2000);
    }
    // Blue plays first; its opening bombardment had no target in sight and passed.
    assert_eq!(phases[0], ("blue".to_owned(), "movement".to_owned()));
    assert!(phases.contains(&("orange".to_owned(), "movement".to_owned())));
    let log = p.ok(json!({"cmd": "log"}))["log"].as_array().unwrap().len();
    assert_eq!(log, n);
    let view = p.ok(json!({"cmd": "view", "side": "orange"}))["view"].clone();
    assert_eq!(view["turn"], 3);
}

/// A whole game through the protocol, picking the first legal action but `end_phase`
/// where there is another (and ending every movement phase after 30 steps): it ends,
/// and its save replays.
#[test]
fn a_whole_game_through_the_protocol() {
    let b = grognard_rules::builtin::find("heights-of-aubrac").unwrap();
    let mut p = P::new();
    p.ok(json!({"cmd": "load", "scenario_toml": b.text}));
    let mut steps_in_phase = 0;
    let mut last = (String::new(), String::new());
    for _ in 0..20_000 {
        let r = p.ok(json!({"cmd": "legal"}));
        if !r["outcome"].is_null() {
            break;
        }
        let now = (
            r["to_act"]["side"].as_str().unwrap().to_owned(),
            r["to_act"]["kind"].as_str().unwrap().to_owned(),
        );
        if now != last {
            steps_in_phase = 0;
            last = now;
        }
        steps_in_phase += 1;
        let legal = r["actions"].as_array().unwrap();
        let pick = if steps_in_phase > 30 {
            json!({"type": "end_phase"})
        } else {
            legal
                .iter()
                .find(|a| a["type"] != "end_phase")
                .unwrap_or(&legal[0])
                .clone()
        };
        p.apply(pick);
    }
    let r = p.ok(json!({"cmd": "state"}));
    assert!(!r["outcome"].is_null(), "the game ended");
    assert!(r["outcome"]["rule"]
        .as_str()
        .unwrap()
        .starts_with("MP-VIC-"));
    let saved = p.ok(json!({"cmd": "save"}))["game"].clone();
    let mut q = P::new();
    q.ok(json!({"cmd": "load", "game": saved}));
    assert_eq!(q.ok(json!({"cmd": "state"}))["state"], r["state"]);
    assert_eq!(
        q.err(json!({"cmd": "apply", "action": {"type": "end_phase"}})),
        "MP-VIC-3"
    );
}

/// The view envelope (docs/ENGINE-PROTOCOL.md): `turn`, `turns`, `phase`, `active`, and
/// `units` each with `id`, `side` and `hex`, for every seat.
#[test]
fn the_view_carries_the_envelope() {
    use grognard_engine::{Game, Ruleset, Seat};
    use grognard_rules::morne_plaine::MornePlaine;
    let game =
        Game::<MornePlaine>::new(crate::common::builtin("heights-of-aubrac"), Some(1)).unwrap();
    for seat in [
        Seat::Side("orange".into()),
        Seat::Spectator,
        Seat::Omniscient,
    ] {
        let v = game.rules().view(game.state(), &seat);
        assert_eq!(v["turn"], 1);
        assert!(v["turns"].as_u64().is_some_and(|t| t >= 1), "{v}");
        assert!(v["phase"].is_string() && v["active"].is_string(), "{v}");
        let units = v["units"].as_array().expect("units");
        assert_eq!(units.len(), game.state().units.len());
        for u in units {
            assert!(u["id"].is_string() && u["side"].is_string(), "{u}");
            assert!(u["hex"].is_string() || u["hex"].is_null(), "{u}");
        }
    }
}

/// Each unit's name as players read it (the scenario's `name`), beside its id, so that the
/// page never shows a bare id such as `o-grenadiers`.
#[test]
fn the_view_names_each_unit_as_the_scenario_does() {
    use grognard_engine::{Game, Ruleset, Seat};
    use grognard_rules::morne_plaine::MornePlaine;
    let game =
        Game::<MornePlaine>::new(crate::common::builtin("bridge-at-morne"), Some(1)).unwrap();
    let v = game.rules().view(game.state(), &Seat::Spectator);
    let name = |id: &str| {
        v["units"]
            .as_array()
            .and_then(|us| us.iter().find(|u| u["id"] == id))
            .map(|u| u["name"].clone())
    };
    assert_eq!(name("o-1-line"), Some(json!("1st Line")));
    assert_eq!(name("o-vauclair"), Some(json!("General Vauclair")));
}
