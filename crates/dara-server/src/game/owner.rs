//! The one owner of a live game: it reads the game's mailbox, one letter at a time, and wakes
//! when something falls due by itself. For each it has the game carry the letter out, keeps
//! what changed, tells everyone, and answers; so a turn goes socket, mailbox, game, table,
//! store, sockets, in that order, and nothing else touches the game meanwhile.

use dara_table::wire::ClientMessage;
use tokio::sync::oneshot;
use tokio::time::{sleep_until, Instant};

use super::live::{Game, Settled};
use super::mailbox::{Asking, Hello, Letter, Receiver, Reply, SitRefused, Sitting};
use crate::protocol::{Answer, Refusal, WireAnswer};
use crate::store::write::Write;

/// Runs the game, just begun, until it ends its life here: each letter carried out and kept,
/// and each moment that falls due, until it expires, is forgotten, or cannot be kept.
pub(super) async fn run(mut game: Game, mut mailbox: Receiver) {
    // One timer for the game's life, set again only when the next wake changes: a new one
    // for each wake would touch the timer wheel twice (set, then cancelled).
    let mut alarm = Box::pin(sleep_until(Instant::now()));
    let mut alarm_at = None;
    // The first round keeps what beginning changed.
    let mut letter = None;
    loop {
        let settled = match letter.take() {
            Some(letter) => match carry_out(&mut game, letter).await {
                Some(settled) => settled,
                None => break,
            },
            None => settle(&mut game).await,
        };
        if settled == Settled::Lost {
            return;
        }
        if game.expired(Instant::now()) {
            break;
        }
        let wake = game.next_wake();
        if let Some(at) = wake.filter(|at| alarm_at != Some(*at)) {
            alarm.as_mut().reset(at);
            alarm_at = Some(at);
        }
        tokio::select! {
            // Closed once no handle is left: nobody can reach the game any more.
            next = mailbox.recv() => letter = Some(next.unwrap_or(Letter::Forget)),
            () = alarm.as_mut(), if wake.is_some() => alarm_at = None,
        }
    }
    // Letters still waiting are answered by nobody: their senders hear that the game is gone.
    drop(mailbox);
    // Boxed: the end of a game's life is awaited once, and inline it would be the largest
    // state of the task every live game keeps.
    Box::pin(end_life(game)).await;
}

/// Has the game carry out one letter, keeps what changed, and answers it. A letter that cannot
/// be kept now (saving is paused) is answered with a refusal, and the game goes back to what was
/// kept; one that will not be kept (the game stops here) is answered by nobody. `None` for
/// `Forget`: the game is to end its life.
async fn carry_out(game: &mut Game, letter: Letter) -> Option<Settled> {
    // A life handed over is not the game any more: what it would answer may be older than the
    // game going on elsewhere (or in a later life here), so it answers nothing, and the socket
    // is told to reconnect.
    let moved = game.handle.moved();
    match letter {
        Letter::Hello(hello) if !moved => {
            let Hello { seat, since, answer } = *hello;
            let welcome = game.hello(seat.as_deref(), since);
            // If paused: what was kept, as it is now that the game went back to it.
            let again = |game: &mut Game| game.hello(seat.as_deref(), since);
            Some(keep_then_answer(game, welcome, again, answer).await)
        }
        Letter::Ask(asking) if !moved => {
            let Asking { seat, number, msg, answer } = *asking;
            let turn = match msg {
                ClientMessage::Move { id, .. } => Some(id),
                _ => None,
            };
            let (text, now_seat) = game.act(seat, number, msg);
            let reply = Reply { text: text.wire(), seat: now_seat };
            let refused = |game: &mut Game| Reply { text: unkept(game, turn).wire(), seat };
            Some(keep_then_answer(game, reply, refused, answer).await)
        }
        Letter::Sit(sitting) if !moved => {
            let Sitting { token, answer } = *sitting;
            let sat = game.sit(token);
            let refused = |_: &mut Game| Err(SitRefused::Unkept);
            Some(keep_then_answer(game, sat, refused, answer).await)
        }
        // Answered by nobody: the sender hears that the game has gone from here.
        Letter::Hello(_) | Letter::Ask(_) | Letter::Sit(_) => Some(Settled::Kept),
        Letter::Leave { seat, number } => {
            if !moved {
                game.leave(seat, number);
            }
            Some(settle(game).await)
        }
        Letter::ComputerMoved { ticket, m } => {
            game.computer_moved(ticket, m);
            Some(settle(game).await)
        }
        Letter::Forget => None,
    }
}

/// What every letter ends with: whatever fell due meanwhile, then the store's commit and the
/// telling of everyone. If the store fails, nobody is told anything: a pause (the game goes
/// back to what was kept), or the game's end here.
async fn settle(game: &mut Game) -> Settled {
    game.timed(Instant::now());
    let Err(e) = game.keeping.commit(&game.id, &game.table).await else {
        return Settled::Kept;
    };
    if e.is_a_pause() && game.roll_back() {
        tracing::warn!(game = %game.id, "saving is paused, the game goes back: {e}");
        return Settled::Paused;
    }
    tracing::error!(game = %game.id, "the game could not be stored, so it stops: {e}");
    game.stop_unkept();
    Settled::Lost
}

/// Keeps what a request changed, then sends its `answer`: `done` if it was kept, what `paused`
/// makes of the game gone back to what was kept if saving is paused, and nothing if the game
/// stops here (its sender hears that the game is gone).
async fn keep_then_answer<T>(
    game: &mut Game,
    done: T,
    paused: impl FnOnce(&mut Game) -> T,
    answer: oneshot::Sender<T>,
) -> Settled {
    let settled = settle(game).await;
    let answered = match settled {
        Settled::Kept => Some(done),
        Settled::Paused => Some(paused(game)),
        Settled::Lost => None,
    };
    if let Some(answered) = answered {
        let _ = answer.send(answered);
    }
    settled
}

/// The answer to a request that could not be kept (a turn's `id`, if it was a turn).
fn unkept(game: &Game, turn: Option<u64>) -> Answer {
    game.count_unkept();
    let why = Refusal::StoreUnreachable.into();
    match turn {
        Some(id) => Answer::Rejected { id, why },
        None => Answer::Error(why),
    }
}

/// The search called off, the game let go, forgotten by the server, and erased from the store
/// unless the server is stopping (it keeps its games for the next) or another node took the
/// game: nothing is kept after a game that ended its life.
async fn end_life(mut game: Game) {
    game.thinking.stop();
    // The server is looked up again after the erasure rather than held across it: a server
    // dropped meanwhile (the tests' crash) is let go.
    let (stopping, counted) = match game.server() {
        Some(host) => (host.stopping(), host.forget(&game.id, game.handle.life())),
        None => (true, None),
    };
    if !stopping && !game.handle.moved() {
        let erase = vec![Write::Erase { game: game.id.clone() }];
        match game.keeping.store.send(erase).wait().await {
            Ok(()) => {
                if let Some((host, counted)) = game.server().zip(counted) {
                    host.erased(counted);
                }
            }
            Err(e) => {
                tracing::warn!(game = %game.id, "the forgotten game could not be erased: {e}");
            }
        }
    }
    tracing::debug!(game = %game.id, "game forgotten");
}
