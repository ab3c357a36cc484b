//! The computer's search a game waits for: at most one at a time, named by the table's ticket
//! so that a stale answer (a takeback came between) is told apart, and called off by dropping
//! it, which frees its thread at once.

use std::net::IpAddr;

use dara_table::{Think, Ticket};

use super::computer::{Computer, Request, Search, Tell};
use super::handle::OwnHandle;

/// The search a game waits for, if any.
#[derive(Debug, Default)]
pub(super) struct Thinking(Option<(Ticket, Search)>);

impl Thinking {
    /// Asks `computer` for the move `think` names, on behalf of the game `handle` reaches (its
    /// answer, and its place in the queue while it waits, come back as letters) and of
    /// `client`, the address the game counts against.
    pub(super) fn start(
        &mut self,
        computer: &Computer,
        think: Think,
        client: Option<IpAddr>,
        handle: OwnHandle,
    ) {
        let Think { ticket, level, pos, history } = think;
        let teller = handle.clone();
        let tell = Tell(Box::new(move |wire| teller.place(wire)));
        let request = Request { pos, history, level, client, tell: Some(tell) };
        let (search, answer) = computer.think(request);
        self.0 = Some((ticket, search));
        tokio::spawn(async move {
            if let Some(m) = answer.await {
                handle.computer_moved(ticket, m);
            }
        });
    }

    /// The search for `ticket` answered, or is called off: it is no longer waited for (a
    /// stale ticket leaves the current search alone).
    pub(super) fn done(&mut self, ticket: Ticket) {
        if self.0.as_ref().is_some_and(|(t, _)| *t == ticket) {
            self.0 = None;
        }
    }

    /// Calls off whatever search runs.
    pub(super) fn stop(&mut self) {
        self.0 = None;
    }

    /// How many searches wait ahead of this one, if it waits.
    pub(super) fn ahead(&self) -> Option<u32> {
        self.0.as_ref().and_then(|(_, search)| search.ahead())
    }
}
