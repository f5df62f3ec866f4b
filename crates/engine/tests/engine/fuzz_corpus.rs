//! The fuzz targets' bodies (`grognard_engine::fuzzing`) over a small seed corpus
//! played with The Race, so `cargo test` runs them without cargo-fuzz.

use crate::race::RACE_TOML;
use crate::registry;
use grognard_engine::fuzzing::{self, LinesRun};
use grognard_engine::Dice;

fn load_line() -> String {
    serde_json::json!({"cmd": "load", "scenario_toml": RACE_TOML}).to_string()
}

/// Pseudo-random bytes from the engine's own dice.
fn noise(seed: u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
    let mut dice = Dice::new(seed);
    let sides = u32::try_from(alphabet.len()).unwrap();
    (0..len)
        .map(|_| alphabet[dice.next(sides).0 as usize - 1])
        .collect()
}

#[test]
fn scenario_parser_takes_the_race_and_every_cut_of_it() {
    let r = registry();
    fuzzing::scenario_parser(&r, RACE_TOML.as_bytes());
    let bytes = RACE_TOML.as_bytes();
    for cut in (0..bytes.len()).step_by(7) {
        fuzzing::scenario_parser(&r, &bytes[..cut]);
        fuzzing::scenario_parser(&r, &bytes[cut..]);
    }
}

#[test]
fn scenario_parser_takes_edits_and_noise() {
    let r = registry();
    let edits = [
        ("cols = 6", "cols = 0"),
        ("cols = 6", "cols = 1000"),
        ("rows = 3", "rows = -3"),
        ("seed = 7", "seed = 18446744073709551616"),
        ("turns = 8", "turns = 1e9"),
        ("at = \"0101\"", "at = \"\""),
        ("at = \"0101\"", "at = \"0101\"\nat = \"0102\""),
        (
            "legend = { \".\" = \"clear\", m = \"mud\", r = \"rock\" }",
            "legend = { \"..\" = \"clear\" }",
        ),
        ("[[sides]]\nid = \"red\"", "[[sides]]\nid = \"\""),
        ("ruleset = \"race\"", "ruleset = \"chess\""),
        ("ruleset = \"race\"", ""),
        ("'''\n. . m", "'''\n\u{FEFF}. . m"),
        ("first_side = \"red\"", "first_side = \"green\""),
    ];
    for (from, to) in edits {
        assert!(RACE_TOML.contains(from), "{from}");
        fuzzing::scenario_parser(&r, RACE_TOML.replacen(from, to, 1).as_bytes());
    }
    for seed in 0..50 {
        fuzzing::scenario_parser(&r, &noise(seed, 200, b"[]=\"'.#\n ,{}abc019-"));
    }
    fuzzing::scenario_parser(&r, &[0xff, 0xfe, 0x00, 0x5b]);
}

#[test]
fn protocol_lines_over_a_scripted_session() {
    let script = [
        r#"{"cmd":"legal","id":1}"#,
        r#"{"cmd":"apply","action":{"type":"move","unit":"red-runner","to":"0201"}}"#,
        r#"{"cmd":"apply","action":{"type":"move","unit":"red-runner","to":"0302"}}"#,
        r#"{"cmd":"force_rolls","rolls":[9]}"#,
        r#"{"cmd":"apply","action":{"type":"draw"}}"#,
        r#"{"cmd":"apply","action":{"type":"move","unit":"blue-runner","to":"0602"}}"#,
        r#"{"cmd":"undo"}"#,
        r#"{"cmd":"apply","action":{"type":"move","unit":7,"to":"0602"}}"#,
        r#"{"cmd":"apply","action":{"type":"move","unit":"blue-runner","to":"0602","extra":1}}"#,
        "not json\r",
        "",
        r#"{"cmd":"view","side":"red"}"#,
        r#"{"cmd":"load","scenario":"/etc/passwd"}"#,
        r#"{"cmd":"reachable","unit":"red-runner"}"#,
        r#"{"cmd":"preview","action":{"type":"draw"}}"#,
        r#"{"cmd":"log","seat":"spectator"}"#,
        "#0",
        r#"{"cmd":"force_rolls","rolls":[],"clear":true}"#,
        "#0",
        "#5",
        r#"{"cmd":"save"}"#,
        r#"{"cmd":"quit"}"#,
        r#"{"cmd":"legal"}"#,
    ];
    let run = fuzzing::protocol_lines(&registry(), &load_line(), script.join("\n").as_bytes());
    // The line after quit is not read; the blank one is skipped, the file load too.
    // Refused: red out of turn, the forced 9 twice, unit 7, not JSON.
    assert_eq!(
        run,
        LinesRun {
            requests: 21,
            applied: 5,
            refused: 5
        }
    );
}

#[test]
fn protocol_lines_plays_whole_games_by_index() {
    for seed in 0..40 {
        let picks: Vec<String> = noise(seed, 80, b"0123456789")
            .iter()
            .map(|d| format!("#{}", char::from(*d)))
            .collect();
        let run = fuzzing::protocol_lines(&registry(), &load_line(), picks.join("\n").as_bytes());
        assert!(run.applied > 0, "seed {seed}: {run:?}");
    }
}

#[test]
fn protocol_lines_takes_noise() {
    for seed in 0..40 {
        let mut data = noise(
            seed,
            300,
            b"{}[]\":,#0123 cmdapplylegalactiontypedrawmoveundo\n",
        );
        data.extend_from_slice(b"\n{\"cmd\":\"legal\"}\n#1\n");
        fuzzing::protocol_lines(&registry(), &load_line(), &data);
    }
}

#[test]
fn protocol_lines_answers_a_line_that_is_not_utf8_and_goes_on() {
    let data = b"#0\n{\"cmd\":\"legal\",\"id\":\"\xff\"}\n\xc3\x28\n#0\n";
    let run = fuzzing::protocol_lines(&registry(), &load_line(), data);
    assert_eq!(
        run,
        LinesRun {
            requests: 5,
            applied: 2,
            refused: 2
        }
    );
}

/// A save of The Race after a few actions, as the `saved_games` target reads it.
fn race_save(actions: usize) -> Vec<u8> {
    let r = registry();
    let scenario = r.load_scenario("race.toml", RACE_TOML).unwrap();
    let mut game = r.new_game(scenario, Some(7)).unwrap();
    for _ in 0..actions {
        let legal = game.legal();
        let Some(action) = legal.first() else { break };
        game.apply(action).unwrap();
    }
    let mut data = vec![b'0'];
    data.extend(serde_json::to_vec(&game.save()).unwrap());
    data
}

#[test]
fn saved_games_loads_a_save_and_refuses_its_cuts_and_edits() {
    use fuzzing::{saved_games, SaveRun};
    let r = registry();
    let data = race_save(3);
    assert_eq!(saved_games(&r, &["race"], &data), SaveRun::Loaded(3));
    for cut in (0..data.len()).step_by(53) {
        saved_games(&r, &["race"], &data[..cut]);
    }
    let text = String::from_utf8(data).unwrap();
    let edits = [
        ("\"seed\":7", "\"seed\":-7"),
        (
            "\"format\":\"grognard-game/1\"",
            "\"format\":\"grognard-game/2\"",
        ),
        ("\"terrain_names\":[", "\"terrain_names\":[\"lava\","),
        ("\"cols\":6", "\"cols\":0"),
        ("\"log\":[", "\"log\":[{\"action\":{\"type\":\"fly\"}},"),
    ];
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        let run = saved_games(&r, &["race"], text.replacen(from, to, 1).as_bytes());
        assert!(matches!(run, SaveRun::Refused), "{to}: {run:?}");
    }
    for seed in 0..40 {
        let mut noisy = text.clone().into_bytes();
        for (i, b) in noise(seed, 8, b"0123456789{}[]\",:-")
            .into_iter()
            .enumerate()
        {
            let at = (seed as usize * 131 + i * 977) % noisy.len();
            noisy[at] = b;
        }
        saved_games(&r, &["race"], &noisy);
    }
}
