//! What the players ask of each other: a draw (offered, declined, withdrawn), a takeback (at
//! once against the computer; between people asked, then accepted, declined or withdrawn), a
//! rematch.

use dara::record::GameResult;
use dara::Colour;

use super::{Table, MAX_TAKEBACKS};
use crate::effect::Effect;
use crate::event::{EndReason, GameEvent};
use crate::game_id::GameId;
use crate::moment::Moment;
use crate::offers::MAX_TAKEBACKS_ASKED;
use crate::refusal::Refusal;

impl<K> Table<K> {
    /// Offers a draw, or accepts the one on offer. Never to the computer: it plays every game
    /// out.
    pub(super) fn offer_draw(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        self.ongoing()?;
        if !self.both_seated() {
            return Err(Refusal::NobodyToOffer);
        }
        if self.against_computer(colour) {
            return Err(Refusal::ComputerPlaysOn);
        }
        match self.offers.draw() {
            Some(offerer) if offerer == !colour => {
                self.finish(now, GameResult::Draw, EndReason::Agreement);
            }
            Some(_) => return Err(Refusal::DrawAlreadyOffered),
            None => {
                if self.offers.draw_barred(colour) {
                    return Err(Refusal::DrawOfferedLately);
                }
                self.room_for(1)?;
                self.record(GameEvent::DrawOffered { by: colour }, now);
            }
        }
        Ok(())
    }

    /// Turns down the draw on offer.
    pub(super) fn decline_draw(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        self.ongoing()?;
        if self.offers.draw() != Some(!colour) {
            return Err(Refusal::NoDrawOffered);
        }
        self.record(GameEvent::DrawDeclined { by: colour }, now);
        Ok(())
    }

    /// Takes back the draw the player offered, before the opponent answers it.
    pub(super) fn withdraw_draw(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        self.ongoing()?;
        if self.offers.draw() != Some(colour) {
            return Err(Refusal::NoDrawToWithdraw);
        }
        self.record(GameEvent::DrawWithdrawn { by: colour }, now);
        Ok(())
    }

    /// Back to the player's previous turn: at once against the computer, asked of the opponent
    /// in a game between people.
    pub(super) fn take_back(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        if self.against_computer(colour) {
            self.take_back_from_computer(now, colour)
        } else {
            self.ask_takeback(now, colour)
        }
    }

    /// How many plies go back to `colour`'s previous turn: their last turn, and whatever was
    /// played after it (the opponent's answer).
    fn plies_back_to(&self, colour: Colour) -> Result<usize, Refusal> {
        let first_undone = self
            .played
            .movers()
            .iter()
            .rposition(|c| *c == colour)
            .ok_or(Refusal::NothingToTakeBack)?;
        Ok(self.played.moves().len() - first_undone)
    }

    /// Against the computer: back to the player's previous turn, undoing the computer's reply
    /// too (or only the player's move, if the computer has not answered yet).
    fn take_back_from_computer(&mut self, now: Moment, colour: Colour) -> Result<(), Refusal> {
        if let Some(ending) = &self.ending {
            // After a resignation there is nothing to go back to; after the rules ended the
            // game, the player may still want to try another line.
            if !self.played.pos().is_over() || matches!(ending.result, GameResult::Unfinished) {
                return Err(Refusal::GameOver);
            }
        }
        if self.takebacks >= MAX_TAKEBACKS {
            return Err(Refusal::TakebackLimit { limit: MAX_TAKEBACKS });
        }
        let plies = self.plies_back_to(colour)?;
        let standing_offer = self.offers.draw().is_some();
        self.room_for(1 + usize::from(standing_offer))?;
        // A draw offered to the computer before offers to it were refused (a game taken up from
        // an older journal) goes with the position it was offered in.
        if standing_offer {
            self.record(GameEvent::DrawDeclined { by: !colour }, now);
        }
        // Calls off the search for the position taken back, freeing its thread at once.
        self.call_off();
        let reopened = self.ending.is_some();
        self.record(GameEvent::TookBack { plies, left: None }, now);
        if reopened {
            self.effects.push(Effect::Reopened);
        }
        Ok(())
    }

    /// Between people: asks the opponent to take back the player's last turn (and the
    /// opponent's answer to it, if given), as lichess does. One request stands at a time and
    /// lapses with any turn; each player may ask [`MAX_TAKEBACKS_ASKED`] times a game, and not
    /// again before a turn once one is turned down or withdrawn. Only while the game goes on:
    /// what the rules or a resignation ended stays ended.
    fn ask_takeback(&mut self, now: Moment, colour: Colour) -> Result<(), Refusal> {
        self.ongoing()?;
        if self.offers.takeback().is_some() {
            return Err(Refusal::TakebackPending);
        }
        if self.offers.takeback_barred(colour) {
            return Err(Refusal::TakebackAskedLately);
        }
        if self.offers.takebacks_asked(colour) >= MAX_TAKEBACKS_ASKED {
            return Err(Refusal::TakebacksAskedLimit { limit: MAX_TAKEBACKS_ASKED });
        }
        self.plies_back_to(colour)?;
        if self.takebacks >= MAX_TAKEBACKS {
            return Err(Refusal::TakebackLimit { limit: MAX_TAKEBACKS });
        }
        // Room for the request and for the takeback, should it be granted.
        self.room_for(2)?;
        self.record(GameEvent::TakebackOffered { by: colour }, now);
        Ok(())
    }

    /// Grants the takeback the opponent asked for: the game goes back to the asker's previous
    /// turn, and the asker's clock runs. No time is given back: each clock keeps what it shows
    /// now (lichess does the same), the side to move until now charged for its thinking.
    pub(super) fn accept_takeback(
        &mut self,
        now: Moment,
        by: Option<Colour>,
    ) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        // A flag that fell before the answer came ends the game first.
        self.check_flag(now);
        self.ongoing()?;
        let asker = !colour;
        if self.offers.takeback() != Some(asker) {
            return Err(Refusal::NoTakebackAsked);
        }
        // Any turn makes the request lapse, so the position is the one it was asked in.
        let plies = self.plies_back_to(asker)?;
        self.room_for(1)?;
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        let left = self.clock.as_ref().map(|c| c.left(now));
        self.record(GameEvent::TookBack { plies, left }, now);
        // As after a turn: the side to move's clock runs (unless the clocks are held after a
        // restart), or, taken back to before its first move, its time for that move starts
        // afresh.
        self.first_move_by = None;
        self.start_if_ready(now);
        Ok(())
    }

    /// Ends a standing takeback request without granting it: turned down by the opponent of
    /// whoever asked (`withdrawn` false), or withdrawn by its asker before the opponent answers
    /// (`withdrawn` true).
    pub(super) fn end_takeback(
        &mut self,
        now: Moment,
        by: Option<Colour>,
        withdrawn: bool,
    ) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        self.ongoing()?;
        let asker = if withdrawn { colour } else { !colour };
        if self.offers.takeback() != Some(asker) {
            return Err(Refusal::NoTakebackAsked);
        }
        let event = if withdrawn {
            GameEvent::TakebackWithdrawn { by: colour }
        } else {
            GameEvent::TakebackDeclined { by: colour }
        };
        self.record(event, now);
        Ok(())
    }

    /// Asks for a rematch, or agrees to the one asked for (the computer always agrees).
    pub(super) fn ask_rematch(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        if self.ending.is_none() {
            return Err(Refusal::FinishFirst);
        }
        if self.offers.rematch_game().is_some() {
            return Err(Refusal::RematchBegun);
        }
        match self.offers.rematch() {
            Some(asker) if asker == colour => Err(Refusal::RematchAlreadyAsked),
            Some(_) => {
                self.effects.push(Effect::StartRematch);
                Ok(())
            }
            None if self.against_computer(colour) => {
                self.effects.push(Effect::StartRematch);
                Ok(())
            }
            None => {
                self.room_for(1)?;
                self.record(GameEvent::RematchOffered { by: colour }, now);
                Ok(())
            }
        }
    }

    pub(super) fn rematch_started(&mut self, now: Moment, game: GameId) {
        if self.offers.rematch_game().is_none() {
            self.record(GameEvent::RematchStarted { game }, now);
        }
    }
}
