//! How a game ends: by the rules on the board, or at the table (a resignation, a flag, a
//! claim, an agreement).

use dara::record::GameResult;
use dara::{DrawReason, Ruleset, Status, WinReason};

use crate::event::EndReason;
use crate::moment::Moment;

/// How a game ended, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// Why.
    pub reason: EndReason,
    /// When (for a game taken up again, when it was taken up): the shell lets a finished
    /// game go a while after.
    pub at: Moment,
}

/// The result and reason the rules give a position's status under `rules`, if it is over.
pub fn by_the_rules(status: Status, rules: &Ruleset) -> Option<(GameResult, EndReason)> {
    match status {
        Status::Ongoing => None,
        Status::Won { winner, reason: WinReason::FewStones } => {
            Some((GameResult::from_winner(winner), EndReason::FewStones { loser: !winner }))
        }
        Status::Won { winner, reason: WinReason::NoMoves } => {
            Some((GameResult::from_winner(winner), EndReason::NoMoves { loser: !winner }))
        }
        Status::Drawn(DrawReason::QuietPlies) => {
            Some((GameResult::Draw, EndReason::QuietPlies { limit: rules.quiet().unwrap_or(0) }))
        }
    }
}
