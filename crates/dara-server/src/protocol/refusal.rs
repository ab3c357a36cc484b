//! Why a request changed nothing: one enum for every refusal a game or a socket gives, sent as
//! a code with its parameters (the page words it, in any language) beside plain English for any
//! other client.

use core::fmt;

use dara::MoveError;
use serde::Serialize;

use super::client::{ParseError, PROTOCOL_VERSION};
use crate::error::AppError;

/// Why a message was refused. Whatever the reason, the game is exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Refusal {
    /// The frame could not be read as a message.
    Unreadable {
        /// What is wrong with it, in English.
        detail: String,
    },
    /// `hello` names another version of the protocol: the page must reload.
    OtherProtocol {
        /// The version the server speaks.
        server: u32,
        /// What the page said, in English.
        detail: String,
    },
    /// A binary frame.
    Binary,
    /// Anything before `hello`.
    HelloFirst,
    /// A second `hello`.
    HelloAgain,
    /// The seat token offered is not one of this game's.
    NotYourSeatLink,
    /// A watcher asked for what only a player may do.
    Watching,
    /// A player asked to join again.
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
    /// The mover's time had run out when the turn arrived.
    OutOfTime,
    /// A draw offer before anyone sat opposite.
    NobodyToOffer,
    /// A second draw offer while the first stands.
    DrawAlreadyOffered,
    /// A draw offer to the computer.
    ComputerPlaysOn,
    /// A draw offer again after the last was declined or withdrawn, before both sides moved.
    DrawOfferedLately,
    /// A decline with no offer to decline.
    NoDrawOffered,
    /// A withdrawal with no offer of one's own standing.
    NoDrawToWithdraw,
    /// A takeback in a game between people.
    TakebacksAgainstComputerOnly,
    /// A takeback before the player's first move.
    NothingToTakeBack,
    /// The game has had as many takebacks as one game may.
    TakebackLimit {
        /// How many.
        limit: u32,
    },
    /// The game's history is as long as one game's may grow: offers and takebacks are over.
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
    /// The rematch could not be started.
    RematchUnavailable {
        /// Why, as an HTTP answer would have said it: its code and figures (the server is full,
        /// or this address holds too many games).
        because: AppError,
        /// The same in English.
        detail: String,
    },
    /// A claim while the opponent may still come back.
    ClaimTooEarly {
        /// Whole seconds until the claim is allowed.
        seconds: u64,
    },
    /// A claim against an opponent who is connected.
    OpponentPresent,
    /// The server cannot reach where it keeps games (a node of a cluster whose Redis does not
    /// answer): what would change the game is refused rather than played and lost.
    StoreUnreachable,
}

impl Refusal {
    /// A turn's text refused by the rules: not notation, or not legal here.
    pub fn illegal_move(error: &MoveError) -> Refusal {
        Refusal::IllegalMove { detail: error.to_string(), why: error.clone() }
    }

    /// The rematch could not be started, for the reason `error` gives.
    pub fn rematch_unavailable(error: &AppError) -> Refusal {
        Refusal::RematchUnavailable { because: error.clone(), detail: error.reason() }
    }
}

/// What the table refused, as it travels. The table's refusal carries no code of its own yet:
/// this goes once the rules' reasons serialise themselves (`dara`'s `serde` feature).
impl From<dara_table::Refusal> for Refusal {
    fn from(refusal: dara_table::Refusal) -> Refusal {
        use dara_table::Refusal as Table;
        match refusal {
            Table::Watching => Refusal::Watching,
            Table::AlreadySeated => Refusal::AlreadySeated,
            Table::SeatsTaken => Refusal::SeatsTaken,
            Table::TableTaken => Refusal::TableTaken,
            Table::GameOver => Refusal::GameOver,
            Table::OpponentNotSeated => Refusal::OpponentNotSeated,
            Table::NotYourTurn => Refusal::NotYourTurn,
            Table::TurnIdReused { id } => Refusal::TurnIdReused { id },
            Table::IllegalMove(error) => Refusal::illegal_move(&error),
            Table::OutOfTime => Refusal::OutOfTime,
            Table::NobodyToOffer => Refusal::NobodyToOffer,
            Table::DrawAlreadyOffered => Refusal::DrawAlreadyOffered,
            Table::DrawOfferedLately => Refusal::DrawOfferedLately,
            Table::ComputerPlaysOn => Refusal::ComputerPlaysOn,
            Table::NoDrawOffered => Refusal::NoDrawOffered,
            Table::NoDrawToWithdraw => Refusal::NoDrawToWithdraw,
            Table::TakebacksAgainstComputerOnly => Refusal::TakebacksAgainstComputerOnly,
            Table::NothingToTakeBack => Refusal::NothingToTakeBack,
            Table::TakebackLimit { limit } => Refusal::TakebackLimit { limit },
            Table::EventLimit { limit } => Refusal::EventLimit { limit },
            Table::FinishFirst => Refusal::FinishFirst,
            Table::RematchBegun => Refusal::RematchBegun,
            Table::RematchAlreadyAsked => Refusal::RematchAlreadyAsked,
            Table::ClaimTooEarly { seconds } => Refusal::ClaimTooEarly { seconds },
            Table::OpponentPresent => Refusal::OpponentPresent,
        }
    }
}

impl From<ParseError> for Refusal {
    fn from(error: ParseError) -> Refusal {
        match error {
            ParseError::OtherProtocol(_) => {
                Refusal::OtherProtocol { server: PROTOCOL_VERSION, detail: error.to_string() }
            }
            _ => Refusal::Unreadable { detail: error.to_string() },
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Unreadable { detail } | Refusal::IllegalMove { detail, .. } => {
                f.write_str(detail)
            }
            Refusal::RematchUnavailable { detail, .. } | Refusal::OtherProtocol { detail, .. } => {
                f.write_str(detail)
            }
            Refusal::Binary => f.write_str("messages are JSON text, not binary"),
            Refusal::HelloFirst => f.write_str("say hello first"),
            Refusal::HelloAgain => f.write_str("you have already said hello"),
            Refusal::NotYourSeatLink => {
                f.write_str("that seat link does not belong to this game; you are watching")
            }
            Refusal::Watching => f.write_str("you are watching this game, not playing in it"),
            Refusal::AlreadySeated => f.write_str("you already hold a seat in this game"),
            Refusal::SeatsTaken => f.write_str("both seats are taken; you are watching"),
            Refusal::TableTaken => {
                f.write_str("someone else sat down at this table first; you are watching")
            }
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::OpponentNotSeated => f.write_str("wait for your opponent to sit down"),
            Refusal::NotYourTurn => f.write_str("it is not your turn"),
            Refusal::TurnIdReused { id } => {
                write!(
                    f,
                    "turn id {id} was already used for another turn: give each turn its own id"
                )
            }
            Refusal::OutOfTime => f.write_str("your time ran out"),
            Refusal::NobodyToOffer => f.write_str("there is nobody to offer a draw to yet"),
            Refusal::DrawAlreadyOffered => f.write_str("you have already offered a draw"),
            Refusal::ComputerPlaysOn => f.write_str("the computer plays every game out"),
            Refusal::DrawOfferedLately => f.write_str(
                "your last draw offer was turned down or withdrawn: offer again once both sides \
                 have moved",
            ),
            Refusal::EventLimit { limit } => write!(
                f,
                "this game's history has reached its {limit} events: no more offers or \
                 takebacks, play it on from here"
            ),
            Refusal::NoDrawOffered => f.write_str("there is no draw on offer to you"),
            Refusal::NoDrawToWithdraw => f.write_str("you have no draw offer to withdraw"),
            Refusal::TakebacksAgainstComputerOnly => {
                f.write_str("takebacks are only for games against the computer")
            }
            Refusal::NothingToTakeBack => f.write_str("you have no move to take back"),
            Refusal::TakebackLimit { limit } => {
                write!(f, "this game has had its {limit} takebacks: play it on from here")
            }
            Refusal::FinishFirst => f.write_str("finish this game first"),
            Refusal::RematchBegun => f.write_str("the rematch has already begun"),
            Refusal::RematchAlreadyAsked => f.write_str("you have already asked for a rematch"),
            Refusal::ClaimTooEarly { seconds } => {
                write!(f, "your opponent may still come back: you can claim in {seconds} s")
            }
            Refusal::OpponentPresent => f.write_str("your opponent is still here"),
            Refusal::StoreUnreachable => f.write_str(
                "the server cannot keep the game just now, so nothing was played: try again in \
                 a moment",
            ),
        }
    }
}

impl dara::Coded for Refusal {
    fn one_of_each() -> Vec<Refusal> {
        let start = dara::Position::start(dara::Ruleset::default());
        let unreadable = start.parse_move("c3-").expect_err("c3- is not a move");
        let all = vec![
            Refusal::Unreadable { detail: "expected value at line 1 column 1".to_owned() },
            Refusal::OtherProtocol { server: PROTOCOL_VERSION, detail: "protocol 0".to_owned() },
            Refusal::Binary,
            Refusal::HelloFirst,
            Refusal::HelloAgain,
            Refusal::NotYourSeatLink,
            Refusal::Watching,
            Refusal::AlreadySeated,
            Refusal::SeatsTaken,
            Refusal::TableTaken,
            Refusal::GameOver,
            Refusal::OpponentNotSeated,
            Refusal::NotYourTurn,
            Refusal::TurnIdReused { id: 7 },
            Refusal::illegal_move(&unreadable),
            Refusal::OutOfTime,
            Refusal::NobodyToOffer,
            Refusal::DrawAlreadyOffered,
            Refusal::ComputerPlaysOn,
            Refusal::NoDrawOffered,
            Refusal::NoDrawToWithdraw,
            Refusal::TakebacksAgainstComputerOnly,
            Refusal::NothingToTakeBack,
            Refusal::TakebackLimit { limit: 200 },
            Refusal::DrawOfferedLately,
            Refusal::EventLimit { limit: 2000 },
            Refusal::FinishFirst,
            Refusal::RematchBegun,
            Refusal::RematchAlreadyAsked,
            Refusal::rematch_unavailable(&AppError::Full),
            Refusal::ClaimTooEarly { seconds: 12 },
            Refusal::OpponentPresent,
            Refusal::StoreUnreachable,
        ];
        // A variant added without a value above does not compile.
        for refusal in &all {
            match refusal {
                Refusal::Unreadable { .. }
                | Refusal::OtherProtocol { .. }
                | Refusal::Binary
                | Refusal::HelloFirst
                | Refusal::HelloAgain
                | Refusal::NotYourSeatLink
                | Refusal::Watching
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
                | Refusal::ComputerPlaysOn
                | Refusal::NoDrawOffered
                | Refusal::NoDrawToWithdraw
                | Refusal::TakebacksAgainstComputerOnly
                | Refusal::NothingToTakeBack
                | Refusal::TakebackLimit { .. }
                | Refusal::DrawOfferedLately
                | Refusal::EventLimit { .. }
                | Refusal::FinishFirst
                | Refusal::RematchBegun
                | Refusal::RematchAlreadyAsked
                | Refusal::RematchUnavailable { .. }
                | Refusal::ClaimTooEarly { .. }
                | Refusal::OpponentPresent
                | Refusal::StoreUnreachable => {}
            }
        }
        all
    }
}

/// A refusal as it travels: its code and parameters, and the same in English.
#[derive(Debug, Clone, Serialize)]
pub struct Explained {
    #[serde(flatten)]
    refusal: Refusal,
    reason: String,
}

impl From<Refusal> for Explained {
    fn from(refusal: Refusal) -> Explained {
        Explained { reason: refusal.to_string(), refusal }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_travels_as_code_parameters_and_english() {
        let text = serde_json::to_string(&Explained::from(Refusal::ClaimTooEarly { seconds: 12 }))
            .unwrap();
        assert_eq!(
            text,
            r#"{"code":"claim-too-early","seconds":12,"reason":"your opponent may still come back: you can claim in 12 s"}"#
        );
        let text = serde_json::to_string(&Explained::from(Refusal::NotYourTurn)).unwrap();
        assert_eq!(text, r#"{"code":"not-your-turn","reason":"it is not your turn"}"#);
    }

    #[test]
    fn an_illegal_move_travels_with_the_rules_reason_as_a_code() {
        let pos = dara::Position::from_text("6/6/6/BB4/WW4 w 10 10 0", Default::default()).unwrap();
        let refusal = Refusal::illegal_move(&pos.parse_move("c1").unwrap_err());
        let text = serde_json::to_string(&Explained::from(refusal)).unwrap();
        let english = r#""c1": a stone on c1 would stand in a line of 3; placements may not make three or more in a line"#
            .replace('"', "\\\"");
        assert_eq!(
            text,
            format!(
                r#"{{"code":"illegal-move","detail":"{english}","why":{{"code":"line-too-long","cell":"c1","run":3,"limit":3}},"reason":"{english}"}}"#
            )
        );
        let refusal = Refusal::illegal_move(&pos.parse_move("c1-").unwrap_err());
        let value = serde_json::to_value(Explained::from(refusal)).unwrap();
        assert_eq!(value["why"], serde_json::json!({ "code": "unreadable" }));
    }
}
