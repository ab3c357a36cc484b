//! What happened in an arena: its journal. Every change to an arena is one of these, applied;
//! [`crate::Arena::restore`] replays them into the same arena, so a server that restarts
//! mid-arena takes it up where it was. Each event holds what was decided (who was paired, with
//! which colours), never a decision to take again, so a replay needs nothing from outside.
//!
//! The serialised form is stable: a field is only ever added with a default, and a change of
//! meaning gets a new [`ARENA_JOURNAL_FORMAT`].

use dara::Colour;
use serde::{Deserialize, Serialize};

use crate::game::{GameNo, Verdict};
use crate::name::Name;
use crate::player_id::PlayerId;
use crate::time::WallTime;

/// The version of the journal's serialised form.
pub const ARENA_JOURNAL_FORMAT: u32 = 1;

/// One thing that happened in an arena.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "kebab-case")]
pub enum ArenaEvent {
    /// A player joined under a name.
    Joined {
        /// Who.
        player: PlayerId,
        /// Their name.
        name: Name,
        /// When: free to be paired from then.
        at: WallTime,
    },
    /// A player is not to be paired until they come back.
    Paused {
        /// Who.
        player: PlayerId,
    },
    /// A paused or gone player is back.
    Resumed {
        /// Who.
        player: PlayerId,
    },
    /// A player left: before the start, they and their name are gone; once it runs, their row
    /// stays and they are not paired.
    Left {
        /// Who.
        player: PlayerId,
    },
    /// The arena started.
    Started,
    /// Two players were paired: their game begins.
    Paired {
        /// The game's number, the next one.
        game: GameNo,
        /// Who plays pale.
        pale: PlayerId,
        /// Who plays dark.
        dark: PlayerId,
    },
    /// A side made its first move.
    FirstMoved {
        /// In which game.
        game: GameNo,
        /// Which side.
        by: Colour,
    },
    /// A side went berserk: its clock is halved.
    Berserked {
        /// In which game.
        game: GameNo,
        /// Which side.
        by: Colour,
    },
    /// A game ended while the arena ran, and counts.
    GameEnded {
        /// Which.
        game: GameNo,
        /// How.
        verdict: Verdict,
        /// Plies played, both sides.
        plies: u32,
        /// When: its players are free for the next wave from then.
        at: WallTime,
    },
    /// The arena ended: the games still being played do not count.
    Finished,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The journal's form is a promise to the next release.
    #[test]
    fn the_journal_form_is_stable() {
        let player = PlayerId::new("p1");
        let cases = [
            (
                ArenaEvent::Joined {
                    player: player.clone(),
                    name: Name::new("Ɗan").unwrap(),
                    at: WallTime::from_millis(5),
                },
                r#"{"e":"joined","player":"p1","name":"Ɗan","at":5}"#,
            ),
            (ArenaEvent::Paused { player: player.clone() }, r#"{"e":"paused","player":"p1"}"#),
            (ArenaEvent::Resumed { player: player.clone() }, r#"{"e":"resumed","player":"p1"}"#),
            (ArenaEvent::Left { player: player.clone() }, r#"{"e":"left","player":"p1"}"#),
            (ArenaEvent::Started, r#"{"e":"started"}"#),
            (
                ArenaEvent::Paired {
                    game: GameNo(3),
                    pale: player.clone(),
                    dark: PlayerId::new("p2"),
                },
                r#"{"e":"paired","game":3,"pale":"p1","dark":"p2"}"#,
            ),
            (
                ArenaEvent::FirstMoved { game: GameNo(3), by: Colour::Black },
                r#"{"e":"first-moved","game":3,"by":"black"}"#,
            ),
            (
                ArenaEvent::Berserked { game: GameNo(3), by: Colour::White },
                r#"{"e":"berserked","game":3,"by":"white"}"#,
            ),
            (
                ArenaEvent::GameEnded {
                    game: GameNo(3),
                    verdict: Verdict::Won { winner: Colour::White },
                    plies: 41,
                    at: WallTime::from_millis(9),
                },
                r#"{"e":"game-ended","game":3,"verdict":{"code":"won","winner":"white"},"plies":41,"at":9}"#,
            ),
            (
                ArenaEvent::GameEnded {
                    game: GameNo(4),
                    verdict: Verdict::NoFirstMove { idle: Colour::Black },
                    plies: 1,
                    at: WallTime::from_millis(9),
                },
                r#"{"e":"game-ended","game":4,"verdict":{"code":"no-first-move","idle":"black"},"plies":1,"at":9}"#,
            ),
            (ArenaEvent::Finished, r#"{"e":"finished"}"#),
        ];
        for (event, text) in cases {
            assert_eq!(serde_json::to_string(&event).unwrap(), text);
            assert_eq!(serde_json::from_str::<ArenaEvent>(text).unwrap(), event);
        }
    }

    #[test]
    fn a_journal_with_a_bad_name_does_not_read() {
        let bad = r#"{"e":"joined","player":"p1","name":"a\u200bb","at":5}"#;
        assert!(serde_json::from_str::<ArenaEvent>(bad).is_err());
    }
}
