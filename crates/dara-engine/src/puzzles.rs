//! Puzzles from self-play: positions of the engine's own games where one move is clearly best.
//! Every root move is searched on its own (each capture choice is its own move), so the best
//! move's lead over the second is measured, not guessed; a position is kept only when a search
//! [`DEEPER`] plies deeper still finds the same move ahead by the stated margin.

use core::fmt;

use dara::lines::in_rows;
use dara::{Bitboard, Move, Phase, Position, Ruleset, Status};

use crate::baselines;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::score::Score;
use crate::search::{Searcher, Style};

/// How much deeper than it was found a puzzle's solution is checked.
pub const DEEPER: u32 = 4;

/// A won game counts as this many centi-stones, less the plies to the win: more than any
/// estimate, so a win beats every move that does not win by more than any margin.
const WON: i32 = 100_000;

/// How to look for puzzles.
#[derive(Clone, Debug)]
pub struct PuzzleConfig {
    /// The rules of the games.
    pub rules: Ruleset,
    /// Self-play games to look through.
    pub games: usize,
    /// Seed of the openings and the players' noise.
    pub seed: u64,
    /// Depth at which a puzzle is found (it is checked at `depth + DEEPER`).
    pub depth: u32,
    /// How far, in centi-stones, the solution must lead every other move at both depths.
    pub margin: i32,
    /// Stop after this many puzzles.
    pub limit: usize,
}

/// What a puzzle asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Take a stone within this many of your own moves (1 to 3), whatever the opponent does.
    Capture(u8),
    /// The one move that does not let the opponent take a stone at once.
    Defence,
    /// Save a threatened row: the side to move has a row of three standing on the board (its
    /// stones stand in a run of exactly three along a rank or a file), the opponent could take
    /// one of its stones on their next move, and exactly one legal move keeps it: after that
    /// move every stone of the row still stands in a row of three and no reply of the
    /// opponent's takes any of them. Every other move steps a stone out of the row or leaves
    /// the opponent a reply that takes one of its stones. See [`saves_row`].
    SaveRow,
    /// The only move that is not blocked: the side to move has at most [`FEW_STEPS`] steps
    /// (a step with several choices of stone to take counts once), and all but one of them
    /// lose: after each other step the opponent has a reply that takes a stone or leaves the
    /// side to move with no step (a lost game), and after the one that remains no reply does
    /// either. See [`only_step`].
    OnlyStep,
}

/// The most steps a side may have for [`Theme::OnlyStep`]: few enough to be counted by eye.
pub const FEW_STEPS: usize = 6;

impl Theme {
    /// 1 (easiest) to 3.
    pub fn difficulty(self) -> u8 {
        match self {
            Theme::Capture(n) => n.clamp(1, 3),
            Theme::Defence | Theme::SaveRow => 2,
            Theme::OnlyStep => 1,
        }
    }
}

impl fmt::Display for Theme {
    /// `capture-1`, `capture-2`, `capture-3`, `defence`, `save-row`, `only-step`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Theme::Capture(n) => write!(f, "capture-{n}"),
            Theme::Defence => f.write_str("defence"),
            Theme::SaveRow => f.write_str("save-row"),
            Theme::OnlyStep => f.write_str("only-step"),
        }
    }
}

/// A position with one clearly best move.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The position, the solver to move.
    pub position: Position,
    /// What it asks for.
    pub theme: Theme,
    /// The solution first, then the best play that follows, up to the capture it leads to.
    pub line: Vec<Move>,
    /// The solution's lead over the second-best move at the checking depth, in centi-stones
    /// (capped at `WON`).
    pub margin: i32,
    /// The depth it was found at; it was checked at `found + DEEPER`.
    pub found: u32,
}

impl Puzzle {
    /// One line of the puzzle file: theme, difficulty, margin, depths, rules, position, line,
    /// separated by tabs.
    pub fn to_record(&self) -> String {
        let line: Vec<String> = self.line.iter().map(ToString::to_string).collect();
        format!(
            "{}\t{}\t{}\t{}/{}\t{}\t{}\t{}",
            self.theme,
            self.theme.difficulty(),
            self.margin,
            self.found,
            self.found + DEEPER,
            self.position.rules(),
            self.position,
            line.join(" ")
        )
    }
}

/// A score as one number to compare: wins above every estimate, sooner wins higher.
fn value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Win(n) => WON - n as i32,
        Score::Loss(n) => -WON + n as i32,
    }
}

/// Every root move of `pos` with its value for the mover at `depth` and the line after it.
fn root_values(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[u64],
    depth: u32,
) -> Vec<(Move, i32, Vec<Move>)> {
    let mut path = history.to_vec();
    path.push(pos.hash());
    let mut scored: Vec<(Move, i32, Vec<Move>)> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let next = pos.after(m);
            let outcome = searcher.search(
                &next,
                &path,
                &Limits::depth(depth.saturating_sub(1).max(1)),
                &Style::default(),
                &mut |_| {},
            );
            (m, -value(outcome.score), outcome.pv)
        })
        .collect();
    scored.sort_by_key(|(_, v, _)| -v);
    scored
}

/// The best move's lead over the second, if it has one of at least `margin`.
fn lead(scored: &[(Move, i32, Vec<Move>)], margin: i32) -> Option<i32> {
    let [best, second, ..] = scored else { return None };
    let gap = best.1.saturating_sub(second.1).min(WON);
    (gap >= margin).then_some(gap)
}

/// The puzzle in `pos`, if it has one: a move that leads by the margin at `depth` and again
/// at `depth + DEEPER`, with a theme its line shows.
pub fn judge(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[u64],
    depth: u32,
    margin: i32,
) -> Option<Puzzle> {
    if pos.phase() != Phase::Movement || pos.status() != Status::Ongoing {
        return None;
    }
    let shallow = root_values(searcher, pos, history, depth);
    lead(&shallow, margin)?;
    let deep = root_values(searcher, pos, history, depth + DEEPER);
    let gap = lead(&deep, margin)?;
    if deep[0].0 != shallow[0].0 {
        return None;
    }
    let (best, _, after) = &deep[0];
    let mut line = vec![*best];
    line.extend(after.iter().copied());
    // The solver's moves are every other one from the first: the first that captures names
    // the theme, and the line ends there.
    let theme = match line.iter().step_by(2).take(3).position(Move::is_capture) {
        Some(i) => {
            line.truncate(2 * i + 1);
            Theme::Capture(i as u8 + 1)
        }
        None if saves_row(pos, *best) => {
            line.truncate(1);
            Theme::SaveRow
        }
        None if only_step(pos, *best) => {
            line.truncate(1);
            Theme::OnlyStep
        }
        None => {
            // No capture of the solver's own in reach: a puzzle only if the second-best move
            // lets the opponent take a stone at once, and the solution does not.
            let (_, _, second_line) = &deep[1];
            let loses = second_line.first().is_some_and(Move::is_capture);
            let holds = !after.first().is_some_and(Move::is_capture);
            if !(loses && holds) {
                return None;
            }
            line.truncate(1);
            Theme::Defence
        }
    };
    Some(Puzzle { position: pos.clone(), theme, line, margin: gap, found: depth })
}

/// Whether `m` is the one move of `pos` that keeps the side to move's row of three
/// ([`Theme::SaveRow`]): the side to move has stones in a row, the opponent could take one of
/// them if it were their move, and `m` is the only legal move after which all of them still
/// stand in a row and no reply takes any. Judged over every legal move and every reply, not
/// by a search.
pub fn saves_row(pos: &Position, m: Move) -> bool {
    let side = pos.side();
    let row = in_rows(pos.stones(side));
    if row.is_empty() || pos.phase() != Phase::Movement {
        return false;
    }
    // The threat: the opponent, to move here, could take a stone of the row.
    let mut theirs = pos.to_setup();
    theirs.side = !side;
    let threatened =
        Position::from_setup(&theirs, *pos.rules()).is_ok_and(|theirs| takes_from(&theirs, row));
    if !threatened {
        return false;
    }
    let keeps = |m: Move| {
        let next = pos.after(m);
        (in_rows(next.stones(side)) & row) == row && !takes_from(&next, row)
    };
    let keeping: Vec<Move> = pos.legal_moves().into_iter().filter(|&l| keeps(l)).collect();
    keeping == [m]
}

/// Whether `m` is the only step of `pos` that does not lose ([`Theme::OnlyStep`]): the side to
/// move has at most [`FEW_STEPS`] steps, after `m` no reply takes a stone or leaves it without a
/// step, and after every other step one does. Judged over every step and every reply.
pub fn only_step(pos: &Position, m: Move) -> bool {
    if pos.phase() != Phase::Movement || pos.is_over() {
        return false;
    }
    let legal = pos.legal_moves();
    let mut steps: Vec<Move> = legal.iter().map(|l| l.without_captures()).collect();
    steps.dedup();
    if steps.len() < 2 || steps.len() > FEW_STEPS {
        return false;
    }
    let side = pos.side();
    let loses = |l: Move| {
        let next = pos.after(l);
        next.legal_moves().into_iter().any(|reply| {
            let after = next.after(reply);
            reply.is_capture()
                || matches!(after.status(), Status::Won { winner, .. } if winner != side)
        })
    };
    let safe: Vec<Move> = legal.iter().copied().filter(|&l| !loses(l)).collect();
    // The safe step may itself have several capture choices only if it captures, and a capture
    // is another theme: here exactly one move is safe.
    safe == [m]
}

/// Whether the side to move in `pos` has a move that takes a stone of `stones`.
fn takes_from(pos: &Position, stones: Bitboard) -> bool {
    pos.legal_moves().iter().any(|l| (l.captures() & stones).any())
}

/// Plays `config.games` self-play games (random first placements, then a noisy shallow
/// engine on both sides) and returns the puzzles found in them, at most two a game and never
/// two in a row, each handed to `found` as it comes.
pub fn generate(config: &PuzzleConfig, found: &mut dyn FnMut(&Puzzle)) -> Vec<Puzzle> {
    let mut rng = Rng::new(config.seed);
    let mut searcher = Searcher::new(16);
    let mut puzzles = Vec::new();
    for game in 0..config.games {
        if puzzles.len() >= config.limit {
            break;
        }
        searcher.clear();
        let mut pos = Position::start(config.rules);
        let mut history = Vec::new();
        let mut in_game = 0;
        let mut skip = false;
        for ply in 0..200 {
            if pos.status() != Status::Ongoing || puzzles.len() >= config.limit {
                break;
            }
            if !skip && in_game < 2 {
                if let Some(p) = judge(&mut searcher, &pos, &history, config.depth, config.margin) {
                    found(&p);
                    puzzles.push(p);
                    in_game += 1;
                    skip = true;
                }
            } else {
                skip = false;
            }
            let m = if ply < 6 {
                baselines::random_move(&pos, &mut rng)
            } else {
                let style =
                    Style { noise: 40, seed: rng.next_u64() ^ game as u64, ..Style::default() };
                searcher.search(&pos, &history, &Limits::depth(3), &style, &mut |_| {}).best
            };
            let Some(m) = m else { break };
            history.push(pos.hash());
            pos.play_unchecked(m);
        }
    }
    puzzles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_with_one_right_stone_to_take_is_a_capture_in_one() {
        // From a generation run: e1-e2 makes the row d2 e2 f2, and of the dark stones it may
        // take, e3 is better than any other by more than a stone.
        let pos =
            Position::from_text("WWBWB1/1BWB1W/BW1BBW/WBBW1W/1BW1WB w 0 0 1", Ruleset::default())
                .unwrap();
        let mut searcher = Searcher::new(4);
        let puzzle = judge(&mut searcher, &pos, &[], 4, 100).expect("a puzzle");
        assert_eq!(puzzle.theme, Theme::Capture(1));
        assert_eq!(puzzle.line.iter().map(ToString::to_string).collect::<Vec<_>>(), ["e1-e2xe3"]);
        assert!(puzzle.margin >= 100);
        assert!(puzzle.to_record().starts_with("capture-1\t1\t"));
        assert!(puzzle
            .to_record()
            .ends_with("\tarcade\tWWBWB1/1BWB1W/BW1BBW/WBBW1W/1BW1WB w 0 0 1\te1-e2xe3"));
    }

    #[test]
    fn the_opening_has_no_puzzle() {
        let mut searcher = Searcher::new(4);
        assert!(judge(&mut searcher, &Position::start(Ruleset::default()), &[], 4, 100).is_none());
    }

    fn arcade(fen: &str) -> Position {
        Position::from_text(fen, Ruleset::default()).unwrap()
    }

    #[test]
    fn save_row_accepts_the_one_move_that_keeps_a_threatened_row_and_rejects_a_near_miss() {
        // Dark's d1 d2 d3 is a row. Pale threatens e3-f3, making f1 f2 f3 and taking one of
        // them; only f4-f3 keeps the row whole and out of reach.
        let pos = arcade("1B1BWB/WB2WB/BWWBW1/WBWB1W/2WB1W b 0 0 0");
        let m = pos.parse_move("f4-f3").unwrap();
        assert!(saves_row(&pos, m));
        assert!(!saves_row(&pos, pos.parse_move("b4-c4").unwrap()), "another move keeps nothing");
        // Without pale's f1 there is no threat: nothing to save.
        let calm = arcade("1B1BWB/WB2WB/BWWBW1/WBWB1W/2WB2 b 0 0 0");
        assert!(!saves_row(&calm, calm.parse_move("f4-f3").unwrap()));
        // The row and the threat, but the row's own stone stepping away breaks it.
        assert!(!saves_row(&pos, pos.parse_move("d3-d4").unwrap()));
    }

    #[test]
    fn only_step_accepts_the_one_step_that_loses_nothing_and_rejects_a_near_miss() {
        let pos = arcade("1WBW2/1WBBW1/1BWB2/WBWWWB/1WBBW1 b 0 0 4");
        let m = pos.parse_move("d3-e3").unwrap();
        assert!(only_step(&pos, m));
        let mut steps: Vec<Move> = pos.legal_moves().iter().map(|l| l.without_captures()).collect();
        steps.dedup();
        assert!(steps.len() <= FEW_STEPS, "{} steps", steps.len());
        for other in steps.into_iter().filter(|&l| l != m) {
            assert!(!only_step(&pos, other), "{other} loses a stone or the game");
        }
        // With pale's e2 gone, dark has another step that loses nothing.
        let freer = arcade("1WBW2/1WBBW1/1BWB2/WBWW1B/1WBBW1 b 0 0 4");
        assert!(!only_step(&freer, freer.parse_move("d3-e3").unwrap()));
    }

    #[test]
    fn the_new_themes_are_named_and_rated() {
        assert_eq!(Theme::SaveRow.to_string(), "save-row");
        assert_eq!(Theme::OnlyStep.to_string(), "only-step");
        assert_eq!(Theme::SaveRow.difficulty(), 2);
        assert_eq!(Theme::OnlyStep.difficulty(), 1);
    }
}
