//! Unit ids and hex labels on the wire: names in, names out, and a clear error naming
//! whatever is unknown, off the map or malformed.

use crate::race::{Action, Event};
use crate::{race, race_scenario, registry};
use grognard_engine::dynamic::EngineError;
use grognard_engine::wire::Names;
use grognard_engine::{AnyGame, UnitId};
use grognard_hex::{Hex, MapShape, Orientation, Shove};
use serde_json::json;

fn names() -> Names {
    let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 3).unwrap();
    Names::new(vec!["red-runner".into(), "blue-runner".into()], map)
}

fn decode(v: serde_json::Value) -> Result<Action, String> {
    names()
        .scope(|| serde_json::from_value::<Action>(v))
        .map_err(|e| e.to_string())
}

#[test]
fn actions_name_units_by_id_and_hexes_by_label() {
    let a = Action::Move {
        unit: UnitId(1),
        to: Hex::new(4, -1),
    };
    let v = names().scope(|| serde_json::to_value(&a)).unwrap();
    assert_eq!(
        v,
        json!({"type": "move", "unit": "blue-runner", "to": "0502"})
    );
    assert_eq!(decode(v).unwrap(), a);
}

#[test]
fn names_know_units_both_ways_and_label_off_map_hexes_plainly() {
    let n = names();
    assert_eq!(n.unit("blue-runner"), Some(UnitId(1)));
    assert_eq!(n.unit("ghost"), None);
    assert_eq!(n.unit_name(UnitId(0)), Some("red-runner"));
    assert_eq!(n.unit_name(UnitId(2)), None);
    assert_eq!(n.unit_count(), 2);
    assert_eq!(n.label(Hex::new(0, 0)), "0101");
    assert_eq!(n.label(Hex::new(-4, 7)), "(-4,7)");
}

#[test]
fn an_unknown_unit_id_is_an_error_naming_it() {
    let e = decode(json!({"type": "move", "unit": "ghost", "to": "0201"})).unwrap_err();
    assert!(e.contains("no unit `ghost`"), "{e}");
}

#[test]
fn a_unit_number_past_the_scenarios_units_is_an_error_naming_it() {
    let e = decode(json!({"type": "move", "unit": 7, "to": "0201"})).unwrap_err();
    assert!(e.contains('7') && e.contains("2 units"), "{e}");
    // In range, a number is the unit's index.
    assert_eq!(
        decode(json!({"type": "move", "unit": 1, "to": "0201"})).unwrap(),
        Action::Move {
            unit: UnitId(1),
            to: Hex::new(1, 0)
        }
    );
}

#[test]
fn an_off_map_label_is_an_error_naming_it() {
    let e = decode(json!({"type": "move", "unit": "red-runner", "to": "0709"})).unwrap_err();
    assert!(e.contains("`0709`") && e.contains("off the map"), "{e}");
}

#[test]
fn a_malformed_label_is_an_error_naming_it() {
    for bad in ["zz", "010", "01-1", "", "0101 ", "٠١٠١"] {
        let e = decode(json!({"type": "move", "unit": "red-runner", "to": bad})).unwrap_err();
        assert!(e.contains(&format!("`{bad}`")), "{bad:?}: {e}");
    }
    let e = decode(json!({"type": "move", "unit": "red-runner", "to": 101})).unwrap_err();
    assert!(e.contains("string"), "{e}");
}

#[test]
fn labels_need_a_scope() {
    let a = Action::Move {
        unit: UnitId(0),
        to: Hex::new(0, 0),
    };
    let e = serde_json::to_string(&a).unwrap_err().to_string();
    assert!(e.contains("need a scenario"), "{e}");
    let e = serde_json::from_value::<Action>(
        json!({"type": "move", "unit": "red-runner", "to": "0101"}),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("need a scenario"), "{e}");
}

#[test]
fn scopes_nest_and_unwind() {
    let small = names();
    let big = Names::new(
        vec!["a".into()],
        MapShape::new(Orientation::FlatTop, Shove::Even, 120, 120).unwrap(),
    );
    let h = Hex::new(0, 0);
    #[derive(serde::Serialize)]
    struct L(#[serde(with = "grognard_engine::wire::label")] Hex);
    let (outer, inner, after) = small.scope(|| {
        let outer = serde_json::to_string(&L(h)).unwrap();
        let inner = big.scope(|| serde_json::to_string(&L(h)).unwrap());
        (outer, inner, serde_json::to_string(&L(h)).unwrap())
    });
    assert_eq!(
        (outer.as_str(), inner.as_str(), after.as_str()),
        ("\"0101\"", "\"001001\"", "\"0101\"")
    );
    assert!(serde_json::to_string(&L(h)).is_err(), "the scope ended");
    // A panic inside a scope unwinds it too.
    let _ = std::panic::catch_unwind(|| small.scope(|| panic!("inside")));
    assert!(serde_json::to_string(&L(h)).is_err());
}

#[test]
fn events_name_units_and_hexes_too() {
    let n = names();
    let e = Event::Moved {
        unit: UnitId(0),
        from: Hex::new(0, 0),
        to: Hex::new(1, 0),
    };
    let v = n.scope(|| serde_json::to_value(&e)).unwrap();
    assert_eq!(
        v,
        json!({"type": "moved", "unit": "red-runner", "from": "0101", "to": "0201"})
    );
}

#[test]
fn a_game_answers_a_bad_request_naming_the_bad_value() {
    let mut g: Box<dyn AnyGame> = registry().new_game(race_scenario(), Some(1)).unwrap();
    let cases = [
        (
            json!({"type": "move", "unit": "ghost", "to": "0201"}),
            "ghost",
        ),
        (
            json!({"type": "move", "unit": "red-runner", "to": "0909"}),
            "0909",
        ),
        (
            json!({"type": "move", "unit": "red-runner", "to": "x1"}),
            "x1",
        ),
        (json!({"type": "move", "unit": 40, "to": "0201"}), "40"),
        (json!({"type": "fly"}), "fly"),
        (json!("draw"), "malformed action"),
    ];
    for (action, named) in cases {
        for e in [
            g.apply(&action).unwrap_err(),
            g.explain(&action).unwrap_err(),
            g.preview(&action).unwrap_err(),
        ] {
            assert!(matches!(e, EngineError::BadRequest(_)), "{action}: {e:?}");
            assert_eq!(e.rule(), "request");
            assert!(e.to_string().contains(named), "{action}: {e}");
        }
    }
    assert_eq!(g.len(), 0);
    let e = g.reachable("ghost").unwrap_err();
    assert!(e.to_string().contains("no unit `ghost`"), "{e}");
    // The Race's own game, directly: the same names.
    let direct = race(1);
    assert_eq!(
        AnyGame::legal(&direct)[0],
        json!({"type": "move", "unit": "red-runner", "to": "0201"})
    );
}
