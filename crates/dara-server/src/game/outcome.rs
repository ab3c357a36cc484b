//! What the table's outcomes become in the server: its new events told (once stored), its
//! effects carried out (the engine asked or called off, the lobby and the registry told, a
//! rematch started).

use dara::ByColour;
use dara_table::{Effect, GameEvent, Input, Outcome, Reply, Think};

use super::actor::{spawn_in, Game};
use super::computer::Request;
use super::settings::Opponent;
use crate::error::AppError;
use crate::protocol::Refusal;

impl Game {
    /// Tells what the outcome recorded and carries out its effects; the table's reply, or why
    /// what was asked could not be done after all (a rematch the server could not start).
    pub(super) fn carry_out(&mut self, outcome: Outcome) -> Result<Reply, Refusal> {
        let Outcome { reply, events, effects } = outcome;
        for v in events {
            let event = &self.table.journal()[(v - 1) as usize];
            if matches!(event, GameEvent::Moved { .. }) {
                if let Some(host) = self.host.upgrade() {
                    host.metrics().turns.inc();
                }
            }
            self.tell_event(v);
        }
        let mut reply = reply.map_err(Refusal::from);
        for effect in effects {
            match effect {
                Effect::Think(think) => self.think(think),
                Effect::CallOff(ticket) => {
                    if self.thinking.as_ref().is_some_and(|(t, _)| *t == ticket) {
                        // Dropping the search calls it off, freeing its thread at once.
                        self.thinking = None;
                    }
                }
                Effect::SeatTaken => {
                    self.seats_changed = true;
                    if let Some(host) = self.host.upgrade() {
                        host.lobby().close(&self.id);
                    }
                    self.announce_presence();
                }
                Effect::Ended(at) => {
                    if let Some(host) = self.host.upgrade() {
                        host.lobby().close(&self.id);
                        host.set_finished(&self.id, self.handle.life(), Some(self.instant(at)));
                    }
                }
                Effect::Reopened => {
                    if let Some(host) = self.host.upgrade() {
                        host.set_finished(&self.id, self.handle.life(), None);
                    }
                }
                Effect::StartRematch => {
                    if let Err(refusal) = self.start_rematch() {
                        reply = Err(refusal);
                    }
                }
            }
        }
        reply
    }

    /// Asks the engine for the computer's move.
    fn think(&mut self, think: Think) {
        let Some(host) = self.host.upgrade() else { return };
        let Think { ticket, level, pos, history } = think;
        let request = Request {
            pos,
            history,
            level,
            client: self.asked_from,
            tell: Some(self.watchers.clone()),
        };
        let (search, answer) = host.computer().think(request);
        self.thinking = Some((ticket, search));
        let handle = self.handle.clone();
        tokio::spawn(async move {
            if let Some(m) = answer.await {
                handle.computer_moved(ticket, m).await;
            }
        });
    }

    /// A new game with the same people, colours swapped: each keeps their own token, so their
    /// browser needs nothing new to take its seat.
    fn start_rematch(&mut self) -> Result<(), Refusal> {
        // A server that is stopping cannot keep a new game: said as such a refusal is.
        let host =
            self.host.upgrade().ok_or_else(|| Refusal::rematch_unavailable(AppError::Unkept))?;
        let seats = self.table.seats();
        let seats = ByColour { white: seats.black.clone(), black: seats.white.clone() };
        let mut settings = self.table.settings().clone();
        // A rematch is between these two people: it is not listed in the lobby.
        if settings.opponent == Opponent::Open {
            settings.opponent = Opponent::Friend;
        }
        settings.creator = !settings.creator;
        // Not waited for: the store commits the new game before anything this one stores
        // after it, so the rematch this game names is always there.
        let (handle, _) = spawn_in(&*host, self.host.clone(), settings, seats, self.asked_from)
            .map_err(Refusal::rematch_unavailable)?;
        let outcome = self.table.handle(self.now(), Input::RematchStarted { game: handle.id });
        self.carry_out(outcome).map(|_| ())
    }
}
