//! The game's course at the table: a seat taken, a turn played, and the ways a game ends
//! (the rules, a resignation, a flag, a claim against a player who left).

use std::time::Duration;

use dara::record::GameResult;
use dara::{Colour, Move, MoveError};

use super::{side_has_moved, Checked, Table};
use crate::clock::Clock;
use crate::effect::Effect;
use crate::ending::by_the_rules;
use crate::event::{EndReason, GameEvent};
use crate::input::Reply;
use crate::moment::Moment;
use crate::refusal::Refusal;
use crate::seat::Seat;
use crate::settings::Opponent;

impl<K> Table<K> {
    /// The free seat, taken by `key`: the clock starts once both are held.
    pub(super) fn sit(
        &mut self,
        now: Moment,
        by: Option<Colour>,
        key: K,
    ) -> Result<Colour, Refusal> {
        if by.is_some() {
            return Err(Refusal::AlreadySeated);
        }
        let Some(colour) = self.free_seat() else {
            return Err(match self.settings.opponent {
                Opponent::Open => Refusal::TableTaken,
                _ => Refusal::SeatsTaken,
            });
        };
        self.seats[colour] = Seat::Human(key);
        self.start_if_ready(now);
        let left = self.clock.as_ref().map(|c| c.left(now));
        self.record(GameEvent::Seated { colour, left }, now);
        self.effects.push(Effect::SeatTaken);
        Ok(colour)
    }

    pub(super) fn turn(
        &mut self,
        now: Moment,
        by: Option<Colour>,
        id: u64,
        text: &str,
        lag: Option<Duration>,
    ) -> Result<Reply, Refusal> {
        let m = match self.check_turn(by, id, text)? {
            Checked::Resent => return Ok(Reply::Accepted { id }),
            Checked::New(m) => m,
        };
        let colour = self.played.pos().side();
        if let Some(lag) = lag {
            self.lag[colour] = lag;
        }
        self.play(now, colour, m, Some(id))?;
        Ok(Reply::Accepted { id })
    }

    /// Plays `m` for `colour`, the side to move (`turn` being its id from the player's page):
    /// clock, event, end of game. A turn the position does not allow changes nothing, not even
    /// the clock.
    pub(super) fn play(
        &mut self,
        now: Moment,
        colour: Colour,
        m: Move,
        turn: Option<u64>,
    ) -> Result<(), Refusal> {
        if !self.played.legal().contains(&m) {
            // Checked before the clock is punched, so a refused turn costs nothing.
            let error = self.played.play(m).expect_err("a turn outside the legal list");
            return Err(Refusal::illegal_move(MoveError::Illegal(error)));
        }
        if let Some(clock) = self.clock.as_mut() {
            if !clock.punch(now, self.lag[colour]) {
                let reason = EndReason::OutOfTime { loser: colour };
                self.finish(now, GameResult::from_winner(!colour), reason);
                return Err(Refusal::OutOfTime);
            }
        }
        let left = self.clock.as_ref().map(|c| c.left(now));
        self.record(GameEvent::Moved { m, left, turn }, now);
        self.next_turn(now);
        if let Some((result, reason)) =
            by_the_rules(self.played.pos().status(), &self.settings.rules)
        {
            self.finish(now, result, reason);
        }
        Ok(())
    }

    /// Ends the game (once): the clock stops, offers lapse, the computer stops thinking.
    pub(super) fn finish(&mut self, now: Moment, result: GameResult, reason: EndReason) {
        if self.ending.is_some() {
            return;
        }
        self.first_move_by = None;
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        let left = self.clock.as_ref().map(|c| c.left(now));
        self.record(GameEvent::Ended { result, reason, left }, now);
        // The computer's answer would come to nothing: free its thread for other games.
        self.call_off();
        self.effects.push(Effect::Ended(now));
    }

    pub(super) fn resign(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        self.ongoing()?;
        self.finish(now, GameResult::from_winner(!colour), EndReason::Resigned { loser: colour });
        Ok(())
    }

    /// Calls the game off, without a result, as if it had never been played: allowed until
    /// both sides have made their first move (lichess's abort), after which one resigns.
    pub(super) fn abort(&mut self, now: Moment, by: Option<Colour>) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        self.ongoing()?;
        if side_has_moved(&self.played) {
            return Err(Refusal::TooLateToAbort);
        }
        self.finish(now, GameResult::Unfinished, EndReason::AbortedBy { by: colour });
        Ok(())
    }

    /// Ends the game when the running clock's time is up.
    pub(super) fn check_flag(&mut self, now: Moment) {
        if self.ending.is_some() {
            return;
        }
        let Some((colour, at)) = self.clock.as_ref().and_then(Clock::flag_at) else { return };
        if now >= at {
            let reason = EndReason::OutOfTime { loser: colour };
            self.finish(now, GameResult::from_winner(!colour), reason);
        }
    }

    /// Claims the win over an opponent who has been gone long enough.
    pub(super) fn claim(
        &mut self,
        now: Moment,
        by: Option<Colour>,
        opponent_away: Option<Duration>,
    ) -> Result<(), Refusal> {
        let colour = Self::player(by)?;
        self.ongoing()?;
        let gone = !colour;
        match opponent_away.filter(|_| self.seats[gone].is_human()) {
            Some(away) if !self.patience.claim_in(away).is_zero() => {
                let seconds = self.patience.claim_in(away).as_secs() + 1;
                Err(Refusal::ClaimTooEarly { seconds })
            }
            Some(_) => {
                self.finish(now, GameResult::from_winner(colour), EndReason::Left { loser: gone });
                Ok(())
            }
            None => Err(Refusal::OpponentPresent),
        }
    }
}
