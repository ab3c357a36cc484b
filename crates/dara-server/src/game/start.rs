//! A game's start on this node: a new one (`spawn`), or one taken up from the store
//! (`super::restore`), each made, entered in the server's book, and handed to its owner.

use std::net::IpAddr;
use std::sync::{Arc, Weak};

use dara::{ByColour, Colour};
use dara_table::Table;

use super::handle::GameHandle;
use super::host::Host;
use super::lifespan::Lifespan;
use super::live::Game;
use super::mailbox::{mailbox, Receiver};
use super::observer::Observer;
use super::owner;
use super::settings::GameSettings;
use crate::error::AppError;
use crate::seat::{new_game_id, Seat};
use crate::store::kept::Committed;
use crate::store::record::{GameRecord, StoredSeats};
use crate::store::write::Write;

/// When a new open table is first listed in the lobby.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Once the person waiting at it is connected ("Open a table", a rematch, any other game).
    OnceTheOpenerIsHere,
    /// At once, by "play anyone" (`lobby::pairing`), before the seeker's page has connected:
    /// the table stays listed, and may be sat at, while they are expected
    /// (`Config::opener_expected_within`).
    AtOnce,
}

/// Starts a new game with these seats and registers it (an open table is listed in the lobby
/// once the person waiting at it is connected). `asked_from` is the client address the game
/// counts against (see `address::requester`), if any. The game is sent to the store at once;
/// awaiting the [`Committed`] waits until it is there (anything the game itself stores later
/// is committed after it).
///
/// # Errors
/// When the server, or that address's share of it, is full, or the game is against the
/// computer and as many searches wait for it as may.
pub fn spawn<H: Host>(
    host: &Arc<H>,
    settings: GameSettings,
    seats: ByColour<Seat>,
    asked_from: Option<IpAddr>,
) -> Result<(GameHandle, Committed), AppError> {
    spawn_listed(host, settings, seats, asked_from, Listing::OnceTheOpenerIsHere)
}

/// [`spawn`], its open table listed as `listing` says.
///
/// # Errors
/// As [`spawn`].
pub fn spawn_listed<H: Host>(
    host: &Arc<H>,
    settings: GameSettings,
    seats: ByColour<Seat>,
    asked_from: Option<IpAddr>,
    listing: Listing,
) -> Result<(GameHandle, Committed), AppError> {
    spawn_with(host, settings, seats, (asked_from, listing), None)
}

/// A game the server starts for people who hold its seats already (an arena's pairing), never
/// listed, its first moves and end told to `observer`.
///
/// # Errors
/// As [`spawn`].
pub fn spawn_observed<H: Host>(
    host: &Arc<H>,
    settings: GameSettings,
    seats: ByColour<Seat>,
    observer: Observer,
) -> Result<(GameHandle, Committed), AppError> {
    spawn_with(host, settings, seats, (None, Listing::OnceTheOpenerIsHere), Some(observer))
}

fn spawn_with<H: Host>(
    host: &Arc<H>,
    settings: GameSettings,
    seats: ByColour<Seat>,
    (asked_from, listing): (Option<IpAddr>, Listing),
    observer: Option<Observer>,
) -> Result<(GameHandle, Committed), AppError> {
    let weak: Weak<H> = Arc::downgrade(host);
    let weak: Weak<dyn Host> = weak;
    let host: &dyn Host = &**host;
    let plays_computer = Colour::ALL.into_iter().any(|c| seats[c].computer().is_some());
    if let Some((waiting, retry_after)) = plays_computer.then(|| host.computer().busy()).flatten() {
        return Err(AppError::EngineBusy { waiting, retry_after });
    }
    let (handle, letters) = new_life(new_game_id());
    host.register(handle.clone(), asked_from)?;
    let table = Table::new(settings, seats, host.config().patience);
    let kept = (host.store().for_new_game(), host.seat_key().clone());
    let mut game = Game::new((weak, Lifespan::of(host.config())), &handle, table, asked_from, kept);
    game.observer = observer;
    if listing == Listing::AtOnce {
        game.expect_opener(host.config().opener_expected_within);
    }
    let begin = game.keeping.store.is_durable().then(|| Write::Begin {
        game: game.id.clone(),
        record: GameRecord::new(game.table.settings(), &game.date),
        seats: StoredSeats::new(game.table.seats()),
    });
    let committed = game.keeping.store.send(begin.into_iter().collect());
    start(game, letters);
    Ok((handle, committed))
}

/// A new life of game `id` on this node: its handle, and its mailbox for its owner.
pub(super) fn new_life(id: crate::seat::GameId) -> (GameHandle, Receiver) {
    let (sender, receiver) = mailbox();
    (GameHandle::new(id, sender), receiver)
}

/// Begins `game` (its clock starts, the computer is asked) and hands it to its owner, before
/// any letter can reach it.
pub(super) fn start(mut game: Game, letters: Receiver) {
    game.begin();
    tokio::spawn(owner::run(game, letters));
}
