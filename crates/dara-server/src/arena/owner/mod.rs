//! An arena's owner: one task that holds the [`Arena`], reads its letters and its games' news,
//! sends it a tick when its time comes, and carries out its effects: a table opened for each
//! pairing, the board pinned up (at most once a second), the arena forgotten an hour after its
//! end. On a server that keeps its games, each arena is kept beside them (its settings, each
//! event of its journal before its effects are carried out, the table of each game), taken up
//! again at start ([`restore`]) and erased when it is forgotten.

mod in_redis;
mod pinning;
mod restore;

pub use restore::{restore, ArenaRestored};

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Weak};
use std::time::Duration;

use dara::{ByColour, Colour, Ruleset};
use dara_arena::{Arena, Effect, GameNo, Input, Phase, Settings, Verdict, WallTime};
use dara_table::clock::TimeControl;
use dara_table::{GameSettings, Opponent};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::board::{starts, About, Board, Podium};
use super::book::{Arenas, Maker, Room};
use super::cluster::InRedis;
use super::handle::{ArenaHandle, Letter};
use super::id::ArenaId;
use super::player::seat_of;
use super::refused::{ArenaError, Shell as Refused};
use super::verdict::verdict;
use super::wall;
use crate::game::host::Host;
use crate::game::observer::{News, Observer};
use crate::game::start::spawn_observed;
use crate::seat::GameId;
use crate::store::kept::Store;
use crate::store::write::{ArenaWrite, Write};

/// How long an arena whose last events could not be kept (a full disk) waits before it tries
/// them again.
const RETRY_EVERY: Duration = Duration::from_secs(1);

/// How far ahead an arena that waits for its maker's press is announced as starting: never,
/// in practice; the press restarts it from its journal with the true time.
const ON_PRESS: Duration = Duration::from_secs(365 * 24 * 3600);

/// An arena to make.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Its games' rules.
    pub rules: Ruleset,
    /// Their clock.
    pub clock: TimeControl,
    /// When it starts; `None`: when its maker presses start.
    pub starts: Option<WallTime>,
    /// How long it runs.
    pub length: Duration,
    /// Who made it; `None` for the server's own, which are listed.
    pub maker: Option<Maker>,
}

/// Makes the arena of `plan`, enters it in `book`, keeps it in the store, and starts its
/// owner.
///
/// # Errors
/// The book is full.
pub fn open<H: Host>(
    host: &Arc<H>,
    book: &Arc<Arenas>,
    plan: Plan,
) -> Result<ArenaHandle, ArenaError> {
    let now = wall::now();
    let on_press = plan.starts.is_none();
    let start_at = plan.starts.unwrap_or(now + ON_PRESS);
    let in_redis = match host.store() {
        Store::Redis(redis) => Some(InRedis::new(redis.clone(), None)),
        Store::Memory | Store::Sqlite(_) => None,
    };
    let id = match (&plan.maker, &in_redis) {
        // One arena per slot of the schedule, whichever nodes make it (see `run`).
        (None, Some(_)) => ArenaId::of_slot(host.seat_key(), start_at, &plan.clock.label()),
        _ => ArenaId::random(),
    };
    let settings = Settings::new(plan.rules.to_string(), plan.clock.label(), start_at, plan.length);
    let shell = Shell {
        clock: plan.clock,
        on_press,
        scheduled: plan.maker.is_none(),
        maker: plan.maker.map(|m| m.secret.to_hex()),
    };
    let config = host.config();
    let room = Room { private: config.max_arenas, per_address: config.arenas_per_address };
    let (mut owner, handle, boxes) = Owner::new(host, book, id, Arena::new(settings), shell);
    owner.cluster = in_redis;
    book.enter(handle.clone(), plan.maker, room)?;
    // Sent before any of its events: committed in order, before them.
    let _ = owner.store.send(vec![owner.opened()]);
    tokio::spawn(owner.run(boxes, Vec::new()));
    Ok(handle)
}

/// Where an arena's owner reads its letters and its games' news.
type Boxes = (mpsc::Receiver<Letter>, mpsc::UnboundedReceiver<(GameId, News)>);

/// What an arena's shell keeps besides its settings: what its games are and who made it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Shell {
    /// The clock of its games.
    clock: TimeControl,
    /// Whether it waits for its maker to press start.
    on_press: bool,
    /// Made by the server's schedule.
    scheduled: bool,
    /// The keyed hash of its maker's secret, for a private one (never the secret).
    maker: Option<String>,
}

/// One live arena, as its owner holds it.
struct Owner<H: Host> {
    id: ArenaId,
    /// The server, to open tables at, while it runs.
    host: Weak<H>,
    /// Where the arena is entered, to leave it an hour after its end.
    book: Weak<Arenas>,
    arena: Arena,
    about: About,
    /// Whether it waits for its maker to press start.
    on_press: bool,
    /// The settings of every game it pairs.
    game: GameSettings,
    /// Which table each game being played is.
    tables: HashMap<GameNo, GameId>,
    /// Which game each table is.
    numbers: HashMap<GameId, GameNo>,
    /// Where its games send their news.
    observer: Observer,
    board: watch::Sender<Arc<Board>>,
    /// Whether the standings changed since the board was last pinned.
    untold: bool,
    told_at: Option<Instant>,
    podium: Option<Podium>,
    /// When the arena is forgotten: an hour after its end.
    forget_at: Option<Instant>,
    /// When the next tick is due, as the arena said after the last one (asked again at every
    /// wake, it would always be a pairing interval away).
    tick_at: Option<WallTime>,
    /// Where it is kept (nowhere on a memory-only server, nor in a cluster: see `cluster`).
    store: Store,
    shell: Shell,
    /// On a node of a cluster: how it is kept in Redis, and reached from other nodes.
    cluster: Option<InRedis>,
    /// The shell's own inputs (a tick, a game's news) whose events could not be kept: the
    /// arena is as it was before them, and they are fed again, in order, from `retry_at` on.
    /// (A game tells its end once: dropped, it would hold its players for ever.)
    unkept: VecDeque<Input>,
    retry_at: Option<Instant>,
}

impl<H: Host> Owner<H> {
    fn new(
        host: &Arc<H>,
        book: &Arc<Arenas>,
        id: ArenaId,
        arena: Arena,
        shell: Shell,
    ) -> (Owner<H>, ArenaHandle, Boxes) {
        let now = wall::now();
        let settings = arena.settings().clone();
        let rules: Ruleset = settings.rules.parse().unwrap_or_default();
        let about = About {
            id: id.clone(),
            rules: settings.rules.clone(),
            clock: settings.clock.clone(),
            starts: starts(settings.starts, shell.on_press),
            minutes: settings.length.as_secs() / 60,
            scheduled: shell.scheduled,
        };
        let (board, pinned) =
            watch::channel(Board::empty(about.clone(), arena.standings(now, None)));
        let (letters, mailbox) = mpsc::channel(256);
        let handle = ArenaHandle::new(id.clone(), letters, pinned);
        let (tell, news) = mpsc::unbounded_channel();
        let store = match host.store() {
            store @ Store::Sqlite(_) => store.clone(),
            Store::Memory | Store::Redis(_) => Store::Memory,
        };
        let owner = Owner {
            id,
            host: Arc::downgrade(host),
            book: Arc::downgrade(book),
            arena,
            about,
            on_press: shell.on_press,
            game: GameSettings {
                rules,
                opponent: Opponent::Friend,
                creator: Colour::White,
                clock: Some(shell.clock),
            },
            tables: HashMap::new(),
            numbers: HashMap::new(),
            observer: Observer::new(tell),
            board,
            untold: true,
            told_at: None,
            podium: None,
            forget_at: None,
            tick_at: None,
            store,
            shell,
            cluster: None,
            unkept: VecDeque::new(),
            retry_at: None,
        };
        (owner, handle, (mailbox, news))
    }

    /// The write that keeps its settings and shell.
    fn opened(&self) -> Write {
        Write::Arena(ArenaWrite::Open {
            arena: self.id.to_string(),
            settings: serde_json::to_string(self.arena.settings()).expect("settings serialise"),
            shell: serde_json::to_string(&self.shell).expect("the shell serialises"),
        })
    }

    /// Keeps events `events` of its journal, and waits until they are on disk: before their
    /// effects are carried out, or anyone is told.
    ///
    /// # Errors
    /// They could not be kept: the arena is put back as it was before them (its journal up to
    /// them, replayed), and nothing of them is to be carried out or acknowledged. (It used to
    /// log the failure and go on: a join was acknowledged that a full disk had not kept, and an
    /// old holder woken after another node took the arena opened tables for a pairing the
    /// journal never had.) In a cluster the owner stops too: another node may hold the arena
    /// (a fenced write), or Redis may or may not have the write (no answer in time), and the
    /// arena is taken up again from what Redis has.
    async fn keep(
        &mut self,
        events: std::ops::Range<u64>,
        more: Vec<Write>,
    ) -> Result<(), ArenaError> {
        let durable = self.store.is_durable() || self.cluster.is_some();
        if !durable || (events.is_empty() && more.is_empty()) {
            return Ok(());
        }
        let journal = self.arena.journal();
        let lines = events
            .clone()
            .filter_map(|v| journal.get(usize::try_from(v).ok()?.checked_sub(1)?))
            .map(|e| serde_json::to_string(e).expect("events serialise"))
            .collect::<Vec<_>>();
        let mut writes = more;
        if !lines.is_empty() {
            let write = ArenaWrite::Events {
                arena: self.id.to_string(),
                from: events.start,
                events: lines,
            };
            writes.push(Write::Arena(write));
        }
        let refusal: ArenaError = if self.cluster.is_some() {
            if self.keep_in_redis(writes).await {
                return Ok(());
            }
            if let Some(cluster) = &mut self.cluster {
                cluster.lost = true;
            }
            Refused::NotNow.into()
        } else {
            match self.store.send(writes).wait().await {
                Ok(()) => return Ok(()),
                Err(e) => {
                    tracing::error!(arena = %self.id, "the arena's events could not be kept: {e}");
                    Refused::ArenaUnkept.into()
                }
            }
        };
        if !events.is_empty() {
            self.unjournal(events.start);
        }
        Err(refusal)
    }

    /// Puts the arena back as it was before event `from` of its journal.
    fn unjournal(&mut self, from: u64) {
        let kept = usize::try_from(from.saturating_sub(1)).unwrap_or(usize::MAX);
        let journal = self.arena.journal();
        let journal = journal[..kept.min(journal.len())].to_vec();
        match Arena::restore(self.arena.settings().clone(), journal) {
            Ok(arena) => self.arena = arena,
            // Its own journal always replays (a restart relies on it). Were it not to, the
            // arena goes on as it is rather than be dropped, its kept rows with it.
            Err(e) => tracing::error!(arena = %self.id, "its own journal does not replay: {e}"),
        }
    }
}

impl<H: Host> Owner<H> {
    async fn run(mut self, (mut mailbox, mut news): Boxes, lost: Vec<GameNo>) {
        if !self.made_in_redis().await {
            if let Some(book) = self.book.upgrade() {
                book.forget(&self.id);
            }
            return;
        }
        for game in lost {
            tracing::warn!(arena = %self.id, %game, "a game of the arena was lost: called off");
            self.feed(Input::GameEnded { game, verdict: Verdict::Cancelled, plies: 0 }).await;
        }
        self.tick_at = self.arena.next_tick(wall::now());
        loop {
            let wake = self.next_wake();
            tokio::select! {
                letter = mailbox.recv() => match letter {
                    Some(letter) => self.letter(letter).await,
                    // Nobody can reach it: the book let it go.
                    None => break,
                },
                Some((game, news)) = news.recv() => self.news(&game, news).await,
                () = sleep_until(wake) => {
                    if self.forget_at.is_some_and(|at| Instant::now() >= at) {
                        break;
                    }
                    if self.retry_at.is_some_and(|at| at <= Instant::now()) {
                        self.feed_unkept().await;
                    }
                    // While its events cannot be kept, the arena does not go on.
                    if self.retry_at.is_none() && self.tick_at.is_some_and(|at| at <= wall::now()) {
                        self.tick().await;
                    }
                    self.in_cluster().await;
                }
            }
            if self.pin_if_due() {
                self.pin_in_redis().await;
            }
            if self.cluster.as_ref().is_some_and(|c| c.lost) {
                // Another node pairs it now: its sockets here reconnect to find it there.
                break;
            }
        }
        if let Some(book) = self.book.upgrade() {
            book.forget(&self.id);
        }
        // Erased only when forgotten for its age: a server that stops keeps it for the next.
        if self.forget_at.is_some_and(|at| Instant::now() >= at) {
            let erase = Write::Arena(ArenaWrite::Erase { arena: self.id.to_string() });
            if self.cluster.is_some() {
                let _ = self.keep_in_redis(vec![erase]).await;
            } else if let Err(e) = self.store.send(vec![erase]).wait().await {
                tracing::warn!(arena = %self.id, "the arena's rows could not be erased: {e}");
            }
        }
        tracing::info!(arena = %self.id, "arena forgotten");
    }

    /// The next moment something falls due: a tick, the board, the arena's forgetting.
    fn next_wake(&self) -> Option<Instant> {
        let tick = self.tick_at.map(wall::instant).filter(|_| self.retry_at.is_none());
        let pin = self.pin_at(Instant::now());
        let cluster = self.cluster.as_ref().map(InRedis::next_wake);
        [tick, pin, self.forget_at, cluster, self.retry_at].into_iter().flatten().min()
    }

    async fn letter(&mut self, letter: Letter) {
        match letter {
            Letter::Act { input, answer } => {
                let _ = answer.send(self.act(input).await);
            }
            Letter::Start { answer } => {
                let _ = answer.send(self.start_now().await);
            }
        }
    }

    /// A player's request.
    async fn act(&mut self, input: Input) -> Result<(), ArenaError> {
        // Given up here (see `keep`): the requests read with the one that was not kept are not
        // tried, each waiting on Redis in turn.
        if self.cluster.as_ref().is_some_and(|c| c.lost) {
            return Err(Refused::NotNow.into());
        }
        if matches!(input, Input::Berserk { .. }) {
            return self.berserk(input).await;
        }
        let outcome = self.arena.handle(wall::now(), input)?;
        self.keep(outcome.events, Vec::new()).await?;
        for back in self.carry_out(outcome.effects).await {
            self.feed(back).await;
        }
        Ok(())
    }

    /// A player goes berserk: the arena's rules decide on a copy of it, the table halves the
    /// clock (`Effect::HalveClock`, see `super::berserk`), and only then does the arena keep
    /// the berserk. A berserk the table refused (the player moved a moment ago, before the
    /// arena heard of it) leaves the arena as it was, and is refused as the table's answer
    /// says.
    async fn berserk(&mut self, input: Input) -> Result<(), ArenaError> {
        let mut arena = self.arena.clone();
        let outcome = arena.handle(wall::now(), input)?;
        for effect in &outcome.effects {
            if let Effect::HalveClock { game, side } = *effect {
                super::berserk::halve_clock(&self.host, self.tables.get(&game), side).await?;
            }
        }
        self.arena = arena;
        // Not kept, the berserk is refused, though the table halved the clock already.
        self.keep(outcome.events, Vec::new()).await?;
        for back in self.carry_out(outcome.effects).await {
            self.feed(back).await;
        }
        Ok(())
    }

    /// The maker pressed start: the arena is made again from its journal (joins, pauses and
    /// leaves only, as it has not started) with its start now.
    ///
    /// # Errors
    /// `not-the-maker`: it does not wait for its maker's press; or its new start could not be
    /// kept, and it still waits (it used to answer `not-the-maker` then).
    async fn start_now(&mut self) -> Result<(), ArenaError> {
        if !self.on_press || self.arena.phase() != Phase::Waiting {
            return Err(Refused::NotTheMaker.into());
        }
        let now = wall::now();
        let settings = Settings { starts: now, ..self.arena.settings().clone() };
        let waiting = match Arena::restore(settings, self.arena.journal().to_vec()) {
            Ok(arena) => std::mem::replace(&mut self.arena, arena),
            Err(e) => {
                tracing::error!(arena = %self.id, "its own journal does not replay: {e}");
                return Err(Refused::NotTheMaker.into());
            }
        };
        self.on_press = false;
        self.shell.on_press = false;
        if let Err(unkept) = self.keep(0..0, vec![self.opened()]).await {
            // Not kept: it still waits for its maker's press.
            self.arena = waiting;
            self.on_press = true;
            self.shell.on_press = true;
            return Err(unkept);
        }
        self.about.starts = starts(now, false);
        self.untold = true;
        self.tick().await;
        Ok(())
    }

    /// Time passed: the arena starts, pairs or ends; then when it is next due.
    async fn tick(&mut self) {
        self.feed(Input::Tick).await;
        self.tick_at = self.arena.next_tick(wall::now());
    }

    /// News from one of its games.
    async fn news(&mut self, game: &GameId, news: News) {
        let Some(&no) = self.numbers.get(game) else { return };
        let input = match news {
            News::Moved { by } => Input::FirstMove { game: no, by },
            News::Ended { ending, plies } => {
                self.numbers.remove(game);
                self.tables.remove(&no);
                Input::GameEnded { game: no, verdict: verdict(&ending), plies }
            }
        };
        self.feed(input).await;
    }

    /// Hands the arena an input of the shell's own, and whatever follows from it; after
    /// those not kept yet.
    async fn feed(&mut self, input: Input) {
        self.unkept.push_back(input);
        if self.retry_at.is_none() {
            self.feed_unkept().await;
        }
    }

    /// Feeds the arena the shell's inputs waiting, in order, and whatever follows from each,
    /// until one's events cannot be kept: that one waits (`RETRY_EVERY`), with those after it.
    async fn feed_unkept(&mut self) {
        self.retry_at = None;
        while let Some(input) = self.unkept.pop_front() {
            match self.arena.handle(wall::now(), input.clone()) {
                Ok(outcome) => {
                    if self.keep(outcome.events, Vec::new()).await.is_err() {
                        self.unkept.push_front(input);
                        self.retry_at = Some(Instant::now() + RETRY_EVERY);
                        return;
                    }
                    let back = self.carry_out(outcome.effects).await;
                    // What follows from it comes next, before the rest.
                    for input in back.into_iter().rev() {
                        self.unkept.push_front(input);
                    }
                }
                // A game's news after the arena forgot it: nothing to do.
                Err(refusal) => tracing::debug!(arena = %self.id, "{refusal}"),
            }
        }
    }

    /// Carries out the arena's effects; gives what the arena is to be told of them (a game
    /// that could not be opened is called off).
    async fn carry_out(&mut self, effects: Vec<Effect>) -> Vec<Input> {
        let mut back = Vec::new();
        for effect in effects {
            match effect {
                Effect::StartGame { game, pale, dark } => {
                    if !self.open_table(game, [&pale, &dark]).await {
                        back.push(Input::GameEnded { game, verdict: Verdict::Cancelled, plies: 0 });
                    }
                }
                // Carried out before the arena kept its berserk (see `Owner::berserk`).
                Effect::HalveClock { .. } => {}
                Effect::TellStandings => self.untold = true,
                Effect::Finished { podium, uncounted } => {
                    let kept =
                        self.host.upgrade().map_or(Duration::ZERO, |h| h.config().arena_kept_after);
                    self.forget_at = Some(Instant::now() + kept);
                    self.podium = Some(Podium { podium, uncounted });
                    self.untold = true;
                    // Its end is told at once, not a second later.
                    self.told_at = None;
                }
            }
        }
        back
    }

    /// Opens the table of game `no`, pale and dark seated by their tokens; false if it cannot
    /// be (the server is full or stopping).
    async fn open_table(&mut self, no: GameNo, [pale, dark]: [&dara_arena::PlayerId; 2]) -> bool {
        let Some(host) = self.host.upgrade() else { return false };
        let (Some(white), Some(black)) = (seat_of(pale), seat_of(dark)) else { return false };
        let seats = ByColour { white, black };
        match spawn_observed(&host, self.game.clone(), seats, self.observer.clone()) {
            Ok((handle, _kept)) => {
                if let Some(cluster) = &mut self.cluster {
                    cluster.observed.insert(handle.id.clone());
                }
                self.tables.insert(no, handle.id.clone());
                self.numbers.insert(handle.id.clone(), no);
                // After the game's beginning, in the same order: which table it is.
                let table =
                    ArenaWrite::Table { arena: self.id.to_string(), no: no.0, game: handle.id };
                // Not kept, the game is played all the same (its pairing is kept); after a
                // restart it is called off, as a game whose table is not known.
                let _ = self.keep(0..0, vec![Write::Arena(table)]).await;
                true
            }
            Err(e) => {
                tracing::warn!(arena = %self.id, game = %no, "no table for a pairing: {e}");
                false
            }
        }
    }
}

/// Sleeps until `at`, or forever.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
