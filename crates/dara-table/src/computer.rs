//! The computer's seat: which search the table is waiting for. The table asks
//! ([`crate::Effect::Think`]) and the shell runs the engine; an answer to a search the table no
//! longer waits for is dropped by its ticket.

use dara::Position;
use dara_engine::level::Level;

/// Which search an answer belongs to. Every search the table asks for takes a new one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(pub u64);

/// A search for the computer's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Think {
    /// Its ticket.
    pub ticket: Ticket,
    /// How well to play.
    pub level: Level,
    /// The position to move in.
    pub pos: Position,
    /// The hashes of the game's earlier positions, for repetitions.
    pub history: Vec<u64>,
}

/// The searches of one table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Searches {
    /// The search the table waits for, if any: at most one.
    thinking: Option<Ticket>,
    /// Tickets handed out so far.
    issued: u64,
}

impl Searches {
    /// The search the table waits for.
    pub(crate) fn thinking(&self) -> Option<Ticket> {
        self.thinking
    }

    /// A new ticket, now the one waited for.
    pub(crate) fn ask(&mut self) -> Ticket {
        self.issued += 1;
        let ticket = Ticket(self.issued);
        self.thinking = Some(ticket);
        ticket
    }

    /// Stops waiting: the ticket waited for, if any, to call off.
    pub(crate) fn call_off(&mut self) -> Option<Ticket> {
        self.thinking.take()
    }

    /// Whether `ticket` is the search waited for; if so, it is no longer waited for.
    pub(crate) fn answered(&mut self, ticket: Ticket) -> bool {
        if self.thinking == Some(ticket) {
            self.thinking = None;
            true
        } else {
            false
        }
    }
}
