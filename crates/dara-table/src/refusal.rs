//! Why the table refused what it was asked. Whatever the reason, the table is exactly as it
//! was (but for [`Refusal::OutOfTime`]: the turn came after the mover's time ran out, and the
//! flag that fell ended the game; and for [`Refusal::GameOver`] in answer to a takeback granted
//! after the running clock's flag fell, which ended the game the same way).
//!
//! A refusal serialises as its code (the variant's name in kebab case) with its figures, as it
//! travels to the pages, which word it in the player's language; its `Display` is the English.

use core::fmt;

use dara::{Coded, MoveError};
use serde::Serialize;

/// Why a request changed nothing at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Refusal {
    /// A watcher asked for what only a player may do.
    Watching,
    /// A player asked to take a seat again.
    AlreadySeated,
    /// Nobody can join: both seats are held.
    SeatsTaken,
    /// Someone else took the open table's free seat first.
    TableTaken,
    /// The game has ended.
    GameOver,
    /// A turn before the second player sat down.
    OpponentNotSeated,
    /// A turn out of turn.
    NotYourTurn,
    /// A turn under the id of an earlier, different turn.
    TurnIdReused {
        /// The id.
        id: u64,
    },
    /// A turn that is not Dara notation, or that the position does not allow.
    IllegalMove {
        /// The rules' reason, in English.
        detail: String,
        /// The same as a code with its cells and numbers, for the page to word: the rules'
        /// own error, serialised as they write it (`{"code": "unreadable"}` or an illegal
        /// move's code and figures).
        why: MoveError,
    },
    /// The mover's time had run out when the turn arrived: the game is lost on time.
    OutOfTime,
    /// A draw offer before anyone sat opposite.
    NobodyToOffer,
    /// A second draw offer while the first stands.
    DrawAlreadyOffered,
    /// A draw offer again after the last was declined or withdrawn, before both sides moved.
    DrawOfferedLately,
    /// A draw offer to the computer, which plays every game out.
    ComputerPlaysOn,
    /// A decline with no offer to decline.
    NoDrawOffered,
    /// A withdrawal with no offer of one's own standing.
    NoDrawToWithdraw,
    /// A takeback before the player's first move.
    NothingToTakeBack,
    /// A takeback request while one stands, unanswered (the player's own, or the opponent's).
    TakebackPending,
    /// A takeback request again after the last was turned down or withdrawn, before a turn.
    TakebackAskedLately,
    /// A player has asked for as many takebacks as one player may in a game.
    TakebacksAskedLimit {
        /// How many.
        limit: u32,
    },
    /// An accept, decline or withdrawal with no takeback request to answer or withdraw (it was
    /// answered, withdrawn, or lapsed with a move).
    NoTakebackAsked,
    /// The game has had as many takebacks as one game may.
    TakebackLimit {
        /// How many.
        limit: u32,
    },
    /// The game's history is as long as one game's may grow: offers and takebacks are over,
    /// turns go on.
    EventLimit {
        /// How many events.
        limit: usize,
    },
    /// A rematch before the end.
    FinishFirst,
    /// A rematch after it began.
    RematchBegun,
    /// A second rematch request.
    RematchAlreadyAsked,
    /// A claim while the opponent may still come back.
    ClaimTooEarly {
        /// Whole seconds until the claim is allowed.
        seconds: u64,
    },
    /// A claim against an opponent who is connected.
    OpponentPresent,
    /// An abort once both sides have moved.
    TooLateToAbort,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::IllegalMove { detail, .. } => f.write_str(detail),
            Refusal::Watching => f.write_str("you are watching this game, not playing in it"),
            Refusal::AlreadySeated => f.write_str("you already hold a seat in this game"),
            Refusal::SeatsTaken => f.write_str("both seats are taken; you are watching"),
            Refusal::TableTaken => {
                f.write_str("someone else sat down at this table first; you are watching")
            }
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::OpponentNotSeated => f.write_str("wait for your opponent to sit down"),
            Refusal::NotYourTurn => f.write_str("it is not your turn"),
            Refusal::TurnIdReused { id } => write!(
                f,
                "turn id {id} was already used for another turn: give each turn its own id"
            ),
            Refusal::OutOfTime => f.write_str("your time ran out"),
            Refusal::NobodyToOffer => f.write_str("there is nobody to offer a draw to yet"),
            Refusal::DrawAlreadyOffered => f.write_str("you have already offered a draw"),
            Refusal::DrawOfferedLately => f.write_str(
                "your last draw offer was turned down or withdrawn: offer again once both sides \
                 have moved",
            ),
            Refusal::ComputerPlaysOn => f.write_str("the computer plays every game out"),
            Refusal::NoDrawOffered => f.write_str("there is no draw on offer to you"),
            Refusal::NoDrawToWithdraw => f.write_str("you have no draw offer to withdraw"),
            Refusal::NothingToTakeBack => f.write_str("you have no move to take back"),
            Refusal::TakebackPending => {
                f.write_str("a takeback request is already waiting for its answer")
            }
            Refusal::TakebackAskedLately => f.write_str(
                "your last takeback request was turned down or withdrawn: ask again after the \
                 next move",
            ),
            Refusal::TakebacksAskedLimit { limit } => {
                write!(f, "you have asked for your {limit} takebacks in this game")
            }
            Refusal::NoTakebackAsked => {
                f.write_str("there is no takeback request to answer or withdraw")
            }
            Refusal::TakebackLimit { limit } => {
                write!(f, "this game has had its {limit} takebacks: play it on from here")
            }
            Refusal::EventLimit { limit } => write!(
                f,
                "this game's history has reached its {limit} events: no more offers or \
                 takebacks, play it on from here"
            ),
            Refusal::FinishFirst => f.write_str("finish this game first"),
            Refusal::RematchBegun => f.write_str("the rematch has already begun"),
            Refusal::RematchAlreadyAsked => f.write_str("you have already asked for a rematch"),
            Refusal::ClaimTooEarly { seconds } => {
                write!(f, "your opponent may still come back: you can claim in {seconds} s")
            }
            Refusal::OpponentPresent => f.write_str("your opponent is still here"),
            Refusal::TooLateToAbort => {
                f.write_str("both sides have moved: the game can no longer be aborted")
            }
        }
    }
}

impl std::error::Error for Refusal {}

impl Refusal {
    /// A turn's text refused by the rules: not notation, or not legal here.
    pub fn illegal_move(why: MoveError) -> Refusal {
        Refusal::IllegalMove { detail: why.to_string(), why }
    }
}

impl Coded for Refusal {
    fn one_of_each() -> Vec<Refusal> {
        let start = dara::Position::start(dara::Ruleset::default());
        let unreadable = start.parse_move("c3-").expect_err("c3- is not a move");
        let all = vec![
            Refusal::Watching,
            Refusal::AlreadySeated,
            Refusal::SeatsTaken,
            Refusal::TableTaken,
            Refusal::GameOver,
            Refusal::OpponentNotSeated,
            Refusal::NotYourTurn,
            Refusal::TurnIdReused { id: 7 },
            Refusal::illegal_move(unreadable),
            Refusal::OutOfTime,
            Refusal::NobodyToOffer,
            Refusal::DrawAlreadyOffered,
            Refusal::DrawOfferedLately,
            Refusal::ComputerPlaysOn,
            Refusal::NoDrawOffered,
            Refusal::NoDrawToWithdraw,
            Refusal::NothingToTakeBack,
            Refusal::TakebackPending,
            Refusal::TakebackAskedLately,
            Refusal::TakebacksAskedLimit { limit: 3 },
            Refusal::NoTakebackAsked,
            Refusal::TakebackLimit { limit: 200 },
            Refusal::EventLimit { limit: 2000 },
            Refusal::FinishFirst,
            Refusal::RematchBegun,
            Refusal::RematchAlreadyAsked,
            Refusal::ClaimTooEarly { seconds: 12 },
            Refusal::OpponentPresent,
            Refusal::TooLateToAbort,
        ];
        // A variant added without a value above does not compile.
        for refusal in &all {
            match refusal {
                Refusal::Watching
                | Refusal::AlreadySeated
                | Refusal::SeatsTaken
                | Refusal::TableTaken
                | Refusal::GameOver
                | Refusal::OpponentNotSeated
                | Refusal::NotYourTurn
                | Refusal::TurnIdReused { .. }
                | Refusal::IllegalMove { .. }
                | Refusal::OutOfTime
                | Refusal::NobodyToOffer
                | Refusal::DrawAlreadyOffered
                | Refusal::DrawOfferedLately
                | Refusal::ComputerPlaysOn
                | Refusal::NoDrawOffered
                | Refusal::NoDrawToWithdraw
                | Refusal::NothingToTakeBack
                | Refusal::TakebackPending
                | Refusal::TakebackAskedLately
                | Refusal::TakebacksAskedLimit { .. }
                | Refusal::NoTakebackAsked
                | Refusal::TakebackLimit { .. }
                | Refusal::EventLimit { .. }
                | Refusal::FinishFirst
                | Refusal::RematchBegun
                | Refusal::RematchAlreadyAsked
                | Refusal::ClaimTooEarly { .. }
                | Refusal::OpponentPresent
                | Refusal::TooLateToAbort => {}
            }
        }
        all
    }
}
