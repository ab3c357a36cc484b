//! What one player offers and the other answers: a draw (one standing offer at a time; an
//! offer turned down or withdrawn is not made again by the same player before both sides have
//! moved), a takeback asked of a person (one standing request at a time, lapsing with any turn;
//! at most [`MAX_TAKEBACKS_ASKED`] a player in a game, and after one is turned down or withdrawn
//! none again before a turn is played), a rematch (asked once; the computer always agrees).

use dara::{ByColour, Colour};

use crate::game_id::GameId;

/// Takebacks one player may ask of the other in one game, whatever the answers: enough to
/// undo a slip of the hand or two, as lichess allows, and few enough that asking does not
/// become a way of interrupting the opponent's thinking over and over.
pub const MAX_TAKEBACKS_ASKED: u32 = 3;

/// The offers at one table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offers {
    draw: Option<Colour>,
    /// For a player whose last draw offer was turned down or withdrawn: which sides have moved
    /// since. They may offer again once both have.
    draw_barred: ByColour<Option<ByColour<bool>>>,
    rematch: Option<Colour>,
    rematch_game: Option<GameId>,
    /// Who asks the opponent to take back a move, if anyone.
    takeback: Option<Colour>,
    /// How many takebacks each player has asked for in this game.
    takebacks_asked: ByColour<u32>,
    /// Whose last takeback request was turned down or withdrawn with no turn played since.
    takeback_barred: ByColour<bool>,
}

impl Offers {
    /// Who offers a draw, if anyone.
    pub fn draw(&self) -> Option<Colour> {
        self.draw
    }

    /// Whether `colour`'s last draw offer was turned down or withdrawn and both sides have not
    /// moved since.
    pub fn draw_barred(&self, colour: Colour) -> bool {
        self.draw_barred[colour].is_some()
    }

    /// Who asks for a rematch, if anyone.
    pub fn rematch(&self) -> Option<Colour> {
        self.rematch
    }

    /// The rematch, once it began.
    pub fn rematch_game(&self) -> Option<&GameId> {
        self.rematch_game.as_ref()
    }

    /// Who asks the opponent to take back a move, if anyone.
    pub fn takeback(&self) -> Option<Colour> {
        self.takeback
    }

    /// How many takebacks `colour` has asked for in this game.
    pub fn takebacks_asked(&self, colour: Colour) -> u32 {
        self.takebacks_asked[colour]
    }

    /// Whether `colour`'s last takeback request was turned down or withdrawn and no turn has
    /// been played since.
    pub fn takeback_barred(&self, colour: Colour) -> bool {
        self.takeback_barred[colour]
    }

    /// `by` offers a draw.
    pub(crate) fn draw_offered(&mut self, by: Colour) {
        self.draw = Some(by);
    }

    /// The draw on offer, made by `offerer`, was turned down or withdrawn.
    pub(crate) fn draw_refused(&mut self, offerer: Colour) {
        self.draw = None;
        self.draw_barred[offerer] = Some(ByColour::default());
    }

    /// The draw on offer lapses without barring anyone (the game ended, or went back).
    pub(crate) fn draw_lapses(&mut self) -> Option<Colour> {
        self.draw.take()
    }

    /// `by` asks the opponent to take back a move.
    pub(crate) fn takeback_asked(&mut self, by: Colour) {
        self.takeback = Some(by);
        self.takebacks_asked[by] += 1;
    }

    /// The takeback asked by `asker` was turned down or withdrawn.
    pub(crate) fn takeback_refused(&mut self, asker: Colour) {
        self.takeback = None;
        self.takeback_barred[asker] = true;
    }

    /// The takeback asked for lapses without barring anyone (it was granted, or the game ended).
    pub(crate) fn takeback_lapses(&mut self) -> Option<Colour> {
        self.takeback.take()
    }

    /// `mover` played a turn: it declines the draw on offer (without barring its maker), and
    /// counts towards lifting the bars; a takeback asked for lapses, the position it was asked
    /// in being gone, and whoever was refused one may ask again.
    pub(crate) fn moved(&mut self, mover: Colour) {
        self.draw = None;
        self.takeback = None;
        self.takeback_barred = ByColour::default();
        for barred in Colour::ALL {
            if let Some(moved) = self.draw_barred[barred].as_mut() {
                moved[mover] = true;
                if moved.white && moved.black {
                    self.draw_barred[barred] = None;
                }
            }
        }
    }

    /// `by` asks for a rematch.
    pub(crate) fn rematch_asked(&mut self, by: Colour) {
        self.rematch = Some(by);
    }

    /// The rematch began as `game`.
    pub(crate) fn rematch_started(&mut self, game: GameId) {
        self.rematch = None;
        self.rematch_game = Some(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_offer_is_barred_until_both_sides_moved() {
        let mut offers = Offers::default();
        offers.draw_offered(Colour::White);
        offers.draw_refused(Colour::White);
        assert!(offers.draw_barred(Colour::White));
        assert!(!offers.draw_barred(Colour::Black));
        offers.moved(Colour::White);
        offers.moved(Colour::White);
        assert!(offers.draw_barred(Colour::White), "one side moving twice is not both");
        offers.moved(Colour::Black);
        assert!(!offers.draw_barred(Colour::White));
    }

    #[test]
    fn a_refused_takeback_is_barred_until_a_turn_and_each_request_counts() {
        let mut offers = Offers::default();
        offers.takeback_asked(Colour::Black);
        offers.takeback_refused(Colour::Black);
        assert!(offers.takeback_barred(Colour::Black));
        assert!(!offers.takeback_barred(Colour::White));
        offers.moved(Colour::White);
        assert!(!offers.takeback_barred(Colour::Black), "any turn lifts the bar");
        offers.takeback_asked(Colour::Black);
        offers.moved(Colour::Black);
        assert_eq!(offers.takeback(), None, "a turn makes the request lapse");
        assert_eq!(offers.takebacks_asked(Colour::Black), 2);
        assert_eq!(offers.takebacks_asked(Colour::White), 0);
    }
}
