//! A game taken up again after a restart, rebuilt from what the store kept: its settings, its
//! seats, and its journal replayed through the rules. The time the server was down is charged
//! to nobody: the clocks stay stopped until the side to move is back (or a minute has passed),
//! and the timers that wait for people (to claim, to forget) start afresh.

use std::sync::Arc;
use std::time::Duration;

use dara::{Colour, Position};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::actor::{Game, Seat};
use super::clock::Clock;
use super::ending::Ending;
use super::event::GameEvent;
use super::GameHandle;
use crate::state::AppState;
use crate::store::{StoredGame, Unreadable};

/// How long the clocks of a game taken up again wait for the side to move to come back before
/// they run anyway (a player who never returns must not hold the game forever).
pub const CLOCKS_HELD_FOR: Duration = Duration::from_secs(60);

/// Takes up a stored game: rebuilds it, registers it and starts it with its actor (the computer
/// is asked again if it is the computer's turn).
///
/// # Errors
/// The stored game does not replay: a setting, a seat or a turn this release cannot read.
pub fn restore(state: &AppState, stored: StoredGame) -> Result<GameHandle, Unreadable> {
    let settings = stored.record.settings()?;
    let seats = stored.seats.seats()?;
    let (tx, rx) = mpsc::channel(64);
    let handle = GameHandle::new(stored.id.clone(), tx);
    let mut game =
        Game::new(stored.id.clone(), Arc::downgrade(state), &handle, settings, seats, None)
            .kept(state.store.clone(), state.seat_key.clone());
    game.date = stored.record.date.clone();
    game.replay_stored(stored.events)?;
    state.register(handle.clone(), None).map_err(|e| Unreadable(e.reason()))?;
    if let Some(ending) = &game.ending {
        state.set_finished(&game.id, Some(ending.at));
    }
    handle.start(game, rx);
    Ok(handle)
}

impl Game {
    /// Replays a stored journal: the turns through the rules, the clocks as last written, the
    /// offers and the ending as they stood.
    fn replay_stored(&mut self, events: Vec<GameEvent>) -> Result<(), Unreadable> {
        let now = Instant::now();
        self.played = super::played::Played::new(Position::start(self.settings.rules));
        let control = self.settings.clock;
        let resume = |left| control.zip(left).map(|(c, l)| Clock::resumed(c, l));
        for event in &events {
            match *event {
                GameEvent::Seated { left, .. } => {
                    if let Some(clock) = resume(left) {
                        self.clock = Some(clock);
                    }
                }
                GameEvent::Moved { m, left, turn } => {
                    let side = self.played.pos().side();
                    self.played
                        .play(m)
                        .map_err(|e| Unreadable(format!("game {}: turn {m}: {e}", self.id)))?;
                    if let Some(id) = turn {
                        self.last_turn[side] = Some((id, m));
                    }
                    self.draw_offer = None;
                    if let Some(clock) = resume(left) {
                        self.clock = Some(clock);
                    }
                }
                GameEvent::TookBack { plies } => {
                    self.played.take_back(plies);
                    self.takebacks += 1;
                    self.ending = None;
                }
                GameEvent::DrawOffered { by } => self.draw_offer = Some(by),
                GameEvent::DrawDeclined { .. } | GameEvent::DrawWithdrawn { .. } => {
                    self.draw_offer = None;
                }
                GameEvent::RematchOffered { by } => self.rematch_offer = Some(by),
                GameEvent::RematchStarted { ref game } => {
                    self.rematch = Some(game.clone());
                    self.rematch_offer = None;
                }
                GameEvent::Ended { result, reason, left } => {
                    // Forgotten a full grace after the restart, like any game just ended.
                    self.ending = Some(Ending { result, reason, at: now });
                    self.draw_offer = None;
                    if let Some(clock) = resume(left) {
                        self.clock = Some(clock);
                    }
                }
            }
        }
        self.journal = events;
        self.stored = self.journal.len();
        // Nobody is connected yet: whoever is not back within the claim time may be claimed
        // against, counted from now.
        self.created = now;
        self.crowd = super::presence::Crowd::new(now);
        for colour in Colour::ALL {
            if matches!(self.seats[colour], Seat::Human(_)) {
                self.crowd.away_from(colour, now);
            }
        }
        if self.ending.is_none() && self.clock.is_some() && self.both_seated() {
            self.held_until = Some(now + CLOCKS_HELD_FOR);
        }
        Ok(())
    }

    /// The clocks run again: the side to move is back, or has been waited for long enough.
    pub(super) fn release_clocks(&mut self, now: Instant) {
        if self.held_until.take().is_some() {
            self.start_if_ready(now);
        }
    }

    /// Lets the clocks run when they have been held long enough.
    pub(super) fn release_clocks_if_due(&mut self, now: Instant) {
        if self.held_until.is_some_and(|until| now >= until) {
            self.release_clocks(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Weak;

    use dara::ByColour;

    use super::*;
    use crate::game::clock::TimeControl;
    use crate::game::settings::{GameSettings, Opponent};
    use crate::seat::{GameId, SeatKey};
    use crate::store::Store;

    fn game(key: &SeatKey) -> Game {
        let id = GameId::random();
        let handle = GameHandle::new(id.clone(), mpsc::channel(1).0);
        let settings = GameSettings {
            rules: "arcade".parse().unwrap(),
            opponent: Opponent::Friend,
            creator: Colour::White,
            clock: Some(TimeControl { initial: 60, increment: 0 }),
        };
        let seats =
            ByColour { white: Seat::Human(key.hash("pale")), black: Seat::Human(key.hash("dark")) };
        Game::new(id, Weak::new(), &handle, settings, seats, None).kept(Store::Memory, key.clone())
    }

    /// After a restart the clocks wait for the side to move, but not for ever: a minute.
    #[tokio::test(start_paused = true)]
    async fn held_clocks_run_after_a_minute_or_when_the_mover_is_back() {
        let key = SeatKey::random();
        let mut before = game(&key);
        before.start_if_ready(Instant::now());
        tokio::time::advance(Duration::from_secs(5)).await;
        assert!(matches!(
            before.turn(Some(Colour::White), 1, "c3"),
            crate::protocol::Answer::Accepted { .. }
        ));

        for mover_returns in [false, true] {
            let mut after = game(&key);
            after.replay_stored(before.journal.clone()).unwrap();
            let clock = after.clock.as_ref().unwrap();
            assert_eq!(clock.running(), None);
            assert_eq!(clock.left(Instant::now()).white, 55_000);
            // The player not to move comes back: still held.
            let _ = after.hello(Some("pale"), None);
            assert_eq!(after.clock.as_ref().unwrap().running(), None);
            if mover_returns {
                let _ = after.hello(Some("dark"), None);
                assert_eq!(after.clock.as_ref().unwrap().running(), Some(Colour::Black));
            } else {
                tokio::time::advance(CLOCKS_HELD_FOR - Duration::from_millis(1)).await;
                after.release_clocks_if_due(Instant::now());
                assert_eq!(after.clock.as_ref().unwrap().running(), None);
                tokio::time::advance(Duration::from_millis(1)).await;
                after.release_clocks_if_due(Instant::now());
                assert_eq!(after.clock.as_ref().unwrap().running(), Some(Colour::Black));
            }
            assert_eq!(after.last_turn.white, Some((1, after.played.moves()[0])));
        }
    }
}
