//! Who is at the game: players' connections, watchers, who has gone and since when, and what
//! follows from it: taking the free seat, the lobby's listing, and claiming a game the opponent
//! has left.

use dara::Colour;
use dara_table::{Ask, Reply};
use tokio::time::Instant;

use super::actor::Game;
use super::handle::{SitRefused, Welcome};
use super::settings::Opponent;
use crate::duration::millis;
use crate::protocol::{Answer, OpenTable, PresenceView, Refusal, SeatPresence, Wire, WireAnswer};
use crate::seat::Seat;
use crate::seat::{SeatHash, SeatToken};

impl Game {
    pub(super) fn hello(&mut self, token: Option<&str>, since: Option<u64>) -> Welcome {
        let seat = token.and_then(|t| self.seat_of(t));
        // After a restart the clocks wait for the side to move.
        if seat.is_some() {
            let _ = self.ask(seat, Ask::Back);
        }
        let mut messages = Vec::new();
        if token.is_some() && seat.is_none() {
            messages.push(Answer::Error(Refusal::NotYourSeatLink.into()).wire());
        }
        messages.extend(self.catch_up(seat, since));
        // Subscribed here, under the game's lock, so that the first event the connection hears
        // is the one after what it was just sent.
        let events = self.watchers.subscribe();
        let number = self.crowd.number();
        if let Some(colour) = seat {
            self.seat_connection(colour, number);
        }
        if self.crowd.arrive(seat) {
            self.announce_presence();
        } else if seat.is_none() {
            self.watchers_changed();
        }
        self.relist();
        messages.push(self.presence());
        // Read after subscribing: a place told meanwhile is heard again, never missed.
        if let Some(ahead) = self.thinking.as_ref().and_then(|(_, search)| search.ahead()) {
            messages.push(Answer::Queue { ahead }.wire());
        }
        Welcome { seat, number, messages, events }
    }

    /// Connection `number` holds `colour`'s seat; the oldest of that seat's connections is
    /// closed if there are now too many.
    fn seat_connection(&mut self, colour: Colour, number: u32) {
        if let Some(replaced) = self.crowd.seat(colour, number) {
            tracing::debug!(game = %self.id, ?colour, "a seat's oldest connection is replaced");
            self.handle.replace_below(colour, replaced + 1);
        }
    }

    fn seat_of(&self, token: &str) -> Option<Colour> {
        let offered = self.key.hash(token);
        Colour::ALL
            .into_iter()
            .find(|c| matches!(&self.table.seats()[*c], Seat::Human(t) if t.matches(&offered)))
    }

    pub(super) fn leave(&mut self, seat: Option<Colour>, number: u32) {
        if let Some(colour) = seat {
            self.crowd.unseat(colour, number);
        }
        if self.crowd.leave(seat, Instant::now()) {
            self.announce_presence();
        } else if seat.is_none() {
            self.watchers_changed();
        }
        self.relist();
    }

    /// Tells everyone the new number of watchers, now or when it is due.
    fn watchers_changed(&mut self) {
        if self.crowd.watchers_changed(Instant::now()) {
            self.announce_presence();
        }
    }

    /// Tells the number of watchers if a change waits and is due by `now`.
    pub(super) fn tell_presence_if_due(&mut self, now: Instant) {
        if self.crowd.presence_due().is_some_and(|due| now >= due) {
            self.announce_presence();
        }
    }

    /// An open table is listed while it has a free seat and the person waiting at it is
    /// connected: nobody should sit down opposite an empty chair.
    fn relist(&self) {
        let Some(host) = self.host.upgrade() else { return };
        let settings = self.table.settings();
        if settings.opponent != Opponent::Open {
            return;
        }
        match self.table.free_seat() {
            Some(free) if self.table.ending().is_none() && self.crowd.is_online(!free) => {
                let table = OpenTable {
                    game: self.id.clone(),
                    rules: settings.rules,
                    clock: settings.clock,
                    seat: free,
                };
                host.lobby().open(self.id.clone(), table);
            }
            _ => host.lobby().close(&self.id),
        }
    }

    pub(super) fn announce_presence(&mut self) {
        let presence = self.presence();
        self.tell(presence);
        self.crowd.told(Instant::now());
    }

    /// Who is connected, and for a player who is gone, how long until the opponent may claim.
    fn presence(&self) -> Wire {
        let now = Instant::now();
        let patience = self.table.patience();
        let one = |c: Colour| match &self.table.seats()[c] {
            Seat::Computer(_) => SeatPresence { online: true, away_ms: None, claim_in_ms: None },
            Seat::Open => SeatPresence { online: false, away_ms: None, claim_in_ms: None },
            Seat::Human(_) => match self.crowd.away(c, now) {
                Some(away) => SeatPresence {
                    online: false,
                    away_ms: Some(millis(away)),
                    claim_in_ms: Some(millis(patience.claim_in(away))),
                },
                None => SeatPresence {
                    online: self.crowd.is_online(c),
                    away_ms: None,
                    claim_in_ms: None,
                },
            },
        };
        let view = PresenceView {
            white: one(Colour::White),
            black: one(Colour::Black),
            watchers: self.crowd.watchers(),
        };
        Answer::Presence(view).wire()
    }

    /// A connection takes the free seat: the invite link, or a watcher of a table.
    pub(super) fn join(&mut self, seat: Option<Colour>, number: u32) -> (Answer, Option<Colour>) {
        // The connection stops counting as a watcher and starts counting as the player before
        // everyone is told who is here (a watcher with no seat always gets the free one).
        if let (None, Some(free)) = (seat, self.table.free_seat()) {
            self.crowd.watcher_sat_down(free);
        }
        let token = SeatToken::random();
        match self.ask(seat, Ask::Sit { key: self.key.seal(&token) }) {
            Ok(Reply::Seated(colour)) => {
                self.seat_connection(colour, number);
                (Answer::Joined { seat: token.as_str().to_owned(), colour }, Some(colour))
            }
            Ok(_) => unreachable!("a seat taken is answered with its colour"),
            Err(refusal) => (Answer::Error(refusal.into()), seat),
        }
    }

    /// Someone sits down at this open table before their page has connected ("play anyone"
    /// handed it to them, or they pressed "Sit down"). The seat is theirs from this moment:
    /// had they been sent to the page to ask for it, someone following an older listing of the
    /// lobby could take it in between, and they would arrive to watch instead of play.
    pub(super) fn sit(&mut self, token: SeatHash) -> Result<Colour, SitRefused> {
        if self.table.settings().opponent != Opponent::Open || self.table.ending().is_some() {
            return Err(SitRefused::Closed);
        }
        let free = self.table.free_seat().ok_or(SitRefused::Taken)?;
        // Nobody should sit down opposite an empty chair (the lobby lists no such table).
        if !self.crowd.is_online(!free) {
            return Err(SitRefused::Closed);
        }
        // Away until their page connects, so that if it never does the opponent may claim.
        self.crowd.away_from(free, Instant::now());
        match self.ask(None, Ask::Sit { key: token }) {
            Ok(Reply::Seated(colour)) => Ok(colour),
            _ => Err(SitRefused::Taken),
        }
    }
}
