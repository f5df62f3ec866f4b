//! The lock of a table's game, watched in debug builds: a thread that takes it while
//! it already holds it panics there, naming the mistake. With the standard library's
//! lock a second read on one thread waits behind any writer that queued after the
//! first, and that writer waits for the first read: the two requests, and the worker
//! threads they run on, hang for good. Such a second read hung `POST .../preview`
//! against a concurrent action; the check makes every test that reaches such a path
//! fail at once, whether or not a writer happens to queue in between.

use grognard_engine::AnyGame;
use std::cell::RefCell;
use std::ops::{Deref, DerefMut};
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

thread_local! {
    /// The games whose lock this thread holds, by address (debug builds only).
    static HELD: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// The lock of a table's game.
pub(super) type Lock = RwLock<Box<dyn AnyGame>>;

/// A table's game held through `G`, the lock's guard, on this thread.
pub struct Held<G> {
    guard: G,
    at: usize,
}

/// A table's game held for reading.
pub type GameRead<'a> = Held<RwLockReadGuard<'a, Box<dyn AnyGame>>>;

/// A table's game held for changing it.
pub type GameWrite<'a> = Held<RwLockWriteGuard<'a, Box<dyn AnyGame>>>;

/// Notes that this thread takes `lock`; panics in debug builds if it already holds it.
fn take(lock: &Lock) -> usize {
    let at = std::ptr::from_ref(lock) as usize;
    if cfg!(debug_assertions) {
        HELD.with(|held| {
            let mut held = held.borrow_mut();
            assert!(
                !held.contains(&at),
                "a table's game locked twice on one thread: this deadlocks once an action \
                 waits to write between the two (pass the game held instead)"
            );
            held.push(at);
        });
    }
    at
}

/// The game for reading.
pub(super) fn read(lock: &Lock) -> GameRead<'_> {
    let at = take(lock);
    Held {
        guard: lock.read().unwrap_or_else(PoisonError::into_inner),
        at,
    }
}

/// The game for changing it.
pub(super) fn write(lock: &Lock) -> GameWrite<'_> {
    let at = take(lock);
    Held {
        guard: lock.write().unwrap_or_else(PoisonError::into_inner),
        at,
    }
}

impl<G: Deref<Target = Box<dyn AnyGame>>> Deref for Held<G> {
    type Target = Box<dyn AnyGame>;
    fn deref(&self) -> &Box<dyn AnyGame> {
        &self.guard
    }
}

impl<G: DerefMut<Target = Box<dyn AnyGame>>> DerefMut for Held<G> {
    fn deref_mut(&mut self) -> &mut Box<dyn AnyGame> {
        &mut self.guard
    }
}

impl<G> Drop for Held<G> {
    fn drop(&mut self) {
        if cfg!(debug_assertions) {
            HELD.with(|held| {
                let mut held = held.borrow_mut();
                if let Some(i) = held.iter().rposition(|&a| a == self.at) {
                    held.swap_remove(i);
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of a built-in scenario.
    fn any_game() -> Box<dyn AnyGame> {
        let b = grognard_rules::builtin::find("passage-of-the-saale").expect("a built-in");
        let registry = grognard_rules::registry();
        let scenario = registry.load_scenario(b.path, b.text).expect("valid");
        registry.new_game(scenario, Some(1)).expect("a game")
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "locked twice on one thread")]
    fn a_second_read_on_one_thread_panics_in_debug_builds() {
        let lock: Lock = RwLock::new(any_game());
        let _first = read(&lock);
        let _second = read(&lock);
    }

    #[test]
    fn reads_one_after_the_other_and_on_two_threads_are_fine() {
        let lock: Lock = RwLock::new(any_game());
        drop(read(&lock));
        let first = read(&lock);
        std::thread::scope(|s| {
            s.spawn(|| drop(read(&lock)));
        });
        drop(first);
        let w = write(&lock);
        assert!(w.outcome().is_none());
        drop(w);
        drop(read(&lock));
    }
}
