//! `grognard arena`: games between two computer players, in parallel, with a
//! progress line and a table of wins per player and side.

use crate::chart::{self, Row};
use anyhow::{bail, Context, Result};
use grognard_ai::arena::{self, GameRecord, GameSpec, MAX_ACTIONS};
use grognard_ai::sprt::{self, Sprt, Verdict};
use grognard_ai::{Opponent, Player};
use grognard_engine::scenario::Scenario;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// The arena's options.
#[derive(clap::Args)]
pub struct Args {
    /// The first player: random, easy, normal, hard, mcts:MILLIS, mcts-sims:N,
    /// mcts-reply:MILLIS and mcts-reply-sims:N (the search through the enemy's reply),
    /// or mcts-wide-sims:N (with progressive widening at the root), mcts-norm-sims:N (UCT over
    /// min-max normalised values), mcts-dev-sims:N (UCT's exploration scaled by the
    /// values' deviation), mcts-root-sims:N (the values centred on the root's
    /// evaluation), mcts-samples-sims:N (a plan that rolls judged by 3 samples of
    /// the dice in the simulations), mcts-chance-sims:N and mcts-chance:MILLIS (chance
    /// nodes for the dice, no trees kept), mcts-broad-sims:N and mcts-narrow-sims:N (16 and 4
    /// plans a unit in a node instead of 8), mcts-ranked-sims:N (a unit's best plans below
    /// the root too, not a random few), mcts-scripted-sims:N and mcts-scripted:MILLIS
    /// (through the enemy's reply, the tree held to the own turn and the reply played by
    /// the simulations' own plans), mcts-halving-sims:N and mcts-halving:MILLIS
    /// (sequential halving at the root), oep:MILLIS and oep-sims:N (online evolutionary
    /// planning of a phase of units, the search elsewhere), oep-reply:MILLIS and
    /// oep-reply-sims:N (the same, each plan played through the enemy's reply).
    a: String,
    /// The second player.
    b: String,
    /// The scenario: a file or the id of a built-in one.
    #[arg(long, conflicts_with = "all", required_unless_present = "all")]
    scenario: Option<String>,
    /// Every built-in scenario.
    #[arg(long)]
    all: bool,
    /// Games a scenario (half with each seat order).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// The first seed; game k plays with seed + k / 2, so both seat orders see the same
    /// dice. With one player on both seats, game k plays with seed + k: the two seat
    /// orders would otherwise play the same game twice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// The cap on actions a game; a game that reaches it is recorded as stopped.
    #[arg(long, default_value_t = MAX_ACTIONS)]
    max_actions: usize,
    /// Write every game's record to this JSON file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the table as a picture in this SVG file: each player's and side's score
    /// with its 95% interval, and the search's estimates of winning against the results.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Stop as soon as the sequential probability ratio test decides whether the first
    /// player is ELO1 stronger than the second (H1) or not (H0, ELO0): ELO0,ELO1 at α =
    /// β = 0.05, or ELO0,ELO1,ALPHA,BETA. `--games` is then the most a scenario plays,
    /// and the scenarios take turns game by game. Two different players only.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<Sprt>,
}

pub fn run(args: &Args) -> Result<()> {
    let a: Player = args.a.parse()?;
    let b: Player = args.b.parse()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.sprt.is_some() && a == b {
        bail!("--sprt compares two different players; `{a}` is on both seats");
    }
    let scenarios: Vec<Scenario> = if args.all {
        let registry = grognard_rules::registry();
        grognard_rules::builtin::SCENARIOS
            .iter()
            .map(|s| {
                registry
                    .load_scenario(s.path, s.text)
                    .map_err(|p| anyhow::anyhow!("built-in scenario `{}` is invalid:\n{p}", s.id))
            })
            .collect::<Result<_>>()?
    } else {
        vec![crate::load(args.scenario.as_deref().unwrap_or_default())?]
    };
    let mut games = Vec::new();
    for s in &scenarios {
        for k in 0..args.games {
            let players = if k % 2 == 0 { [a, b] } else { [b, a] };
            games.push((
                s.clone(),
                GameSpec {
                    players,
                    seed: args
                        .seed
                        .wrapping_add(if a == b { k as u64 } else { k as u64 / 2 }),
                    max_actions: args.max_actions,
                },
            ));
        }
    }
    if args.sprt.is_some() {
        // The scenarios take turns, so that a test stopped early has seen them all.
        let per = args.games;
        let mut keyed: Vec<_> = games.into_iter().enumerate().collect();
        keyed.sort_by_key(|(i, _)| (i % per, i / per));
        games = keyed.into_iter().map(|(_, g)| g).collect();
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let mut opponent = Opponent::new().with_threads(1);
    grognard_rules::visit_all(&mut opponent);
    let total = games.len();
    let start = Instant::now();
    let a_name = a.to_string();
    let same = a == b;
    let (left_name, right_name) = if same {
        ("first side", "second side")
    } else {
        (args.a.as_str(), args.b.as_str())
    };
    let tally = Mutex::new((0usize, 0.0f64, 0.0f64));
    // The first player's wins, draws and losses, for the test.
    let results = Mutex::new([0u32; 3]);
    // The verdict when the test first decided, and after how many games: the games
    // under way then still finish and count in the table, and may move the ratio back.
    let decided: Mutex<Option<(Verdict, usize)>> = Mutex::new(None);
    let progress = |r: &GameRecord| -> bool {
        let mut t = tally
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        t.0 += 1;
        // The same player on both seats: the running score is by seat order.
        let (sa, sb) = if same {
            (points_of(r, 0), points_of(r, 1))
        } else {
            score(r, &a_name)
        };
        t.1 += sa;
        t.2 += sb;
        let elapsed = start.elapsed().as_secs_f64();
        #[expect(clippy::cast_precision_loss, reason = "game counts are small")]
        let left = elapsed / t.0 as f64 * (total - t.0) as f64;
        let mut test = String::new();
        let mut go_on = true;
        if let Some(sprt) = &args.sprt {
            let mut wdl = results
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            wdl[outcome(score(r, &a_name).0)] += 1;
            let (lower, upper) = sprt.bounds();
            test = format!(
                "  LLR {:.2} ({lower:.2}, {upper:.2})",
                sprt.llr(wdl[0], wdl[1], wdl[2])
            );
            let verdict = sprt.verdict(wdl[0], wdl[1], wdl[2]);
            if verdict != Verdict::Undecided {
                decided
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .get_or_insert((verdict, t.0));
            }
            go_on = verdict == Verdict::Undecided;
        }
        eprint!(
            "\r{}/{total} games  {left_name} {:.1} - {:.1} {right_name}{test}  {:.0} s left   ",
            t.0, t.1, t.2, left
        );
        let _ = std::io::stderr().flush();
        go_on
    };
    let records = arena::run(&opponent, &games, threads, &progress)?;
    eprintln!();
    let rows = rows(&scenarios, &records, &args.a, &args.b, same);
    print_table(&scenarios, &records, &rows);
    print_calibration(&records);
    if let Some(sprt) = &args.sprt {
        let decided = decided
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        print_sprt(sprt, &records, &a_name, decided);
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&records)?;
        std::fs::write(path, text).with_context(|| format!("cannot write `{}`", path.display()))?;
        eprintln!("wrote {} games to {}", records.len(), path.display());
    }
    if let Some(path) = &args.svg {
        let heading = chart::Heading {
            players: [&args.a, if same { &args.a } else { &args.b }],
            games: records.len(),
        };
        let text = chart::svg(&heading, &rows, &arena::calibration(&records));
        std::fs::write(path, text).with_context(|| format!("cannot write `{}`", path.display()))?;
        eprintln!("drew the results in {}", path.display());
    }
    Ok(())
}

/// The test's verdict on the games played: the first player's wins, draws and losses,
/// its Elo over the second with a 95% interval, the log-likelihood ratio and its bounds.
fn print_sprt(sprt: &Sprt, records: &[GameRecord], a: &str, decided: Option<(Verdict, usize)>) {
    let mut wdl = [0u32; 3];
    let mut points = 0.0;
    for r in records {
        let (mine, _) = score(r, a);
        points += mine;
        wdl[outcome(mine)] += 1;
    }
    let (lo, hi) = arena::wilson(points, records.len());
    #[expect(clippy::cast_precision_loss, reason = "game counts are small")]
    let mean = points / records.len().max(1) as f64;
    let (lower, upper) = sprt.bounds();
    let verdict = match decided {
        Some((Verdict::H1, n)) => format!(
            "H1 accepted after {n} games: {a} is {} Elo stronger or more",
            sprt.elo1
        ),
        Some((Verdict::H0, n)) => format!(
            "H0 accepted after {n} games: {a} is not {} Elo stronger",
            sprt.elo1
        ),
        _ => "undecided: the games ran out first".to_owned(),
    };
    println!();
    println!("SPRT ({sprt}), {} games", records.len());
    println!(
        "{a}: {} won, {} drawn, {} lost; Elo {:+.0} [{:+.0}, {:+.0}]",
        wdl[0],
        wdl[1],
        wdl[2],
        sprt::elo_of(mean),
        sprt::elo_of(lo),
        sprt::elo_of(hi)
    );
    println!(
        "LLR {:.2} ({lower:.2}, {upper:.2}): {verdict}",
        sprt.llr(wdl[0], wdl[1], wdl[2])
    );
}

/// 0 for a win, 1 for a draw, 2 for a loss, from a game's points (1, a half, 0).
fn outcome(points: f64) -> usize {
    if points > 0.75 {
        0
    } else if points > 0.25 {
        1
    } else {
        2
    }
}

/// Each player's points in a game (win 1, draw or stopped game a half each).
fn score(r: &GameRecord, a: &str) -> (f64, f64) {
    let seat = usize::from(r.players[0] != a);
    (points_of(r, seat), points_of(r, 1 - seat))
}

/// The points of the player on `seat` in a game: a win 1, a draw or a stopped game a
/// half. Read from the winning side, so that it holds with the same player on both seats.
fn points_of(r: &GameRecord, seat: usize) -> f64 {
    match &r.winner {
        Some(w) if *w == r.sides[seat] => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// The table's lines: each player's score by side and on both, scenario by scenario;
/// with one player on both seats, each side's share (a scenario's balance).
fn rows(scenarios: &[Scenario], records: &[GameRecord], a: &str, b: &str, same: bool) -> Vec<Row> {
    let mut rows = Vec::new();
    for s in scenarios {
        let games: Vec<&GameRecord> = records.iter().filter(|r| r.scenario == s.id).collect();
        let players: &[&str] = if same { &[a] } else { &[a, b] };
        for &name in players {
            for side in s.sides.iter().map(|x| x.id.as_str()).chain([""]) {
                let mut n = 0;
                let mut points = 0.0;
                if same && side.is_empty() {
                    // The same player on both seats: only the sides tell the games apart.
                    continue;
                }
                for r in &games {
                    for seat in 0..2 {
                        // With the same player on both seats, a side's row counts every
                        // game once, from that side's seat (a scenario's balance).
                        let mine = same || r.players[seat] == name;
                        if !mine || (!side.is_empty() && r.sides[seat] != side) {
                            continue;
                        }
                        n += 1;
                        points += points_of(r, seat);
                    }
                }
                rows.push(Row {
                    scenario: s.id.clone(),
                    player: name.to_owned(),
                    side: (!side.is_empty()).then(|| side.to_owned()),
                    games: n,
                    points,
                    interval: arena::wilson(points, n),
                });
            }
        }
    }
    rows
}

fn print_table(scenarios: &[Scenario], records: &[GameRecord], rows: &[Row]) {
    println!(
        "{:<26} {:<14} {:<10} {:>5} {:>6} {:>16}",
        "scenario", "player", "side", "games", "score", "95% interval"
    );
    for s in scenarios {
        for r in rows.iter().filter(|r| r.scenario == s.id) {
            println!(
                "{:<26} {:<14} {:<10} {:>5} {:>6.1} {:>7.0}% - {:>3.0}%",
                r.scenario,
                r.player,
                r.side.as_deref().unwrap_or("both"),
                r.games,
                r.points,
                r.interval.0 * 100.0,
                r.interval.1 * 100.0
            );
        }
        let games: Vec<&GameRecord> = records.iter().filter(|r| r.scenario == s.id).collect();
        let capped = games.iter().filter(|r| r.capped).count();
        let draws = games.iter().filter(|r| r.winner.is_none()).count();
        #[expect(clippy::cast_precision_loss, reason = "game counts are small")]
        let mean =
            games.iter().map(|r| r.actions).sum::<usize>() as f64 / games.len().max(1) as f64;
        println!(
            "{:<26} {} games, {draws} drawn or stopped ({capped} at the cap on actions), {mean:.0} actions a game",
            s.id,
            games.len()
        );
    }
}

/// The searched decisions' estimates of winning against the results, and the slowest
/// decision.
fn print_calibration(records: &[GameRecord]) {
    let bands = arena::calibration(records);
    if !bands.is_empty() {
        println!();
        println!(
            "{:<14} {:>9} {:>10} {:>6}",
            "win estimated", "decisions", "mean", "won"
        );
        for b in bands {
            println!(
                "{:>4.0}% - {:>3.0}%  {:>9} {:>9.0}% {:>5.0}%",
                b.from * 100.0,
                b.from * 100.0 + 10.0,
                b.decisions,
                b.predicted * 100.0,
                b.won * 100.0
            );
        }
    }
    if let Some(slowest) = records.iter().map(|r| r.slowest_decision_millis).max() {
        println!("slowest decision: {slowest} ms");
    }
}
