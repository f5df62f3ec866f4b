//! `grognard calibrate`: fits the chance of winning shown with each decision to the
//! results of arena games (their `--json` files), per scenario and per ruleset, and
//! writes the lines of the calibration table (`crates/ai/data/calibration.toml`).

use anyhow::{bail, Context, Result};
use grognard_ai::arena::{self, GameRecord};
use grognard_ai::calibration::{self, Fit, Sample, Table};
use grognard_ai::tuning;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The options.
#[derive(clap::Args)]
pub struct Args {
    /// Arena records (`grognard arena ... --json FILE`), best of games where one
    /// player plays both seats.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also check the table against these records (games not used for the fit): log
    /// loss of the search's value and of the fitted chance.
    #[arg(long, value_name = "FILE")]
    check: Vec<PathBuf>,
    /// A note kept with each line: how the games were played.
    #[arg(long, default_value = "")]
    note: String,
    /// Instead of the table, fit the evaluation's own weights to the games (each
    /// term the ruleset names, at the start and at the end of the game), per
    /// scenario and per ruleset; `--check` then gives the losses on other games.
    #[arg(long)]
    terms: bool,
}

fn read(files: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut all = Vec::new();
    for f in files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        let records: Vec<GameRecord> = serde_json::from_str(&text).with_context(|| {
            format!("{} is not the JSON of `grognard arena --json`", f.display())
        })?;
        all.extend(records);
    }
    Ok(all)
}

/// Samples grouped under `key` (a scenario or a ruleset), with their games.
fn group<'a>(
    records: &'a [GameRecord],
    key: impl Fn(&'a GameRecord) -> &'a str,
) -> BTreeMap<&'a str, (Vec<Sample>, usize)> {
    let mut out: BTreeMap<&str, (Vec<Sample>, usize)> = BTreeMap::new();
    for r in records {
        let e = out.entry(key(r)).or_default();
        let before = e.0.len();
        e.0.extend(r.samples());
        e.1 += usize::from(e.0.len() > before);
    }
    out
}

fn fitted(samples: &[Sample], games: usize, note: &str) -> Option<Fit> {
    let mut f = calibration::fit(samples)?;
    f.games = games;
    f.provisional = format!(
        "fitted to {} searched decisions of {games} games{}{note}",
        samples.len(),
        if note.is_empty() { "" } else { ": " }
    );
    Some(f)
}

pub fn run(args: &Args) -> Result<()> {
    let records = read(&args.files)?;
    if args.terms {
        let check = read(&args.check)?;
        return terms(&records, &check);
    }
    if records.iter().all(|r| r.predictions.is_empty()) {
        bail!("no searched decision in these records: play games with a searching player");
    }
    let mut table = Table::default();
    for (id, (samples, games)) in group(&records, |r| r.scenario.as_str()) {
        if let Some(f) = fitted(&samples, games, &args.note) {
            table.scenario.insert(id.to_owned(), f);
        }
    }
    for (id, (samples, games)) in group(&records, |r| r.ruleset.as_str()) {
        if id.is_empty() {
            continue;
        }
        if let Some(f) = fitted(&samples, games, &args.note) {
            table.ruleset.insert(id.to_owned(), f);
        }
    }
    let mut out = toml::to_string(&table)?;
    writeln!(out, "{}", losses(&table, &records, "the games fitted")?)?;
    if !args.check.is_empty() {
        writeln!(
            out,
            "{}",
            losses(&table, &read(&args.check)?, "other games")?
        )?;
    }
    print_out(&out)
}

/// Per scenario, the log loss of the search's value and of the fitted chance against
/// the results, as TOML comments.
fn losses(table: &Table, records: &[GameRecord], what: &str) -> Result<String> {
    let mut report = String::new();
    writeln!(
        report,
        "# log loss on {what} ({} games), lower is better: scenario, decisions, the search's value, the fitted chance",
        records.len()
    )?;
    for (id, (samples, _)) in group(records, |r| r.scenario.as_str()) {
        let ruleset = records
            .iter()
            .find(|r| r.scenario == id)
            .map_or("", |r| r.ruleset.as_str());
        let Some(f) = table.find(id, ruleset) else {
            continue;
        };
        let values = records
            .iter()
            .filter(|r| r.scenario == id && !r.capped)
            .flat_map(|r| r.predictions.iter().map(|p| (p.value, r.result_of(p.seat))));
        let chances = samples
            .iter()
            .map(|s| (f.win(s.x, s.seat, s.progress), s.result));
        writeln!(
            report,
            "# {id}: {}, {:.3}, {:.3}",
            samples.len(),
            calibration::log_loss(values),
            calibration::log_loss(chances)
        )?;
    }
    let bands = |pick: &dyn Fn(&GameRecord, &grognard_ai::arena::Prediction) -> f64| {
        let records: Vec<GameRecord> = records
            .iter()
            .map(|r| {
                let mut r = r.clone();
                let fixed: Vec<f64> = r.predictions.iter().map(|p| pick(&r, p)).collect();
                for (p, w) in r.predictions.iter_mut().zip(fixed) {
                    p.win = w;
                }
                r
            })
            .collect();
        arena::calibration(&records)
    };
    let values = bands(&|_, p| p.value);
    let chances = bands(&|r, p| {
        table
            .find(&r.scenario, &r.ruleset)
            .map_or(p.value, |f| f.win(p.eval, p.seat, p.progress))
    });
    writeln!(
        report,
        "# estimate      the search's value: decisions, won    the fitted chance: decisions, won"
    )?;
    for band in 0..10 {
        let cell = |bands: &[arena::Band]| {
            bands
                .iter()
                .find(|b| (b.from * 10.0).round() as usize == band)
                .map_or_else(
                    || "-".to_owned(),
                    |b| format!("{}, {:.0}%", b.decisions, b.won * 100.0),
                )
        };
        writeln!(
            report,
            "# {:>3}% - {:>3}%   {:>28}    {:>28}",
            band * 10,
            band * 10 + 10,
            cell(&values),
            cell(&chances)
        )?;
    }
    Ok(report)
}

/// The evaluation's weights fitted to the games, per scenario and per ruleset, with
/// the log losses on the games fitted and on `check`.
fn terms(records: &[GameRecord], check: &[GameRecord]) -> Result<()> {
    let mut out = String::new();
    let mut groups: BTreeMap<String, Vec<&GameRecord>> = BTreeMap::new();
    for r in records.iter().filter(|r| !r.terms.is_empty()) {
        groups.entry(r.scenario.clone()).or_default().push(r);
        groups
            .entry(format!("ruleset {}", r.ruleset))
            .or_default()
            .push(r);
    }
    if groups.is_empty() {
        bail!(
            "no evaluation terms in these records: play games with a searching player in a ruleset that names its terms"
        );
    }
    for (key, group) in groups {
        let names = &group[0].terms;
        let fitted: Vec<_> = group
            .iter()
            .filter(|r| &r.terms == names)
            .flat_map(|r| tuning::samples(r))
            .collect();
        let Some(t) = tuning::fit(names, &fitted) else {
            continue;
        };
        writeln!(
            out,
            "{key}: {} decisions of {} games; a point of the evaluation moves the log-odds of winning {:.4} at the start, {:.4} at the end",
            t.samples,
            group.len(),
            t.scale.0,
            t.scale.1
        )?;
        writeln!(out, "  {:<16} {:>10} {:>10}", "term", "weight", "fitted")?;
        for w in &t.weights {
            writeln!(out, "  {:<16} {:>10.3} {:>10.3}", w.name, w.now, w.fitted)?;
        }
        writeln!(
            out,
            "  log loss on the games fitted: {:.4} as it is, {:.4} fitted",
            t.loss_now, t.loss_fitted
        )?;
        let other: Vec<_> = check
            .iter()
            .filter(|r| {
                &r.terms == names && (key == r.scenario || key == format!("ruleset {}", r.ruleset))
            })
            .flat_map(tuning::samples)
            .collect();
        if !other.is_empty() {
            let (now, free) = t.losses(&other);
            writeln!(
                out,
                "  log loss on {} other decisions: {now:.4} as it is, {free:.4} fitted",
                other.len()
            )?;
        }
    }
    print_out(&out)
}

/// Writes `text` to the standard output; a reader that has gone (`| head`) is no error.
fn print_out(text: &str) -> Result<()> {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
