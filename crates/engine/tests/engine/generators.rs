//! The generators of the dice (issue 19, item 6): ChaCha20 keyed by 256 secret bits for
//! games with a human seat, SplitMix64 from the seed for the others and for every game
//! saved before saves named their generator.

use crate::race::Action;
use crate::{race_scenario, registry, snapshot};
use grognard_engine::dice_stream::{DiceKey, Generator};
use grognard_engine::game::SavedGame;
use grognard_engine::protocol::Session;
use grognard_engine::{Dice, Game};
use serde_json::{json, Value};

use crate::race::Race;

const KEY: DiceKey = DiceKey([
    0x1f, 0x2e, 0x3d, 0x4c, 0x5b, 0x6a, 0x79, 0x88, 0x97, 0xa6, 0xb5, 0xc4, 0xd3, 0xe2, 0xf1, 0x00,
    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01,
]);

fn chacha() -> Generator {
    Generator::ChaCha20 { key: KEY }
}

/// A Race played to its end or `n` actions, each time the first legal action but a
/// draw when one is offered (draws roll), then steps (mud rolls).
fn played(mut g: Game<Race>, n: usize) -> Game<Race> {
    for _ in 0..n {
        let legal = g.legal_actions();
        let Some(a) = legal
            .iter()
            .find(|a| matches!(a, Action::Draw | Action::Block { .. }))
            .or_else(|| legal.last())
            .cloned()
        else {
            break;
        };
        g.apply(a).expect("a legal action");
    }
    g
}

#[test]
fn chacha20_dice_follow_the_chacha20_keystream() {
    // The first 64-bit word of ChaCha20 with the all-zero key and nonce is the
    // keystream's first 8 bytes, 76 b8 e0 ad a0 f1 3d 90, little-endian
    // (Bernstein's test vector, also RFC 7539's). A die of 2^31 faces shows its low 31
    // bits plus one: the same reduction as every die.
    let mut d = Dice::chacha20(&DiceKey([0; 32]));
    let word: u64 = 0x903d_f1a0_ade0_b876;
    let expected = u32::try_from(word % (1 << 31)).unwrap() + 1;
    assert_eq!(d.next(1 << 31), (expected, false));
}

#[test]
fn chacha20_dice_show_every_face_equally_often() {
    let mut d = Dice::chacha20(&KEY);
    let mut count = [0u32; 6];
    for _ in 0..60_000 {
        count[d.next(6).0 as usize - 1] += 1;
    }
    // 10,000 expected a face; 4 standard deviations (91 each) either side.
    for c in count {
        assert!((9_636..=10_364).contains(&c), "{count:?}");
    }
}

#[test]
fn chacha20_dice_serialise_with_their_position_in_the_stream() {
    let mut d = Dice::chacha20(&KEY);
    for _ in 0..13 {
        d.next(6);
    }
    d.force([3]);
    let text = serde_json::to_string(&d).unwrap();
    let mut back: Dice = serde_json::from_str(&text).unwrap();
    assert_eq!(back, d);
    for _ in 0..50 {
        assert_eq!(back.next(9), d.next(9));
    }
    // Dice as JSON from before: SplitMix64's `state`.
    let old: Dice = serde_json::from_value(json!({"state": 77})).unwrap();
    assert_eq!(old, Dice::new(77));
}

#[test]
fn a_key_reads_only_as_64_hex_digits_and_debug_does_not_show_it() {
    assert_eq!(KEY.to_hex().parse::<DiceKey>(), Ok(KEY));
    assert!("abc".parse::<DiceKey>().is_err());
    assert!("zz".repeat(32).parse::<DiceKey>().is_err());
    assert!("é".repeat(32).parse::<DiceKey>().is_err());
    assert_eq!(format!("{KEY:?}"), "DiceKey(..)");
    let g = Game::<Race>::with_generator(race_scenario(), Some(7), chacha()).unwrap();
    assert!(!format!("{g:?}").contains(&KEY.to_hex()));
}

#[test]
fn a_chacha20_game_names_its_generator_in_its_save_and_replays_exactly() {
    let g = played(
        Game::with_generator(race_scenario(), Some(7), chacha()).unwrap(),
        40,
    );
    let text = serde_json::to_string(&g.save()).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["generator"],
        json!({"kind": "chacha20", "key": KEY.to_hex()})
    );
    let saved: SavedGame = serde_json::from_str(&text).unwrap();
    let back = Game::<Race>::from_saved(&saved).unwrap();
    assert_eq!(snapshot(&back), snapshot(&g));
    // The same seed with SplitMix64 rolls otherwise: the key, not the seed, made them.
    let fast = played(Game::new(race_scenario(), Some(7)).unwrap(), 40);
    assert_ne!(snapshot(&fast), snapshot(&g));
}

#[test]
fn a_save_without_a_generator_replays_with_splitmix64_to_the_same_state() {
    let g = played(Game::new(race_scenario(), Some(7)).unwrap(), 40);
    let rolled: u32 = g.log().iter().map(|e| e.rolls).sum();
    assert!(rolled > 5, "{rolled} rolls");
    let v = serde_json::to_value(g.save()).unwrap();
    assert!(v.get("generator").is_none(), "{v}");
    // The keys of a save as it was before issue 19, and no other.
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["format", "log", "ruleset", "scenario", "seed"]);
    let saved: SavedGame = serde_json::from_value(v).unwrap();
    assert_eq!(saved.generator, Generator::SplitMix64);
    assert_eq!(
        snapshot(&Game::<Race>::from_saved(&saved).unwrap()),
        snapshot(&g)
    );
    // A ChaCha20 save stripped of its generator is read as an old save: SplitMix64
    // from the seed, which does not replay the keyed rolls (or replays other ones).
    let keyed = played(
        Game::with_generator(race_scenario(), Some(7), chacha()).unwrap(),
        40,
    );
    let mut v = serde_json::to_value(keyed.save()).unwrap();
    v.as_object_mut().unwrap().remove("generator");
    let stripped: SavedGame = serde_json::from_value(v).unwrap();
    if let Ok(other) = Game::<Race>::from_saved(&stripped) {
        assert_ne!(snapshot(&other), snapshot(&keyed));
    }
}

#[test]
fn undo_replays_a_chacha20_game_with_its_key() {
    let mut g = Game::<Race>::with_generator(race_scenario(), Some(7), chacha()).unwrap();
    g.apply(Action::Draw).unwrap();
    let before = snapshot(&g);
    // Blue steps onto clear ground: no roll, so it can be taken back; the undo
    // replays red's draw, which must draw the same card from the same key.
    g.apply(Action::Move {
        unit: grognard_engine::UnitId(1),
        to: crate::hex("0602"),
    })
    .unwrap();
    assert_eq!(g.log().last().unwrap().rolls, 0);
    g.undo().unwrap();
    assert_eq!(snapshot(&g), before);
}

#[test]
fn protocol_load_keeps_splitmix64_unless_asked_and_saves_the_key() {
    let mut s = Session::new(registry());
    let race = crate::race::RACE_TOML;
    let v: Value = serde_json::from_str(
        &s.handle(&json!({"cmd": "load", "scenario_toml": race}).to_string())
            .line,
    )
    .unwrap();
    assert_eq!(v["generator"], "splitmix64");
    let load = json!({"cmd": "load", "scenario_toml": race,
                      "generator": {"kind": "chacha20", "key": KEY.to_hex()}});
    let v: Value = serde_json::from_str(&s.handle(&load.to_string()).line).unwrap();
    assert_eq!(v["generator"], "chacha20", "{v}");
    assert!(!v.to_string().contains(&KEY.to_hex()), "{v}");
    let saved: Value = serde_json::from_str(&s.handle(r#"{"cmd":"save"}"#).line).unwrap();
    assert_eq!(saved["game"]["generator"]["key"], KEY.to_hex());
    for bad in [
        json!({"kind": "chacha20", "key": "00"}),
        json!({"kind": "chacha20"}),
        json!({"kind": "mt19937"}),
        json!("chacha20"),
    ] {
        let v: Value = serde_json::from_str(
            &s.handle(&json!({"cmd": "load", "scenario_toml": race, "generator": bad}).to_string())
                .line,
        )
        .unwrap();
        assert_eq!(v["ok"], false, "{bad} -> {v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("generator"),
            "{v}"
        );
    }
}
