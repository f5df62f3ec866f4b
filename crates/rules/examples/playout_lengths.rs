//! The random playouts the criterion benches play (`benches/common/mod.rs`: seeds 1 to N,
//! the same dice and picks), counted: the mean length of a game in each built-in
//! scenario, so that games a second read as actions a second, and any game that does
//! not end within a cap, named by its seed.
//!
//!     cargo run --release -p grognard-rules --example playout_lengths -- 2000
//!     cargo run --release -p grognard-rules --example playout_lengths -- 100 broken-cairn
//!
//! A second argument plays that scenario only (a fixed workload for `valgrind
//! --tool=callgrind`, whose instruction counts do not move with the machine's load).

use grognard_engine::{Ctx, Dice, Ruleset};
use grognard_rules::battle_cry::BattleCry;
use grognard_rules::jomini::Jomini;
use grognard_rules::morne_plaine::MornePlaine;
use grognard_rules::skirmish::Skirmish;

/// Actions after which a game counts as endless.
const CAP: u64 = 100_000;

fn lengths<R: Ruleset>(id: &str, games: u64) {
    let b = grognard_rules::builtin::find(id).expect("a built-in scenario");
    let s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("valid");
    let rules = R::new(&s).expect("binds");
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    let mut total = 0u64;
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
            let mut ctx = Ctx::new(&mut dice, &mut events);
            rules.apply_unchecked(&mut state, &legal[i], &mut ctx);
            n += 1;
        }
        if n == CAP {
            println!("{id}: seed {seed} has not ended after {CAP} actions");
        }
        total += n;
    }
    #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let mean = total as f64 / games as f64;
    println!("{id}: {mean:.1} actions a game over {games} games");
}

fn main() {
    let games = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);
    let only = std::env::args().nth(2);
    let wanted = |id: &str| only.as_deref().is_none_or(|o| o == id);
    for id in ["heights-of-aubrac", "bridge-at-morne"] {
        if wanted(id) {
            lengths::<MornePlaine>(id, games);
        }
    }
    if wanted("crossing-at-hollins-ford") {
        lengths::<BattleCry>("crossing-at-hollins-ford", games);
    }
    if wanted("passage-of-the-saale") {
        lengths::<Jomini>("passage-of-the-saale", games);
    }
    if wanted("broken-cairn") {
        lengths::<Skirmish>("broken-cairn", games);
    }
}
