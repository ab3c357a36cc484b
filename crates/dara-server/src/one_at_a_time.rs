//! One at a time for each key, different keys at once: a lock for each key in use, made when
//! first asked for and dropped when nobody holds or waits for it.
//!
//! A node takes a game up one socket at a time (two sockets that arrive together for a game
//! whose node died must take it up once), and pairs "play anyone" seekers one at a time in each
//! pool (two seekers who arrive together must find each other). But a node that died leaves a
//! thousand games, whose players all reconnect within a second, to the other nodes: one lock
//! for every takeover on a node served that storm one game at a time, each waiting out the
//! Redis round trips of all the games before it. So one lock a key, kept only while used.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use tokio::sync::OwnedMutexGuard;

/// The lock of each key in use.
type Locks<K> = Arc<Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>>;

/// A lock for each key in use (see the module's documentation).
#[derive(Debug)]
pub struct OneAtATime<K> {
    keys: Locks<K>,
}

impl<K> Default for OneAtATime<K> {
    fn default() -> OneAtATime<K> {
        OneAtATime { keys: Arc::default() }
    }
}

/// A key's lock, held: nobody else here holds that key until it is dropped.
#[derive(Debug)]
pub struct Held<K: Hash + Eq> {
    key: K,
    guard: Option<OwnedMutexGuard<()>>,
    keys: Locks<K>,
}

impl<K: Hash + Eq + Clone> OneAtATime<K> {
    /// Waits until no one else here holds `key`, then holds it.
    pub async fn one(&self, key: &K) -> Held<K> {
        let lock = {
            let mut keys = self.keys.lock().expect("one-at-a-time lock");
            keys.entry(key.clone()).or_default().clone()
        };
        let guard = lock.lock_owned().await;
        Held { key: key.clone(), guard: Some(guard), keys: self.keys.clone() }
    }

    /// How many keys have a lock now (held or waited for).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.lock().expect("one-at-a-time lock").len()
    }
}

impl<K: Hash + Eq> Drop for Held<K> {
    fn drop(&mut self) {
        let mut keys = self.keys.lock().expect("one-at-a-time lock");
        drop(self.guard.take());
        // The map's own reference is the last: nobody holds or waits for this key's lock.
        if keys.get(&self.key).is_some_and(|lock| Arc::strong_count(lock) == 1) {
            keys.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn different_keys_are_held_at_once_and_one_key_once() {
        let locks = OneAtATime::<u64>::default();
        let first = locks.one(&1).await;
        // Another key is not held up by the first.
        let other = tokio::time::timeout(Duration::from_secs(5), locks.one(&2)).await;
        assert!(other.is_ok(), "a second key waited for the first");
        // The same key waits until the first is done with it.
        let again = tokio::time::timeout(Duration::from_millis(50), locks.one(&1)).await;
        assert!(again.is_err(), "one key held twice at once");
        drop(first);
        let again = tokio::time::timeout(Duration::from_secs(5), locks.one(&1)).await;
        assert!(again.is_ok());
        drop((other, again));
        assert_eq!(locks.len(), 0, "no lock is kept for a key nobody holds");
    }
}
