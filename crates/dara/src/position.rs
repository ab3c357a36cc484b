//! A validated position: the stones, the hands, whose turn, and the quiet-plies counter, under
//! one ruleset. Everything the rules accept; nothing they do not.

use core::fmt;
use core::str::FromStr;

use crate::bitboard::Bitboard;
use crate::colour::{ByColour, Colour};
use crate::illegal::Illegal;
use crate::moves::Move;
use crate::options::Blocked;
use crate::position_error::PositionError;
use crate::ruleset::Ruleset;
use crate::setup::Setup;
use crate::status::{DrawReason, Phase, Status, WinReason};
use crate::zobrist;

/// A legal position of some ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Ruleset,
    board: Bitboard,
    stones: ByColour<Bitboard>,
    /// How many stones each colour has on the board, kept as they change: the losing count
    /// and the captures' limit are checked every ply.
    on_board: ByColour<u8>,
    hand: ByColour<u8>,
    side: Colour,
    quiet: u32,
    phase: Phase,
    /// While placing: the cells the side to move may place on by the placement rules
    /// ([`Position::placement_cells`]). Judging the phase after a placement needs them, and
    /// the next move generation would otherwise compute them again.
    placeable: Bitboard,
    hash: u64,
}

impl Position {
    /// The empty board with full hands, White to place. Never fails: every [`Ruleset`] is in
    /// range (see [`Ruleset`]).
    pub fn start(rules: Ruleset) -> Position {
        let setup = Setup::empty(rules.cols(), rules.rows(), rules.stones());
        Position::from_setup(&setup, rules).expect("the start position of a valid ruleset is valid")
    }

    /// Parses the five-field text and validates it against `rules`.
    ///
    /// # Errors
    /// A [`PositionError`] naming the field at fault.
    ///
    /// # Examples
    /// ```
    /// use dara::{Position, Ruleset};
    /// let pos = Position::from_text("4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1", Ruleset::default()).unwrap();
    /// assert_eq!(pos.to_string(), "4W1/5B/WWW1W1/4WB/1B2WB w 0 0 1");
    /// ```
    pub fn from_text(text: &str, rules: Ruleset) -> Result<Position, PositionError> {
        Position::from_setup(&Setup::from_str(text)?, rules)
    }

    /// Checks a setup against the ruleset: board size, stone counts, and a side to move and
    /// counter that the rules can reach.
    ///
    /// # Errors
    /// A [`PositionError`] naming the field at fault.
    pub fn from_setup(setup: &Setup, rules: Ruleset) -> Result<Position, PositionError> {
        if (setup.cols, setup.rows) != (rules.cols(), rules.rows()) {
            return Err(PositionError::WrongSize { cols: setup.cols, rows: setup.rows, rules });
        }
        let board = Bitboard::board(rules.cols(), rules.rows());
        // A parsed setup has neither, but a setup's fields are public.
        let (white, black) = (setup.stones[Colour::White], setup.stones[Colour::Black]);
        if ((white | black) & !board).any() {
            return Err(PositionError::StonesOffBoard);
        }
        if (white & black).any() {
            return Err(PositionError::BothColours);
        }
        let mut pos = Position {
            rules,
            board,
            stones: setup.stones,
            on_board: ByColour::new_with(|colour| setup.stones[colour].count() as u8),
            hand: setup.hand,
            side: setup.side,
            quiet: setup.quiet,
            phase: Phase::Placement,
            placeable: Bitboard::EMPTY,
            hash: 0,
        };
        for colour in Colour::ALL {
            let on_board = pos.stones[colour].count() as u8;
            let in_hand = pos.hand[colour];
            if in_hand > rules.stones() {
                return Err(PositionError::HandTooLarge { colour, in_hand, rules });
            }
            if on_board + in_hand > rules.stones() {
                return Err(PositionError::TooManyStones { colour, on_board, in_hand, rules });
            }
        }
        pos.update_phase();
        // Stones still in hand when placement ends are out of the game: a movement position
        // always has empty hands, so that its phase reads back the same after any step.
        if pos.phase == Phase::Movement {
            pos.hand = ByColour::default();
        }
        if pos.phase == Phase::Placement {
            if pos.quiet != 0 {
                return Err(PositionError::QuietWhilePlacing);
            }
            // Under blocked=any nobody ever passes: White places first and the players take
            // turns, so Black holds one stone more exactly when Black is to place.
            let (white, black) = (pos.hand[Colour::White], pos.hand[Colour::Black]);
            let in_turn = match pos.side {
                Colour::White => white == black,
                Colour::Black => black == white + 1,
            };
            if rules.blocked() == Blocked::Any && !in_turn {
                return Err(PositionError::OutOfTurn { side: pos.side, white, black });
            }
        } else if let Some(limit) = rules.quiet() {
            if pos.quiet > limit {
                return Err(PositionError::PastQuietLimit { quiet: pos.quiet, limit });
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The position as an unchecked setup (for printing or editing).
    pub fn to_setup(&self) -> Setup {
        Setup {
            cols: self.rules.cols(),
            rows: self.rules.rows(),
            stones: self.stones,
            side: self.side,
            hand: self.hand,
            quiet: self.quiet,
        }
    }

    /// The ruleset this position is played under.
    #[inline]
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// Every cell of the board.
    #[inline]
    pub fn board(&self) -> Bitboard {
        self.board
    }

    /// The stones of `colour`.
    #[inline]
    pub fn stones(&self, colour: Colour) -> Bitboard {
        self.stones[colour]
    }

    /// Every stone on the board.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones.white | self.stones.black
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.board & !self.occupied()
    }

    /// How many stones `colour` has on the board.
    #[inline]
    pub fn stones_on_board(&self, colour: Colour) -> u8 {
        self.on_board[colour]
    }

    /// Stones `colour` still has to place.
    #[inline]
    pub fn hand(&self, colour: Colour) -> u8 {
        self.hand[colour]
    }

    /// The player to move.
    #[inline]
    pub fn side(&self) -> Colour {
        self.side
    }

    /// Movement plies since the last capture.
    #[inline]
    pub fn quiet(&self) -> u32 {
        self.quiet
    }

    /// Placement or movement.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The Zobrist hash of the stones, hands and side to move (not of the quiet counter).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; equal to [`Position::hash`] at all times.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for colour in Colour::ALL {
            for cell in self.stones[colour] {
                hash ^= zobrist::stone(colour, cell.index());
            }
            hash ^= zobrist::hand(colour, self.hand[colour]);
        }
        if self.side == Colour::Black {
            hash ^= zobrist::side();
        }
        hash
    }

    /// Judges the phase after the stones or hands changed while placing, and remembers the
    /// cells the side to move may place on. Movement begins when both hands are empty or,
    /// under `blocked=pass`, when neither player has a cell to place on. Under `blocked=any` a
    /// player with stones always has one.
    #[inline]
    fn update_phase(&mut self) {
        self.placeable = self.placement_cells(self.side);
        let placing = match self.rules.blocked() {
            Blocked::Any => self.hand.white > 0 || self.hand.black > 0,
            Blocked::Pass => self.placeable.any() || self.placement_cells(!self.side).any(),
        };
        if !placing {
            self.phase = Phase::Movement;
            self.placeable = Bitboard::EMPTY;
        }
    }

    /// The cells the side to move may place on by the placement rules (empty once moving).
    #[inline]
    pub(crate) fn placeable(&self) -> Bitboard {
        self.placeable
    }

    /// How the game stands for the player to move (RULES.md section 3, in its order).
    pub fn status(&self) -> Status {
        if self.phase == Phase::Placement {
            return Status::Ongoing;
        }
        let side = self.side;
        if self.on_board[side] <= self.rules.lose_at() {
            return Status::Won { winner: !side, reason: WinReason::FewStones };
        }
        if self.rules.quiet().is_some_and(|limit| self.quiet >= limit) {
            return Status::Drawn(DrawReason::QuietPlies);
        }
        if !self.has_step() {
            return Status::Won { winner: !side, reason: WinReason::NoMoves };
        }
        Status::Ongoing
    }

    /// Whether the game is over by the rules.
    pub fn is_over(&self) -> bool {
        self.status() != Status::Ongoing
    }

    /// Plays a move after checking that it is legal. Lists the legal moves once; with the list
    /// in hand, use [`Position::play_listed`].
    ///
    /// # Errors
    /// An [`IllegalMoveError`] saying why, and the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        self.play_listed(m, &self.legal_moves())
    }

    /// Plays `m` if it is in `legal`, the list [`Position::legal_moves`] gave for this position,
    /// without listing the moves again. Given any other list, the position may become one the
    /// rules cannot reach, but nothing panics (as with [`Position::play_unchecked`]).
    ///
    /// # Errors
    /// An [`IllegalMoveError`] saying why `m` is not in `legal`, and the position is unchanged.
    pub fn play_listed(&mut self, m: Move, legal: &[Move]) -> Result<(), IllegalMoveError> {
        if !legal.contains(&m) {
            return Err(IllegalMoveError::new(m.to_string(), self.why_illegal(m, legal)));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal here (one from [`Position::legal_moves`]). An illegal move
    /// leaves a position the rules could not reach, but never panics or breaks memory safety.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let side = self.side;
        match m {
            Move::Put(cell) => {
                let added = u8::from(!self.stones[side].contains(cell));
                self.on_board[side] = self.on_board[side].saturating_add(added);
                self.stones[side] = self.stones[side].with(cell);
                self.hash ^= zobrist::stone(side, cell.index());
                let left = self.hand[side];
                self.hash ^=
                    zobrist::hand(side, left) ^ zobrist::hand(side, left.saturating_sub(1));
                self.hand[side] = left.saturating_sub(1);
            }
            Move::Pass => {}
            Move::Step { from, to, captures } => {
                self.stones[side] = self.stones[side].without(from).with(to);
                self.hash ^= zobrist::stone(side, from.index()) ^ zobrist::stone(side, to.index());
                if captures.any() {
                    let enemy = !side;
                    for cell in captures & self.stones[enemy] {
                        self.hash ^= zobrist::stone(enemy, cell.index());
                        // Saturating: an illegal move may have left the count behind.
                        self.on_board[enemy] = self.on_board[enemy].saturating_sub(1);
                    }
                    self.stones[enemy] &= !captures;
                    self.quiet = 0;
                } else {
                    self.quiet = self.quiet.saturating_add(1);
                }
            }
        }
        self.side = !side;
        self.hash ^= zobrist::side();
        if self.phase == Phase::Placement {
            self.update_phase();
            if self.phase == Phase::Movement {
                self.begin_movement();
            }
        }
    }

    /// Placement is over: White moves first, whoever placed last, and stones still in hand
    /// (under `blocked=pass`, when neither player could place) are out of the game.
    #[cold]
    fn begin_movement(&mut self) {
        if self.side != Colour::White {
            self.side = Colour::White;
            self.hash ^= zobrist::side();
        }
        for colour in Colour::ALL {
            self.hash ^= zobrist::hand(colour, self.hand[colour]) ^ zobrist::hand(colour, 0);
            self.hand[colour] = 0;
        }
    }

    /// The position after `m`, which must be legal here.
    pub fn after(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.play_unchecked(m);
        next
    }
}

/// A well-formed move that cannot be played in the position. With the `serde` feature it
/// serialises as its [`Illegal`] reason alone: whoever sent the move knows its text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(transparent))]
pub struct IllegalMoveError {
    #[cfg_attr(feature = "serde", serde(skip))]
    text: String,
    why: Illegal,
}

impl IllegalMoveError {
    pub(crate) fn new(text: impl Into<String>, why: Illegal) -> IllegalMoveError {
        IllegalMoveError { text: text.into(), why }
    }

    /// The move as it was written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why the move cannot be played, as a reason with its cells and numbers: for a page
    /// that words it in its own language.
    pub fn why(&self) -> &Illegal {
        &self.why
    }

    /// Why the move cannot be played, in plain English without the move's text: for a page
    /// that shows the reason beside the move already on its board.
    pub fn reason(&self) -> String {
        self.why.to_string()
    }
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.text, self.why)
    }
}

impl std::error::Error for IllegalMoveError {}

impl fmt::Display for Position {
    /// The five-field notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}
