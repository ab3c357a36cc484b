//! The per-address counts' commands: how many games a client address holds, and how many seats
//! it took at open tables, counted in Redis across the nodes (the limits themselves, and what a
//! node does when Redis cannot say, are `cluster::limits`'). Redis holds a keyed hash of the
//! address (see [`address_key`]), never the address.

use std::net::IpAddr;
use std::time::Duration;

use super::keys::{address_key, seated_key, Counted};
use super::{scripts, Failed, Redis};
use crate::seat::{GameId, SeatKey};

impl Redis {
    /// Counts one more game for `address` (hashed with `key`), kept for `kept_for`, unless it
    /// holds `limit` already: true if it counted.
    ///
    /// # Errors
    /// Redis failed: nothing was counted.
    pub async fn count_game(
        &self,
        (key, address): (&SeatKey, IpAddr),
        limit: usize,
        kept_for: Duration,
    ) -> Result<bool, Failed> {
        let counter = address_key(key, address, Counted::Games);
        Ok(scripts::count(&mut self.uncounted(), &counter, limit, kept_for).await? == 1)
    }

    /// Counts one game fewer for `address`, never below nothing.
    ///
    /// # Errors
    /// Redis failed (the count lapses by itself).
    pub async fn uncount_game(&self, (key, address): (&SeatKey, IpAddr)) -> Result<(), Failed> {
        let counter = address_key(key, address, Counted::Games);
        scripts::uncount(&mut self.uncounted(), &counter).await?;
        Ok(())
    }

    /// Counts one more seat for `address` at game `game`, kept for `kept_for`, unless it holds
    /// `limit` already: true if it counted. The count is noted beside the game, for the game's
    /// erasure to take it back wherever it ends.
    ///
    /// # Errors
    /// Redis failed: nothing was counted.
    pub async fn count_seat(
        &self,
        (key, address): (&SeatKey, IpAddr),
        game: &GameId,
        limit: usize,
        kept_for: Duration,
    ) -> Result<bool, Failed> {
        let counter = address_key(key, address, Counted::Seats);
        let seated = seated_key(game);
        let mut conn = self.uncounted();
        Ok(scripts::count_seat(&mut conn, (&counter, &seated), limit, kept_for).await? == 1)
    }

    /// Takes back a seat counted for `address` at game `game`, if the game still notes it.
    ///
    /// # Errors
    /// Redis failed (the count lapses by itself).
    pub async fn uncount_seat(
        &self,
        (key, address): (&SeatKey, IpAddr),
        game: &GameId,
    ) -> Result<(), Failed> {
        let counter = address_key(key, address, Counted::Seats);
        scripts::uncount_seat(&mut self.uncounted(), &counter, &seated_key(game)).await?;
        Ok(())
    }
}
