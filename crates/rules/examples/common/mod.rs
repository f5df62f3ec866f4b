//! What the playout examples share: the benches' random playouts (`benches/common/mod.rs`:
//! seeds 1 to N, the same dice and picks) of the built-in scenarios, each action handed
//! to a watcher.

use grognard_engine::{Ctx, Dice, Ruleset};
use grognard_rules::battle_cry::BattleCry;
use grognard_rules::jomini::Jomini;
use grognard_rules::morne_plaine::MornePlaine;
use grognard_rules::skirmish::Skirmish;

/// Actions after which a game counts as endless.
pub const CAP: u64 = 100_000;

/// What sees the playouts of one scenario.
pub trait Watch {
    /// After each action: the legal list it was picked from, its events, the state after.
    fn action<R: Ruleset>(&mut self, legal: &[R::Action], events: &[R::Event], state: &R::State);
    /// After each game: its seed and its length (`CAP` if it did not end).
    fn game(&mut self, id: &str, seed: u64, actions: u64);
    /// After the last game of scenario `id`.
    fn scenario(&mut self, id: &str, games: u64);
}

/// Plays seeds 1 to `games` of the built-in scenario `id` with uniform random picks;
/// `quiet`: in quiet contexts (`Ctx::quiet`), as the searches' simulations play, so that
/// the watcher sees no events.
fn play<R: Ruleset>(id: &str, games: u64, quiet: bool, watch: &mut impl Watch) {
    let b = grognard_rules::builtin::find(id).expect("a built-in scenario");
    let s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("valid");
    let rules = R::new(&s).expect("binds");
    // The scenario's names current, so that a watcher may write the events as JSON
    // (their hexes as labels).
    rules.names().scope(|| {
        play_games(&rules, id, games, quiet, watch);
    });
    watch.scenario(id, games);
}

/// The games of [`play`].
fn play_games<R: Ruleset>(rules: &R, id: &str, games: u64, quiet: bool, watch: &mut impl Watch) {
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    for seed in 1..=games {
        let mut state = rules.initial_state();
        let mut dice = Dice::new(seed);
        let mut pick = Dice::new(seed ^ 0xB0A7);
        let mut n = 0u64;
        while rules.outcome(&state).is_none() && n < CAP {
            legal.clear();
            rules.legal_actions(&state, &mut legal);
            let i = (pick
                .next(u32::try_from(legal.len()).expect("few actions"))
                .0
                - 1) as usize;
            events.clear();
            let mut ctx = if quiet {
                Ctx::quiet(&mut dice, &mut events)
            } else {
                Ctx::new(&mut dice, &mut events)
            };
            rules.apply_unchecked(&mut state, &legal[i], &mut ctx);
            watch.action::<R>(&legal, &events, &state);
            n += 1;
        }
        watch.game(id, seed, n);
    }
}

/// Reads `GAMES [SCENARIO [quiet | json]]` from the command line (`default` games when
/// absent) and plays every built-in scenario, or the one named, recording the events
/// unless `quiet` follows (`json` is the watcher's to read).
pub fn run(default: u64, watch: &mut impl Watch) {
    let games = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default);
    let only = std::env::args().nth(2);
    let quiet = std::env::args().nth(3).is_some_and(|a| a == "quiet");
    let wanted = |id: &str| only.as_deref().is_none_or(|o| o == id);
    for id in ["heights-of-aubrac", "bridge-at-morne"] {
        if wanted(id) {
            play::<MornePlaine>(id, games, quiet, watch);
        }
    }
    if wanted("crossing-at-hollins-ford") {
        play::<BattleCry>("crossing-at-hollins-ford", games, quiet, watch);
    }
    if wanted("passage-of-the-saale") {
        play::<Jomini>("passage-of-the-saale", games, quiet, watch);
    }
    if wanted("broken-cairn") {
        play::<Skirmish>("broken-cairn", games, quiet, watch);
    }
}
