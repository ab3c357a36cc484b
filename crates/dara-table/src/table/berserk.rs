//! Berserk, an arena's: before its first move, a side halves its own time for a point more
//! should it win. The arena decides who may and what it earns; the table halves the clock,
//! records it in the journal (so a restart, or another node taking the game up, reads it back),
//! and refuses what would be unfair to the clock: after the side's first move, or twice.

use core::fmt;

use dara::Colour;

use super::Table;
use crate::event::GameEvent;
use crate::input::{Outcome, Reply};
use crate::moment::Moment;

/// Why the table did not halve a side's clock: the table is exactly as it was. Never sent to a
/// page: the shell answers with the arena's own refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BerserkRefusal {
    /// The game has no clock to halve.
    NoClock,
    /// The game is over, or its side to move let its time for a first move pass.
    GameOver,
    /// The side has made its first move: its clock is no longer whole.
    AlreadyMoved,
    /// The side's clock was halved already.
    AlreadyBerserk,
}

impl fmt::Display for BerserkRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BerserkRefusal::NoClock => "the game has no clock to halve",
            BerserkRefusal::GameOver => "the game is over",
            BerserkRefusal::AlreadyMoved => "berserk only before your first move",
            BerserkRefusal::AlreadyBerserk => "this side has already gone berserk",
        })
    }
}

impl std::error::Error for BerserkRefusal {}

impl<K> Table<K> {
    /// `side` goes berserk at `now`: its time left is halved, as one journal event, which
    /// everyone is told with both clocks. Its shell's command (the arena's), not a player's
    /// request over the wire: nobody at a casual game can ask for it.
    ///
    /// # Errors
    /// Why the clock is not halved; the table is as it was.
    pub fn berserk(&mut self, now: Moment, side: Colour) -> Result<Outcome, BerserkRefusal> {
        if self.ending.is_some() || self.first_move_by.is_some_and(|by| now >= by) {
            return Err(BerserkRefusal::GameOver);
        }
        if self.berserk[side] {
            return Err(BerserkRefusal::AlreadyBerserk);
        }
        if self.played.movers().contains(&side) {
            return Err(BerserkRefusal::AlreadyMoved);
        }
        let first = self.next_version();
        let clock = self.clock.as_mut().ok_or(BerserkRefusal::NoClock)?;
        // Before its first move the side's clock has never run: the halving is of its whole
        // starting time.
        clock.halve(side);
        let left = Some(clock.left(now));
        self.record(GameEvent::Berserked { colour: side, left }, now);
        Ok(self.finish_input(first, Ok(Reply::Done)))
    }

    /// Which sides went berserk.
    pub fn berserked(&self) -> dara::ByColour<bool> {
        self.berserk
    }
}
