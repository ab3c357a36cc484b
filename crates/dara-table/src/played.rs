//! What has been played: the start, every turn, the position they lead to and its legal turns.
//! The legal turns are listed once per position, when it is reached: that one list checks the
//! next turn and is sent to the page, so a turn costs one generation however it is used.

use dara::{Colour, IllegalMoveError, Move, MoveError, MoveList, Position};

/// The course of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// Hashes of every position before the current one, for the engine's repetition checks.
    hashes: Vec<u64>,
    legal: MoveList,
}

impl Played {
    /// Nothing played yet from `start`.
    pub fn new(start: Position) -> Played {
        // Grown to fit rather than `legal_moves`'s room for 64: an idle game keeps this list,
        // and an opening's 30 placements fit in half of that.
        let mut legal = MoveList::new();
        start.legal_moves_into(&mut legal);
        Played { pos: start.clone(), start, moves: Vec::new(), hashes: Vec::new(), legal }
    }

    /// The position now.
    pub fn pos(&self) -> &Position {
        &self.pos
    }

    /// Every turn so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Hashes of the positions before this one.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The legal turns now.
    pub fn legal(&self) -> &MoveList {
        &self.legal
    }

    /// The legal turn `text` names here.
    ///
    /// # Errors
    /// The rules' reason when the text is not notation or not a legal turn.
    pub fn resolve(&self, text: &str) -> Result<Move, MoveError> {
        self.pos.parse_move_in(text, &self.legal)
    }

    /// Plays `m`, which must be one of [`Played::legal`]; a turn that is not changes nothing.
    ///
    /// # Errors
    /// The rules' reason when `m` is not legal here.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        let before = self.pos.hash();
        self.pos.play_listed(m, &self.legal)?;
        self.hashes.push(before);
        self.moves.push(m);
        self.pos.legal_moves_into(&mut self.legal);
        Ok(())
    }

    /// Who played each turn. Replayed, because the movement phase always opens with the pale
    /// stones, so turns need not alternate across the change of phase.
    pub fn movers(&self) -> Vec<Colour> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|m| {
                let side = pos.side();
                pos.play_unchecked(*m);
                side
            })
            .collect()
    }

    /// Undoes the last `plies` turns.
    pub fn take_back(&mut self, plies: usize) {
        let kept = self.moves.len().saturating_sub(plies);
        self.moves.truncate(kept);
        self.hashes.truncate(kept);
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.play_unchecked(*m);
        }
        self.pos = pos;
        self.pos.legal_moves_into(&mut self.legal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_illegal_turn_changes_nothing() {
        let mut played = Played::new(Position::start("arcade".parse().unwrap()));
        let c3 = played.resolve("c3").unwrap();
        played.play(c3).unwrap();
        let before = (played.pos().clone(), played.hashes().to_vec(), played.moves().to_vec());
        let refused = played.play(c3).unwrap_err();
        assert!(refused.to_string().contains("c3"), "{refused}");
        assert_eq!(
            (played.pos().clone(), played.hashes().to_vec(), played.moves().to_vec()),
            before
        );
    }

    #[test]
    fn a_takeback_comes_back_to_the_same_game() {
        let mut played = Played::new(Position::start("arcade".parse().unwrap()));
        played.play(played.resolve("c3").unwrap()).unwrap();
        let before = (played.pos().clone(), played.hashes().to_vec(), played.legal().clone());
        played.play(played.resolve("d3").unwrap()).unwrap();
        assert_eq!(played.movers(), [Colour::White, Colour::Black]);
        played.take_back(1);
        assert_eq!(
            (played.pos().clone(), played.hashes().to_vec(), played.legal().clone()),
            before
        );
    }
}
