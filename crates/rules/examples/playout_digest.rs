//! The random playouts of the benches (`benches/common/mod.rs`: seeds 1 to N, the same
//! dice and picks) of one built-in scenario, every legal list, event list and state
//! after each action written out with `{:?}` and folded into one digest: a change that
//! is meant to make the rules faster without changing a single game must leave the
//! digest as it was.
//!
//!     cargo run --release -p grognard-rules --example playout_digest -- 300 broken-cairn

use grognard_engine::{Ctx, Dice, Ruleset};
use grognard_rules::battle_cry::BattleCry;
use grognard_rules::jomini::Jomini;
use grognard_rules::morne_plaine::MornePlaine;
use grognard_rules::skirmish::Skirmish;
use std::fmt::Write as _;

/// Actions after which a game counts as endless.
const CAP: u64 = 100_000;

/// FNV-1a over bytes: the same digest on every machine and toolchain.
struct Fnv(u64);

impl Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn digest<R: Ruleset>(id: &str, games: u64) {
    let b = grognard_rules::builtin::find(id).expect("a built-in scenario");
    let s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("valid");
    let rules = R::new(&s).expect("binds");
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    let mut fnv = Fnv(0xcbf2_9ce4_8422_2325);
    let mut text = String::new();
    let (mut actions, mut listed) = (0u64, 0u64);
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
            text.clear();
            write!(text, "{legal:?}\n{events:?}\n{state:?}\n").expect("to a string");
            fnv.feed(text.as_bytes());
            listed += legal.len() as u64;
            n += 1;
        }
        actions += n;
    }
    println!(
        "{id}: seeds 1 to {games}, {actions} actions, {listed} legal actions listed, digest {:016x}",
        fnv.0
    );
}

fn main() {
    let games = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let only = std::env::args().nth(2);
    let wanted = |id: &str| only.as_deref().is_none_or(|o| o == id);
    for id in ["heights-of-aubrac", "bridge-at-morne"] {
        if wanted(id) {
            digest::<MornePlaine>(id, games);
        }
    }
    if wanted("crossing-at-hollins-ford") {
        digest::<BattleCry>("crossing-at-hollins-ford", games);
    }
    if wanted("passage-of-the-saale") {
        digest::<Jomini>("passage-of-the-saale", games);
    }
    if wanted("broken-cairn") {
        digest::<Skirmish>("broken-cairn", games);
    }
}
