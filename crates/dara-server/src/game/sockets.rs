//! The sockets open to one game, each with the seat it holds and its outlet, through which the
//! game's owner writes to it directly (see `crate::outlet`): its answers, and what everyone is
//! told once it is kept.

use dara::Colour;

use crate::outlet::{Ending, Outlet};
use crate::protocol::Wire;

/// One socket open to the game.
#[derive(Debug)]
struct Socket {
    /// Its number in the game, in order of arrival.
    number: u32,
    /// The seat it holds (`None`: a watcher).
    seat: Option<Colour>,
    outlet: Outlet,
}

/// The sockets open to one game, in order of arrival.
#[derive(Debug, Default)]
pub(super) struct Sockets(Vec<Socket>);

impl Sockets {
    /// Socket `number`, holding `seat`, is open, written through `outlet`.
    pub(super) fn open(&mut self, number: u32, seat: Option<Colour>, outlet: Outlet) {
        self.0.push(Socket { number, seat, outlet });
    }

    /// The seat socket `number` holds; `None` if it is not open.
    pub(super) fn seat(&self, number: u32) -> Option<Option<Colour>> {
        self.find(number).map(|s| s.seat)
    }

    /// Socket `number` holds `colour`'s seat from now on.
    pub(super) fn sit(&mut self, number: u32, colour: Colour) {
        if let Some(socket) = self.0.iter_mut().find(|s| s.number == number) {
            socket.seat = Some(colour);
        }
    }

    /// Socket `number` closed: the seat it held, if it was open.
    pub(super) fn close(&mut self, number: u32) -> Option<Option<Colour>> {
        let at = self.0.iter().position(|s| s.number == number)?;
        Some(self.0.swap_remove(at).seat)
    }

    /// Queues `wire` as the answer to socket `number`'s request, to be written with what is
    /// told next (see [`Sockets::tell`]).
    pub(super) fn answer(&self, number: u32, wire: Wire) {
        if let Some(socket) = self.find(number) {
            socket.outlet.answer(wire);
        }
    }

    /// Tells every socket `told`, after what waits for it (an answer), and writes it. With
    /// nothing to tell, only `answered`'s socket has something to write.
    pub(super) fn tell(&self, told: &[Wire], answered: Option<u32>) {
        if told.is_empty() {
            if let Some(socket) = answered.and_then(|n| self.find(n)) {
                socket.outlet.send(told);
            }
            return;
        }
        for socket in &self.0 {
            socket.outlet.send(told);
        }
    }

    /// Closes `colour`'s sockets numbered `number` and below: newer ones replaced them.
    pub(super) fn replace(&self, colour: Colour, number: u32) {
        for socket in self.0.iter().filter(|s| s.seat == Some(colour) && s.number <= number) {
            socket.outlet.end(Ending::REPLACED);
        }
    }

    /// Ends every socket as `ending` says (the game ends its life here).
    pub(super) fn end_all(&self, ending: Ending) {
        for socket in &self.0 {
            socket.outlet.end(ending);
        }
    }

    fn find(&self, number: u32) -> Option<&Socket> {
        self.0.iter().find(|s| s.number == number)
    }
}

/// A game dropped without closing its sockets (it should not happen) leaves none hanging.
impl Drop for Sockets {
    fn drop(&mut self) {
        self.end_all(Ending::GAME_GONE);
    }
}
