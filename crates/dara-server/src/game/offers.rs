//! What one player offers and the other answers (or the one who offered withdraws): a draw
//! (the computer agrees when its search finds the position drawn), a takeback (against the
//! computer, which always agrees), a rematch.

use dara::record::GameResult;
use dara::ByColour;
use tokio::time::Instant;

use super::actor::{spawn, Game, Seat, Thinking};
use super::event::{EndReason, GameEvent};
use super::settings::Opponent;
use crate::error::AppError;
use crate::protocol::Refusal;

/// Takebacks one game allows: plenty for someone learning against the computer, and a bound on
/// how long a takeback loop can grow the game's journal.
pub(super) const MAX_TAKEBACKS: u32 = 200;

impl Game {
    /// Offers a draw, or accepts the one on offer.
    pub(super) fn offer_draw(&mut self, seat: Option<dara::Colour>) -> Result<(), Refusal> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        if !self.both_seated() {
            return Err(Refusal::NobodyToOffer);
        }
        match self.draw_offer {
            Some(by) if by == !colour => {
                self.finish(GameResult::Draw, EndReason::Agreement, Instant::now());
            }
            Some(_) => return Err(Refusal::DrawAlreadyOffered),
            None => {
                self.draw_offer = Some(colour);
                self.publish(GameEvent::DrawOffered { by: colour });
                self.ask_computer_about_draw();
            }
        }
        Ok(())
    }

    /// Asks the engine to answer the draw offered to the computer, if one waits for it.
    pub(super) fn ask_computer_about_draw(&mut self) {
        let Some(by) = self.draw_offer else { return };
        if self.ending.is_some() || self.judging.is_some() {
            return;
        }
        let Seat::Computer(level) = self.seats[!by] else { return };
        let Some(shared) = self.shared.upgrade() else { return };
        let (ticket, request) = self.engine_request(level, None);
        let (search, answer) = shared.computer.judge_draw(request);
        self.judging = Some(Thinking { ticket, search });
        let handle = self.handle.clone();
        tokio::spawn(async move {
            if let Some(agrees) = answer.await {
                handle.computer_answered_draw(ticket, agrees).await;
            }
        });
    }

    /// The computer's answer to the draw offered to it: the game ends by agreement, or the
    /// offer is declined in the computer's name.
    pub(super) fn answer_draw(&mut self, agrees: bool) {
        let Some(by) = self.draw_offer else { return };
        if self.ending.is_some() || !self.against_computer(by) {
            return;
        }
        if agrees {
            self.finish(GameResult::Draw, EndReason::Agreement, Instant::now());
        } else {
            self.draw_offer = None;
            self.publish(GameEvent::DrawDeclined { by: !by });
        }
    }

    /// Turns down the draw on offer.
    pub(super) fn decline_draw(&mut self, seat: Option<dara::Colour>) -> Result<(), Refusal> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        if self.draw_offer != Some(!colour) {
            return Err(Refusal::NoDrawOffered);
        }
        self.draw_offer = None;
        self.publish(GameEvent::DrawDeclined { by: colour });
        Ok(())
    }

    /// Takes back the draw the player offered, before the opponent answers it.
    pub(super) fn withdraw_draw(&mut self, seat: Option<dara::Colour>) -> Result<(), Refusal> {
        let colour = self.player(seat)?;
        self.ongoing()?;
        if self.draw_offer != Some(colour) {
            return Err(Refusal::NoDrawToWithdraw);
        }
        self.draw_offer = None;
        self.publish(GameEvent::DrawWithdrawn { by: colour });
        Ok(())
    }

    /// Against the computer: back to the player's previous turn, undoing the computer's reply
    /// too (or only the player's move, if the computer has not answered yet).
    pub(super) fn takeback(&mut self, seat: Option<dara::Colour>) -> Result<(), Refusal> {
        let colour = self.player(seat)?;
        if !self.against_computer(colour) {
            return Err(Refusal::TakebacksAgainstComputerOnly);
        }
        if let Some(e) = &self.ending {
            // After a resignation there is nothing to go back to; after the rules ended the
            // game, the player may still want to try another line.
            if matches!(e.result, GameResult::Unfinished) || !self.played.pos().is_over() {
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
        let plies = self.played.moves().len() - first_undone;
        // The computer had not answered a draw offered in the position taken back: declined.
        if self.draw_offer.take().is_some() {
            self.judging = None;
            self.publish(GameEvent::DrawDeclined { by: !colour });
        }
        self.played.take_back(plies);
        self.takebacks += 1;
        // Calls off the search for the position taken back, freeing its thread at once.
        self.thinking = None;
        if self.ending.take().is_some() {
            if let Some(shared) = self.shared.upgrade() {
                shared.set_finished(&self.id, None);
            }
        }
        self.publish(GameEvent::TookBack { plies });
        self.ask_computer();
        Ok(())
    }

    /// Asks for a rematch, or agrees to the one asked for (the computer always agrees).
    pub(super) fn ask_rematch(&mut self, seat: Option<dara::Colour>) -> Result<(), Refusal> {
        let colour = self.player(seat)?;
        if self.ending.is_none() {
            return Err(Refusal::FinishFirst);
        }
        if self.rematch.is_some() {
            return Err(Refusal::RematchBegun);
        }
        match self.rematch_offer {
            Some(by) if by == colour => Err(Refusal::RematchAlreadyAsked),
            Some(_) => self.start_rematch(),
            None if self.against_computer(colour) => self.start_rematch(),
            None => {
                self.rematch_offer = Some(colour);
                self.publish(GameEvent::RematchOffered { by: colour });
                Ok(())
            }
        }
    }

    /// A new game with the same people, colours swapped: each keeps their own token, so their
    /// browser needs nothing new to take its seat.
    fn start_rematch(&mut self) -> Result<(), Refusal> {
        // A server that is stopping cannot keep a new game: said as such a refusal is.
        let shared =
            self.shared.upgrade().ok_or_else(|| Refusal::rematch_unavailable(&AppError::Unkept))?;
        let seats = ByColour { white: self.seats.black.clone(), black: self.seats.white.clone() };
        let mut settings = self.settings.clone();
        // A rematch is between these two people: it is not listed in the lobby.
        if settings.opponent == Opponent::Open {
            settings.opponent = Opponent::Friend;
        }
        settings.creator = !settings.creator;
        // Not waited for: the store commits the new game before anything this one stores
        // after it, so the rematch this game names is always there.
        let (handle, _) = spawn(&shared, settings, seats, self.asked_from)
            .map_err(|e| Refusal::rematch_unavailable(&e))?;
        self.rematch = Some(handle.id.clone());
        self.rematch_offer = None;
        self.publish(GameEvent::RematchStarted { game: handle.id.clone() });
        Ok(())
    }
}
