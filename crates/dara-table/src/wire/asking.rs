//! What a message from the wire asks of a table, and the answer the table's reply makes: the one
//! way from a socket's message into a game, for every shell (the server, the page's own table),
//! so that both answer every message alike.
//!
//! What only a shell knows, it says: whether it can keep a change to the game now, and how long
//! a player has had no connection. What only a shell can do, it is left: greeting a `hello`,
//! making the key a seat is held by, and carrying out what the table's outcome asks (its reply
//! can still turn into a refusal there: a rematch the server could not start).

use std::time::Duration;

use dara::Colour;

use super::answer::Answer;
use super::client::{lag, ClientMessage};
use super::phrase::Phrase;
use super::refusal::Refusal;
use crate::{Ask, Checked, Opponent, Reply, Table};

/// What a message comes to. `K` stands in for a person in a seat, `B` is why a rematch could
/// not start (see [`Refusal`]).
#[derive(Debug)]
pub enum Asking<K, B> {
    /// Hand the table `ask` from the message's sender, carry out what follows, and answer the
    /// reply as `answer` says.
    Table {
        /// What the sender asks.
        ask: Ask<K>,
        /// How the reply is answered.
        answer: Answering,
    },
    /// Take the free seat: the shell makes the key that will hold it, asks the table for
    /// [`Ask::Sit`] with it, and answers.
    Sit,
    /// A `hello`: the shell's own (the server has had one from this connection already; the
    /// page's table shows the game).
    Hello {
        /// The seat token offered, if any.
        seat: Option<String>,
        /// The version of the last event the page applied, if any.
        since: Option<u64>,
    },
    /// Refused without asking the table: the shell cannot keep a change now (a store out of
    /// reach), and a change played but not kept would be lost. The page may send it again.
    Unkept(Answer<B>),
    /// Answered without asking the table: while nothing can be kept, a turn sent again (answered
    /// as before) or one the table would refuse anyway (refused for its own reason); a quick
    /// message from a watcher, or in a game against the computer.
    Answered(Answer<B>),
    /// A player of a game between people says a quick message: the shell lets it through if
    /// the seat has not said too many lately, tells it to everyone at the game and keeps
    /// nothing of it (the table never hears of it).
    Say {
        /// Who says it.
        by: Colour,
        /// What they say.
        phrase: Phrase,
    },
}

/// How the table's reply to an ask is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answering {
    /// `ok`, or `error` with the refusal.
    Done,
    /// A turn: `accepted` or `rejected`, with the turn's id.
    Turn {
        /// The page's id for the turn.
        id: u64,
    },
    /// A ping: `pong`, whatever the table made of the lag.
    Pong,
}

impl Answering {
    /// The answer to the table's reply, once the shell has carried out what followed.
    pub fn answer<B>(self, reply: Result<Reply, Refusal<B>>) -> Answer<B> {
        match (self, reply) {
            (Answering::Pong, _) => Answer::Pong,
            (Answering::Done, Ok(_)) => Answer::Ok,
            (Answering::Done, Err(refusal)) => Answer::Error(refusal.into()),
            (Answering::Turn { id }, Ok(_)) => Answer::Accepted { id },
            (Answering::Turn { id }, Err(refusal)) => Answer::Rejected { id, why: refusal.into() },
        }
    }
}

impl<K, B> Asking<K, B> {
    /// What `message`, from the seat `by` (`None`: a watcher), asks of `table`. `keeps`: whether
    /// the shell can keep a change to the game now. `away`: how long the player of a colour has
    /// had no connection (`None`: they have one), asked only for a claim.
    pub fn new(
        table: &Table<K>,
        by: Option<Colour>,
        message: ClientMessage,
        keeps: bool,
        away: impl FnOnce(Colour) -> Option<Duration>,
    ) -> Asking<K, B> {
        let asked = |ask| Asking::Table { ask, answer: Answering::Done };
        match message {
            ClientMessage::Hello { seat, since } => Asking::Hello { seat, since },
            // A ping changes nothing kept: its lag only counts on the next turn's clock.
            ClientMessage::Ping { lag: ms } => {
                Asking::Table { ask: Ask::Lag(lag(ms)), answer: Answering::Pong }
            }
            ClientMessage::Move { id, text, lag: ms } if keeps => Asking::Table {
                ask: Ask::Turn { id, text, lag: ms.map(lag) },
                answer: Answering::Turn { id },
            },
            // Checked before it is refused: a turn sent again is answered as before, and one the
            // table would not play is refused for its own reason, not for the store's.
            ClientMessage::Move { id, text, .. } => match table.check_turn(by, id, &text) {
                Ok(Checked::Resent) => Asking::Answered(Answer::Accepted { id }),
                Ok(Checked::New(_)) => {
                    Asking::Unkept(Answer::Rejected { id, why: Refusal::StoreUnreachable.into() })
                }
                Err(refusal) => {
                    Asking::Answered(Answer::Rejected { id, why: Refusal::from(refusal).into() })
                }
            },
            // Nothing said is kept, so a store out of reach does not stop it.
            ClientMessage::Say { phrase } => match by {
                None => {
                    Asking::Answered(Answer::Error(Refusal::from(crate::Refusal::Watching).into()))
                }
                Some(_) if matches!(table.settings().opponent, Opponent::Computer(_)) => {
                    Asking::Answered(Answer::Error(Refusal::QuickMessagesBetweenPeople.into()))
                }
                Some(by) => Asking::Say { by, phrase },
            },
            // Everything else may change the game.
            _ if !keeps => Asking::Unkept(Answer::Error(Refusal::StoreUnreachable.into())),
            ClientMessage::Join => Asking::Sit,
            ClientMessage::Claim => asked(Ask::Claim { opponent_away: by.and_then(|c| away(!c)) }),
            ClientMessage::Resign => asked(Ask::Resign),
            ClientMessage::Abort => asked(Ask::Abort),
            ClientMessage::DrawOffer => asked(Ask::DrawOffer),
            ClientMessage::DrawDecline => asked(Ask::DrawDecline),
            ClientMessage::DrawWithdraw => asked(Ask::DrawWithdraw),
            ClientMessage::Takeback => asked(Ask::Takeback),
            ClientMessage::TakebackAccept => asked(Ask::TakebackAccept),
            ClientMessage::TakebackDecline => asked(Ask::TakebackDecline),
            ClientMessage::TakebackWithdraw => asked(Ask::TakebackWithdraw),
            ClientMessage::Rematch => asked(Ask::Rematch),
        }
    }
}

#[cfg(test)]
mod tests {
    use dara::ByColour;

    use super::*;
    use crate::wire::NoShellError;
    use crate::{GameSettings, Moment, Opponent, Patience, Seat};

    type Local = Asking<&'static str, NoShellError>;

    fn table() -> Table<&'static str> {
        let settings = GameSettings {
            rules: "arcade".parse().unwrap(),
            opponent: Opponent::Friend,
            creator: Colour::White,
            clock: None,
        };
        let seats = ByColour { white: Seat::Human("pale"), black: Seat::Human("dark") };
        let mut table = Table::new(settings, seats, Patience::default());
        let _ = table.begin(Moment::ORIGIN);
        table
    }

    fn wire(answer: &Answer<NoShellError>) -> String {
        serde_json::to_string(answer).unwrap()
    }

    #[test]
    fn a_claim_names_how_long_the_opponent_has_been_away() {
        let away = |c: Colour| (c == Colour::Black).then_some(Duration::from_secs(9));
        let asking = Local::new(&table(), Some(Colour::White), ClientMessage::Claim, true, away);
        let Asking::Table { ask, answer } = asking else { panic!("{asking:?}") };
        assert_eq!(ask, Ask::Claim { opponent_away: Some(Duration::from_secs(9)) });
        assert_eq!(answer, Answering::Done);
    }

    #[test]
    fn while_nothing_can_be_kept_a_change_is_refused_and_a_ping_is_not() {
        let none = |_| None;
        let by = Some(Colour::White);
        let asking = Local::new(&table(), by, ClientMessage::Resign, false, none);
        let Asking::Unkept(answer) = asking else { panic!("{asking:?}") };
        assert!(wire(&answer).contains("store-unreachable"));
        let asking = Local::new(&table(), by, ClientMessage::Ping { lag: 20 }, false, none);
        assert!(matches!(asking, Asking::Table { ask: Ask::Lag(_), answer: Answering::Pong }));
        // A turn the table would refuse is refused for that.
        let turn = ClientMessage::Move { id: 1, text: "c3".into(), lag: None };
        let asking = Local::new(&table(), Some(Colour::Black), turn, false, none);
        let Asking::Answered(answer) = asking else { panic!("{asking:?}") };
        assert!(wire(&answer).contains("not-your-turn"));
    }

    #[test]
    fn a_quick_message_is_a_players_in_a_game_between_people() {
        let none = |_| None;
        let say = || ClientMessage::Say { phrase: Phrase::Hello };
        // Said even while nothing can be kept: nothing of it is.
        let asking = Local::new(&table(), Some(Colour::Black), say(), false, none);
        assert!(matches!(asking, Asking::Say { by: Colour::Black, phrase: Phrase::Hello }));
        let Asking::Answered(answer) = Local::new(&table(), None, say(), true, none) else {
            panic!("a watcher says nothing")
        };
        assert!(wire(&answer).contains(r#""code":"watching""#));
        let settings = GameSettings {
            rules: "arcade".parse().unwrap(),
            opponent: Opponent::Computer(dara_engine::level::Level::new(3).unwrap()),
            creator: Colour::White,
            clock: None,
        };
        let seats = ByColour {
            white: Seat::Human("pale"),
            black: Seat::Computer(dara_engine::level::Level::new(3).unwrap()),
        };
        let computer = Table::new(settings, seats, Patience::default());
        let Asking::Answered(answer) =
            Local::new(&computer, Some(Colour::White), say(), true, none)
        else {
            panic!("the computer reads no quick message")
        };
        assert!(wire(&answer).contains(r#""code":"quick-messages-between-people""#));
    }

    #[test]
    fn a_reply_is_answered_as_the_message_was() {
        let refused = || Err(Refusal::from(crate::Refusal::NotYourTurn));
        assert_eq!(
            wire(&Answering::Turn { id: 4 }.answer(Ok(Reply::Done))),
            r#"{"t":"accepted","d":{"id":4}}"#
        );
        assert!(
            wire(&Answering::Turn { id: 4 }.answer(refused())).starts_with(r#"{"t":"rejected""#)
        );
        assert_eq!(wire(&Answering::Done.answer::<NoShellError>(Ok(Reply::Done))), r#"{"t":"ok"}"#);
        assert!(wire(&Answering::Done.answer(refused())).starts_with(r#"{"t":"error""#));
        assert_eq!(wire(&Answering::Pong.answer(refused())), r#"{"t":"pong"}"#);
    }
}
