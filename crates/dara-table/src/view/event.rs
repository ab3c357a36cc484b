//! The game's events as the pages are told them, rendered from the game's journal
//! ([`GameEvent`](crate::GameEvent)) and the position each led to, so that a page needs no
//! rules. The shell adds each event's version as it sends it.

use dara::record::GameResult;
use dara::{Colour, Move, Ruleset};
use serde::Serialize;

use super::clock::ClockView;
use super::display::display;
use super::position::PositionView;
use crate::{EndReason, GameId, Opponent};

/// An event as the pages are told it (the shell adds its version).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
pub enum Event {
    /// The whole game; its version is that of the last event it includes.
    Snapshot(Box<Snapshot>),
    /// Someone took the free seat: the game (and its clock) starts.
    Seated {
        /// The seat taken.
        colour: Colour,
        /// The clocks, if the game has them.
        clock: Option<ClockView>,
    },
    /// A turn was played.
    Move {
        /// The turn in notation, captures included.
        #[serde(serialize_with = "display")]
        m: Move,
        /// How many turns have been played, this one included.
        ply: usize,
        /// The position it led to.
        pos: PositionView,
        /// The clocks, if the game has them.
        clock: Option<ClockView>,
    },
    /// The last `plies` turns were taken back.
    Takeback {
        /// Turns taken back.
        plies: usize,
        /// Turns left.
        ply: usize,
        /// The position now.
        pos: PositionView,
        /// The clocks, if the game has them.
        clock: Option<ClockView>,
    },
    /// A player asks the opponent to take back a move.
    TakebackOffer {
        /// By whom.
        by: Colour,
    },
    /// The opponent turned the takeback down.
    TakebackDecline {
        /// By whom.
        by: Colour,
    },
    /// The player who asked for a takeback withdrew the request.
    TakebackWithdraw {
        /// By whom.
        by: Colour,
    },
    /// A draw is offered.
    DrawOffer {
        /// By whom.
        by: Colour,
    },
    /// The draw offer was turned down.
    DrawDecline {
        /// By whom.
        by: Colour,
    },
    /// The draw offer was withdrawn by the player who made it.
    DrawWithdraw {
        /// By whom.
        by: Colour,
    },
    /// A side went berserk (an arena's game): its time was halved before its first move.
    Berserk {
        /// The side.
        colour: Colour,
        /// Both clocks after the halving: no clock runs before a side's first move, and
        /// without `firstMove`, as the countdown for the first move goes on untouched.
        clock: Option<ClockView>,
    },
    /// The game is over.
    End(Box<EndView>),
    /// A rematch is asked for.
    RematchOffer {
        /// By whom.
        by: Colour,
    },
    /// The rematch has begun: each player's token holds their seat there, in the other colour.
    Rematch {
        /// The next game.
        game: GameId,
    },
}

/// Everything a page needs to show a game.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// The ruleset in notation.
    #[serde(serialize_with = "display")]
    pub rules: Ruleset,
    /// Who the creator plays against.
    pub opponent: Opponent,
    /// The connection's colour, if it holds a seat.
    pub you: Option<Colour>,
    /// Who sits where.
    pub seats: Seats,
    /// Every turn so far, in notation.
    pub moves: Vec<String>,
    /// The board after each turn, as position text, the start first: `positions[n]` follows
    /// `moves[n - 1]`, so a page can show any earlier position without knowing the rules.
    pub positions: Vec<String>,
    /// The position now.
    pub pos: PositionView,
    /// The clocks, if the game has them.
    pub clock: Option<ClockView>,
    /// How the game ended, if it has.
    pub end: Option<EndView>,
    /// Who offers a draw, if anyone.
    pub draw_offer: Option<Colour>,
    /// Who asks the opponent to take back a move, if anyone.
    pub takeback_offer: Option<Colour>,
    /// Who asks for a rematch, if anyone.
    pub rematch_offer: Option<Colour>,
    /// The rematch's game, once it has begun.
    pub rematch: Option<GameId>,
    /// The sides that went berserk (an arena's game), if any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub berserk: Vec<Colour>,
}

/// Both seats.
#[derive(Debug, Clone, Serialize)]
pub struct Seats {
    /// The pale seat.
    pub white: SeatView,
    /// The dark seat.
    pub black: SeatView,
}

/// Who sits in a seat, as everyone may know it (never a token).
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SeatView {
    /// Nobody yet.
    Open,
    /// A person.
    Human,
    /// The computer.
    Computer {
        /// Its level, 1 to 8.
        level: u8,
    },
}

/// How a game ended, with its record.
#[derive(Debug, Clone, Serialize)]
pub struct EndView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[serde(serialize_with = "display")]
    pub result: GameResult,
    /// The winner, if any.
    pub winner: Option<Colour>,
    /// Why, as a code with its parameters.
    #[serde(flatten)]
    pub why: EndReason,
    /// Why, in English.
    pub reason: String,
    /// The game's record in the notation's game format.
    pub record: String,
    /// The clocks when it ended (absent in a snapshot, which carries them itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
}
