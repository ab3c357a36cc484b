//! What a table asks its shell to do: the table has no engine, no store, no timer and no
//! lobby of its own.

use crate::computer::{Think, Ticket};
use crate::moment::Moment;

/// One thing for the shell to carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Ask the computer for its move; answer with [`crate::Input::ComputerMoved`] and the same
    /// ticket.
    Think(Think),
    /// The search with this ticket is no longer wanted (a takeback, the game's end): call it
    /// off, and drop its answer should it come.
    CallOff(Ticket),
    /// A seat was filled: the seats are stored anew, and an open table leaves the lobby.
    SeatTaken,
    /// The game ended at this moment: it leaves the lobby, and the shell may let it go after a
    /// while.
    Ended(Moment),
    /// A game the rules had ended goes on (a takeback after the end).
    Reopened,
    /// Both players want a rematch: start it (colours swapped), then tell the table with
    /// [`crate::Input::RematchStarted`].
    StartRematch,
}
