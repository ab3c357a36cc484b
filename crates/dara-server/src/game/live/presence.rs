//! Who is at a live game: which seat a connection holds, the watchers counted and everyone
//! told who is here, an open table listed in the lobby while someone waits at it, and the watch
//! list told of the watchers.

use dara::Colour;
use dara_table::wire::OpenTable;
use dara_table::Opponent;
use tokio::time::Instant;

use super::Game;
use crate::game::watched;
use crate::protocol::Wire;
use crate::seat::Seat;

impl Game {
    /// Connection `number` holds `colour`'s seat; the oldest of that seat's connections is
    /// closed if there are now too many.
    pub(super) fn seat_connection(&mut self, colour: Colour, number: u32) {
        if let Some(replaced) = self.crowd.seat(colour, number) {
            tracing::debug!(game = %self.id, ?colour, "a seat's oldest connection is replaced");
            self.keeping.sockets.replace(colour, replaced);
        }
    }

    pub(super) fn seat_of(&self, token: &str) -> Option<Colour> {
        let offered = self.key.hash(token);
        Colour::ALL
            .into_iter()
            .find(|c| matches!(&self.table.seats()[*c], Seat::Human(t) if t.matches(&offered)))
    }

    /// Tells everyone the new number of watchers, now or when it is due.
    pub(super) fn watchers_changed(&mut self) {
        if self.crowd.watchers_changed(Instant::now()) {
            self.announce_presence();
        }
    }

    pub(super) fn announce_presence(&mut self) {
        let presence = self.presence();
        self.keeping.tell(presence);
        self.crowd.told(Instant::now());
    }

    /// Who is connected, and for a player who is gone, how long until the opponent may claim.
    pub(super) fn presence(&self) -> Wire {
        self.crowd.presence(self.table.seats(), &self.table.patience(), Instant::now())
    }

    /// An open table is listed while it has a free seat and the person waiting at it is
    /// connected (or, at a table "play anyone" listed at once, still expected: see
    /// `Game::expect_opener`): nobody should sit down opposite an empty chair. The watch list
    /// hears of the watchers here too.
    pub(super) fn relist(&self) {
        let Some(host) = self.server() else { return };
        let in_arena = self.observer.is_some();
        watched::tell(&*host, &self.id, &self.table, self.crowd.watchers(), in_arena);
        let settings = self.table.settings();
        if settings.opponent != Opponent::Open {
            return;
        }
        match self.table.free_seat() {
            Some(free)
                if self.table.ending().is_none()
                    && (self.crowd.is_online(!free) || self.opener_expected(Instant::now())) =>
            {
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
}
