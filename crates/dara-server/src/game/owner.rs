//! The one owner of a live game: it reads the game's mailbox, one letter at a time, and wakes
//! when something falls due by itself. For each it has the game carry the letter out, keeps
//! what changed, tells everyone, and answers; so a turn goes socket, mailbox, game, table,
//! store, sockets, in that order, and nothing else touches the game meanwhile.

use dara_table::wire::ClientMessage;
use tokio::time::{sleep_until, Instant};

use super::live::{Game, Settled};
use super::mailbox::{Asking, Berserking, Hello, Letter, Receiver, SitRefused, Sitting, Unhalved};
use crate::protocol::{Answer, Refusal, Wire, WireAnswer};
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
            None => settle(&mut game, None).await,
        };
        if settled == Settled::Lost {
            game.close_sockets();
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
    // game going on elsewhere (or in a later life here), so it answers nothing, and its
    // sockets are told to reconnect as it ends.
    let moved = game.handle.moved();
    match letter {
        Letter::Hello(hello) if !moved => Some(greet(game, *hello).await),
        Letter::Ask(asking) if !moved => Some(answer(game, *asking).await),
        Letter::Sit(sitting) if !moved => {
            let Sitting { token, answer } = *sitting;
            let sat = game.sit(token);
            let settled = settle(game, None).await;
            let answered = match settled {
                Settled::Kept => Some(sat),
                Settled::Paused => Some(Err(SitRefused::Unkept)),
                Settled::Lost => None,
            };
            if let Some(answered) = answered {
                let _ = answer.send(answered);
            }
            Some(settled)
        }
        Letter::Berserk(berserking) if !moved => {
            let Berserking { side, answer } = *berserking;
            let halved = game.berserk(side).map_err(Unhalved::Refused);
            let settled = settle(game, None).await;
            let answered = match settled {
                Settled::Kept => Some(halved),
                Settled::Paused => Some(Err(Unhalved::Unkept)),
                Settled::Lost => None,
            };
            if let Some(answered) = answered {
                let _ = answer.send(answered);
            }
            Some(settled)
        }
        // Answered by nobody: the sender hears that the game has gone from here.
        Letter::Hello(_) | Letter::Ask(_) | Letter::Sit(_) | Letter::Berserk(_) => {
            Some(Settled::Kept)
        }
        Letter::Leave { number } => {
            if !moved {
                game.leave(number);
            }
            Some(settle(game, None).await)
        }
        Letter::ComputerMoved { ticket, m } => {
            game.computer_moved(ticket, m);
            Some(settle(game, None).await)
        }
        // Told at once: the computer's place in the queue is nothing kept.
        Letter::Place(wire) => {
            game.keeping.sockets.tell(&[*wire], None);
            Some(Settled::Kept)
        }
        Letter::Forget => None,
    }
}

/// A connection says hello: it is sent what it is to see first once what its arrival changed
/// is kept, then told who it is. If saving is paused, it is sent the game as it went back to.
async fn greet(game: &mut Game, hello: Hello) -> Settled {
    let Hello { seat, since, outlet, answer } = hello;
    let greeting = game.hello(seat.as_deref(), since, outlet.clone());
    let settled = settle(game, None).await;
    match settled {
        Settled::Kept => {}
        Settled::Paused => {
            outlet.clear();
            for wire in game.welcome(seat.is_some(), greeting.seat, since) {
                outlet.queue(wire);
            }
            outlet.send(&[]);
        }
        Settled::Lost => return settled,
    }
    let _ = answer.send(greeting);
    settled
}

/// A connection's request: carried out, kept, then answered on its socket in the same write
/// as what it caused is told to everyone. If saving is paused, it is refused instead.
async fn answer(game: &mut Game, asking: Asking) -> Settled {
    let Asking { number, msg, read_at } = asking;
    let turn = match msg {
        ClientMessage::Move { id, .. } => Some(id),
        _ => None,
    };
    let Some(answer) = game.act(number, msg) else {
        return settle(game, None).await;
    };
    let settled = settle(game, Some((number, answer.wire()))).await;
    if settled == Settled::Paused {
        game.keeping.sockets.answer(number, unkept(game, turn).wire());
        game.keeping.sockets.tell(&[], Some(number));
    }
    // The time a turn takes from its socket to its answer, for `/metrics`.
    if let Some((read_at, host)) = read_at.zip(game.server()).filter(|_| settled == Settled::Kept) {
        host.metrics().turn_seconds.observe(read_at.elapsed().as_secs_f64());
    }
    settled
}

/// What every letter ends with: whatever fell due meanwhile, then the store's commit and the
/// answer to `answer`'s socket with the telling of everyone. If the store fails, nobody is
/// told anything: a pause (the game goes back to what was kept), or the game's end here.
async fn settle(game: &mut Game, answer: Option<(u32, Wire)>) -> Settled {
    game.timed(Instant::now());
    let Err(e) = game.keeping.commit(&game.id, &game.table, answer).await else {
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
    game.close_sockets();
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
