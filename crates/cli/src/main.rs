//! The `grognard` command line: thin over the engine and the rulesets.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use grognard_engine::protocol::{Line, LineReader, Session, MAX_LINE};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

mod arena;
mod calibrate;
mod chart;
mod verify;

/// grognard: hex-and-counter wargames with every rule enforced.
#[derive(Parser)]
#[command(name = "grognard", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
#[expect(
    clippy::large_enum_variant,
    reason = "parsed once a run: the server's options are many, and boxing them buys nothing"
)]
enum Command {
    /// Serve the lobby and the games over HTTP (the default without a command).
    Serve {
        #[command(flatten)]
        options: grognard_server::Options,
    },
    /// Check scenario files; print a summary per valid file, or every problem with
    /// file:line:column.
    Validate {
        /// Scenario files (TOML).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Draw a scenario's map as SVG.
    Show {
        /// The scenario file, or the id of a built-in scenario.
        file: String,
        /// Where to write the SVG (`-` for standard output).
        #[arg(long, value_name = "OUT")]
        svg: PathBuf,
    },
    /// Speak the engine protocol (JSON lines) on standard input and output.
    Engine,
    /// List the built-in scenarios.
    Scenarios,
    /// Play games between two computer players and count the wins per side, with 95%
    /// Wilson intervals: for measuring the computer's strength and a scenario's balance.
    Arena(arena::Args),
    /// Fit the chance of winning that each decision of the computer shows to the results
    /// of arena games (`grognard arena ... --json FILE`), per scenario and per ruleset;
    /// prints the lines of the calibration table (TOML) and their log loss.
    Calibrate(calibrate::Args),
    /// Check a finished game's replay (the JSON of `GET /api/games/ID/replay`): its
    /// revealed seed against the commitment published at its start, then every action,
    /// event and roll by replaying its log. Exits with 1 at the first difference.
    Verify {
        /// The replay, saved as JSON.
        file: PathBuf,
    },
    /// Write the scenario file that starts exactly where a saved game stands (its
    /// `[position]` part; no seed, no state of the dice). GAME.json is a save: the
    /// `game` of the engine protocol's `save` answer, or that whole answer.
    Position {
        /// The saved game (JSON).
        game: PathBuf,
        /// Where to write the scenario (TOML); standard output without it.
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Validate and draw the built-in scenarios.
    Tour {
        /// Folder for the SVG drawings.
        #[arg(long, default_value = "grognard-maps")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Validate { files }) => validate(&files),
        Some(Command::Show { file, svg }) => show(&file, &svg).map(|()| ExitCode::SUCCESS),
        Some(Command::Engine) => engine().map(|()| ExitCode::SUCCESS),
        Some(Command::Scenarios) => {
            scenarios();
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Tour { out }) => tour(&out),
        Some(Command::Arena(args)) => arena::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Calibrate(args)) => calibrate::run(&args).map(|()| ExitCode::SUCCESS),
        Some(Command::Verify { file }) => verify::run(&file),
        Some(Command::Position { game, out }) => {
            position(&game, out.as_deref()).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Serve { options }) => serve(options),
        None => serve(grognard_server::Options::default()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("grognard: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn serve(options: grognard_server::Options) -> Result<ExitCode> {
    grognard_server::run(options)?;
    Ok(ExitCode::SUCCESS)
}

fn validate(files: &[PathBuf]) -> Result<ExitCode> {
    let registry = grognard_rules::registry();
    let mut failed = false;
    for path in files {
        let name = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{name}: cannot read: {e}");
                failed = true;
                continue;
            }
        };
        match registry.load_scenario(&name, &text) {
            Ok(s) => println!("{}", grognard_rules::summary(&s)),
            Err(problems) => {
                failed = true;
                for p in &problems.0 {
                    eprintln!("{p}");
                }
                eprintln!("{name}: {} problem(s)", problems.0.len());
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

pub(crate) fn load(file: &str) -> Result<grognard_engine::scenario::Scenario> {
    let registry = grognard_rules::registry();
    if let Some(b) = grognard_rules::builtin::find(file) {
        return registry
            .load_scenario(b.path, b.text)
            .map_err(|p| anyhow::anyhow!("built-in scenario `{}` is invalid:\n{p}", b.id));
    }
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read `{file}`"))?;
    registry
        .load_scenario(file, &text)
        .map_err(|p| anyhow::anyhow!("{p}"))
}

fn position(file: &std::path::Path, out: Option<&std::path::Path>) -> Result<()> {
    let name = file.display();
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read `{name}`"))?;
    let mut json: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("`{name}` is not JSON"))?;
    if let Some(game) = json.get_mut("game") {
        json = game.take();
    }
    let saved: grognard_engine::SavedGame =
        serde_json::from_value(json).with_context(|| format!("`{name}` is not a saved game"))?;
    let game = grognard_rules::registry()
        .load_game(&saved)
        .with_context(|| format!("`{name}` does not replay"))?;
    let toml = game.position();
    match out {
        None => std::io::stdout().write_all(toml.as_bytes())?,
        Some(path) => {
            std::fs::write(path, toml)
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            eprintln!(
                "wrote the position after {} actions of {} to {}",
                game.len(),
                game.scenario().title,
                path.display()
            );
        }
    }
    Ok(())
}

fn show(file: &str, out: &PathBuf) -> Result<()> {
    let scenario = load(file)?;
    let svg = grognard_engine::svg::render(&scenario);
    if out.as_os_str() == "-" {
        std::io::stdout().write_all(svg.as_bytes())?;
    } else {
        std::fs::write(out, svg).with_context(|| format!("cannot write `{}`", out.display()))?;
        eprintln!("drew {} to {}", scenario.title, out.display());
    }
    Ok(())
}

fn engine() -> Result<()> {
    let mut opponent = grognard_ai::Opponent::new();
    grognard_rules::visit_all(&mut opponent);
    let mut session =
        Session::with_computer(grognard_rules::registry(), std::sync::Arc::new(opponent));
    let mut stdout = std::io::stdout().lock();
    // Bytes, not text: a line that is not UTF-8 is answered, not fatal; and one over the
    // limit is read through to its end and dropped, never held whole.
    let mut lines = LineReader::new(std::io::stdin().lock(), MAX_LINE);
    while let Some(line) = lines.next_line()? {
        let response = match line {
            Line::Bytes(bytes)
                if std::str::from_utf8(&bytes).is_ok_and(|t| t.trim().is_empty()) =>
            {
                continue
            }
            Line::Bytes(bytes) => session.handle_bytes(&bytes),
            Line::TooLong(n) => session.too_long(n),
        };
        writeln!(stdout, "{}", response.line)?;
        stdout.flush()?;
        if response.quit {
            return Ok(());
        }
    }
    Ok(())
}

fn scenarios() {
    let registry = grognard_rules::registry();
    for b in grognard_rules::builtin::SCENARIOS {
        match registry.load_scenario(b.path, b.text) {
            Ok(s) => println!("{:<28} {}", b.id, grognard_rules::summary(&s)),
            Err(p) => println!("{:<28} INVALID: {p}", b.id),
        }
    }
}

fn tour(out: &PathBuf) -> Result<ExitCode> {
    let registry = grognard_rules::registry();
    std::fs::create_dir_all(out).with_context(|| format!("cannot create `{}`", out.display()))?;
    println!(
        "grognard {}: the built-in scenarios\n",
        env!("CARGO_PKG_VERSION")
    );
    let mut failed = false;
    for b in grognard_rules::builtin::SCENARIOS {
        match registry.load_scenario(b.path, b.text) {
            Ok(s) => {
                let file = out.join(format!("{}.svg", b.id));
                std::fs::write(&file, grognard_engine::svg::render(&s))?;
                println!(
                    "  {}\n    drawn to {}",
                    grognard_rules::summary(&s),
                    file.display()
                );
            }
            Err(p) => {
                failed = true;
                println!("  {}: INVALID\n{p}", b.id);
            }
        }
    }
    println!(
        "\nNext: open an SVG in a browser; check your own scenario with \
         `grognard validate FILE`;\ndrive a game over JSON lines with `grognard engine` \
         (docs/ENGINE-PROTOCOL.md)."
    );
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
