//! Golden legal-action counts, one format for every ruleset: from fixed positions, how
//! many action sequences of each depth there are (summed over every sequence, like chess
//! perft). Each ruleset's `golden.txt` reads
//!
//! ```text
//! # <what the positions are>
//! # position | to act | depth | sequences
//! deal (seed 1, 0 actions) | blue command | 1 | 5
//! ```
//!
//! `to act` is the side and kind of the decision at the position (`over` once the game
//! has ended). Any change in what is legal shows up as a diff of that file. After a
//! deliberate change, `GOLDEN_UPDATE=1 cargo test -p grognard-rules golden` rewrites
//! the files (`GROGNARD_BLESS=1`, the older name, works too); review the diff.

use grognard_engine::{Ctx, Dice, Game, Ruleset};
use std::fmt::Write as _;
use std::path::Path;

/// The dice the actions of a perft roll.
#[derive(Clone, Debug)]
pub enum DiceDown {
    /// Fresh dice with this seed for every action.
    Fresh(u64),
    /// These dice, cloned down every branch (each child starts from its parent's dice
    /// after the parent's action).
    Carried(Dice),
}

/// Sequences of `depth` actions from `state` (1 for depth 0; a game over has none).
pub fn perft<R: Ruleset>(rules: &R, state: &R::State, dice: &DiceDown, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let legal = super::legal(rules, state);
    if depth == 1 {
        return legal.len() as u64;
    }
    let mut events = Vec::new();
    legal
        .iter()
        .map(|a| {
            let mut next = state.clone();
            let mut d = match dice {
                DiceDown::Fresh(seed) => Dice::new(*seed),
                DiceDown::Carried(d) => d.clone(),
            };
            events.clear();
            rules.apply_unchecked(&mut next, a, &mut Ctx::new(&mut d, &mut events));
            let down = match dice {
                DiceDown::Fresh(_) => dice.clone(),
                DiceDown::Carried(_) => DiceDown::Carried(d),
            };
            perft(rules, &next, &down, depth - 1)
        })
        .sum()
}

/// The counts of a ruleset's positions, written in the one format.
pub struct Counts {
    out: String,
}

/// The environment variable that rewrites the golden files, and its older alias.
pub const UPDATE: &str = "GOLDEN_UPDATE";
const UPDATE_ALIAS: &str = "GROGNARD_BLESS";

impl Counts {
    /// Counts headed by a line saying what the positions are.
    pub fn new(about: &str) -> Counts {
        Counts {
            out: format!("# {about}\n# position | to act | depth | sequences\n"),
        }
    }

    /// The counts of depth 1 to `depth` from a position.
    pub fn position<R: Ruleset>(
        &mut self,
        name: &str,
        rules: &R,
        state: &R::State,
        dice: &DiceDown,
        depth: u32,
    ) {
        let to_act = rules
            .to_act(state)
            .map_or_else(|| "over".to_owned(), |d| format!("{} {}", d.side, d.kind));
        for d in 1..=depth {
            let n = perft(rules, state, dice, d);
            writeln!(self.out, "{name} | {to_act} | {d} | {n}").unwrap();
        }
    }

    /// Compares the counts with `tests/<file>` (or rewrites it when [`UPDATE`] is set).
    ///
    /// # Panics
    /// When they differ, showing the first lines that do.
    pub fn check(self, file: &str) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(file);
        if std::env::var_os(UPDATE).is_some() || std::env::var_os(UPDATE_ALIAS).is_some() {
            std::fs::write(&path, &self.out).unwrap();
            return;
        }
        let was = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{file}: {e} ({UPDATE}=1 writes it)"));
        if was != self.out {
            let mut diff: Vec<String> = was
                .lines()
                .zip(self.out.lines())
                .filter(|(a, b)| a != b)
                .take(10)
                .map(|(a, b)| format!("- {a}\n+ {b}"))
                .collect();
            let (a, b) = (was.lines().count(), self.out.lines().count());
            if a != b {
                diff.push(format!("({a} lines were, {b} now)"));
            }
            panic!(
                "legal-action counts of {file} changed; if on purpose, rerun with {UPDATE}=1:\n{}",
                diff.join("\n")
            );
        }
    }
}

/// A game played on by `n` random legal actions, picked with dice seeded `pick`.
///
/// # Panics
/// When the game ends on the way: golden positions are games in progress.
pub fn played_on<R: Ruleset>(mut game: Game<R>, pick: u64, n: usize) -> Game<R> {
    let mut pick = Dice::new(pick);
    for _ in 0..n {
        let legal = game.legal_actions();
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        game.apply(legal[i].clone()).unwrap();
    }
    assert!(
        game.rules().outcome(game.state()).is_none(),
        "golden positions are games in progress"
    );
    game
}

/// Compares `tests/<file>` with the counts of positions of random play, each
/// `(name, seed, actions, depth)` being the game `position(seed, actions)` counted to
/// `depth` with fresh dice seeded 0 for every action.
///
/// # Panics
/// As [`Counts::check`].
pub fn check_positions<R: Ruleset>(
    about: &str,
    file: &str,
    positions: &[(&str, u64, usize, u32)],
    position: impl Fn(u64, usize) -> Game<R>,
) {
    let mut counts = Counts::new(about);
    for &(name, seed, n, depth) in positions {
        let g = position(seed, n);
        let at = format!("{name} (seed {seed}, {n} actions)");
        counts.position(&at, g.rules(), g.state(), &DiceDown::Fresh(0), depth);
    }
    counts.check(file);
}
