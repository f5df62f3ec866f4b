//! Numbers by which the rulesets' kept boards know what they were built for: a binding
//! of the rules to a scenario ([`next_binding`]) and a state ([`next_id`], for the
//! stamps of `morne_plaine::board::Stamp` and `battle_cry::stamp::Stamp`), each given
//! once in the whole process, without a lock. Nothing here decides a rule.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers handed to the bindings of the rules to scenarios, from 1.
static BINDINGS: AtomicU64 = AtomicU64::new(1);

/// A number no other binding of the process carries, never 0: a kept board names the
/// binding it was built for, so that another scenario's rules never read it.
pub(crate) fn next_binding() -> u64 {
    BINDINGS.fetch_add(1, Ordering::Relaxed)
}

/// Blocks of stamp numbers handed to the threads, from 1 << 32 up (so never 0).
static BLOCKS: AtomicU64 = AtomicU64::new(1 << 32);

thread_local! {
    /// This thread's next stamp number, and the end of its block.
    static NEXT: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// A stamp number no thread of the process has handed out before; 0 (a state of
/// unknown history, which no board trusts) on a thread being torn down.
pub(crate) fn next_id() -> u64 {
    NEXT.try_with(|c| {
        let (mut next, mut end) = c.get();
        if next == end {
            next = BLOCKS.fetch_add(1 << 32, Ordering::Relaxed);
            end = next + (1 << 32);
        }
        c.set((next + 1, end));
        next
    })
    .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::next_id;

    #[test]
    fn stamp_numbers_are_never_zero_and_never_given_twice() {
        let here: Vec<u64> = (0..1000).map(|_| next_id()).collect();
        let there = std::thread::spawn(|| (0..1000).map(|_| next_id()).collect::<Vec<u64>>())
            .join()
            .unwrap();
        let mut all: Vec<u64> = here.iter().chain(&there).copied().collect();
        assert!(all.iter().all(|&n| n != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2000);
    }
}
