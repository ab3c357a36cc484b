//! A player's sheet: one mark for each game that counted, and the points it scored. The rules
//! are lichess's arena scoring (lila `modules/tournament/src/main/arena/ArenaSheet.scala`), so a
//! lichess player reads the standings without being taught:
//!
//! | the game | points |
//! | --- | --- |
//! | a win | 2 |
//! | a draw | 1 |
//! | a loss | 0 |
//! | a win or a draw on fire (the two games before were wins) | doubled: 4, or 2 |
//! | a win after going berserk, with at least [`BERSERK_MOVES`] moves of one's own | one more |
//! | a draw in fewer than [`QUICK_DRAW_PLIES`] plies | 0 |
//!
//! The fire goes out with anything but a win: a loss, a draw (which still scores double when
//! it comes on fire), a quick draw. It comes back after two wins in a row.

use serde::{Deserialize, Serialize};

/// A draw in fewer plies than this (turns of either side; in Dara a placement, a step or a
/// pass is one ply) scores nothing. lichess counts "turns", which are plies, and sets 20: a
/// draw before each side has made ten moves. In Dara that is a draw agreed before the
/// placement phase (twelve stones each) is even over: a draw arranged, not played.
pub const QUICK_DRAW_PLIES: u32 = 20;

/// Going berserk adds a point to a win only if the berserker made at least this many moves of
/// their own (the rule). lichess asks 14 plies of the game, which is the same for the
/// second player and one ply fewer for the first: counting one's own moves is the rule a
/// player can check on their own side of the board.
pub const BERSERK_MOVES: u32 = 7;

/// How a game that counted finished for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finish {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// One game on a player's sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mark {
    /// How the game finished for the player.
    pub finish: Finish,
    /// What it scored.
    pub points: u32,
    /// It came on fire and was doubled.
    pub doubled: bool,
    /// The player went berserk in it (whether or not it earned the extra point).
    pub berserk: bool,
}

/// What a player's game brings to the sheet, from the player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// How it finished for the player.
    pub finish: Finish,
    /// Plies played in the game, both sides.
    pub plies: u32,
    /// Moves the player made.
    pub own_moves: u32,
    /// The player went berserk.
    pub berserk: bool,
}

/// A player's marks, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Sheet {
    marks: Vec<Mark>,
}

impl Sheet {
    /// On fire: the last two games were wins, so the next win or draw counts double.
    pub fn on_fire(&self) -> bool {
        let n = self.marks.len();
        n >= 2 && self.marks[n - 2..].iter().all(|m| m.finish == Finish::Win)
    }

    /// The mark `game` would score next.
    pub fn mark_for(&self, game: Game) -> Mark {
        let fire = self.on_fire();
        let (base, doubled) = match game.finish {
            Finish::Win if fire => (4, true),
            Finish::Win => (2, false),
            Finish::Draw if game.plies < QUICK_DRAW_PLIES => (0, false),
            Finish::Draw if fire => (2, true),
            Finish::Draw => (1, false),
            Finish::Loss => (0, false),
        };
        let bonus = game.finish == Finish::Win && game.berserk && game.own_moves >= BERSERK_MOVES;
        Mark {
            finish: game.finish,
            points: base + u32::from(bonus),
            doubled,
            berserk: game.berserk,
        }
    }

    /// Adds a game; returns its mark.
    pub fn add(&mut self, game: Game) -> Mark {
        let mark = self.mark_for(game);
        self.marks.push(mark);
        mark
    }

    /// The points of every game.
    pub fn total(&self) -> u32 {
        self.marks.iter().map(|m| m.points).sum()
    }

    /// The marks, oldest first.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// Games won.
    pub fn wins(&self) -> u32 {
        self.count(|m| m.finish == Finish::Win)
    }

    /// Games in which the player went berserk.
    pub fn berserks(&self) -> u32 {
        self.count(|m| m.berserk)
    }

    fn count(&self, f: impl Fn(&Mark) -> bool) -> u32 {
        u32::try_from(self.marks.iter().filter(|m| f(m)).count()).unwrap_or(u32::MAX)
    }

    /// The points, game by game, as lichess writes a sheet: `2 4 4 0 1` reads `24401`; a
    /// score of ten or more is written whole, so games are spaced here.
    pub fn points_text(&self) -> String {
        let points: Vec<String> = self.marks.iter().map(|m| m.points.to_string()).collect();
        points.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(finish: Finish) -> Game {
        Game { finish, plies: 60, own_moves: 30, berserk: false }
    }

    fn sheet_of(finishes: &[Finish]) -> Sheet {
        let mut sheet = Sheet::default();
        for &f in finishes {
            sheet.add(game(f));
        }
        sheet
    }

    use Finish::{Draw, Loss, Win};

    #[test]
    fn a_win_scores_2_a_draw_1_a_loss_0() {
        assert_eq!(sheet_of(&[Win]).total(), 2);
        assert_eq!(sheet_of(&[Draw]).total(), 1);
        assert_eq!(sheet_of(&[Loss]).total(), 0);
    }

    #[test]
    fn after_two_wins_a_win_scores_4() {
        assert_eq!(sheet_of(&[Win, Win, Win, Win]).points_text(), "2 2 4 4");
        assert!(sheet_of(&[Win, Win]).on_fire());
        assert!(!sheet_of(&[Win]).on_fire());
    }

    #[test]
    fn after_two_wins_a_draw_scores_2_and_puts_the_fire_out() {
        let sheet = sheet_of(&[Win, Win, Draw]);
        assert_eq!(sheet.points_text(), "2 2 2");
        assert!(sheet.marks()[2].doubled);
        assert!(!sheet.on_fire());
        assert_eq!(sheet_of(&[Win, Win, Draw, Win]).points_text(), "2 2 2 2");
    }

    #[test]
    fn a_loss_puts_the_fire_out_and_two_wins_light_it_again() {
        assert_eq!(sheet_of(&[Win, Win, Win, Loss, Win, Win, Win]).points_text(), "2 2 4 0 2 2 4");
    }

    #[test]
    fn a_draw_between_wins_is_no_streak() {
        assert_eq!(sheet_of(&[Win, Draw, Win, Win]).points_text(), "2 1 2 2");
    }

    #[test]
    fn berserk_adds_a_point_to_a_win_of_seven_own_moves() {
        let mut sheet = Sheet::default();
        let berserk =
            |own_moves| Game { finish: Win, plies: 2 * own_moves, own_moves, berserk: true };
        assert_eq!(sheet.add(berserk(7)).points, 3);
        assert_eq!(sheet.add(berserk(6)).points, 2);
        // On fire: 4 and the berserk point.
        assert_eq!(sheet.add(berserk(40)).points, 5);
    }

    #[test]
    fn berserk_adds_nothing_to_a_draw_or_a_loss() {
        let mut sheet = Sheet::default();
        let mark = sheet.add(Game { finish: Draw, plies: 60, own_moves: 30, berserk: true });
        assert_eq!((mark.points, mark.berserk), (1, true));
        assert_eq!(
            sheet.add(Game { finish: Loss, plies: 60, own_moves: 30, berserk: true }).points,
            0
        );
        assert_eq!(sheet.berserks(), 2);
    }

    #[test]
    fn a_draw_in_fewer_than_20_plies_scores_nothing() {
        let mut sheet = Sheet::default();
        assert_eq!(
            sheet.add(Game { finish: Draw, plies: 19, own_moves: 10, berserk: false }).points,
            0
        );
        assert_eq!(
            sheet.add(Game { finish: Draw, plies: 20, own_moves: 10, berserk: false }).points,
            1
        );
        // Even on fire.
        let mut hot = sheet_of(&[Win, Win]);
        assert_eq!(
            hot.add(Game { finish: Draw, plies: 3, own_moves: 2, berserk: false }).points,
            0
        );
        assert!(!hot.on_fire());
    }
}
