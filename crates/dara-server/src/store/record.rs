//! What the store keeps of a game besides its events: what it needs to be rebuilt (its
//! settings, the day it began, who sits where), and nothing else. No client address, no
//! position (the events replay through the rules), and of a person's seat only the keyed hash
//! of its token.

use dara::{ByColour, Colour, Ruleset};
use dara_engine::level::Level;
use dara_table::clock::TimeControl;
use dara_table::{GameEvent, GameSettings, Opponent};
use serde::{Deserialize, Serialize};

use crate::seat::{GameId, Seat, SeatHash};

/// A game's settings and start, as stored. Its serialised form is a promise to later releases,
/// like the journal's: a field is only ever added with a default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The rules played, in notation.
    pub rules: Ruleset,
    /// Who the creator plays.
    pub opponent: StoredOpponent,
    /// The creator's colour.
    pub creator: Colour,
    /// The clock, if any.
    pub clock: Option<TimeControl>,
    /// The day the game began, for its record.
    pub date: String,
}

/// [`Opponent`], with the computer's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StoredOpponent {
    /// Whoever opens the invite link first.
    Friend,
    /// Whoever sits at the table from the lobby.
    Open,
    /// The engine, at this level (1 to 8).
    Computer {
        /// The level.
        level: u8,
    },
}

/// Who sits in a seat, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StoredSeat {
    /// Nobody yet.
    Open,
    /// A person: the keyed hash of their token, in hex.
    Human {
        /// See [`SeatHash::to_hex`].
        hash: String,
    },
    /// The engine, at this level.
    Computer {
        /// The level.
        level: u8,
    },
}

/// Both seats, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeats {
    /// The pale stones' seat.
    pub white: StoredSeat,
    /// The dark stones' seat.
    pub black: StoredSeat,
}

/// A live game read back from the store.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// Its id.
    pub id: GameId,
    /// Its settings and start.
    pub record: GameRecord,
    /// Who sits where now.
    pub seats: StoredSeats,
    /// Its journal: event `v` is `events[v - 1]`.
    pub events: Vec<GameEvent>,
}

/// A stored game that does not read: a row or a journal line damaged on disk. It is kept in the
/// store as it is, for the operator to look at, and served to nobody: its players are told it
/// is damaged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damaged {
    /// The game's id, as stored.
    pub id: String,
    /// What does not read.
    pub why: Unreadable,
}

/// Why a stored game cannot be rebuilt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub String);

impl core::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unreadable {}

impl GameRecord {
    /// The record of a game with `settings`, begun on `date`.
    pub fn new(settings: &GameSettings, date: &str) -> GameRecord {
        let opponent = match settings.opponent {
            Opponent::Friend => StoredOpponent::Friend,
            Opponent::Open => StoredOpponent::Open,
            Opponent::Computer(level) => StoredOpponent::Computer { level: level.get() },
        };
        GameRecord {
            rules: settings.rules,
            opponent,
            creator: settings.creator,
            clock: settings.clock,
            date: date.to_owned(),
        }
    }

    /// The settings again.
    ///
    /// # Errors
    /// A level this release does not have.
    pub fn settings(&self) -> Result<GameSettings, Unreadable> {
        let opponent = match self.opponent {
            StoredOpponent::Friend => Opponent::Friend,
            StoredOpponent::Open => Opponent::Open,
            StoredOpponent::Computer { level } => Opponent::Computer(level_of(level)?),
        };
        Ok(GameSettings { rules: self.rules, opponent, creator: self.creator, clock: self.clock })
    }
}

impl StoredSeats {
    /// The stored form of `seats`.
    pub fn new(seats: &ByColour<Seat>) -> StoredSeats {
        let one = |seat: &Seat| match seat {
            Seat::Open => StoredSeat::Open,
            Seat::Human(hash) => StoredSeat::Human { hash: hash.to_hex() },
            Seat::Computer(level) => StoredSeat::Computer { level: level.get() },
        };
        StoredSeats { white: one(&seats.white), black: one(&seats.black) }
    }

    /// The seats again.
    ///
    /// # Errors
    /// A hash or a level that does not read.
    pub fn seats(&self) -> Result<ByColour<Seat>, Unreadable> {
        let one = |seat: &StoredSeat| -> Result<Seat, Unreadable> {
            Ok(match seat {
                StoredSeat::Open => Seat::Open,
                StoredSeat::Human { hash } => Seat::Human(
                    SeatHash::from_hex(hash)
                        .ok_or_else(|| Unreadable("a seat's hash does not read".into()))?,
                ),
                StoredSeat::Computer { level } => Seat::Computer(level_of(*level)?),
            })
        };
        Ok(ByColour { white: one(&self.white)?, black: one(&self.black)? })
    }
}

fn level_of(n: u8) -> Result<Level, Unreadable> {
    Level::new(n).ok_or_else(|| Unreadable(format!("there is no level {n}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::SeatKey;

    #[test]
    fn settings_and_seats_come_back_as_they_were() {
        let settings = GameSettings {
            rules: "arcade".parse().unwrap(),
            opponent: Opponent::Computer(Level::new(5).unwrap()),
            creator: Colour::Black,
            clock: Some(TimeControl { initial: 60, increment: 2 }),
        };
        let record = GameRecord::new(&settings, "2026.11.30");
        let text = serde_json::to_string(&record).unwrap();
        let back: GameRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record);
        let again = back.settings().unwrap();
        assert_eq!(
            (again.rules, again.opponent, again.clock),
            (settings.rules, settings.opponent, settings.clock)
        );

        let hash = SeatKey::random().hash("0123456789abcdef0123456789abcdef");
        let seats =
            ByColour { white: Seat::Computer(Level::new(5).unwrap()), black: Seat::Human(hash) };
        let stored = StoredSeats::new(&seats);
        let text = serde_json::to_string(&stored).unwrap();
        let back: StoredSeats = serde_json::from_str(&text).unwrap();
        assert!(matches!(back.seats().unwrap().black, Seat::Human(h) if h.matches(&hash)));
    }
}
