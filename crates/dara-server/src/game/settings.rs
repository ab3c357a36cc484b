//! A new game as the home page asks for it, checked into the table's settings; and a rematch.

use dara::{ByColour, Colour, Ruleset};
use dara_engine::level::Level;
use dara_table::clock::TimeControl;
use dara_table::OpponentKind;
pub use dara_table::{GameSettings, Opponent};
use rand::Rng;
use serde::Deserialize;

use crate::error::AppError;
use crate::seat::Seat;

/// What the creator asked for, as the home page sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `friend`, `computer` or `open`.
    pub opponent: String,
    /// A ruleset in notation; `arcade` when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// Who takes the pale stones (and so places first): `me`, `them` or `random` (also
    /// `white`/`pale`, `black`/`dark`).
    #[serde(default)]
    pub first: Option<String>,
    /// Level 1..8 against the computer.
    #[serde(default)]
    pub level: Option<u8>,
    /// A clock for games between people.
    #[serde(default)]
    pub clock: Option<TimeControl>,
}

impl NewGame {
    /// Checks the request and decides the colours.
    ///
    /// # Errors
    /// A bad request, saying which part is wrong.
    pub fn check(self) -> Result<GameSettings, AppError> {
        let rules: Ruleset = match &self.rules {
            Some(text) if text.len() > 200 => return Err(AppError::bad("the ruleset is too long")),
            Some(text) => text.parse().map_err(|e| AppError::bad(format!("ruleset: {e}")))?,
            None => Ruleset::default(),
        };
        let opponent = match self.opponent.parse() {
            Ok(OpponentKind::Friend) => Opponent::Friend,
            Ok(OpponentKind::Open) => Opponent::Open,
            Ok(OpponentKind::Computer) => {
                let n = self.level.unwrap_or(3);
                Opponent::Computer(
                    Level::new(n).ok_or_else(|| AppError::bad("the level goes from 1 to 8"))?,
                )
            }
            Err(_) => return Err(AppError::bad("opponent must be friend, computer or open")),
        };
        let creator = match self.first.as_deref().unwrap_or("random") {
            "me" | "white" | "pale" => Colour::White,
            "them" | "friend" | "computer" | "black" | "dark" => Colour::Black,
            "random" => {
                if rand::thread_rng().gen::<bool>() {
                    Colour::White
                } else {
                    Colour::Black
                }
            }
            _ => return Err(AppError::bad("first must be me, them or random")),
        };
        // The table says which games are played on a clock; a clock asked for another is not
        // looked at.
        let clock = match self.clock.filter(|_| opponent.plays_on_clock()) {
            Some(c) if !c.is_reasonable() => {
                return Err(AppError::bad(
                    "the clock must give 30 s to 60 min, and add at most 60 s a move",
                ))
            }
            c => c,
        };
        Ok(GameSettings { rules, opponent, creator, clock })
    }
}

/// The rematch of a game with these settings and seats: the same people, colours swapped, each
/// keeping their own token (their browser needs nothing new to take its seat), and never listed
/// in the lobby (it is between these two people).
pub(super) fn rematch(
    settings: &GameSettings,
    seats: &ByColour<Seat>,
) -> (GameSettings, ByColour<Seat>) {
    let seats = ByColour { white: seats.black.clone(), black: seats.white.clone() };
    let mut settings = settings.clone();
    if settings.opponent == Opponent::Open {
        settings.opponent = Opponent::Friend;
    }
    settings.creator = !settings.creator;
    (settings, seats)
}
