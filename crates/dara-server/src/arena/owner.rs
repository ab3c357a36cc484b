//! An arena's owner: one task that holds the [`Arena`], reads its letters and its games' news,
//! sends it a tick when its time comes, and carries out its effects: a table opened for each
//! pairing, the board pinned up (at most once a second), the arena forgotten an hour after its
//! end.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Weak};
use std::time::Duration;

use dara::{ByColour, Colour, Ruleset};
use dara_arena::{Arena, Effect, GameNo, Input, Phase, Refusal, Settings, Verdict, WallTime};
use dara_table::clock::TimeControl;
use dara_table::{GameSettings, Opponent};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::board::{starts, About, Board, Podium, Seated};
use super::book::{Arenas, Maker, Room};
use super::handle::{ArenaHandle, Letter};
use super::id::ArenaId;
use super::player::seat_of;
use super::refused::ArenaError;
use super::verdict::verdict;
use super::wall;
use crate::game::host::Host;
use crate::game::observer::{News, Observer};
use crate::game::start::spawn_observed;
use crate::seat::GameId;

/// How often, at most, the board is pinned up again: the standings change with every game's
/// end, and a page needs no more than a second's news.
pub const BOARD_EVERY: Duration = Duration::from_secs(1);

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

/// Makes the arena of `plan`, enters it in `book` and starts its owner.
///
/// # Errors
/// The book is full.
pub fn open<H: Host>(
    host: &Arc<H>,
    book: &Arc<Arenas>,
    plan: Plan,
) -> Result<ArenaHandle, ArenaError> {
    let id = ArenaId::random();
    let now = wall::now();
    let on_press = plan.starts.is_none();
    let start_at = plan.starts.unwrap_or(now + ON_PRESS);
    let settings = Settings::new(plan.rules.to_string(), plan.clock.label(), start_at, plan.length);
    let arena = Arena::new(settings);
    let about = About {
        id: id.clone(),
        rules: plan.rules.to_string(),
        clock: plan.clock.label(),
        starts: starts(start_at, on_press),
        minutes: plan.length.as_secs() / 60,
        scheduled: plan.maker.is_none(),
    };
    let (board, pinned) = watch::channel(Board::empty(about.clone(), arena.standings(now, None)));
    let (letters, mailbox) = mpsc::channel(256);
    let handle = ArenaHandle::new(id.clone(), letters, pinned);
    let config = host.config();
    let room = Room { private: config.max_arenas, per_address: config.arenas_per_address };
    book.enter(handle.clone(), plan.maker, room)?;
    let (tell, news) = mpsc::unbounded_channel();
    let owner = Owner {
        id,
        host: Arc::downgrade(host),
        book: Arc::downgrade(book),
        arena,
        about,
        on_press,
        game: GameSettings {
            rules: plan.rules,
            opponent: Opponent::Friend,
            creator: Colour::White,
            clock: Some(plan.clock),
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
    };
    tokio::spawn(owner.run(mailbox, news));
    Ok(handle)
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
}

impl<H: Host> Owner<H> {
    async fn run(
        mut self,
        mut mailbox: mpsc::Receiver<Letter>,
        mut news: mpsc::UnboundedReceiver<(GameId, News)>,
    ) {
        self.tick_at = self.arena.next_tick(wall::now());
        loop {
            let wake = self.next_wake();
            tokio::select! {
                letter = mailbox.recv() => match letter {
                    Some(letter) => self.letter(letter),
                    // Nobody can reach it: the book let it go.
                    None => break,
                },
                Some((game, news)) = news.recv() => self.news(&game, news),
                () = sleep_until(wake) => {
                    if self.forget_at.is_some_and(|at| Instant::now() >= at) {
                        break;
                    }
                    if self.tick_at.is_some_and(|at| at <= wall::now()) {
                        self.tick();
                    }
                }
            }
            self.pin_if_due();
        }
        if let Some(book) = self.book.upgrade() {
            book.forget(&self.id);
        }
        tracing::info!(arena = %self.id, "arena forgotten");
    }

    /// The next moment something falls due: a tick, the board, the arena's forgetting.
    fn next_wake(&self) -> Option<Instant> {
        let tick = self.tick_at.map(wall::instant);
        let pin =
            self.untold.then(|| self.told_at.map_or_else(Instant::now, |at| at + BOARD_EVERY));
        [tick, pin, self.forget_at].into_iter().flatten().min()
    }

    fn letter(&mut self, letter: Letter) {
        match letter {
            Letter::Act { input, answer } => {
                let _ = answer.send(self.act(input));
            }
            Letter::Start { answer } => {
                let _ = answer.send(self.start_now());
            }
        }
    }

    /// A player's request. Berserk is refused before it reaches the arena: the table cannot
    /// halve a clock yet (the HTTP side says so with its own code).
    fn act(&mut self, input: Input) -> Result<(), Refusal> {
        let outcome = self.arena.handle(wall::now(), input)?;
        for back in self.carry_out(outcome.effects) {
            self.feed(back);
        }
        Ok(())
    }

    /// The maker pressed start: the arena is made again from its journal (joins, pauses and
    /// leaves only, as it has not started) with its start now.
    fn start_now(&mut self) -> bool {
        if !self.on_press || self.arena.phase() != Phase::Waiting {
            return false;
        }
        let now = wall::now();
        let settings = Settings { starts: now, ..self.arena.settings().clone() };
        match Arena::restore(settings, self.arena.journal().to_vec()) {
            Ok(arena) => self.arena = arena,
            Err(e) => {
                tracing::error!(arena = %self.id, "its own journal does not replay: {e}");
                return false;
            }
        }
        self.on_press = false;
        self.about.starts = starts(now, false);
        self.untold = true;
        self.tick();
        true
    }

    /// Time passed: the arena starts, pairs or ends; then when it is next due.
    fn tick(&mut self) {
        self.feed(Input::Tick);
        self.tick_at = self.arena.next_tick(wall::now());
    }

    /// News from one of its games.
    fn news(&mut self, game: &GameId, news: News) {
        let Some(&no) = self.numbers.get(game) else { return };
        let input = match news {
            News::Moved { by } => Input::FirstMove { game: no, by },
            News::Ended { ending, plies } => {
                self.numbers.remove(game);
                self.tables.remove(&no);
                Input::GameEnded { game: no, verdict: verdict(&ending), plies }
            }
        };
        self.feed(input);
    }

    /// Hands the arena an input of the shell's own, and whatever follows from it.
    fn feed(&mut self, input: Input) {
        let mut inputs = VecDeque::from([input]);
        while let Some(input) = inputs.pop_front() {
            match self.arena.handle(wall::now(), input) {
                Ok(outcome) => inputs.extend(self.carry_out(outcome.effects)),
                // A game's news after the arena forgot it: nothing to do.
                Err(refusal) => tracing::debug!(arena = %self.id, "{refusal}"),
            }
        }
    }

    /// Carries out the arena's effects; gives what the arena is to be told of them (a game
    /// that could not be opened is called off).
    fn carry_out(&mut self, effects: Vec<Effect>) -> Vec<Input> {
        let mut back = Vec::new();
        for effect in effects {
            match effect {
                Effect::StartGame { game, pale, dark } => {
                    if !self.open_table(game, [&pale, &dark]) {
                        back.push(Input::GameEnded { game, verdict: Verdict::Cancelled, plies: 0 });
                    }
                }
                Effect::HalveClock { game, side } => {
                    tracing::warn!(arena = %self.id, %game, ?side, "berserk is not played yet");
                }
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
    fn open_table(&mut self, no: GameNo, [pale, dark]: [&dara_arena::PlayerId; 2]) -> bool {
        let Some(host) = self.host.upgrade() else { return false };
        let (Some(white), Some(black)) = (seat_of(pale), seat_of(dark)) else { return false };
        let seats = ByColour { white, black };
        match spawn_observed(&host, self.game.clone(), seats, self.observer.clone()) {
            Ok((handle, _kept)) => {
                self.tables.insert(no, handle.id.clone());
                self.numbers.insert(handle.id, no);
                true
            }
            Err(e) => {
                tracing::warn!(arena = %self.id, game = %no, "no table for a pairing: {e}");
                false
            }
        }
    }

    /// Pins up the board if the standings changed and the last pinning is a second old.
    fn pin_if_due(&mut self) {
        let now = Instant::now();
        if !self.untold || self.told_at.is_some_and(|at| now < at + BOARD_EVERY) {
            return;
        }
        self.untold = false;
        self.told_at = Some(now);
        let board = self.board_now();
        self.board.send_replace(Arc::new(board));
    }

    fn board_now(&self) -> Board {
        let now = wall::now();
        let mut seated = HashMap::new();
        for pairing in self.arena.games().filter(|g| g.is_playing()) {
            let Some(game) = self.tables.get(&pairing.game) else { continue };
            for colour in Colour::ALL {
                let at = Seated { game: game.clone(), no: pairing.game, colour };
                seated.insert(pairing.players[colour].clone(), at);
            }
        }
        Board {
            about: self.about.clone(),
            standings: self.arena.standings(now, None),
            rows: self.arena.rows().into_iter().map(|(id, row)| (id.clone(), row)).collect(),
            seated,
            podium: self.podium.clone(),
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
