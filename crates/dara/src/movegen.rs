//! Legal moves of both phases: placements (with the placement limit, the opening restriction and
//! what a blocked placer does), and steps with every distinct set of stones they may capture.

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::closed_cell::ClosedCell;
use crate::colour::Colour;
use crate::direction::Direction;
use crate::generations;
use crate::illegal::Illegal;
use crate::lines;
use crate::moves::{Move, MoveList};
use crate::options::{Blocked, Captures, Long, Opening, Place};
use crate::position::Position;
use crate::status::{Phase, Status};

impl Position {
    /// The cells where `colour` may place by the placement limit and the opening restriction
    /// (empty if the hand is empty). What a blocked placer may do instead is not included.
    #[inline]
    pub fn placement_cells(&self, colour: Colour) -> Bitboard {
        if self.hand(colour) == 0 {
            return Bitboard::EMPTY;
        }
        let closed = self.placement_closures(colour);
        self.empty() & !closed.by_run & !closed.by_opening
    }

    /// The cells each placement rule closes to `colour`. The one place the geometry of
    /// placements is judged: the legal placements and the reasons a cell is closed
    /// ([`Position::closed_reason`]) both come from here.
    #[inline]
    pub(crate) fn placement_closures(&self, colour: Colour) -> PlacementClosures {
        let rules = self.rules();
        let own = self.stones(colour);
        let by_run = match rules.place() {
            Place::Three => lines::would_make_run(own, 3),
            Place::Four => lines::would_make_run(own, 4),
            Place::Free => Bitboard::EMPTY,
        };
        let by_opening = match rules.opening() {
            Opening::Free => Bitboard::EMPTY,
            Opening::Corner => {
                let nothing_placed = self.hand(Colour::White) == rules.stones()
                    && self.hand(Colour::Black) == rules.stones();
                if nothing_placed {
                    !corners(rules.cols(), rules.rows())
                } else {
                    Bitboard::EMPTY
                }
            }
            Opening::Centre => {
                if rules.stones() - self.hand(colour) < 4 {
                    middle_files(rules.cols())
                } else {
                    Bitboard::EMPTY
                }
            }
        };
        PlacementClosures { by_run, by_opening }
    }

    /// The enemy stones that may be taken now from `enemy`: with `protect=yes`, those not in a
    /// row, unless every one is in a row.
    #[inline]
    pub(crate) fn capturable(&self, enemy: Bitboard) -> Bitboard {
        if self.rules().protect() {
            let free = enemy & !lines::in_rows(enemy);
            if free.any() {
                return free;
            }
        }
        enemy
    }

    /// Every legal move, appended to `moves` (which is cleared first). Empty once the game is over.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        generations::count();
        moves.clear();
        match self.phase() {
            Phase::Placement => self.placements(moves),
            Phase::Movement => {
                if !self.over_before_moves() {
                    self.steps(moves);
                }
            }
        }
    }

    /// The end-of-game checks that come before "no legal move" (RULES.md section 3): too few
    /// stones, then the quiet-plies draw. An empty step list then means the mover has lost.
    #[inline]
    pub(crate) fn over_before_moves(&self) -> bool {
        let rules = self.rules();
        self.stones_on_board(self.side()) <= rules.lose_at()
            || rules.quiet().is_some_and(|limit| self.quiet() >= limit)
    }

    /// Every legal move, in generation order.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::with_capacity(64);
        self.legal_moves_into(&mut moves);
        moves
    }

    /// The cells the side to move may place on now, including the whole empty board when
    /// `blocked=any` frees a blocked placer. Empty means the move is a pass.
    pub(crate) fn placement_choices(&self) -> Bitboard {
        let side = self.side();
        let cells = self.placeable();
        if cells.is_empty() && self.hand(side) > 0 && self.rules().blocked() == Blocked::Any {
            self.empty()
        } else {
            cells
        }
    }

    fn placements(&self, moves: &mut MoveList) {
        let cells = self.placement_choices();
        if cells.is_empty() {
            moves.push(Move::Pass);
        } else {
            moves.extend(cells.into_iter().map(Move::Put));
        }
    }

    /// For each direction a stone may step in: the direction, the cells the side to move can
    /// legally step onto that way, and among them those where the stone would then stand in a
    /// row along its rank (`across`) and along its file (`up`).
    #[inline]
    fn step_targets(&self) -> impl Iterator<Item = (Direction, Bitboard, Bitboard, Bitboard)> + '_ {
        let judge = self.step_judge();
        self.rules().step_directions().iter().map(move |&dir| {
            let [targets, across, up] = judge.steps(dir);
            (dir, targets, across, up)
        })
    }

    /// What the side to move's steps depend on, judged once for all directions.
    #[inline]
    pub(crate) fn step_judge(&self) -> StepJudge {
        let own = self.stones(self.side());
        StepJudge {
            own,
            empty: self.empty(),
            long_illegal: self.rules().long() == Long::Illegal,
            landings: lines::Landings::new(own),
        }
    }

    /// Calls `f(from, to, rows)` for every legal step, where `rows` is the number of rows of
    /// three the moved stone stands in afterwards (0, 1 or 2).
    #[inline]
    fn for_each_step(&self, mut f: impl FnMut(Cell, Cell, u8)) {
        for (dir, targets, across, up) in self.step_targets() {
            let back = dir.opposite();
            for to in targets {
                let rows = across.contains(to) as u8 + up.contains(to) as u8;
                f(to.offset(back), to, rows);
            }
        }
    }

    /// How many stones a step that forms `rows` rows takes.
    #[inline]
    pub(crate) fn stones_taken(&self, rows: u8) -> u32 {
        let wanted = match (rows, self.rules().captures()) {
            (0, _) => return 0,
            (_, Captures::One) => 1,
            (rows, Captures::PerRow) => rows,
        };
        // Capturing stops once the enemy is down to the losing count.
        let (lose_at, left) = (self.rules().lose_at(), self.stones_on_board(!self.side()));
        if left <= lose_at {
            0
        } else if wanted == 2 && left > lose_at + 1 {
            2
        } else {
            1
        }
    }

    fn steps(&self, moves: &mut MoveList) {
        let enemy = self.stones(!self.side());
        // Which stones may be taken depends only on the enemy's stones: judge it once, when a
        // step first forms a row.
        let mut capturable = None;
        self.for_each_step(|from, to, rows| match self.stones_taken(rows) {
            0 => moves.push(Move::Step { from, to, captures: Bitboard::EMPTY }),
            1 => {
                let choices = *capturable.get_or_insert_with(|| self.capturable(enemy));
                for c in choices {
                    moves.push(Move::Step { from, to, captures: Bitboard::from_cell(c) });
                }
            }
            _ => self.push_capture_pairs(from, to, enemy, moves),
        });
    }

    /// Two captures, re-judging protection after the first: each distinct pair once.
    fn push_capture_pairs(&self, from: Cell, to: Cell, enemy: Bitboard, moves: &mut MoveList) {
        self.for_each_capture_pair(enemy, |captures| {
            moves.push(Move::Step { from, to, captures });
        });
    }

    /// Calls `f` with each distinct pair of enemy stones that two captures in a row may take.
    pub(crate) fn for_each_capture_pair(&self, enemy: Bitboard, mut f: impl FnMut(Bitboard)) {
        let first_choices = self.capturable(enemy);
        for a in first_choices {
            for b in self.capturable(enemy.without(a)) {
                // {a, b} may also be reachable as b-then-a; count it only once, from its lower cell.
                let reached_from_b = b < a
                    && first_choices.contains(b)
                    && self.capturable(enemy.without(b)).contains(a);
                if !reached_from_b {
                    f(Bitboard::from_cell(a).with(b));
                }
            }
        }
    }

    /// Whether the player to move has any legal step (movement phase).
    pub(crate) fn has_step(&self) -> bool {
        let own = self.stones(self.side());
        let empty = self.empty();
        if self.rules().long() == Long::Allowed {
            return self
                .rules()
                .step_directions()
                .iter()
                .any(|&dir| (own.shift(dir) & empty).any());
        }
        self.step_targets().any(|(_, targets, _, _)| targets.any())
    }

    /// Why `m` is not among `legal`, for error messages.
    pub(crate) fn why_illegal(&self, m: Move, legal: &[Move]) -> Illegal {
        let side = self.side();
        if let status @ (Status::Won { .. } | Status::Drawn(_)) = self.status() {
            return Illegal::GameOver { status };
        }
        match (m, self.phase()) {
            (Move::Pass, _) => Illegal::PassNotAllowed,
            (Move::Put(_), Phase::Movement) => Illegal::PlacementOver,
            (Move::Step { .. }, Phase::Placement) => Illegal::StillPlacing { side },
            (Move::Put(cell), Phase::Placement) => {
                let Some(reason) = self.closed_reason(cell) else {
                    return Illegal::NotListed { cell };
                };
                let because = match reason {
                    ClosedCell::Occupied => return Illegal::Occupied { cell },
                    ClosedCell::OffBoard => return Illegal::OffBoard { cell },
                    ClosedCell::PlacementOver => Illegal::PlacementOver,
                    ClosedCell::NoStonesInHand => Illegal::NoStonesInHand,
                    ClosedCell::CornerOpening => Illegal::CornerOpening { cell },
                    ClosedCell::CentreOpening => Illegal::CentreOpening { cell },
                    ClosedCell::WouldMakeThree | ClosedCell::WouldMakeFour => {
                        let run = lines::longest_run(self.stones(side).with(cell), cell);
                        let limit = if reason == ClosedCell::WouldMakeFour { 4 } else { 3 };
                        Illegal::LineTooLong { cell, run, limit }
                    }
                };
                if self.placement_choices().is_empty() {
                    Illegal::MustPass { side, because: Box::new(because) }
                } else {
                    because
                }
            }
            (Move::Step { from, to, captures }, Phase::Movement) => {
                let bare = Move::Step { from, to, captures: Bitboard::EMPTY };
                let same_step: Vec<&Move> =
                    legal.iter().filter(|l| l.without_captures() == bare).collect();
                if !self.stones(side).contains(from) {
                    Illegal::NoStoneOfYours { side, cell: from }
                } else if !self.empty().contains(to) {
                    Illegal::Occupied { cell: to }
                } else if !self
                    .rules()
                    .step_directions()
                    .iter()
                    .any(|&d| Bitboard::from_cell(from).shift(d).contains(to))
                {
                    Illegal::NotAStep { from, to, diagonal: self.rules().diagonal() }
                } else if same_step.is_empty() {
                    Illegal::LongLine { from, to }
                } else if same_step.iter().all(|l| !l.is_capture()) {
                    Illegal::NoRowMade { from, to }
                } else if captures.is_empty() {
                    Illegal::CaptureRequired { from, to, example: *same_step[0] }
                } else {
                    let enemy = self.stones(!side);
                    if let Some(cell) = captures.into_iter().find(|&c| !enemy.contains(c)) {
                        Illegal::NothingToTake { side: !side, cell }
                    } else if same_step[0].captures().count() != captures.count() {
                        Illegal::WrongCaptureCount {
                            from,
                            to,
                            takes: same_step[0].captures().count(),
                            named: captures.count(),
                        }
                    } else {
                        // Every named stone is the enemy's and the count is right, so one of
                        // them is protected: the first that stands in a row.
                        let in_rows = lines::in_rows(enemy);
                        let cell = captures
                            .into_iter()
                            .find(|&c| in_rows.contains(c))
                            .or_else(|| captures.into_iter().next())
                            .unwrap_or(to);
                        Illegal::Protected { cell }
                    }
                }
            }
        }
    }
}

/// The four corners of a board.
fn corners(cols: u8, rows: u8) -> Bitboard {
    [(0, 0), (cols - 1, 0), (0, rows - 1), (cols - 1, rows - 1)]
        .into_iter()
        .filter_map(|(f, r)| Cell::new(f, r))
        .collect()
}

/// The middle files closed by `opening=centre`: the two central files of an even width, the one
/// central file of an odd width.
fn middle_files(cols: u8) -> Bitboard {
    if cols % 2 == 0 {
        Bitboard::file(cols / 2 - 1) | Bitboard::file(cols / 2)
    } else {
        Bitboard::file(cols / 2)
    }
}

/// The empty or occupied cells a placement rule closes to one colour: by the placement limit
/// (`place`) and by the opening restriction (`opening`).
pub(crate) struct PlacementClosures {
    pub(crate) by_run: Bitboard,
    pub(crate) by_opening: Bitboard,
}

/// The side to move's stones, the empty cells and where a step would land in a row, shared by
/// every direction's steps.
pub(crate) struct StepJudge {
    own: Bitboard,
    empty: Bitboard,
    long_illegal: bool,
    landings: lines::Landings,
}

impl StepJudge {
    /// The cells a stone can legally step onto in `dir`, and among them those where it would
    /// stand in a row along its rank and along its file.
    #[inline(always)]
    pub(crate) fn steps(&self, dir: Direction) -> [Bitboard; 3] {
        let mut targets = self.own.shift(dir) & self.empty;
        let (across, up, long) = self.landings.after_step(dir);
        if self.long_illegal {
            targets &= !long;
        }
        [targets, across & targets, up & targets]
    }
}
