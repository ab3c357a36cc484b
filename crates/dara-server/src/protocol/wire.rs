//! A message as it goes out: serialised once into text that every socket it is for shares.

use serde::Serialize;

/// A message ready for the wire: serialised once, shared by every connection that gets it (a
/// reference-counted buffer, handed to each socket without a copy).
pub type Wire = axum::extract::ws::Utf8Bytes;

/// Serialises a message. Every message type here is plain data, so this cannot fail.
///
/// The text is written into a buffer this thread keeps for it, then copied into an allocation of
/// exactly its length. Grown in place, a message took several allocations on its way (an event
/// with a position is 400-1000 bytes); and with a durable store, where a game's messages wait
/// for their commit, many are alive at once, so each of those allocations went the allocator's
/// slow way and its growth past 1 KiB set it tidying its free lists. A copy of a few hundred
/// bytes costs less than either.
pub fn wire(message: &impl Serialize) -> Wire {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<u8>> =
            std::cell::RefCell::new(Vec::with_capacity(4096));
    }
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.clear();
        serde_json::to_writer(&mut *scratch, message).expect("protocol messages always serialise");
        // A rare message far larger than the rest (a long game's snapshot) does not keep its
        // room for the life of the thread.
        let text = String::from(std::str::from_utf8(scratch).expect("serde_json writes UTF-8"));
        if scratch.capacity() > 64 * 1024 {
            *scratch = Vec::with_capacity(4096);
        }
        text.into()
    })
}

/// An answer to a connection, serialised.
pub trait WireAnswer {
    /// The message, serialised.
    fn wire(&self) -> Wire;
}

impl WireAnswer for super::Answer {
    fn wire(&self) -> Wire {
        wire(self)
    }
}

/// A game's event with its version, serialised: `{"t": ..., "d": ..., "v": n}`.
pub fn versioned(event: &dara_table::view::Event, v: u64) -> Wire {
    wire(&dara_table::wire::Versioned { event, v })
}
