//! The game's journal as the connections are told it: each event numbered, rendered once for
//! every connection by the table's view (`dara_table::view`), with the position it led to.

use dara::Colour;
use dara_table::view::{Event, View};
use dara_table::Moment;

use crate::protocol::{versioned, Answer, Refusal, Wire, WireAnswer};
use crate::seat::SeatHash;

/// Event `v`, just recorded, as every connection is told it.
pub(super) fn told(view: &View<'_, SeatHash>, v: u64) -> Wire {
    versioned(&view.last(v), v)
}

/// What a connection that says hello is sent first: why its token holds no seat (if it
/// `offered` one, and it holds `seat`), then what it needs to catch up (see [`catch_up`]).
pub(super) fn welcome(
    view: &View<'_, SeatHash>,
    offered: bool,
    seat: Option<Colour>,
    since: Option<u64>,
    now: Moment,
) -> Vec<Wire> {
    let mut messages = Vec::new();
    if offered && seat.is_none() {
        messages.push(Answer::Error(Refusal::NotYourSeatLink.into()).wire());
    }
    messages.extend(catch_up(view, seat, since, now));
    messages
}

/// What a connection that last saw version `since` needs: the events after it, or a snapshot
/// (as `you`, a player's colour or a watcher, see it `now`) when it saw none (or claims one
/// from the future).
pub(super) fn catch_up(
    view: &View<'_, SeatHash>,
    you: Option<Colour>,
    since: Option<u64>,
    now: Moment,
) -> Vec<Wire> {
    match view.missed(since) {
        Some(missed) => missed.iter().map(|(v, event)| versioned(event, *v)).collect(),
        None => {
            let snapshot = view.snapshot(you, now);
            let v = view.table.journal().len() as u64;
            vec![versioned(&Event::Snapshot(Box::new(snapshot)), v)]
        }
    }
}
