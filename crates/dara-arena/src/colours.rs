//! Which colour each player of a pairing takes: balanced over a player's games, as lichess
//! balances them (lila `modules/tournament/src/main/ColorHistory.scala`).

use dara::Colour;

/// The longest run of one colour a pairing avoids making longer, while another pairing can be
/// made (lichess's `maxStrike`).
pub const MAX_RUN: i32 = 3;

/// A player's colours so far: the current run of one colour (positive: pale games in a row,
/// negative: dark games in a row) and the balance (pale games less dark games).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ColourHistory {
    run: i32,
    balance: i32,
}

impl ColourHistory {
    /// After one more game with `colour`.
    pub fn with(self, colour: Colour) -> ColourHistory {
        match colour {
            Colour::White => ColourHistory { run: self.run.max(0) + 1, balance: self.balance + 1 },
            Colour::Black => ColourHistory { run: self.run.min(0) - 1, balance: self.balance - 1 },
        }
    }

    /// Whether `self`'s player takes pale against `other`'s: whoever has the shorter pale run
    /// (or the longer dark one), then whoever had pale less often; `None` when the histories
    /// are the same (lichess tosses a coin there; the arena has no randomness, and the caller
    /// decides by rank).
    pub fn takes_pale_against(self, other: ColourHistory) -> Option<bool> {
        match (self.run, self.balance).cmp(&(other.run, other.balance)) {
            core::cmp::Ordering::Less => Some(true),
            core::cmp::Ordering::Greater => Some(false),
            core::cmp::Ordering::Equal => None,
        }
    }

    /// Whether two players can meet without one of them playing a colour a fourth time in a
    /// row: not if both have had [`MAX_RUN`] games of the same colour in a row.
    pub fn could_meet(self, other: ColourHistory) -> bool {
        (self.run > -MAX_RUN || other.run > -MAX_RUN) && (self.run < MAX_RUN || other.run < MAX_RUN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_had_dark_more_takes_pale() {
        let fresh = ColourHistory::default();
        let dark = fresh.with(Colour::Black);
        let pale = fresh.with(Colour::White);
        assert_eq!(dark.takes_pale_against(pale), Some(true));
        assert_eq!(pale.takes_pale_against(dark), Some(false));
        assert_eq!(fresh.takes_pale_against(pale), Some(true));
        assert_eq!(fresh.takes_pale_against(fresh), None);
        // Same run, different balance.
        let a = fresh.with(Colour::White).with(Colour::White).with(Colour::Black);
        let b = fresh.with(Colour::Black);
        assert_eq!(a.takes_pale_against(b), Some(false));
    }

    #[test]
    fn two_players_with_three_pales_in_a_row_do_not_meet() {
        let three = (0..3).fold(ColourHistory::default(), |h, _| h.with(Colour::White));
        let two = (0..2).fold(ColourHistory::default(), |h, _| h.with(Colour::White));
        assert!(!three.could_meet(three));
        assert!(three.could_meet(two));
        let three_dark = (0..3).fold(ColourHistory::default(), |h, _| h.with(Colour::Black));
        assert!(three.could_meet(three_dark));
        assert!(!three_dark.could_meet(three_dark));
    }
}
