//! The tables in memory: the most recently used in a cache of bounded size, the least
//! recently used dropped first; and a registry of every table still alive, whoever
//! holds it (the cache, a WebSocket, the computer's task, a hint, a request in
//! flight). A table dropped from the cache but still held is found again by its id,
//! so there is never a second table for one game, and nothing a holder does is lost.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Weak};

/// The cache and the registry, behind the lobby's lock.
pub(super) struct Cache<T> {
    cap: usize,
    tick: u64,
    /// The cached tables by id, with their last use.
    recent: HashMap<String, (Arc<T>, u64)>,
    /// The cached ids by last use, oldest first.
    order: BTreeMap<u64, String>,
    /// Every table handed out and perhaps still alive.
    live: HashMap<String, Weak<T>>,
}

impl<T> Cache<T> {
    /// A cache of at most `cap` tables (at least one).
    pub(super) fn new(cap: usize) -> Cache<T> {
        Cache {
            cap: cap.max(1),
            tick: 0,
            recent: HashMap::new(),
            order: BTreeMap::new(),
            live: HashMap::new(),
        }
    }

    /// The table of `id` if one is alive, now the most recently used.
    pub(super) fn get(&mut self, id: &str) -> Option<Arc<T>> {
        self.tick += 1;
        let tick = self.tick;
        if let Some((table, used)) = self.recent.get_mut(id) {
            self.order.remove(used);
            *used = tick;
            self.order.insert(tick, id.to_owned());
            return Some(Arc::clone(table));
        }
        let table = self.live.get(id)?.upgrade()?;
        self.insert(id, Arc::clone(&table));
        Some(table)
    }

    /// The table of `id` if one is alive, its place in the cache unchanged.
    pub(super) fn peek(&self, id: &str) -> Option<Arc<T>> {
        match self.recent.get(id) {
            Some((table, _)) => Some(Arc::clone(table)),
            None => self.live.get(id)?.upgrade(),
        }
    }

    /// Caches `table` as the most recently used, dropping the least recently used
    /// beyond the cap from the cache (they stay alive while someone holds them).
    pub(super) fn insert(&mut self, id: &str, table: Arc<T>) {
        self.tick += 1;
        let tick = self.tick;
        self.live.insert(id.to_owned(), Arc::downgrade(&table));
        if let Some((_, used)) = self.recent.insert(id.to_owned(), (table, tick)) {
            self.order.remove(&used);
        }
        self.order.insert(tick, id.to_owned());
        while self.recent.len() > self.cap {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            self.recent.remove(&oldest);
        }
        // The registry forgets the dead now and then, keeping its cost per table small.
        if self.live.len() > 2 * self.cap + 64 {
            self.live.retain(|_, t| t.strong_count() > 0);
        }
    }

    /// Drops the table of `id` from the cache and the registry (it expired); returns
    /// it if it was alive.
    pub(super) fn remove(&mut self, id: &str) -> Option<Arc<T>> {
        let cached = self.recent.remove(id).map(|(table, used)| {
            self.order.remove(&used);
            table
        });
        let live = self.live.remove(id).and_then(|t| t.upgrade());
        cached.or(live)
    }

    /// How many tables the cache holds.
    pub(super) fn len(&self) -> usize {
        self.recent.len()
    }

    /// How many tables are alive, in the cache or held elsewhere.
    pub(super) fn alive(&self) -> usize {
        self.live.values().filter(|t| t.strong_count() > 0).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_goes_first_and_a_held_one_is_found_again() {
        let mut c = Cache::new(2);
        let a = Arc::new("a");
        c.insert("a", Arc::clone(&a));
        c.insert("b", Arc::new("b"));
        assert!(c.get("a").is_some(), "a is now the most recent");
        c.insert("c", Arc::new("c"));
        assert_eq!(c.len(), 2);
        assert!(
            c.peek("b").is_none(),
            "b was the least recently used, and no one holds it"
        );
        // `a` went when `d` came, but is still held here: the same table comes back.
        c.insert("d", Arc::new("d"));
        c.insert("e", Arc::new("e"));
        assert_eq!(c.len(), 2);
        let again = c.get("a").expect("a is alive");
        assert!(Arc::ptr_eq(&again, &a));
        assert_eq!(c.len(), 2);
        assert_eq!(
            c.alive(),
            2,
            "a (cached again, and held here) and e; d went for a"
        );
        assert!(c.remove("a").is_some());
        assert!(c.get("a").is_none());
    }

    #[test]
    fn the_registry_forgets_the_dead() {
        let mut c = Cache::new(1);
        for i in 0..1000 {
            c.insert(&i.to_string(), Arc::new(i));
        }
        assert_eq!(c.len(), 1);
        assert!(c.live.len() <= 2 + 64 + 1, "{}", c.live.len());
        assert_eq!(c.alive(), 1);
    }
}
