//! Who is at the game: players' connections, watchers, who has gone and since when, and what
//! follows from it: taking the free seat, the lobby's listing, and claiming a game the opponent
//! has left.

use std::time::Duration;

use dara::{ByColour, Colour};
use dara_table::{Ask, Reply};
use tokio::time::Instant;

use super::actor::Game;
use super::settings::Opponent;
use super::{SitRefused, Welcome};
use crate::protocol::{Answer, PresenceView, Refusal, SeatPresence, Table, Wire};
use crate::seat::Seat;
use crate::seat::{SeatHash, SeatToken};

/// Everyone hears the number of watchers at most this often: a crowd arriving at a popular
/// game (each arrival telling every connection) should not cost the square of its size in
/// messages. A change within this time is told when it has passed. Players coming and going
/// are told at once: the opponent's claim waits on it.
const WATCHERS_TOLD_EVERY: Duration = Duration::from_millis(250);

/// The connections open to one game.
#[derive(Debug)]
pub(super) struct Crowd {
    online: ByColour<u32>,
    watchers: u32,
    away_since: ByColour<Option<Instant>>,
    /// When the last connection closed, if none is open.
    empty_since: Option<Instant>,
    /// When presence was last told to everyone.
    told_at: Option<Instant>,
    /// When a change in the number of watchers, not yet told, is due to be told.
    due: Option<Instant>,
}

impl Crowd {
    /// Nobody yet, since `now`.
    pub(super) fn new(now: Instant) -> Crowd {
        Crowd {
            online: ByColour::default(),
            watchers: 0,
            away_since: ByColour::default(),
            empty_since: Some(now),
            told_at: None,
            due: None,
        }
    }

    /// When a change in the number of watchers is due to be told, if one waits.
    pub(super) fn presence_due(&self) -> Option<Instant> {
        self.due
    }

    /// The number of watchers changed at `now`: true if everyone may be told at once; if not,
    /// it is told when due.
    fn watchers_changed(&mut self, now: Instant) -> bool {
        match self.told_at {
            Some(at) if now.saturating_duration_since(at) < WATCHERS_TOLD_EVERY => {
                self.due.get_or_insert(at + WATCHERS_TOLD_EVERY);
                false
            }
            _ => true,
        }
    }

    /// Everyone was told the presence at `now`.
    fn told(&mut self, now: Instant) {
        self.told_at = Some(now);
        self.due = None;
    }

    /// When the last connection closed, if none is open.
    pub(super) fn empty_since(&self) -> Option<Instant> {
        self.empty_since
    }

    /// A connection opened for `seat` (or to watch). True when a player who was away is back.
    fn arrive(&mut self, seat: Option<Colour>) -> bool {
        self.empty_since = None;
        match seat {
            Some(c) => {
                self.online[c] += 1;
                self.away_since[c].take().is_some()
            }
            None => {
                self.watchers += 1;
                false
            }
        }
    }

    /// A connection closed. True when a player has no connection left.
    fn leave(&mut self, seat: Option<Colour>, now: Instant) -> bool {
        let gone = match seat {
            Some(c) => {
                self.online[c] = self.online[c].saturating_sub(1);
                if self.online[c] == 0 {
                    self.away_since[c] = Some(now);
                }
                self.online[c] == 0
            }
            None => {
                self.watchers = self.watchers.saturating_sub(1);
                false
            }
        };
        if self.online.white + self.online.black + self.watchers == 0 {
            self.empty_since = Some(now);
        }
        gone
    }

    /// `colour`'s player counts as gone since `now` (nobody is connected to a game taken up
    /// after a restart).
    pub(super) fn away_from(&mut self, colour: Colour, now: Instant) {
        self.away_since[colour] = Some(now);
    }

    /// A watcher's connection became `colour`'s player's.
    fn watcher_sat_down(&mut self, colour: Colour) {
        self.watchers = self.watchers.saturating_sub(1);
        self.online[colour] += 1;
    }

    /// How long `colour`'s player has been gone, if they have no connection.
    pub(super) fn away(&self, colour: Colour, now: Instant) -> Option<std::time::Duration> {
        self.away_since[colour]
            .filter(|_| self.online[colour] == 0)
            .map(|since| now.saturating_duration_since(since))
    }
}

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
        Welcome { seat, messages, events }
    }

    fn seat_of(&self, token: &str) -> Option<Colour> {
        let offered = self.key.hash(token);
        Colour::ALL
            .into_iter()
            .find(|c| matches!(&self.table.seats()[*c], Seat::Human(t) if t.matches(&offered)))
    }

    pub(super) fn leave(&mut self, seat: Option<Colour>) {
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
        let Some(shared) = self.shared.upgrade() else { return };
        let settings = self.table.settings();
        if settings.opponent != Opponent::Open {
            return;
        }
        match self.table.free_seat() {
            Some(free) if self.table.ending().is_none() && self.crowd.online[!free] > 0 => {
                let table = Table {
                    game: self.id.clone(),
                    rules: settings.rules,
                    clock: settings.clock,
                    seat: free,
                };
                shared.lobby.open(self.id.clone(), table);
            }
            _ => shared.lobby.close(&self.id),
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
        let claim_after = self.claim_after();
        let one = |c: Colour| match &self.table.seats()[c] {
            Seat::Computer(_) => SeatPresence { online: true, away_ms: None, claim_in_ms: None },
            Seat::Open => SeatPresence { online: false, away_ms: None, claim_in_ms: None },
            Seat::Human(_) => match self.crowd.away(c, now) {
                Some(away) => SeatPresence {
                    online: false,
                    away_ms: Some(away.as_millis() as u64),
                    claim_in_ms: Some(claim_after.saturating_sub(away).as_millis() as u64),
                },
                None => SeatPresence {
                    online: self.crowd.online[c] > 0,
                    away_ms: None,
                    claim_in_ms: None,
                },
            },
        };
        let view = PresenceView {
            white: one(Colour::White),
            black: one(Colour::Black),
            watchers: self.crowd.watchers,
        };
        Answer::Presence(view).wire()
    }

    /// A connection takes the free seat: the invite link, or a watcher of a table.
    pub(super) fn join(&mut self, seat: Option<Colour>) -> (Answer, Option<Colour>) {
        // The connection stops counting as a watcher and starts counting as the player before
        // everyone is told who is here (a watcher with no seat always gets the free one).
        if let (None, Some(free)) = (seat, self.table.free_seat()) {
            self.crowd.watcher_sat_down(free);
        }
        let token = SeatToken::random();
        match self.ask(seat, Ask::Sit { key: self.key.seal(&token) }) {
            Ok(Reply::Seated(colour)) => {
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
        if self.crowd.online[!free] == 0 {
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
