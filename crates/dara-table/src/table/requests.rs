//! What the players ask of each other: a draw (offered, declined, withdrawn), a takeback in a
//! game against the computer, a rematch.

use dara::record::GameResult;
use dara::Colour;

use super::{Table, MAX_TAKEBACKS};
use crate::effect::Effect;
use crate::event::{EndReason, GameEvent};
use crate::game_id::GameId;
use crate::moment::Moment;
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

    /// Against the computer: back to the player's previous turn, undoing the computer's reply
    /// too (or only the player's move, if the computer has not answered yet).
    pub(super) fn take_back(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        if !self.against_computer(colour) {
            return Err(Refusal::TakebacksAgainstComputerOnly);
        }
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
        let first_undone = self
            .played
            .movers()
            .iter()
            .rposition(|c| *c == colour)
            .ok_or(Refusal::NothingToTakeBack)?;
        let standing_offer = self.offers.draw().is_some();
        self.room_for(1 + usize::from(standing_offer))?;
        let plies = self.played.moves().len() - first_undone;
        // A draw offered to the computer before offers to it were refused (a game taken up from
        // an older journal) goes with the position it was offered in.
        if standing_offer {
            self.record(GameEvent::DrawDeclined { by: !colour }, now);
        }
        // Calls off the search for the position taken back, freeing its thread at once.
        self.call_off();
        let reopened = self.ending.is_some();
        self.record(GameEvent::TookBack { plies }, now);
        if reopened {
            self.effects.push(Effect::Reopened);
        }
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
