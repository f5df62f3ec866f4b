//! Buffers kept on a thread between uses: the boards the legal lists and the search build
//! over and over take their vectors from a pool and give them back when dropped, so that
//! building one allocates nothing once a thread has built a few.

use std::cell::RefCell;
use std::thread::LocalKey;

/// A pool of buffers on each thread.
pub(crate) type Pool<T> = LocalKey<RefCell<Vec<T>>>;

/// Buffers a pool keeps at most: a few boards are alive at once (a battle's and its
/// retreat's).
const KEPT: usize = 8;

/// A buffer from the pool, or a new one when it is empty (or the thread is being torn
/// down).
pub(crate) fn take<T: Default>(pool: &'static Pool<T>) -> T {
    pool.try_with(|s| s.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Gives a buffer back to the pool; it is freed when the pool is full, or gone with its
/// thread.
pub(crate) fn give<T>(pool: &'static Pool<T>, item: T) {
    let _ = pool.try_with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < KEPT {
            s.push(item);
        }
    });
}
