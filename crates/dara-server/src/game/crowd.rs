//! The connections open to one game: players' and watchers', who has gone and since when, when
//! everyone is next to be told, and what they are told of it.

use std::time::Duration;

use dara::{ByColour, Colour};
use dara_table::wire::{PresenceView, SeatPresence};
use dara_table::Patience;
use tokio::time::Instant;

use crate::duration::millis;
use crate::protocol::{Answer, Wire, WireAnswer};
use crate::seat::Seat;

/// Everyone hears the number of watchers at most this often: a crowd arriving at a popular
/// game (each arrival telling every connection) should not cost the square of its size in
/// messages. A change within this time is told when it has passed. Players coming and going
/// are told at once: the opponent's claim waits on it.
const WATCHERS_TOLD_EVERY: Duration = Duration::from_millis(250);

/// The most connections one seat may hold at once: a third (a third tab, a script) replaces
/// the oldest, so one player cannot multiply what the game tells and keeps for them.
pub(super) const SOCKETS_PER_SEAT: usize = 2;

/// The connections open to one game.
#[derive(Debug)]
pub(super) struct Crowd {
    /// The number the next connection gets.
    next_number: u32,
    /// The numbers of the connections holding each seat, oldest first.
    seated: ByColour<[Option<u32>; SOCKETS_PER_SEAT]>,
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
            next_number: 0,
            seated: ByColour::default(),
            online: ByColour::default(),
            watchers: 0,
            away_since: ByColour::default(),
            empty_since: Some(now),
            told_at: None,
            due: None,
        }
    }

    /// A number for a connection that says hello, in order of arrival.
    pub(super) fn number(&mut self) -> u32 {
        self.next_number += 1;
        self.next_number
    }

    /// Connection `number` holds `colour`'s seat from now on. When the seat already had as
    /// many connections as it may, the oldest is replaced: it is given, for it to be closed.
    pub(super) fn seat(&mut self, colour: Colour, number: u32) -> Option<u32> {
        let held = &mut self.seated[colour];
        let replaced = if held.iter().all(Option::is_some) { held[0].take() } else { None };
        // Oldest first: the free places move to the end.
        held.sort_by_key(|n| (n.is_none(), *n));
        if let Some(place) = held.iter_mut().find(|n| n.is_none()) {
            *place = Some(number);
        }
        replaced
    }

    /// Connection `number` no longer holds `colour`'s seat.
    pub(super) fn unseat(&mut self, colour: Colour, number: u32) {
        for place in &mut self.seated[colour] {
            if *place == Some(number) {
                *place = None;
            }
        }
    }

    /// When a change in the number of watchers is due to be told, if one waits.
    pub(super) fn presence_due(&self) -> Option<Instant> {
        self.due
    }

    /// The number of watchers changed at `now`: true if everyone may be told at once; if not,
    /// it is told when due.
    pub(super) fn watchers_changed(&mut self, now: Instant) -> bool {
        match self.told_at {
            Some(at) if now.saturating_duration_since(at) < WATCHERS_TOLD_EVERY => {
                self.due.get_or_insert(at + WATCHERS_TOLD_EVERY);
                false
            }
            _ => true,
        }
    }

    /// Everyone was told the presence at `now`.
    pub(super) fn told(&mut self, now: Instant) {
        self.told_at = Some(now);
        self.due = None;
    }

    /// When the last connection closed, if none is open.
    pub(super) fn empty_since(&self) -> Option<Instant> {
        self.empty_since
    }

    /// A connection opened for `seat` (or to watch). True when a player who was away is back,
    /// or has come for the first time: an arena seats both players before either has opened
    /// the game, and the one who comes first is to hear that the other has come too.
    pub(super) fn arrive(&mut self, seat: Option<Colour>) -> bool {
        self.empty_since = None;
        match seat {
            Some(c) => {
                self.online[c] += 1;
                let back = self.away_since[c].take().is_some();
                back || self.online[c] == 1
            }
            None => {
                self.watchers += 1;
                false
            }
        }
    }

    /// A connection closed. True when a player has no connection left.
    pub(super) fn leave(&mut self, seat: Option<Colour>, now: Instant) -> bool {
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
    pub(super) fn watcher_sat_down(&mut self, colour: Colour) {
        self.watchers = self.watchers.saturating_sub(1);
        self.online[colour] += 1;
    }

    /// How many watch the game now.
    pub(super) fn watchers(&self) -> u32 {
        self.watchers
    }

    /// Whether `colour`'s player has a connection open.
    pub(super) fn is_online(&self, colour: Colour) -> bool {
        self.online[colour] > 0
    }

    /// How long `colour`'s player has been gone, if they have no connection.
    pub(super) fn away(&self, colour: Colour, now: Instant) -> Option<std::time::Duration> {
        self.away_since[colour]
            .filter(|_| self.online[colour] == 0)
            .map(|since| now.saturating_duration_since(since))
    }

    /// Who is connected, as everyone is told it; for a player who is gone, how long since, and
    /// how long until the opponent may claim (as the table's `patience` says).
    pub(super) fn presence(
        &self,
        seats: &ByColour<Seat>,
        patience: &Patience,
        now: Instant,
    ) -> Wire {
        let one = |c: Colour| match &seats[c] {
            Seat::Computer(_) => SeatPresence { online: true, away_ms: None, claim_in_ms: None },
            Seat::Open => SeatPresence { online: false, away_ms: None, claim_in_ms: None },
            Seat::Human(_) => match self.away(c, now) {
                Some(away) => SeatPresence {
                    online: false,
                    away_ms: Some(millis(away)),
                    claim_in_ms: Some(millis(patience.claim_in(away))),
                },
                None => {
                    SeatPresence { online: self.is_online(c), away_ms: None, claim_in_ms: None }
                }
            },
        };
        let view = PresenceView {
            white: one(Colour::White),
            black: one(Colour::Black),
            watchers: self.watchers,
        };
        Answer::Presence(view).wire()
    }
}
