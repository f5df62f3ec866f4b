//! `grognard verify GAME.json`: checks the replay of a finished game, as the server
//! serves it (`GET /api/games/{id}/replay`), against the commitment the game published
//! at its start, then replays its log on its scenario with the revealed seed and checks
//! every action, event and roll. It says what matches, or where the replay first
//! differs; a difference makes the exit code 1.

use anyhow::{anyhow, Context, Result};
use grognard_engine::dice_stream::Generator;
use grognard_engine::scenario::Scenario;
use grognard_engine::{AnyGame, Seat};
use serde_json::Value;
use std::path::Path;
use std::process::ExitCode;

/// Reads, checks and reports; the exit code says whether everything matched.
///
/// # Errors
/// The file cannot be read, is not JSON, or is not the replay of a finished game.
pub fn run(file: &Path) -> Result<ExitCode> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read `{}`", file.display()))?;
    let replay: Value =
        serde_json::from_str(&text).with_context(|| format!("`{}` is not JSON", file.display()))?;
    let report = check(&replay)?;
    for line in &report.lines {
        println!("{line}");
    }
    Ok(if report.matches {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// What the check found: a line per finding, and whether everything matched.
pub struct Report {
    /// Findings, in order.
    pub lines: Vec<String>,
    /// True when the commitment, every action, event and roll and the outcome match.
    pub matches: bool,
}

impl Report {
    fn ok(&mut self, line: String) {
        self.lines.push(line);
    }

    fn differs(&mut self, line: String) {
        self.matches = false;
        self.lines.push(format!("MISMATCH: {line}"));
    }
}

/// Checks a replay.
///
/// # Errors
/// It is not the replay of a finished game: no id, seed, commitment or log, or a
/// scenario that does not read.
pub fn check(replay: &Value) -> Result<Report> {
    let mut report = Report {
        lines: Vec::new(),
        matches: true,
    };
    let id = replay["id"]
        .as_str()
        .ok_or_else(|| anyhow!("no game `id`: is this a game's replay?"))?;
    let seed = replay["seed"].as_u64().ok_or_else(|| {
        anyhow!(
            "no `seed`: the server reveals it once the game is over; save \
             GET /api/games/{id}/replay after the end"
        )
    })?;
    let published = replay["commitment"]
        .as_str()
        .ok_or_else(|| anyhow!("no `commitment` in the replay"))?;
    let log = replay["log"]
        .as_array()
        .ok_or_else(|| anyhow!("no `log` in the replay"))?;

    // A replay without `generator` is of a game from before issue 19: SplitMix64 dice
    // from the seed, committed to with `grognard-seed/1`.
    let generator: Generator = match replay.get("generator") {
        None | Some(Value::Null) => Generator::SplitMix64,
        Some(g) => serde_json::from_value(g.clone())
            .map_err(|e| anyhow!("the replay's `generator` does not read: {e}"))?,
    };
    let text = match &generator {
        Generator::SplitMix64 => format!("grognard-seed/1:{id}:{seed}"),
        Generator::ChaCha20 { key } => {
            format!("grognard-dice/2:{id}:{seed}:chacha20:{}", key.to_hex())
        }
    };
    let computed = grognard_server::token::dice_commitment(id, seed, &generator);
    if computed == published {
        report.ok(format!(
            "commitment: matches: SHA-256 of `{text}` is {computed}"
        ));
    } else {
        report.differs(format!(
            "commitment: the game committed to {published} at its start, but SHA-256 of \
             `{text}` is {computed}: the dice shown are not the ones committed to"
        ));
    }

    let (scenario, from) = scenario(replay)?;
    report.ok(format!("scenario: {} ({from})", scenario.id));
    let registry = grognard_rules::registry();
    let mut game = registry
        .new_game_with(scenario, Some(seed), generator)
        .map_err(|e| anyhow!("the scenario does not start a game: {e}"))?;
    let mut refused = None;
    for (i, entry) in log.iter().enumerate() {
        if let Err(e) = game.apply(&entry["action"]) {
            refused = Some((i, e.to_string()));
            break;
        }
    }
    let rolls = compare_log(&mut report, log, game.as_ref());
    if let Some((i, why)) = refused {
        if report.matches {
            report.differs(format!(
                "action n={}: {} is refused by the rules with this seed: {why}",
                i + 1,
                log[i]["action"]
            ));
        }
        return Ok(report);
    }
    if !report.matches {
        return Ok(report);
    }
    if replay["n"].as_u64() != Some(log.len() as u64) {
        report.differs(format!(
            "the replay says n={} but its log holds {} actions",
            replay["n"],
            log.len()
        ));
    }
    let outcome = serde_json::to_value(game.outcome())?;
    if outcome == replay["outcome"] {
        report.ok(format!("outcome: matches: {outcome}"));
    } else {
        report.differs(format!(
            "outcome: the replay says {}, the replay of its log gives {outcome}",
            replay["outcome"]
        ));
    }
    if report.matches {
        report.ok(format!(
            "verified: {} actions and {rolls} rolls replayed with the revealed seed; every \
             action, event and roll matches",
            log.len()
        ));
    }
    Ok(report)
}

/// The scenario the game was played on: the replay's own, or the built-in one of its
/// id for a replay without it.
fn scenario(replay: &Value) -> Result<(Scenario, &'static str)> {
    if !replay["scenario_data"].is_null() {
        let s = serde_json::from_value(replay["scenario_data"].clone())
            .context("the replay's `scenario_data` does not read")?;
        return Ok((s, "as the game stored it"));
    }
    let id = replay["scenario"]
        .as_str()
        .ok_or_else(|| anyhow!("no `scenario` in the replay"))?;
    let b = grognard_rules::builtin::find(id)
        .ok_or_else(|| anyhow!("no `scenario_data`, and no built-in scenario `{id}`"))?;
    let s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .map_err(|p| anyhow!("built-in scenario `{id}` is invalid:\n{p}"))?;
    Ok((
        s,
        "the built-in one of that id: the replay does not carry its own",
    ))
}

/// Compares the replay's log with the game's, entry by entry, up to what the game
/// holds; reports the first difference. Returns the rolls matched.
fn compare_log(report: &mut Report, log: &[Value], game: &dyn AnyGame) -> usize {
    let ours = game.log(&Seat::Omniscient);
    let mut rolls = 0;
    for (i, (theirs, ours)) in log.iter().zip(&ours).enumerate() {
        let n = i + 1;
        if theirs["n"].as_u64() != Some(n as u64) {
            report.differs(format!("entry {n}: its `n` is {}", theirs["n"]));
            return rolls;
        }
        if theirs["action"] != ours["action"] {
            report.differs(format!(
                "action n={n}: the replay's {} is not the action as the rules read it, {}",
                theirs["action"], ours["action"]
            ));
            return rolls;
        }
        let empty = Vec::new();
        let (a, b) = (
            theirs["events"].as_array().unwrap_or(&empty),
            ours["events"].as_array().unwrap_or(&empty),
        );
        for k in 0..a.len().max(b.len()) {
            match (a.get(k), b.get(k)) {
                (Some(x), Some(y)) if x == y => {
                    rolls += usize::from(x["type"] == "roll");
                }
                (x, y) => {
                    let what = if [x, y].iter().flatten().any(|e| e["type"] == "roll") {
                        "roll"
                    } else {
                        "event"
                    };
                    let show = |e: Option<&Value>| e.map_or("nothing".into(), Value::to_string);
                    report.differs(format!(
                        "action n={n} ({}), {what} {}: the replay says {}, but the seed \
                         gives {}",
                        theirs["action"],
                        k + 1,
                        show(x),
                        show(y)
                    ));
                    return rolls;
                }
            }
        }
    }
    if report.matches && ours.len() == log.len() {
        report.ok(format!(
            "log: {} actions: every action, event and roll matches",
            log.len()
        ));
    }
    rolls
}
