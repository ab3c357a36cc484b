//! What one player offers and the other answers: a draw (one standing offer at a time; an
//! offer turned down or withdrawn is not made again by the same player before both sides have
//! moved), a rematch (asked once; the computer always agrees).

use dara::{ByColour, Colour};

use crate::game_id::GameId;

/// The offers at one table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offers {
    draw: Option<Colour>,
    /// For a player whose last draw offer was turned down or withdrawn: which sides have moved
    /// since. They may offer again once both have.
    draw_barred: ByColour<Option<ByColour<bool>>>,
    rematch: Option<Colour>,
    rematch_game: Option<GameId>,
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

    /// `mover` played a turn: it declines the draw on offer (without barring its maker), and
    /// counts towards lifting the bars.
    pub(crate) fn moved(&mut self, mover: Colour) {
        self.draw = None;
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
}
