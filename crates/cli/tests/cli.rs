//! The `grognard` binary as a real process: validate, show, engine, scenarios, the
//! tour; and the fuzz targets' bodies over their seed corpus (the protocol's with
//! every ruleset).

use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod engine_lines;
mod position;

const BUILTIN: &str = "scenarios/morne-plaine/bridge-at-morne.toml";

/// The engine's scenario file with every kind of problem in it.
const BROKEN: &str = "crates/engine/tests/broken.toml";

/// The workspace root: the built-in scenario paths are relative to it.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn grognard() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_grognard"));
    c.current_dir(root());
    c
}

fn run(args: &[&str]) -> Output {
    grognard().args(args).output().expect("grognard runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn validate_the_builtin_scenario_prints_one_summary_line() {
    let out = run(&["validate", BUILTIN]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with(&format!(
            "{BUILTIN}: ok: \"The Bridge at Morne\" (morne_plaine), 16x12 hexes"
        )),
        "{stdout}"
    );
    assert!(text(&out.stderr).is_empty());
}

/// A file:line:column: prefix, as every located problem starts.
fn located<'a>(line: &'a str, file: &str) -> Option<(usize, usize, &'a str)> {
    let rest = line.strip_prefix(file)?.strip_prefix(':')?;
    let mut parts = rest.splitn(3, ':');
    let l = parts.next()?.parse().ok()?;
    let c = parts.next()?.parse().ok()?;
    Some((l, c, parts.next()?.trim_start()))
}

#[test]
fn validate_a_broken_file_prints_every_problem_located_and_fails() {
    let out = run(&["validate", BROKEN]);
    assert!(!out.status.success());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).is_empty(), "no summary for a broken file");
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    let (problems, last) = lines.split_at(lines.len() - 1);
    assert!(problems.len() >= 3, "{stderr}");
    for p in problems {
        let (l, c, message) =
            located(p, BROKEN).unwrap_or_else(|| panic!("not file:line:column: {p}"));
        assert!(l >= 1 && c >= 1 && !message.is_empty(), "{p}");
    }
    assert_eq!(last[0], format!("{BROKEN}: {} problem(s)", problems.len()));
    let (l, c, _) = problems
        .iter()
        .find_map(|p| located(p, BROKEN).filter(|(_, _, m)| m.contains("`x`")))
        .expect("the bad terrain code");
    assert_eq!((l, c), (18, 5), "the x of the grid: {stderr}");
    assert!(stderr.contains("zeppelin"), "{stderr}");
    assert!(stderr.contains("`0509` is off the map"), "{stderr}");
}

#[test]
fn validate_reports_each_file_and_a_file_that_is_not_there() {
    let dir = tempfile::tempdir().unwrap();
    let not_toml = dir.path().join("not.toml");
    std::fs::write(&not_toml, "[scenario\nid = ").unwrap();
    let missing = dir.path().join("missing.toml");
    let out = run(&[
        "validate",
        BUILTIN,
        &not_toml.display().to_string(),
        &missing.display().to_string(),
    ]);
    assert!(!out.status.success());
    assert_eq!(
        text(&out.stdout).lines().count(),
        1,
        "the good file's summary"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr
            .lines()
            .any(|l| located(l, &not_toml.display().to_string()).is_some()),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{}: cannot read", missing.display())),
        "{stderr}"
    );
}

#[test]
fn validate_needs_a_file() {
    let out = run(&["validate"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(text(&out.stderr).contains("FILES"), "{}", text(&out.stderr));
}

fn assert_svg(svg: &str) {
    assert!(
        svg.trim_start().starts_with("<svg") || svg.trim_start().starts_with("<?xml"),
        "{:.100}",
        svg
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains("<polygon") || svg.contains("<path"),
        "hexes are drawn"
    );
}

#[test]
fn show_writes_an_svg_of_a_file_or_a_builtin() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("bridge.svg");
    let out = run(&["show", BUILTIN, "--svg", &out_file.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_svg(&std::fs::read_to_string(&out_file).unwrap());
    assert!(
        text(&out.stderr).contains("drew The Bridge at Morne"),
        "{}",
        text(&out.stderr)
    );

    let out = run(&["show", "bridge-at-morne", "--svg", "-"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_svg(&text(&out.stdout));
}

#[test]
fn show_a_broken_or_missing_file_fails_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("x.svg");
    let missing = dir.path().join("missing.toml");
    let out = run(&[
        "show",
        &missing.display().to_string(),
        "--svg",
        &out_file.display().to_string(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("cannot read"),
        "{}",
        text(&out.stderr)
    );
    assert!(!out_file.exists());
}

/// Runs `grognard engine` over `lines` and returns its answers, parsed.
fn engine(lines: &[String]) -> (Vec<Value>, Output) {
    let mut child = grognard()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grognard engine starts");
    {
        let mut stdin = child.stdin.take().unwrap();
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let answers = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    (answers, out)
}

fn load_builtin() -> String {
    json!({"cmd": "load", "scenario": BUILTIN, "id": "load"}).to_string()
}

#[test]
fn engine_plays_a_scripted_session_of_the_builtin_scenario() {
    // First pass: find a move that `legal` offers after the bombardment phase.
    let (answers, _) = engine(&[
        load_builtin(),
        json!({"cmd": "apply", "action": {"type": "end_phase"}}).to_string(),
        json!({"cmd": "legal"}).to_string(),
    ]);
    let moves: Vec<Value> = answers[2]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "move")
        .cloned()
        .collect();
    assert!(!moves.is_empty(), "{}", answers[2]);
    let step = moves[0].clone();

    let script = vec![
        load_builtin(),
        json!({"cmd": "legal"}).to_string(),
        json!({"cmd": "apply", "action": {"type": "end_phase"}}).to_string(),
        json!({"cmd": "apply", "action": step}).to_string(),
        // b-2-foot (0710) into 0810, where b-1-foot stands; and far across the map.
        json!({"cmd": "explain", "action": {"type": "move", "unit": "b-2-foot", "to": "0810"}})
            .to_string(),
        json!({"cmd": "explain", "action": {"type": "move", "unit": "b-2-foot", "to": "0101"}})
            .to_string(),
        String::new(),
        "this is not JSON".to_owned(),
        json!({"cmd": "state"}).to_string(),
        json!({"cmd": "quit", "id": 99}).to_string(),
        json!({"cmd": "legal"}).to_string(),
    ];
    let (a, out) = engine(&script);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        a.len(),
        9,
        "the blank line gets no answer and nothing is read after quit: {a:?}"
    );
    assert!(a.iter().all(|v| v["ok"].is_boolean()));

    assert_eq!(a[0]["ok"], true, "{}", a[0]);
    assert_eq!(a[0]["id"], "load");
    assert_eq!(a[0]["ruleset"], "morne_plaine");
    assert_eq!(a[0]["scenario"], "bridge-at-morne");
    assert_eq!(a[0]["n"], 0);
    assert_eq!(
        a[0]["to_act"],
        json!({"side": "blue", "kind": "bombardment", "text": "Blue corps to act: bombardment"})
    );
    assert_eq!(a[0]["outcome"], Value::Null);

    assert!(
        a[1]["actions"]
            .as_array()
            .unwrap()
            .contains(&json!({"type": "end_phase"})),
        "{}",
        a[1]
    );
    assert_eq!(a[1]["n"], 0);

    assert_eq!(a[2]["ok"], true, "{}", a[2]);
    assert_eq!(a[2]["n"], 1);
    assert_eq!(a[2]["to_act"]["kind"], "movement");
    assert_eq!(a[2]["events"][0]["type"], "phase_began");

    assert_eq!(a[3]["ok"], true, "{}", a[3]);
    assert_eq!(a[3]["n"], 2);
    assert!(
        a[3]["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "moved"),
        "{}",
        a[3]
    );

    assert_eq!(a[4]["legal"], false, "{}", a[4]);
    assert_eq!(a[4]["reasons"][0]["rule"], "MP-MOV-7", "{}", a[4]);
    assert_eq!(a[5]["legal"], false, "{}", a[5]);
    assert_eq!(a[5]["reasons"][0]["rule"], "MP-MOV-5", "{}", a[5]);
    assert!(
        a[5]["reasons"][0]["message"]
            .as_str()
            .unwrap()
            .contains("0101"),
        "{}",
        a[5]
    );

    assert_eq!(a[6]["ok"], false);
    assert_eq!(a[6]["error"]["rule"], "request");
    assert!(
        a[6]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("malformed JSON"),
        "{}",
        a[6]
    );
    assert_eq!(a[7]["ok"], true, "the session carried on");
    assert_eq!(a[7]["n"], 2);
    assert_eq!(a[8], json!({"id": 99, "ok": true}));
}

#[test]
fn engine_ends_at_the_end_of_its_input() {
    let (a, out) = engine(&[json!({"cmd": "rulesets"}).to_string()]);
    assert!(out.status.success());
    assert_eq!(
        a,
        [json!({"ok": true, "rulesets": grognard_rules::registry().names()})]
    );
    assert!(a[0]["rulesets"]
        .as_array()
        .unwrap()
        .contains(&json!("morne_plaine")));
    let (a, out) = engine(&[]);
    assert!(out.status.success() && a.is_empty());
}

#[test]
fn engine_takes_crlf_lines() {
    let mut child = grognard()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"cmd\":\"rulesets\"}\r\n\r\n{\"cmd\":\"quit\"}\r\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let rulesets = json!({"ok": true, "rulesets": grognard_rules::registry().names()});
    assert_eq!(text(&out.stdout), format!("{rulesets}\n{{\"ok\":true}}\n"));
}

/// Regression: `reachable` wrote hex labels outside the scenario's names and the
/// engine process panicked.
#[test]
fn regression_reachable_no_longer_crashes_the_engine() {
    let (a, out) = engine(&[
        load_builtin(),
        json!({"cmd": "apply", "action": {"type": "end_phase"}}).to_string(),
        json!({"cmd": "reachable", "unit": "b-dragoons"}).to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(a[2]["ok"], true, "{}", a[2]);
    let reached = a[2]["reachable"].as_array().unwrap();
    assert!(!reached.is_empty());
    for r in reached {
        let hex = r["hex"].as_str().unwrap();
        assert!(
            hex.len() == 4 && hex.bytes().all(|b| b.is_ascii_digit()),
            "{r}"
        );
        assert_eq!(r["path"].as_array().unwrap().last().unwrap(), &r["hex"]);
    }
}

/// Regression: a unit given by a number past the scenario's units reached the rules,
/// which indexed their unit list with it and panicked.
#[test]
fn regression_a_unit_number_past_the_units_no_longer_crashes_the_engine() {
    let (a, out) = engine(&[
        load_builtin(),
        json!({"cmd": "apply", "action": {"type": "move", "unit": 999, "to": "0604"}}).to_string(),
        json!({"cmd": "explain", "action": {"type": "attack", "unit": 0, "target": 4000}})
            .to_string(),
        json!({"cmd": "legal"}).to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(a.len(), 4);
    for v in &a[1..3] {
        assert_eq!(v["error"]["rule"], "request", "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no unit number"),
            "{v}"
        );
    }
    assert_eq!(a[3]["ok"], true);
}

#[test]
fn scenarios_lists_the_builtins() {
    let out = run(&["scenarios"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("bridge-at-morne"), "{stdout}");
    assert!(stdout.contains(": ok:"), "{stdout}");
}

fn svgs_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "svg"))
        .collect();
    found.sort();
    found
}

#[test]
fn the_tour_draws_every_builtin_into_its_out_folder() {
    let dir = tempfile::tempdir().unwrap();
    let maps = dir.path().join("maps");
    let out = run(&["tour", "--out", &maps.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svgs = svgs_in(&maps);
    let mut expected: Vec<PathBuf> = grognard_rules::builtin::SCENARIOS
        .iter()
        .map(|b| maps.join(format!("{}.svg", b.id)))
        .collect();
    expected.sort();
    assert_eq!(svgs, expected, "one drawing per built-in scenario");
    assert!(svgs.contains(&maps.join("bridge-at-morne.svg")));
    assert_svg(&std::fs::read_to_string(&svgs[0]).unwrap());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("drawn to"), "{stdout}");
    assert!(stdout.contains("grognard validate FILE"), "{stdout}");
}

/// Without `--out` the tour draws into `grognard-maps` (without a command, `grognard`
/// serves the lobby: `server_crash.rs` checks that).
#[test]
fn the_tour_draws_into_grognard_maps_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .arg("tour")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        svgs_in(&dir.path().join("grognard-maps")).len(),
        grognard_rules::builtin::SCENARIOS.len()
    );
    assert!(text(&out.stdout).contains("the built-in scenarios"));
}

fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = root().join("fuzz/seeds").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect()
}

#[test]
fn fuzz_scenario_parser_over_its_seeds() {
    let registry = grognard_rules::registry();
    let builtin = grognard_rules::builtin::find("bridge-at-morne").unwrap();
    grognard_engine::fuzzing::scenario_parser(&registry, builtin.text.as_bytes());
    for (path, data) in seeds("scenario_parser") {
        eprintln!("{}", path.display());
        grognard_engine::fuzzing::scenario_parser(&registry, &data);
        // And a few cuts of it, as a fuzzer's first mutations would make.
        for cut in (0..data.len()).step_by(97) {
            grognard_engine::fuzzing::scenario_parser(&registry, &data[..cut]);
        }
    }
}

#[test]
fn fuzz_protocol_lines_over_its_seeds() {
    let registry = grognard_rules::registry();
    // As the target loads them: the first byte picks the ruleset.
    let loads: Vec<String> = [
        "bridge-at-morne",
        "crossing-at-hollins-ford",
        "passage-of-the-saale",
        "broken-cairn",
    ]
    .iter()
    .map(|id| {
        let b = grognard_rules::builtin::find(id).unwrap();
        json!({"cmd": "load", "scenario_toml": b.text}).to_string()
    })
    .collect();
    let mut played = [false; 4];
    for (path, data) in seeds("protocol_lines") {
        let run = grognard_engine::fuzzing::protocol_lines_after_one_of(&registry, &loads, &data);
        assert!(run.applied > 0, "{}: {run:?}", path.display());
        played[usize::from(data[0]) % 4] = true;
    }
    assert_eq!(played, [true; 4], "seeds for every ruleset");
}

/// Regression: `load` with a saved game whose scenario was edited (a grid shorter than
/// the map, a bigger map, no terrain names, a first side that is no side, a strength
/// out of range) crashed the engine process in the hex grid or the rules.
#[test]
fn regression_a_tampered_save_no_longer_crashes_the_engine() {
    let (a, _) = engine(&[load_builtin(), json!({"cmd": "save"}).to_string()]);
    let saved = a[1]["game"].clone();
    let tamper: [fn(&mut Value); 7] = [
        |s| s["terrain"]["cells"] = json!([0]),
        |s| s["hexsides"]["cells"] = json!([]),
        |s| s["map"]["cols"] = json!(40),
        |s| s["terrain_names"] = json!([]),
        |s| s["first_side"] = json!("green"),
        |s| s["units"][2]["values"] = json!({}),
        |s| s["units"][2]["values"]["cs"] = json!(99),
    ];
    let mut lines = Vec::new();
    for f in tamper {
        let mut bad = saved.clone();
        f(&mut bad["scenario"]);
        lines.push(json!({"cmd": "load", "game": bad}).to_string());
    }
    lines.push(json!({"cmd": "rulesets"}).to_string());
    let (a, out) = engine(&lines);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(a.len(), lines.len());
    for v in &a[..a.len() - 1] {
        assert_eq!(v["error"]["rule"], "game", "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("the save's scenario is not a valid one"),
            "{v}"
        );
    }
    assert_eq!(a[a.len() - 1]["ok"], true);
}

#[test]
fn arena_plays_both_seat_orders_and_writes_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.json");
    let svg = dir.path().join("games.svg");
    let out = run(&[
        "arena",
        "random",
        "easy",
        "--scenario",
        "passage-of-the-saale",
        "--games",
        "2",
        "--seed",
        "3",
        "--json",
        json.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("95% interval"), "{table}");
    assert!(table.contains("passage-of-the-saale"), "{table}");
    let records: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let records = records.as_array().unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["players"], serde_json::json!(["random", "easy"]));
    assert_eq!(records[1]["players"], serde_json::json!(["easy", "random"]));
    for r in records {
        assert_eq!(r["capped"], false);
        assert_eq!(r["seed"], 3);
    }
    // The same table as a picture: a bar and an interval for each player, by side
    // and on both.
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg "), "{picture}");
    assert!(picture.contains("random against easy"), "{picture}");
    assert!(picture.contains("passage-of-the-saale"), "{picture}");
    assert!(picture.contains("easy, both sides"), "{picture}");
    assert_eq!(picture.matches("class=\"interval\"").count(), 6);
    let bad = run(&["arena", "random", "grandmaster", "--all"]);
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("grandmaster"));
}

/// Issue 13, measuring strength: `--sprt` stops once the sequential test decides, the
/// scenarios taking turns game by game; a bad test or one player on both seats is refused.
#[test]
fn arena_sprt_stops_when_the_test_decides() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.json");
    let out = run(&[
        "arena",
        "easy",
        "random",
        "--all",
        "--games",
        "40",
        "--sprt",
        "0,30",
        "--threads",
        "2",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(
        table.contains("SPRT (Elo 0 against 30, alpha 0.05, beta 0.05)"),
        "{table}"
    );
    // The verdict names when the test decided; the games then under way still count.
    let decided: usize = table
        .split("H1 accepted after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no verdict: {table}"));
    assert!(
        table.contains(&format!(
            "H1 accepted after {decided} games: easy is 30 Elo stronger"
        )),
        "{table}"
    );
    let records: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let records = records.as_array().unwrap();
    // Decided long before the 200 games allowed, and every scenario played.
    assert!(records.len() < 60, "{} games", records.len());
    // Two games at a time: at most one was under way when the test decided.
    assert!(
        decided <= records.len() && records.len() <= decided + 1,
        "{decided} games"
    );
    let scenarios: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["scenario"].as_str().unwrap())
        .collect();
    assert_eq!(scenarios.len(), 5, "{scenarios:?}");
    for (args, named) in [
        (["easy", "random", "0"], "`0`"),
        (["easy", "random", "30,0"], "ELO1 must be above ELO0"),
        (["easy", "easy", "0,30"], "two different players"),
    ] {
        let mut call = vec!["arena", args[0], args[1], "--all", "--sprt", args[2]];
        call.extend(["--games", "2"]);
        let bad = run(&call);
        assert!(!bad.status.success());
        assert!(text(&bad.stderr).contains(named), "{}", text(&bad.stderr));
    }
}

#[test]
fn arena_with_one_player_on_both_seats_gives_each_sides_share() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.json");
    let out = run(&[
        "arena",
        "easy",
        "easy",
        "--scenario",
        "passage-of-the-saale",
        "--games",
        "4",
        "--seed",
        "5",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    // One row a side, each over every game; no "both" row, which would always be half.
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| l.starts_with("passage-of-the-saale") && l.contains(" easy "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert_eq!((rows[0][2], rows[1][2]), ("french", "prussian"), "{table}");
    let games: Vec<u32> = rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert_eq!(games, [4, 4], "{table}");
    // Each side's points are its wins in the records, a draw a half.
    let records: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for row in &rows {
        let side = row[2];
        let expected: f64 = records
            .as_array()
            .unwrap()
            .iter()
            .map(|r| match r["winner"].as_str() {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            })
            .sum();
        let points: f64 = row[4].parse().unwrap();
        assert!((points - expected).abs() < 1e-9, "{side}: {table}");
    }
}

#[test]
fn fuzz_saved_games_over_its_seeds() {
    use grognard_engine::fuzzing::{saved_games, SaveRun};
    let registry = grognard_rules::registry();
    // As the target picks them: the first byte, modulo four.
    let rulesets = ["morne_plaine", "battle_cry", "jomini", "skirmish"];
    let mut loaded = [false; 4];
    for (path, data) in seeds("saved_games") {
        let run = saved_games(&registry, &rulesets, &data);
        assert!(
            matches!(run, SaveRun::Loaded(n) if n > 0),
            "{}: {run:?}",
            path.display()
        );
        loaded[usize::from(data[0]) % 4] = true;
        // The same save as another ruleset's is refused, as are a few cuts of it.
        let mut other = data.clone();
        other[0] = b'0' + (data[0] - b'0' + 1) % 4;
        assert_eq!(saved_games(&registry, &rulesets, &other), SaveRun::Refused);
        for cut in (1..data.len()).step_by(501) {
            saved_games(&registry, &rulesets, &data[..cut]);
        }
    }
    assert_eq!(loaded, [true; 4], "seeds for every ruleset");
}

/// Issue 13, the evaluation tuned by self-play: the arena records the evaluation's
/// named terms at every searched decision, and `grognard calibrate --terms` fits their
/// weights to the results (MP-VIC-1's points among them); records without terms are
/// refused with a reason.
#[test]
fn calibrate_terms_fits_the_evaluation_weights_to_arena_records() {
    let dir = tempfile::tempdir().unwrap();
    let arena = |scenario: &str, file: &std::path::Path| {
        let out = run(&[
            "arena",
            "mcts-sims:4",
            "mcts-sims:4",
            "--scenario",
            scenario,
            "--games",
            "2",
            "--seed",
            "3",
            "--json",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    let json = dir.path().join("bridge.json");
    arena("bridge-at-morne", &json);
    let records: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let names: Vec<&str> = records[0]["terms"]
        .as_array()
        .expect("the terms' names")
        .iter()
        .map(|t| t[0].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"strength") && names.contains(&"lead"),
        "{names:?}"
    );
    let p = &records[0]["predictions"][0]["terms"];
    assert_eq!(p.as_array().map(Vec::len), Some(names.len()));
    let out = run(&[
        "calibrate",
        "--terms",
        json.to_str().unwrap(),
        "--check",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("bridge-at-morne:"), "{printed}");
    assert!(printed.contains("ruleset morne_plaine:"), "{printed}");
    for name in &names {
        assert!(printed.contains(&format!("  {name} ")), "{name}: {printed}");
    }
    assert!(
        printed.contains("log loss on the games fitted"),
        "{printed}"
    );
    assert!(printed.contains("other decisions"), "{printed}");
    // Every ruleset names its terms now: records without them are those written
    // before, or by a ruleset that names none. The same games, the terms taken out.
    let mut bare = records.clone();
    for r in &mut bare {
        let r = r.as_object_mut().unwrap();
        r.remove("terms");
        for p in r["predictions"].as_array_mut().unwrap() {
            p.as_object_mut().unwrap().remove("terms");
        }
    }
    let old = dir.path().join("old.json");
    std::fs::write(&old, serde_json::to_string(&bare).unwrap()).unwrap();
    let bad = run(&["calibrate", "--terms", old.to_str().unwrap()]);
    assert!(!bad.status.success());
    assert!(
        text(&bad.stderr).contains("no evaluation terms"),
        "{}",
        text(&bad.stderr)
    );
}

/// Issue 13, the calibrated `win`: `grognard calibrate` fits the arena's records and
/// prints a table the computer can read, with the log loss of both estimates; garbage
/// is refused with the file named.
#[test]
fn calibrate_fits_arena_records_into_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("games.json");
    let out = run(&[
        "arena",
        "mcts-sims:20",
        "mcts-sims:20",
        "--scenario",
        "passage-of-the-saale",
        "--games",
        "4",
        "--seed",
        "7",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&[
        "calibrate",
        json.to_str().unwrap(),
        "--check",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    let table: grognard_ai::calibration::Table = toml::from_str(&printed).expect("a table");
    let line = table
        .scenario
        .get("passage-of-the-saale")
        .expect("the scenario's line");
    assert_eq!(line.games, 4);
    assert!(line.decisions > 0);
    assert!(line.provisional.contains("4 games"), "{printed}");
    assert!(table.ruleset.contains_key("jomini"), "{printed}");
    assert!(printed.contains("# log loss on other games"), "{printed}");
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{\"not\": \"records\"}").unwrap();
    let bad = run(&["calibrate", garbage.to_str().unwrap()]);
    assert!(!bad.status.success());
    assert!(
        text(&bad.stderr).contains("garbage.json"),
        "{}",
        text(&bad.stderr)
    );
}
