//! What happened in a game, as its inputs only: who sat down, each turn with both clocks, the
//! takebacks, the offers and the ending. No positions and no legal moves: those follow from the
//! inputs through the rules, and the wire messages are rendered from them. This is the game's
//! journal, so its serialised form is stable: a field is only ever added with a default, and a
//! change of meaning gets a new [`JOURNAL_FORMAT`].

use core::fmt;

use dara::record::GameResult;
use dara::{Bitboard, Cell, Colour, Move, MoveText};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::clock::TimeLeft;
use crate::game_id::GameId;

/// The version of the journal's serialised form.
pub const JOURNAL_FORMAT: u32 = 1;

/// One thing that happened in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "kebab-case")]
pub enum GameEvent {
    /// Someone took the free seat; both seats are filled and the game starts.
    Seated {
        /// The seat taken.
        colour: Colour,
        /// Both clocks as the game starts, if it has them.
        left: Option<TimeLeft>,
    },
    /// A turn was played.
    Moved {
        /// The turn, captures included.
        #[serde(with = "notation")]
        m: Move,
        /// Both clocks just after it (the mover's charged and credited), if the game has them.
        left: Option<TimeLeft>,
        /// The id the player's page gave the turn (none for the computer's), so that a turn
        /// sent again after a restart is answered as before, not played twice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<u64>,
    },
    /// The last `plies` turns were undone: at once against the computer, or the opponent
    /// granted the takeback asked for.
    TookBack {
        /// How many.
        plies: usize,
        /// Both clocks as the game goes on from the earlier position, if it has them: the time
        /// used on the turns taken back is not given back (a game against the computer has no
        /// clock, and its takebacks, written before this field, have none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left: Option<TimeLeft>,
    },
    /// A player asks the opponent to take back their last turn (and the opponent's answer to
    /// it, if given: back to the asker's turn).
    TakebackOffered {
        /// By whom.
        by: Colour,
    },
    /// The opponent turned the takeback down.
    TakebackDeclined {
        /// By whom.
        by: Colour,
    },
    /// The player who asked for a takeback withdrew the request.
    TakebackWithdrawn {
        /// By whom.
        by: Colour,
    },
    /// A draw is offered.
    DrawOffered {
        /// By whom.
        by: Colour,
    },
    /// The draw offer was turned down.
    DrawDeclined {
        /// By whom.
        by: Colour,
    },
    /// The player who offered a draw withdrew the offer.
    DrawWithdrawn {
        /// By whom.
        by: Colour,
    },
    /// A rematch is asked for.
    RematchOffered {
        /// By whom.
        by: Colour,
    },
    /// The rematch began as this game.
    RematchStarted {
        /// Its id.
        game: GameId,
    },
    /// A side went berserk (its arena asked, before that side's first move): its time left
    /// was halved. Its increment stays as it was (lichess drops it too; the arena only asks
    /// for the halving).
    Berserked {
        /// The side that went berserk.
        colour: Colour,
        /// Both clocks just after the halving.
        left: Option<TimeLeft>,
    },
    /// The game ended.
    Ended {
        /// The result.
        #[serde(with = "result")]
        result: GameResult,
        /// Why.
        reason: EndReason,
        /// Both clocks at the end, if the game has them.
        left: Option<TimeLeft>,
    },
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum EndReason {
    /// The loser has too few stones left to make a row of three.
    FewStones {
        /// Who lost.
        loser: Colour,
    },
    /// The loser has no stone that can step.
    NoMoves {
        /// Who lost.
        loser: Colour,
    },
    /// The ruleset's quiet-plies limit passed without a capture.
    QuietPlies {
        /// The limit.
        limit: u32,
    },
    /// A player's time ran out.
    OutOfTime {
        /// Whose.
        loser: Colour,
    },
    /// A player resigned.
    Resigned {
        /// Who.
        loser: Colour,
    },
    /// A player left and the opponent claimed the game.
    Left {
        /// Who left.
        loser: Colour,
    },
    /// Both players agreed to a draw.
    Agreement,
    /// A side did not make its first move in time: the game ends without a result, as if it
    /// had never been played (lichess's abort).
    Aborted {
        /// The side that did not move.
        idle: Colour,
    },
    /// A player called the game off before both sides had moved: no result, as if it had
    /// never been played.
    AbortedBy {
        /// The player who called it off.
        by: Colour,
    },
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The colour as a sentence opens with it: `Dark resigned`.
        let word = |c: &Colour| {
            let w = c.stone_word();
            let mut chars = w.chars();
            chars.next().map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        };
        match self {
            EndReason::FewStones { loser } => write!(
                f,
                "{} has too few stones left to make a row of three",
                word(loser).unwrap_or_default()
            ),
            EndReason::NoMoves { loser } => {
                write!(f, "{} has no stone that can step", word(loser).unwrap_or_default())
            }
            EndReason::QuietPlies { limit } => {
                write!(f, "{limit} movement plies passed without a capture")
            }
            EndReason::OutOfTime { loser } => {
                write!(f, "{} ran out of time", word(loser).unwrap_or_default())
            }
            EndReason::Resigned { loser } => {
                write!(f, "{} resigned", word(loser).unwrap_or_default())
            }
            EndReason::Left { loser } => {
                write!(f, "{} left the game", word(loser).unwrap_or_default())
            }
            EndReason::Agreement => f.write_str("drawn by agreement"),
            EndReason::Aborted { idle } => write!(
                f,
                "{} made no first move in time: the game is aborted",
                word(idle).unwrap_or_default()
            ),
            EndReason::AbortedBy { by } => write!(
                f,
                "{} called the game off before the first moves: the game is aborted",
                word(by).unwrap_or_default()
            ),
        }
    }
}

/// Each way a game at the table ends (the rules' own endings among them), for `dara codes`.
impl dara::Coded for EndReason {
    fn one_of_each() -> Vec<EndReason> {
        let loser = Colour::Black;
        let all = vec![
            EndReason::FewStones { loser },
            EndReason::NoMoves { loser },
            EndReason::QuietPlies { limit: 60 },
            EndReason::OutOfTime { loser },
            EndReason::Resigned { loser },
            EndReason::Left { loser },
            EndReason::Agreement,
            EndReason::Aborted { idle: Colour::White },
            EndReason::AbortedBy { by: Colour::Black },
        ];
        // A variant added without a value above does not compile.
        for reason in &all {
            match reason {
                EndReason::FewStones { .. }
                | EndReason::NoMoves { .. }
                | EndReason::QuietPlies { .. }
                | EndReason::OutOfTime { .. }
                | EndReason::Resigned { .. }
                | EndReason::Left { .. }
                | EndReason::Agreement
                | EndReason::Aborted { .. }
                | EndReason::AbortedBy { .. } => {}
            }
        }
        all
    }
}

/// A move in the journal: its notation. Read back by syntax alone (the cells' geometry needs no
/// board); the replay then checks it against the position through the rules.
mod notation {
    use super::*;

    pub fn serialize<S: Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(m)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        use serde::de::Error;
        let text = String::deserialize(d)?;
        let written: MoveText = text.parse().map_err(D::Error::custom)?;
        written_move(&written).ok_or_else(|| D::Error::custom(format!("{text} is off every board")))
    }
}

/// The move a text names, by its cells alone: no position, so not known to be legal anywhere
/// (`None` for a cell off every board, or a stone captured twice).
pub fn written_move(text: &MoveText) -> Option<Move> {
    let cell = |c: dara::Coord| Cell::new(c.file, c.rank);
    Some(match text {
        MoveText::Pass => Move::Pass,
        MoveText::Put(c) => Move::Put(cell(*c)?),
        MoveText::Step { from, to, captures } => {
            let mut taken = Bitboard::EMPTY;
            for c in captures {
                let c = cell(*c)?;
                if taken.contains(c) {
                    return None;
                }
                taken = taken.with(c);
            }
            Move::Step { from: cell(*from)?, to: cell(*to)?, captures: taken }
        }
    })
}

/// A result in the journal: its notation (`1-0`).
mod result {
    use super::*;

    pub fn serialize<S: Serializer>(r: &GameResult, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(r)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        use serde::de::Error;
        let text = String::deserialize(d)?;
        text.parse().map_err(|()| D::Error::custom(format!("{text:?} is not a result")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The journal's form is a promise to the next release: these lines must keep reading
    /// back as the same events.
    #[test]
    fn the_journal_form_is_stable() {
        let step = Move::Step {
            from: Cell::from_name("c3").unwrap(),
            to: Cell::from_name("c4").unwrap(),
            captures: Bitboard::EMPTY.with(Cell::from_name("e5").unwrap()),
        };
        let cases = [
            (
                GameEvent::Seated {
                    colour: Colour::Black,
                    left: Some(TimeLeft { white: 60_000, black: 60_000 }),
                },
                r#"{"e":"seated","colour":"black","left":{"white":60000,"black":60000}}"#,
            ),
            (
                GameEvent::Moved { m: step, left: None, turn: None },
                r#"{"e":"moved","m":"c3-c4xe5","left":null}"#,
            ),
            (
                GameEvent::Moved { m: step, left: None, turn: Some(7) },
                r#"{"e":"moved","m":"c3-c4xe5","left":null,"turn":7}"#,
            ),
            (GameEvent::TookBack { plies: 2, left: None }, r#"{"e":"took-back","plies":2}"#),
            (
                GameEvent::TookBack { plies: 1, left: Some(TimeLeft { white: 5_000, black: 7 }) },
                r#"{"e":"took-back","plies":1,"left":{"white":5000,"black":7}}"#,
            ),
            (
                GameEvent::TakebackOffered { by: Colour::Black },
                r#"{"e":"takeback-offered","by":"black"}"#,
            ),
            (
                GameEvent::TakebackDeclined { by: Colour::White },
                r#"{"e":"takeback-declined","by":"white"}"#,
            ),
            (
                GameEvent::TakebackWithdrawn { by: Colour::Black },
                r#"{"e":"takeback-withdrawn","by":"black"}"#,
            ),
            (GameEvent::DrawOffered { by: Colour::White }, r#"{"e":"draw-offered","by":"white"}"#),
            (
                GameEvent::Berserked {
                    colour: Colour::Black,
                    left: Some(TimeLeft { white: 60_000, black: 30_000 }),
                },
                r#"{"e":"berserked","colour":"black","left":{"white":60000,"black":30000}}"#,
            ),
            (
                GameEvent::DrawWithdrawn { by: Colour::White },
                r#"{"e":"draw-withdrawn","by":"white"}"#,
            ),
            (
                GameEvent::Ended {
                    result: GameResult::BlackWins,
                    reason: EndReason::Resigned { loser: Colour::White },
                    left: None,
                },
                r#"{"e":"ended","result":"0-1","reason":{"code":"resigned","loser":"white"},"left":null}"#,
            ),
        ];
        for (event, text) in cases {
            assert_eq!(serde_json::to_string(&event).unwrap(), text);
            assert_eq!(serde_json::from_str::<GameEvent>(text).unwrap(), event);
        }
    }

    /// What a game keeps for each ply: its journal entry, the move, and the hash of the
    /// position before it (for the engine's repetitions). A resend or a snapshot is rebuilt
    /// from these, never kept.
    #[test]
    fn a_ply_costs_at_most_100_bytes_of_history() {
        let per_ply = core::mem::size_of::<GameEvent>()
            + core::mem::size_of::<Move>()
            + core::mem::size_of::<u64>();
        assert!(per_ply <= 100, "{per_ply} bytes a ply");
    }

    #[test]
    fn reasons_read_as_before() {
        assert_eq!(EndReason::Resigned { loser: Colour::Black }.to_string(), "Dark resigned");
        assert_eq!(
            EndReason::FewStones { loser: Colour::Black }.to_string(),
            "Dark has too few stones left to make a row of three"
        );
        assert_eq!(EndReason::Left { loser: Colour::White }.to_string(), "Pale left the game");
    }

    #[test]
    fn a_bad_journal_line_is_an_error() {
        for bad in [
            r#"{"e":"moved","m":"c3--c4","left":null}"#,
            r#"{"e":"moved","m":"z99","left":null}"#,
            r#"{"e":"ended","result":"2-0","reason":{"code":"agreement"},"left":null}"#,
            r#"{"e":"teleported"}"#,
        ] {
            assert!(serde_json::from_str::<GameEvent>(bad).is_err(), "{bad}");
        }
    }
}
