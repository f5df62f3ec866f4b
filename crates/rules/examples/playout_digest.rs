//! The random playouts of the benches (`benches/common/mod.rs`: seeds 1 to N, the same
//! dice and picks) of one built-in scenario, every legal list, event list and state
//! after each action written out with `{:?}` and folded into one digest: a change that
//! is meant to make the rules faster without changing a single game must leave the
//! digest as it was.
//!
//!     cargo run --release -p grognard-rules --example playout_digest -- 300 broken-cairn
//!
//! With `json` after the scenario, a second digest folds the events as the logs and
//! views write them (`serde_json`), so that a change of the events' types that should
//! leave them as they were shows it byte for byte.

mod common;

use common::Watch;
use grognard_engine::Ruleset;
use std::fmt::Write as _;

/// FNV-1a over the text of every action, and the counts of the scenario being played;
/// with `json`, another over the events written as JSON.
struct Digest {
    fnv: u64,
    text: String,
    actions: u64,
    listed: u64,
    json: Option<u64>,
}

impl Digest {
    const START: u64 = 0xcbf2_9ce4_8422_2325;

    fn new(json: bool) -> Self {
        Self {
            fnv: Self::START,
            text: String::new(),
            actions: 0,
            listed: 0,
            json: json.then_some(Self::START),
        }
    }

    /// FNV-1a over bytes: the same digest on every machine and toolchain.
    fn fold(mut fnv: u64, bytes: &[u8]) -> u64 {
        for &b in bytes {
            fnv ^= u64::from(b);
            fnv = fnv.wrapping_mul(0x0100_0000_01b3);
        }
        fnv
    }

    fn feed(&mut self) {
        self.fnv = Self::fold(self.fnv, self.text.as_bytes());
    }
}

impl Watch for Digest {
    fn action<R: Ruleset>(&mut self, legal: &[R::Action], events: &[R::Event], state: &R::State) {
        self.text.clear();
        write!(self.text, "{legal:?}\n{events:?}\n{state:?}\n").expect("to a string");
        self.feed();
        self.listed += legal.len() as u64;
        if let Some(fnv) = self.json {
            let written = serde_json::to_vec(events).expect("events write as JSON");
            self.json = Some(Self::fold(fnv, &written));
        }
    }

    fn game(&mut self, _: &str, _: u64, actions: u64) {
        self.actions += actions;
    }

    fn scenario(&mut self, id: &str, games: u64) {
        println!(
            "{id}: seeds 1 to {games}, {} actions, {} legal actions listed, digest {:016x}",
            self.actions, self.listed, self.fnv
        );
        if let Some(fnv) = self.json {
            println!("{id}: events as JSON, digest {fnv:016x}");
        }
        *self = Self::new(self.json.is_some());
    }
}

fn main() {
    let json = std::env::args().nth(3).is_some_and(|a| a == "json");
    common::run(300, &mut Digest::new(json));
}
