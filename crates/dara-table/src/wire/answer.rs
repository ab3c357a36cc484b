//! The answers to a connection: messages with no version, sent to one connection (or, for
//! presence, the computer's queue and the lobby's list, to everyone looking). `B` is why a
//! rematch could not start (see [`super::Refusal`]).

use serde::Serialize;

use super::phrase::Phrase;
use super::refusal::Explained;
use dara::Colour;

/// A message with no version.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
pub enum Answer<B> {
    /// The turn with this id was played (its `move` event follows or has just come).
    Accepted {
        /// The client's id for the turn.
        id: u64,
    },
    /// The turn with this id was not played, and why.
    Rejected {
        /// The client's id for the turn.
        id: u64,
        /// Why.
        #[serde(flatten)]
        why: Explained<B>,
    },
    /// The free seat is the connection's: the token holds it from now on.
    Joined {
        /// The seat token.
        seat: String,
        /// The colour it plays.
        colour: Colour,
    },
    /// A resign, draw, takeback, rematch or claim request was done.
    Ok,
    /// A message could not be read or is not allowed now; nothing changed.
    Error(Explained<B>),
    /// The answer to a ping.
    Pong,
    /// Who is connected.
    Presence(PresenceView),
    /// A player said one of the quick messages: sent to every connection of the game as it is
    /// said, never kept (no version, not in the journal, not sent again on reconnecting).
    Said {
        /// Who said it.
        by: Colour,
        /// What they said.
        phrase: Phrase,
    },
    /// The computer's search for this game waits its turn: how many searches wait ahead of it
    /// (0: it runs next). Sent to the game's connections whenever the number changes, and on
    /// hello while it waits.
    Queue {
        /// Searches that will run before this game's.
        ahead: u32,
    },
}

/// Who is connected to a game, and how many watch it.
#[derive(Debug, Clone, Serialize)]
pub struct PresenceView {
    /// The pale seat.
    pub white: SeatPresence,
    /// The dark seat.
    pub black: SeatPresence,
    /// Connections watching the game.
    pub watchers: u32,
}

/// One seat's presence.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatPresence {
    /// Whether the seat's player (or the computer) is here.
    pub online: bool,
    /// For a person who has gone: how long ago, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away_ms: Option<u64>,
    /// For a person who has gone: ms until the opponent may claim the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_in_ms: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{NoShellError, Refusal};

    type Local = Answer<NoShellError>;
    fn wire(answer: &Local) -> String {
        serde_json::to_string(answer).unwrap()
    }

    #[test]
    fn answers_on_the_wire() {
        assert_eq!(wire(&Answer::Accepted { id: 7 }), r#"{"t":"accepted","d":{"id":7}}"#);
        assert_eq!(wire(&Answer::Ok), r#"{"t":"ok"}"#);
        assert_eq!(wire(&Answer::Pong), r#"{"t":"pong"}"#);
        assert_eq!(
            wire(&Answer::Rejected {
                id: 3,
                why: Refusal::from(crate::Refusal::NotYourTurn).into()
            }),
            r#"{"t":"rejected","d":{"id":3,"code":"not-your-turn","reason":"it is not your turn"}}"#
        );
        assert_eq!(
            wire(&Answer::Error(Refusal::HelloFirst.into())),
            r#"{"t":"error","d":{"code":"hello-first","reason":"say hello first"}}"#
        );
        assert_eq!(
            wire(&Answer::Joined { seat: "ab".into(), colour: Colour::Black }),
            r#"{"t":"joined","d":{"seat":"ab","colour":"black"}}"#
        );
        assert_eq!(wire(&Answer::Queue { ahead: 3 }), r#"{"t":"queue","d":{"ahead":3}}"#);
        assert_eq!(
            wire(&Answer::Said { by: Colour::White, phrase: Phrase::GoodLuck }),
            r#"{"t":"said","d":{"by":"white","phrase":"good-luck"}}"#
        );
    }
}
