//! What a table is given, and what it answers: every change to a game comes in as an
//! [`Input`] with the time, and goes out as an [`Outcome`] (the reply to whoever asked, the new
//! events in the journal, the effects for the shell to carry out).

use std::ops::Range;
use std::time::Duration;

use dara::{Colour, Move};

use crate::computer::Ticket;
use crate::effect::Effect;
use crate::game_id::GameId;
use crate::refusal::Refusal;

/// Something that happens to a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input<K> {
    /// A player (`by`: their seat) or a watcher (`by`: `None`) asks for something.
    Ask {
        /// Who asks.
        by: Option<Colour>,
        /// What.
        ask: Ask<K>,
    },
    /// The computer's search finished.
    ComputerMoved {
        /// Which search this answers: a takeback makes every earlier search stale.
        ticket: Ticket,
        /// The chosen move.
        m: Move,
    },
    /// The rematch both players agreed to began as this game (the shell starts it on
    /// [`Effect::StartRematch`]).
    RematchStarted {
        /// Its id.
        game: GameId,
    },
    /// Time passed: a flag may have fallen, held clocks may run again (see
    /// [`crate::Table::next_deadline`]).
    Time,
}

/// What someone at the table asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask<K> {
    /// Take the free seat (an invite link, or sitting at an open table), held from now on by
    /// `key`.
    Sit {
        /// What stands in for the person (see [`crate::Seat`]).
        key: K,
    },
    /// Play a whole turn, captures included.
    Turn {
        /// The player's own id for this turn: a turn sent again under it is answered as before,
        /// not played twice.
        id: u64,
        /// The turn in notation, e.g. `c3-c4xe5`.
        text: String,
        /// The player's measured one-way delay, if they said it with the turn.
        lag: Option<Duration>,
    },
    /// The player's measured one-way delay, credited to their next turn's time.
    Lag(Duration),
    /// The player is connected again: after a restart, the clocks wait for the side to move.
    Back,
    /// Give up.
    Resign,
    /// Call the game off, without a result, before both sides have made their first move.
    Abort,
    /// Offer a draw, or accept the one on offer.
    DrawOffer,
    /// Turn down the draw on offer.
    DrawDecline,
    /// Take back one's own draw offer before it is answered.
    DrawWithdraw,
    /// Back to one's previous turn: at once against the computer; in a game between people,
    /// asked of the opponent, who accepts or declines it.
    Takeback,
    /// Grant the takeback the opponent asked for.
    TakebackAccept,
    /// Turn down the takeback the opponent asked for.
    TakebackDecline,
    /// Withdraw one's own takeback request before it is answered.
    TakebackWithdraw,
    /// Ask for (or agree to) another game with colours swapped.
    Rematch,
    /// Claim the win over an opponent who has gone.
    Claim {
        /// How long the opponent has had no connection (`None`: they are here). The shell
        /// knows who is connected; the table decides what follows.
        opponent_away: Option<Duration>,
    },
}

/// What became of an input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct Outcome {
    /// The answer for whoever asked (inputs nobody asked for answer `Ok(Reply::Done)`).
    pub reply: Result<Reply, Refusal>,
    /// The new events: versions `v` in this range, `journal()[v - 1]`. Stored before anyone is
    /// told of them.
    pub events: Range<u64>,
    /// What the shell is to do, in order.
    pub effects: Vec<Effect>,
}

/// The answer to what was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// Done.
    Done,
    /// The turn with this id was played (or had been, when it was sent again).
    Accepted {
        /// The player's id for the turn.
        id: u64,
    },
    /// The free seat, taken.
    Seated(Colour),
}
