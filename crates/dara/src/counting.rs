//! Counting the legal moves, and picking one by its index, without listing them: perft counts
//! its last ply this way, and a random playout picks a uniform move every ply.

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::direction::Direction;
use crate::moves::Move;
use crate::position::Position;
use crate::status::Phase;

impl Position {
    /// The number of legal moves, counted without listing them.
    pub fn count_moves(&self) -> usize {
        let mut count = 0;
        self.count_then_pick(|total| {
            count = total;
            None
        });
        count
    }

    /// The legal move of index `choose(count)`, where `count` is how many there are: every index
    /// below `count` names a different legal move, so a uniform index gives a uniform random
    /// move, found without listing the moves. `None` once the game is over (`choose` is then
    /// not called), and for an index of `count` or more.
    ///
    /// The indices do not follow the order of [`Position::legal_moves`]. A step's first choice
    /// of captures comes first, for every step; the further choices of the steps that form rows
    /// come after. Any step is then found from its index with a few mask operations.
    ///
    /// # Examples
    /// ```
    /// use dara::{Position, Ruleset};
    /// let pos = Position::start(Ruleset::default());
    /// let mut picked: Vec<_> = (0..pos.count_moves()).map(|i| pos.pick_move(|_| i).unwrap()).collect();
    /// picked.sort_by_key(|m| m.to_string());
    /// let mut listed = pos.legal_moves().to_vec();
    /// listed.sort_by_key(|m| m.to_string());
    /// assert_eq!(picked, listed);
    /// ```
    pub fn pick_move(&self, choose: impl FnOnce(usize) -> usize) -> Option<Move> {
        self.count_then_pick(|total| Some(choose(total)))
    }

    /// A move picked in two stages, as Ludii's random playouts pick: a step by the index
    /// `choose(steps)` among the distinct steps (placements and a pass count as steps with one
    /// choice each), then, if that step has two or more choices of captures, one of them by the
    /// index `choose(choices)`. Uniform indices give a step uniformly, then a capture uniformly
    /// among its choices; found without listing the moves. `None` once the game is over
    /// (`choose` is then not called), and for an index past its count.
    ///
    /// Steps are indexed by direction, then cell; a step's captures in the order
    /// [`Position::legal_moves`] lists them.
    ///
    /// # Examples
    /// ```
    /// use dara::{Position, Ruleset};
    /// // White's b3-c3 makes the row c1-c2-c3, and may take any of Black's four stones.
    /// let pos = Position::from_text("6/BB4/1W4/BBW3/2W3 w 0 0 0", Ruleset::default()).unwrap();
    /// let mut counts = Vec::new();
    /// let picked = pos.pick_move_by_step(|count| {
    ///     counts.push(count);
    ///     // Step 3 of 6 (b3-c3), then its capture 2 of 4.
    ///     if counts.len() == 1 { 3 } else { 2 }
    /// });
    /// assert_eq!(counts, [6, 4]);
    /// assert_eq!(picked.unwrap().to_string(), "b3-c3xa4");
    /// ```
    #[inline(always)]
    pub fn pick_move_by_step(&self, mut choose: impl FnMut(usize) -> usize) -> Option<Move> {
        match self.phase() {
            Phase::Placement => self.pick_placement(|count| Some(choose(count))),
            Phase::Movement if self.over_before_moves() => None,
            Phase::Movement if self.rules().diagonal() => {
                self.pick_step_then_capture(Direction::ALL, choose)
            }
            Phase::Movement => self.pick_step_then_capture(Direction::ORTHOGONAL, choose),
        }
    }

    /// [`Position::pick_move_by_step`] while moving, with `N` directions.
    #[inline(always)]
    fn pick_step_then_capture<const N: usize>(
        &self,
        directions: [Direction; N],
        mut choose: impl FnMut(usize) -> usize,
    ) -> Option<Move> {
        let steps = Steps::new(self, directions);
        if steps.targets.total == 0 {
            return None;
        }
        let n = u32::try_from(choose(steps.targets.total as usize)).ok()?;
        let (i, to) = steps.targets.nth(n)?;
        let rows = steps.rows[i].contains(to) as u8 + steps.both[i].contains(to) as u8;
        if rows == 0 {
            return Some(steps.step(i, to, Bitboard::EMPTY));
        }
        let capturable = self.capturable(self.stones(!self.side()));
        let choices = match self.stones_taken(rows) {
            0 => 1,
            1 => capturable.count(),
            _ => self.capture_pairs(),
        };
        let choice = match choices {
            0 | 1 => 0,
            _ => u32::try_from(choose(choices as usize)).ok()?,
        };
        let captures = self.capture_choice(rows, capturable, choice)?;
        Some(steps.step(i, to, captures))
    }

    /// Counts the legal moves, asks `choose` for an index below the count (it is not asked
    /// when there are none), and returns the move of that index.
    #[inline(always)]
    fn count_then_pick(&self, choose: impl FnOnce(usize) -> Option<usize>) -> Option<Move> {
        match self.phase() {
            Phase::Placement => self.pick_placement(choose),
            Phase::Movement if self.over_before_moves() => None,
            // A constant number of directions lets every per-direction loop below unroll.
            Phase::Movement if self.rules().diagonal() => self.pick_step(Direction::ALL, choose),
            Phase::Movement => self.pick_step(Direction::ORTHOGONAL, choose),
        }
    }

    /// Counts the placements, asks `choose` for an index below the count, and finds its move.
    #[inline(always)]
    fn pick_placement(&self, choose: impl FnOnce(usize) -> Option<usize>) -> Option<Move> {
        let cells = self.placement_choices();
        // A placer with no cell passes: one move.
        let n = choose(cells.count().max(1) as usize)?;
        match cells.is_empty() {
            true => (n == 0).then_some(Move::Pass),
            false => cells.nth(n).map(Move::Put),
        }
    }

    /// Counts the steps in `directions`, asks `choose` for an index among their moves, and
    /// finds its move.
    #[inline(always)]
    fn pick_step<const N: usize>(
        &self,
        directions: [Direction; N],
        choose: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<Move> {
        let steps = Steps::new(self, directions);
        if steps.forming_rows.any() {
            return self.pick_capturing_step(&steps, choose);
        }
        // No step forms a row (about half the plies of a random game): one move per step.
        if steps.targets.total == 0 {
            return None;
        }
        let n = u32::try_from(choose(steps.targets.total as usize)?).ok()?;
        let (i, to) = steps.targets.nth(n)?;
        Some(steps.step(i, to, Bitboard::EMPTY))
    }

    /// [`Position::pick_step`] when some step forms a row, and its capture choices are moves.
    ///
    /// Moves are indexed in blocks: first every step's first choice of captures; then the
    /// further choices of the steps with more than one, by kind (steps forming one row, then
    /// two, when the two make different numbers of choices). Within a block, steps go by
    /// direction, then cell, then choice.
    #[inline(always)]
    fn pick_capturing_step<const N: usize>(
        &self,
        steps: &Steps<N>,
        choose: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<Move> {
        let capturable = self.capturable(self.stones(!self.side()));
        let [one, two] = self.moves_per_step(capturable);
        let further = if one == two {
            [Further::new(steps.rows, one), Further::NONE]
        } else {
            let just_one = core::array::from_fn(|i| steps.rows[i] & !steps.both[i]);
            [Further::new(just_one, one), Further::new(steps.both, two)]
        };
        let total = steps.targets.total + further.iter().map(Further::moves).sum::<u32>();
        let mut n = u32::try_from(choose(total as usize)?).ok()?;
        let (i, to, choice) = if n < steps.targets.total {
            let (i, to) = steps.targets.nth(n)?;
            (i, to, 0)
        } else {
            n -= steps.targets.total;
            let further = further.iter().find(|further| {
                let inside = n < further.moves();
                if !inside {
                    n -= further.moves();
                }
                inside
            })?;
            let (i, to) = further.steps.nth(n / further.choices)?;
            (i, to, 1 + n % further.choices)
        };
        let rows = steps.rows[i].contains(to) as u8 + steps.both[i].contains(to) as u8;
        let captures = match rows {
            0 => Bitboard::EMPTY,
            _ => self.capture_choice(rows, capturable, choice)?,
        };
        Some(steps.step(i, to, captures))
    }

    /// The stones taken by choice `choice` of a step forming `rows` rows, in the order the
    /// move list gives them.
    #[inline(always)]
    fn capture_choice(&self, rows: u8, capturable: Bitboard, choice: u32) -> Option<Bitboard> {
        match self.stones_taken(rows) {
            0 => Some(Bitboard::EMPTY),
            1 => capturable.nth(choice as usize).map(Bitboard::from_cell),
            _ => self.capture_pair(choice),
        }
    }

    /// Choice `choice` of the pairs of stones that two captures may take.
    #[inline(never)]
    fn capture_pair(&self, choice: u32) -> Option<Bitboard> {
        let (mut found, mut i) = (None, 0);
        self.for_each_capture_pair(self.stones(!self.side()), |pair| {
            if i == choice {
                found = Some(pair);
            }
            i += 1;
        });
        found
    }

    /// How many moves a step forming one row makes, and one forming two: one per choice of
    /// captures, given the stones that may be taken first.
    #[inline(always)]
    fn moves_per_step(&self, capturable: Bitboard) -> [u32; 2] {
        let per_step = |rows| match self.stones_taken(rows) {
            0 => 1,
            1 => capturable.count(),
            _ => self.capture_pairs(),
        };
        [per_step(1), per_step(2)]
    }

    /// How many pairs of stones two captures may take.
    #[inline(never)]
    fn capture_pairs(&self) -> u32 {
        let mut pairs = 0;
        self.for_each_capture_pair(self.stones(!self.side()), |_| pairs += 1);
        pairs
    }
}

/// The legal steps of a position in `N` directions, counted per direction so that the step of
/// any index is found without walking the cells.
struct Steps<const N: usize> {
    directions: [Direction; N],
    /// Per direction: the cells a stone can step onto that way, among them those where it then
    /// stands in at least one row, and those where it stands in two.
    targets: Tally<N>,
    rows: [Bitboard; N],
    both: [Bitboard; N],
    /// Every cell where some step forms a row.
    forming_rows: Bitboard,
}

/// Steps of one kind with more than one move, and how many further moves each makes.
struct Further<const N: usize> {
    steps: Tally<N>,
    choices: u32,
}

/// Cells in `N` direction masks, counted per direction.
struct Tally<const N: usize> {
    cells: [Bitboard; N],
    counts: [u32; N],
    total: u32,
}

impl<const N: usize> Steps<N> {
    #[inline(always)]
    fn new(pos: &Position, directions: [Direction; N]) -> Steps<N> {
        let judge = pos.step_judge();
        let (mut targets, mut rows, mut both) =
            ([Bitboard::EMPTY; N], [Bitboard::EMPTY; N], [Bitboard::EMPTY; N]);
        let mut forming_rows = Bitboard::EMPTY;
        for (i, &dir) in directions.iter().enumerate() {
            let [to, across, up] = judge.steps(dir);
            targets[i] = to;
            rows[i] = across | up;
            both[i] = across & up;
            forming_rows |= across | up;
        }
        Steps { directions, targets: Tally::new(targets), rows, both, forming_rows }
    }

    /// The step onto `to` in direction `i`.
    #[inline(always)]
    fn step(&self, i: usize, to: Cell, captures: Bitboard) -> Move {
        let back = self.directions[i].opposite();
        Move::Step { from: to.offset(back), to, captures }
    }
}

impl<const N: usize> Further<N> {
    const NONE: Further<N> = Further { steps: Tally::EMPTY, choices: 0 };

    /// The steps in `cells`, each making `moves` moves.
    #[inline(always)]
    fn new(cells: [Bitboard; N], moves: u32) -> Further<N> {
        if moves <= 1 {
            return Further::NONE;
        }
        Further { steps: Tally::new(cells), choices: moves - 1 }
    }

    /// The further moves of all these steps.
    #[inline(always)]
    fn moves(&self) -> u32 {
        self.steps.total * self.choices
    }
}

impl<const N: usize> Tally<N> {
    const EMPTY: Tally<N> = Tally { cells: [Bitboard::EMPTY; N], counts: [0; N], total: 0 };

    #[inline(always)]
    fn new(cells: [Bitboard; N]) -> Tally<N> {
        let counts = cells.map(Bitboard::count);
        Tally { cells, counts, total: counts.iter().sum() }
    }

    /// The `n`-th cell, going through the directions in turn: the direction's index and the
    /// cell.
    #[inline(always)]
    fn nth(&self, n: u32) -> Option<(usize, Cell)> {
        // The direction is the number of directions whose cells all come before the n-th,
        // counted without a branch: which direction it is cannot be predicted.
        let (mut i, mut before, mut passed) = (0, 0, 0);
        for &count in &self.counts[..N - 1] {
            passed += count;
            let past = n >= passed;
            i += past as usize;
            before = if past { passed } else { before };
        }
        self.cells[i].nth((n - before) as usize).map(|cell| (i, cell))
    }
}

#[cfg(test)]
mod tests {
    use crate::perft;
    use crate::position::Position;
    use crate::ruleset::Ruleset;

    /// Every move of every position two plies from the perft vectors.
    fn around_the_vectors(mut check: impl FnMut(&Position)) {
        for line in include_str!("../tests/data/perft.txt").lines().filter(|l| !l.starts_with('#'))
        {
            let fields: Vec<&str> = line.split('|').collect();
            let rules: Ruleset = fields[0].parse().unwrap();
            let pos = Position::from_text(fields[1], rules).unwrap();
            check(&pos);
            for m in pos.legal_moves() {
                let child = pos.after(m);
                check(&child);
                for m in child.legal_moves() {
                    check(&child.after(m));
                }
            }
        }
    }

    #[test]
    fn every_index_picks_a_different_legal_move() {
        around_the_vectors(|pos| {
            let mut legal = pos.legal_moves().to_vec();
            let mut picked: Vec<_> =
                (0..pos.count_moves()).map(|i| pos.pick_move(|_| i).unwrap()).collect();
            legal.sort_by_key(|m| m.to_string());
            picked.sort_by_key(|m| m.to_string());
            assert_eq!(picked, legal, "{pos}");
        });
    }

    #[test]
    fn two_stage_indices_pick_each_step_then_each_of_its_captures_once() {
        around_the_vectors(|pos| {
            // The move of step index `step` and capture index `capture`, and the counts asked.
            let pick = |step: usize, capture: usize| {
                let mut counts = Vec::new();
                let m = pos.pick_move_by_step(|count| {
                    counts.push(count);
                    if counts.len() == 1 {
                        step
                    } else {
                        capture
                    }
                });
                (m, counts)
            };
            let mut legal = pos.legal_moves().to_vec();
            let (_, counts) = pick(0, 0);
            let Some(&steps) = counts.first() else {
                assert!(legal.is_empty(), "{pos}");
                return;
            };
            let mut distinct_steps: Vec<_> = legal.iter().map(|m| m.without_captures()).collect();
            distinct_steps.sort_by_key(|m| m.to_string());
            distinct_steps.dedup();
            assert_eq!(steps, distinct_steps.len(), "{pos}");
            let mut picked = Vec::new();
            for step in 0..steps {
                let (first, counts) = pick(step, 0);
                let bare = first.unwrap().without_captures();
                let choices = legal.iter().filter(|m| m.without_captures() == bare).count();
                // A capture is chosen only among two or more.
                assert_eq!(counts.get(1).copied().unwrap_or(1), choices, "{pos} {bare}");
                assert!(counts.len() <= 2 && (counts.len() == 2) == (choices > 1));
                for capture in 0..choices {
                    let m = pick(step, capture).0.unwrap();
                    assert_eq!(m.without_captures(), bare, "{pos}");
                    picked.push(m);
                }
                if choices > 1 {
                    assert_eq!(pick(step, choices).0, None, "{pos}");
                }
            }
            assert_eq!(pick(steps, 0).0, None, "{pos}");
            legal.sort_by_key(|m| m.to_string());
            picked.sort_by_key(|m| m.to_string());
            assert_eq!(picked, legal, "{pos}");
        });
    }

    #[test]
    fn counting_agrees_with_listing() {
        around_the_vectors(|pos| {
            assert_eq!(pos.count_moves(), pos.legal_moves().len(), "{pos}");
            assert_eq!(perft::perft(pos, 1), pos.legal_moves().len() as u64, "{pos}");
        });
    }
}
