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

type Lock = RwLock<Box<dyn AnyGame>>;

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

fn give_back(at: usize) {
    if cfg!(debug_assertions) {
        HELD.with(|held| {
            let mut held = held.borrow_mut();
            if let Some(i) = held.iter().rposition(|&a| a == at) {
                held.swap_remove(i);
            }
        });
    }
}

/// A table's game held for reading.
pub struct GameRead<'a> {
    guard: RwLockReadGuard<'a, Box<dyn AnyGame>>,
    at: usize,
}

impl<'a> GameRead<'a> {
    pub(super) fn new(lock: &'a Lock) -> GameRead<'a> {
        let at = take(lock);
        GameRead {
            guard: lock.read().unwrap_or_else(PoisonError::into_inner),
            at,
        }
    }
}

impl Deref for GameRead<'_> {
    type Target = Box<dyn AnyGame>;
    fn deref(&self) -> &Box<dyn AnyGame> {
        &self.guard
    }
}

impl Drop for GameRead<'_> {
    fn drop(&mut self) {
        give_back(self.at);
    }
}

/// A table's game held for changing it.
pub struct GameWrite<'a> {
    guard: RwLockWriteGuard<'a, Box<dyn AnyGame>>,
    at: usize,
}

impl<'a> GameWrite<'a> {
    pub(super) fn new(lock: &'a Lock) -> GameWrite<'a> {
        let at = take(lock);
        GameWrite {
            guard: lock.write().unwrap_or_else(PoisonError::into_inner),
            at,
        }
    }
}

impl Deref for GameWrite<'_> {
    type Target = Box<dyn AnyGame>;
    fn deref(&self) -> &Box<dyn AnyGame> {
        &self.guard
    }
}

impl DerefMut for GameWrite<'_> {
    fn deref_mut(&mut self) -> &mut Box<dyn AnyGame> {
        &mut self.guard
    }
}

impl Drop for GameWrite<'_> {
    fn drop(&mut self) {
        give_back(self.at);
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
        let _first = GameRead::new(&lock);
        let _second = GameRead::new(&lock);
    }

    #[test]
    fn reads_one_after_the_other_and_on_two_threads_are_fine() {
        let lock: Lock = RwLock::new(any_game());
        drop(GameRead::new(&lock));
        let first = GameRead::new(&lock);
        std::thread::scope(|s| {
            s.spawn(|| drop(GameRead::new(&lock)));
        });
        drop(first);
        let w = GameWrite::new(&lock);
        assert!(w.outcome().is_none());
        drop(w);
        drop(GameRead::new(&lock));
    }
}
