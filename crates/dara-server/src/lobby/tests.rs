//! How often the lobby's message is made again: at once for a table called off, every few
//! seconds for anything else.

use std::time::Duration;

use dara::{Colour, Ruleset};
use dara_table::wire::OpenTable;
use tokio::time::Instant;

use super::{Lobby, Presence, CALM_EVERY, COUNT_EVERY};
use crate::seat::GameId;

fn id(n: u8) -> GameId {
    GameId::parse(&format!("{n:016x}")).expect("an id")
}

fn table(n: u8) -> OpenTable {
    OpenTable { game: id(n), rules: Ruleset::default(), clock: None, seat: Colour::White }
}

fn here(n: u32) -> Presence {
    Presence { here: n, playing: Vec::new() }
}

/// Counts once a second from `start` for `seconds`, and says at which seconds a message was made.
fn messages_over(
    lobby: &Lobby,
    start: Instant,
    seconds: u32,
    mut each: impl FnMut(u32),
) -> Vec<u32> {
    let mut listing = lobby.listing();
    listing.mark_unchanged();
    let mut made = Vec::new();
    for s in 1..=seconds {
        each(s);
        lobby.count(here(s), start + COUNT_EVERY * s);
        if listing.has_changed().expect("the lobby lives") {
            listing.mark_unchanged();
            made.push(s);
        }
    }
    made
}

#[test]
fn counts_and_tables_opened_or_taken_go_out_every_few_seconds() {
    let lobby = Lobby::default();
    let start = Instant::now();
    // A first message, made now.
    lobby.count(here(100), start);
    let calm = u32::try_from(CALM_EVERY.as_secs()).expect("seconds");
    // The count changes every second, and a table opens or is taken every second.
    let made = messages_over(&lobby, start, 3 * calm, |s| {
        let n = u8::try_from(s).expect("a few");
        lobby.open(id(n), table(n));
        if s > 1 {
            lobby.taken(&id(n - 1));
        }
    });
    assert_eq!(made, vec![calm, 2 * calm, 3 * calm]);
}

#[test]
fn a_table_called_off_leaves_every_listing_at_the_next_count() {
    let lobby = Lobby::default();
    let start = Instant::now();
    lobby.open(id(1), table(1));
    lobby.count(here(1), start);
    let made = messages_over(&lobby, start, 2, |s| {
        if s == 1 {
            lobby.close(&id(1));
        }
    });
    assert_eq!(made, vec![1], "sent at the first count after the table was called off");
    assert!(lobby.tables().is_empty());
}

#[test]
fn nothing_changed_sends_nothing() {
    let lobby = Lobby::default();
    let start = Instant::now();
    lobby.count(here(5), start);
    let mut listing = lobby.listing();
    listing.mark_unchanged();
    lobby.count(here(5), start + CALM_EVERY + Duration::from_secs(1));
    assert!(!listing.has_changed().expect("the lobby lives"));
}
