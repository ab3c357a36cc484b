//! Who holds the server's connections: for each client address, how many it has open and how
//! many have not yet sent a whole request's headers (unfinished), so that one client cannot
//! hold more than its share; and which unfinished connection is the oldest, to let go when
//! too many are unfinished in all, or the process runs out of file descriptors. A request
//! whose headers are still coming holds a descriptor and gives nothing back: a client that
//! means it sends its headers at once, so the oldest unfinished request is the one most likely
//! held open on purpose, and letting it go keeps a new client served.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// How much of the server one client address may hold, and all of them together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// Connections one address may hold open at once.
    pub open: u32,
    /// Of those, connections whose first request's headers have not all come.
    pub unfinished: u32,
    /// Unfinished connections from every client together (trusted proxies' too): past it,
    /// the oldest is let go.
    pub unfinished_total: usize,
}

/// Open connections per client address, and the unfinished ones in the order they came.
#[derive(Debug, Default)]
pub struct Connections {
    // A std mutex: held only to count, never across an await.
    tally: Mutex<Tally>,
}

/// The bookkeeping itself, with no locks or sockets: what [`Connections`] decides from.
#[derive(Debug, Default)]
struct Tally {
    next: u64,
    /// Per counted client address (a trusted proxy's connections are not counted).
    held: HashMap<IpAddr, Held>,
    /// The unfinished connections, oldest first, with their client if counted and what lets
    /// each go.
    unfinished: BTreeMap<u64, (Option<IpAddr>, oneshot::Sender<()>)>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Held {
    open: u32,
    unfinished: u32,
}

/// One admitted connection; uncounted when dropped.
#[derive(Debug)]
pub struct Counted {
    connections: Arc<Connections>,
    id: u64,
    client: Option<IpAddr>,
    /// Whether its first request has come: later ones need not take the lock.
    heard: AtomicBool,
}

/// Resolves when the connection is to be let go (it was the oldest unfinished one when the
/// process ran out of descriptors); never once its first request's headers have come.
#[derive(Debug)]
pub struct LetGo(oneshot::Receiver<()>);

impl LetGo {
    /// Waits until the connection is to be let go.
    pub async fn wait(self) {
        if self.0.await.is_err() {
            // Heard from (or uncounted): it is never let go this way.
            std::future::pending::<()>().await;
        }
    }
}

impl Tally {
    /// Admits a connection from `client` (`None`: a trusted proxy, not counted) unless the
    /// client already holds its share: its id, unfinished until [`Tally::heard`], and what lets
    /// the oldest unfinished connection go if there are now too many in all.
    fn admit(
        &mut self,
        client: Option<IpAddr>,
        share: Share,
        let_go: oneshot::Sender<()>,
    ) -> Option<(u64, Option<oneshot::Sender<()>>)> {
        if let Some(client) = client {
            let held = self.held.entry(client).or_default();
            if held.open >= share.open || held.unfinished >= share.unfinished {
                if *held == Held::default() {
                    self.held.remove(&client);
                }
                return None;
            }
            held.open += 1;
            held.unfinished += 1;
        }
        self.next += 1;
        self.unfinished.insert(self.next, (client, let_go));
        let too_many = self.unfinished.len() > share.unfinished_total.max(1);
        Some((self.next, too_many.then(|| self.oldest_unfinished()).flatten()))
    }

    /// Connection `id` has sent a whole request's headers: it no longer counts as unfinished.
    fn heard(&mut self, id: u64) {
        if let Some((Some(client), _)) = self.unfinished.remove(&id) {
            if let Some(held) = self.held.get_mut(&client) {
                held.unfinished -= 1;
            }
        }
    }

    /// Connection `id` has closed.
    fn close(&mut self, id: u64, client: Option<IpAddr>) {
        self.heard(id);
        let Some(client) = client else { return };
        if let Some(held) = self.held.get_mut(&client) {
            held.open -= 1;
            if held.open == 0 {
                self.held.remove(&client);
            }
        }
    }

    /// Takes the oldest unfinished connection off the books as one to let go: what lets it go.
    fn oldest_unfinished(&mut self) -> Option<oneshot::Sender<()>> {
        let (id, _) = self.unfinished.first_key_value()?;
        let id = *id;
        let (client, let_go) = self.unfinished.remove(&id)?;
        if let Some(held) = client.and_then(|c| self.held.get_mut(&c)) {
            held.unfinished -= 1;
        }
        Some(let_go)
    }

    fn open(&self) -> u64 {
        self.held.values().map(|h| u64::from(h.open)).sum()
    }
}

impl Connections {
    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        // Nothing panics while holding it; a poisoned lock still holds consistent counts.
        self.tally.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts a connection from `client` (`None`: a trusted proxy's, not counted against any
    /// address), unless the client already holds its `share`: the count, and what says when
    /// to let it go.
    pub fn admit(
        self: &Arc<Self>,
        client: Option<IpAddr>,
        share: Share,
    ) -> Option<(Counted, LetGo)> {
        let (let_go, wait) = oneshot::channel();
        let (id, oldest) = self.tally().admit(client, share, let_go)?;
        if let Some(oldest) = oldest {
            // Its connection may have just ended on its own; then there is nothing to do.
            let _ = oldest.send(());
        }
        let counted =
            Counted { connections: Arc::clone(self), id, client, heard: AtomicBool::new(false) };
        Some((counted, LetGo(wait)))
    }

    /// Lets the oldest unfinished connection go, if there is one: when the process is out of
    /// descriptors, a new client is worth more than a request that has not come in all this
    /// time. False when there is none.
    pub fn let_oldest_go(&self) -> bool {
        let Some(let_go) = self.tally().oldest_unfinished() else { return false };
        // Its connection may have just ended on its own; then there is nothing to do.
        let _ = let_go.send(());
        true
    }

    /// Connections open now, from every counted client.
    pub fn total(&self) -> u64 {
        self.tally().open()
    }
}

impl Counted {
    /// The connection has sent a whole request's headers.
    pub fn heard(&self) {
        if !self.heard.swap(true, Ordering::Relaxed) {
            self.connections.tally().heard(self.id);
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.connections.tally().close(self.id, self.client);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Option<IpAddr> {
        Some(IpAddr::from([127, 0, 0, n]))
    }

    const SHARE: Share = Share { open: 4, unfinished: 2, unfinished_total: 100 };

    fn admit(tally: &mut Tally, client: Option<IpAddr>) -> Option<u64> {
        tally.admit(client, SHARE, oneshot::channel().0).map(|(id, _)| id)
    }

    #[test]
    fn a_client_holds_only_so_many_unfinished_requests() {
        let mut tally = Tally::default();
        let a = admit(&mut tally, ip(1)).unwrap();
        let b = admit(&mut tally, ip(1)).unwrap();
        assert_eq!(admit(&mut tally, ip(1)), None, "two unfinished already");
        assert!(admit(&mut tally, ip(2)).is_some(), "another client is not held back");
        // Once one has been heard from, another may come, up to the open share.
        tally.heard(a);
        tally.heard(a);
        let c = admit(&mut tally, ip(1)).unwrap();
        tally.heard(b);
        tally.heard(c);
        assert!(admit(&mut tally, ip(1)).is_some());
        assert_eq!(admit(&mut tally, ip(1)), None, "four open");
        assert_eq!(tally.open(), 5);
        tally.close(a, ip(1));
        assert!(admit(&mut tally, ip(1)).is_some(), "a place is free again");
        assert_eq!(admit(&mut tally, ip(1)), None, "four open, two unfinished");
        // A trusted proxy's connections are not counted against anyone.
        for _ in 0..10 {
            assert!(admit(&mut tally, None).is_some());
        }
        assert_eq!(tally.open(), 5);
    }

    #[test]
    fn the_oldest_unfinished_connection_is_let_go_first() {
        let mut tally = Tally::default();
        let (tx1, mut rx1) = oneshot::channel();
        let first = tally.admit(ip(1), SHARE, tx1).unwrap().0;
        let (tx2, mut rx2) = oneshot::channel();
        let second = tally.admit(ip(2), SHARE, tx2).unwrap().0;
        let (tx3, mut rx3) = oneshot::channel();
        let _third = tally.admit(ip(3), SHARE, tx3).unwrap().0;
        // The first has been heard from: it is never let go this way.
        tally.heard(first);
        assert!(rx1.try_recv().is_err());
        tally.oldest_unfinished().unwrap().send(()).unwrap();
        assert!(rx2.try_recv().is_ok(), "the second, now the oldest unfinished");
        assert!(rx3.try_recv().is_err());
        // Let go, it no longer counts as unfinished for its client, but as open until closed.
        assert_eq!(tally.held[&ip(2).unwrap()], Held { open: 1, unfinished: 0 });
        tally.close(second, ip(2));
        assert!(!tally.held.contains_key(&ip(2).unwrap()));
        assert!(tally.oldest_unfinished().is_some());
        assert!(tally.oldest_unfinished().is_none());
    }

    #[test]
    fn past_the_total_the_oldest_unfinished_is_let_go_for_the_newest() {
        let mut tally = Tally::default();
        let share = Share { unfinished_total: 3, ..SHARE };
        let mut waits = Vec::new();
        for n in 1..=3 {
            let (tx, rx) = oneshot::channel();
            let (_, oldest) = tally.admit(ip(n), share, tx).unwrap();
            assert!(oldest.is_none());
            waits.push(rx);
        }
        // A fourth, from anyone (a trusted proxy here): the first is let go, and it comes in.
        let (tx, _rx) = oneshot::channel();
        let (_, oldest) = tally.admit(None, share, tx).unwrap();
        oldest.unwrap().send(()).unwrap();
        assert!(waits[0].try_recv().is_ok());
        assert!(waits[1].try_recv().is_err());
        assert_eq!(tally.unfinished.len(), 3);
    }
}
