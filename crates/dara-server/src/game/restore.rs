//! A game taken up again after a restart, rebuilt from what the store kept: its settings, its
//! seats, and its journal replayed through the rules. The time the server was down is charged
//! to nobody: the clocks stay stopped until the side to move is back (or a minute has passed),
//! and the timers that wait for people (to claim, to forget) start afresh.

use std::sync::{Arc, Weak};

use dara_table::Table;

use super::handle::GameHandle;
use super::host::Host;
use super::lifespan::Lifespan;
use super::live::Game;
use super::observer::{News, Observer};
use super::start::{new_life, start};
use crate::store::kept::Store;
use crate::store::record::{StoredGame, Unreadable};

/// Takes up a stored game: rebuilds it, registers it and hands it to its owner (the computer
/// is asked again if it is the computer's turn). It writes to `store` (in a cluster, through the
/// lease its taking up took).
///
/// # Errors
/// The stored game does not replay: a setting, a seat or a turn this release cannot read.
pub fn restore<H: Host>(
    host: &Arc<H>,
    stored: StoredGame,
    store: Store,
) -> Result<GameHandle, Unreadable> {
    restore_observed(host, stored, store, None)
}

/// [`restore`], its news told to `observer` (an arena's game): at once, what it missed (the
/// first turns, the end), which the arena takes only once.
///
/// # Errors
/// As [`restore`].
pub fn restore_observed<H: Host>(
    host: &Arc<H>,
    stored: StoredGame,
    store: Store,
    observer: Option<Observer>,
) -> Result<GameHandle, Unreadable> {
    let weak: Weak<H> = Arc::downgrade(host);
    let weak: Weak<dyn Host> = weak;
    let host: &dyn Host = &**host;
    let settings = stored.record.settings()?;
    let seats = stored.seats.seats()?;
    let (handle, letters) = new_life(stored.id.clone());
    let table = Table::new(settings.clone(), seats.clone(), host.config().patience);
    let lifespan = Lifespan::of(host.config());
    let mut game =
        Game::new((weak, lifespan), &handle, table, None, (store, host.seat_key().clone()));
    game.date = stored.record.date.clone();
    let table = Table::restore(settings, seats, host.config().patience, stored.events, game.now())
        .map_err(|e| Unreadable(format!("game {}: {e}", game.id)))?;
    game.taken_up(table);
    if let Some(observer) = observer {
        let moves = game.table.played().moves().len();
        let now = game.table.played().pos().side();
        for ply in 1..=moves.min(2) {
            // Turns alternate (a turn takes its captures with it): the last was the other side's.
            let by = if (moves - ply) % 2 == 0 { !now } else { now };
            observer.tell(&game.id, News::Moved { by });
        }
        if let Some(ending) = game.table.ending() {
            let plies = u32::try_from(moves).unwrap_or(u32::MAX);
            observer.tell(&game.id, News::Ended { ending: *ending, plies });
        }
        game.observer = Some(observer);
    }
    host.register(handle.clone(), None).map_err(|e| Unreadable(e.reason()))?;
    if let Some(ending) = game.table.ending() {
        host.set_finished(&game.id, handle.life(), Some(game.origin.instant(ending.at)));
    }
    start(game, letters);
    Ok(handle)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use dara::{ByColour, Colour};
    use dara_table::clock::TimeControl;
    use dara_table::wire::ClientMessage;
    use dara_table::{GameSettings, Opponent, Patience};
    use tokio::time::Instant;

    use super::*;
    use crate::config::Config;
    use crate::outlet::Outlet;
    use crate::protocol::Answer;
    use crate::seat::Seat;
    use crate::seat::{new_game_id, SeatKey};
    use crate::state::Shared;
    use crate::store::record::{GameRecord, StoredSeats};

    fn table(key: &SeatKey) -> Table<crate::seat::SeatHash> {
        let settings = GameSettings {
            rules: "arcade".parse().unwrap(),
            opponent: Opponent::Friend,
            creator: Colour::White,
            clock: Some(TimeControl { initial: 60, increment: 0 }),
        };
        let seats =
            ByColour { white: Seat::Human(key.hash("pale")), black: Seat::Human(key.hash("dark")) };
        Table::new(settings, seats, Patience::default())
    }

    fn game(key: &SeatKey) -> Game {
        let (handle, _letters) = new_life(new_game_id());
        let kept = (Store::Memory, key.clone());
        let lifespan = Lifespan::of(&Config::default());
        Game::new((crate::game::host::nobody(), lifespan), &handle, table(key), None, kept)
    }

    fn running(game: &Game) -> Option<Colour> {
        game.table.clock().unwrap().running()
    }

    /// After a restart the clocks wait for the side to move, but not for ever: a minute.
    #[tokio::test(start_paused = true)]
    async fn held_clocks_run_after_a_minute_or_when_the_mover_is_back() {
        let key = SeatKey::random();
        let mut before = game(&key);
        before.begin();
        let pale = before.hello(Some("pale"), None, Outlet::new(None)).number;
        let dark = before.hello(Some("dark"), None, Outlet::new(None)).number;
        // Each side's clock starts with its first move: both place once, then pale thinks 5 s.
        for (number, id, text) in [(pale, 1, "c3"), (dark, 1, "d3"), (pale, 2, "e3")] {
            if id == 2 {
                tokio::time::advance(Duration::from_secs(5)).await;
            }
            let turn = ClientMessage::Move { id, text: text.into(), lag: None };
            assert!(matches!(before.act(number, turn), Some(Answer::Accepted { .. })));
        }

        for mover_returns in [false, true] {
            let mut after = game(&key);
            let journal = before.table.journal().to_vec();
            let settings = before.table.settings().clone();
            let seats = before.table.seats().clone();
            let table =
                Table::restore(settings, seats, Patience::default(), journal, after.now()).unwrap();
            after.taken_up(table);
            after.begin();
            assert_eq!(running(&after), None);
            assert_eq!(after.table.clock().unwrap().left(after.now()).white, 55_000);
            // The player not to move comes back: still held.
            let _ = after.hello(Some("pale"), None, Outlet::new(None));
            assert_eq!(running(&after), None);
            if mover_returns {
                let _ = after.hello(Some("dark"), None, Outlet::new(None));
                assert_eq!(running(&after), Some(Colour::Black));
            } else {
                let held = Patience::default().clocks_held_for;
                tokio::time::advance(held - Duration::from_millis(1)).await;
                after.timed(Instant::now());
                assert_eq!(running(&after), None);
                tokio::time::advance(Duration::from_millis(1)).await;
                after.timed(Instant::now());
                assert_eq!(running(&after), Some(Colour::Black));
            }
            let last = after.table.played().moves()[2];
            assert_eq!(after.table.last_turns().white, Some((2, last)));
        }
    }

    fn stored(id: &crate::seat::GameId) -> StoredGame {
        let settings = GameSettings {
            rules: "arcade".parse().unwrap(),
            opponent: Opponent::Friend,
            creator: Colour::White,
            clock: None,
        };
        StoredGame {
            id: id.clone(),
            record: GameRecord::new(&settings, "2026.12.04"),
            seats: StoredSeats::new(&ByColour { white: Seat::Open, black: Seat::Open }),
            events: Vec::new(),
        }
    }

    /// A game taken up again on a node while a life of it is still entered there (given up,
    /// winding down) runs as one life: the earlier is handed over and answers nobody, and its
    /// end, when its owner comes to it, leaves the later life entered. (The earlier life used
    /// to stay live, unentered, and its end forgot the later life by the game's id alone.)
    #[tokio::test]
    async fn a_game_taken_up_again_runs_as_one_life() {
        let state = Shared::new(Config::default());
        let id = new_game_id();
        let first = restore(&state, stored(&id), Store::Memory).unwrap();
        let second = restore(&state, stored(&id), Store::Memory).unwrap();
        assert!(first.moved(), "the earlier life was not handed over");
        let hello = first.hello(None, None, Outlet::new(None));
        assert!(hello.await.is_none(), "the earlier life still answers");

        // The earlier life's owner ends its life.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while !first.ended() {
            assert!(tokio::time::Instant::now() < deadline, "the earlier life never ended");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let entered = state.game(&id).expect("the later life is forgotten with the earlier");
        assert_eq!(entered.life(), second.life());
        assert!(second.hello(None, None, Outlet::new(None)).await.is_some());
        assert_eq!(state.live_games(), 1);
    }
}
