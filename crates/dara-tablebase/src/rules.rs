//! Which rulesets the tables solve, and the position of a material seen by the rules crate.

use core::fmt;

use dara::{ByColour, Captures, Colour, Position, Preset, Ruleset, Setup};

use crate::board::Board;

/// A ruleset the tables can solve: the `arcade` or `wikipedia` preset, on any board size, with
/// any number of stones and (for `arcade`) any quiet-plies limit.
#[derive(Clone, Debug)]
pub struct TableRules {
    rules: Ruleset,
    board: Board,
}

/// Why a ruleset has no tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedRules {
    rules: String,
    reason: String,
}

impl fmt::Display for UnsupportedRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no tablebases for {}: {}", self.rules, self.reason)
    }
}

impl std::error::Error for UnsupportedRules {}

impl TableRules {
    /// The ruleset, if the tables solve it.
    ///
    /// # Errors
    /// [`UnsupportedRules`] saying which option is not solved. Only the options that change the
    /// movement phase matter; of those, only the board size and the quiet-plies limit may differ
    /// from the two presets, because the builder assumes one stone per capture and the four
    /// mirror images that every rectangle has.
    pub fn new(rules: Ruleset) -> Result<TableRules, UnsupportedRules> {
        let refuse = |reason: String| UnsupportedRules { rules: rules.to_string(), reason };
        let preset = rules.preset();
        if !matches!(preset, Preset::Arcade | Preset::Wikipedia) {
            return Err(refuse(format!(
                "the {} preset is not solved (tables exist for arcade and wikipedia)",
                preset.name()
            )));
        }
        let base = preset.ruleset();
        if rules.diagonal() != base.diagonal() {
            return Err(refuse("diagonal steps are not solved".to_string()));
        }
        if rules.captures() != Captures::One {
            return Err(refuse("only captures=one is solved (one stone per capture)".to_string()));
        }
        if rules.long() != base.long() || rules.protect() != base.protect() {
            return Err(refuse(format!(
                "long and protect must be those of {} (the tables follow the presets)",
                preset.name()
            )));
        }
        if rules.lose_at() != base.lose_at() {
            return Err(refuse("lose-at must be 2".to_string()));
        }
        Ok(TableRules { board: Board::of(&rules), rules })
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The quiet-plies limit, if any.
    pub fn limit(&self) -> Option<u32> {
        self.rules.quiet()
    }

    /// The text that names the tables' ruleset in file names and headers: what changes the
    /// movement phase, so that `arcade` and `arcade,stones=10` share their tables.
    pub fn table_name(&self) -> String {
        let movement_only = self
            .rules
            .to_builder()
            .stones(self.rules.preset().ruleset().stones())
            .build()
            .unwrap_or(self.rules);
        movement_only.to_string()
    }

    /// The movement position with `mover` (White) to move against `other` (Black), given as
    /// masks of table cell numbers, and a quiet-plies counter of 0.
    ///
    /// # Panics
    /// Never for masks of the board with at most the ruleset's stones a side; the builder only
    /// makes those.
    pub fn position(&self, mover: u64, other: u64) -> Position {
        let setup = Setup {
            cols: self.rules.cols(),
            rows: self.rules.rows(),
            stones: ByColour {
                white: self.board.to_bitboard(mover),
                black: self.board.to_bitboard(other),
            },
            side: Colour::White,
            hand: ByColour::default(),
            quiet: 0,
        };
        Position::from_setup(&setup, self.rules).expect("a movement position of the board")
    }

    /// A position's stones as (side to move, other side) masks.
    pub fn masks(&self, pos: &Position) -> (u64, u64) {
        let side = pos.side();
        (self.board.to_mask(pos.stones(side)), self.board.to_mask(pos.stones(!side)))
    }
}
