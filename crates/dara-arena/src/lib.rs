//! An arena of Dara: a lichess-style tournament with no accounts, as a pure state machine.
//! Players join under a name, are paired every couple of seconds while they are free, score
//! their games as lichess players expect (streaks, berserk), and the standings at the end are
//! the podium.
//!
//! Nothing here reads a clock, touches a socket or a store, or plays a game: a shell (the
//! server) feeds an [`Arena`] each [`Input`] with the wall-clock time ([`WallTime`]) and carries
//! out what comes back ([`Outcome`]): the new events of the arena's journal (to store, then to
//! tell), and the [`Effect`]s (open a table for a pairing, halve a berserker's clock, send the
//! standings, announce the podium). Every game is an ordinary game at the table (`dara-table`:
//! its rules, its clocks, its first-move abort); the shell tells the arena what it needs of
//! each: the first moves, and the end. The shell sends [`Input::Tick`] at
//! [`Arena::next_tick`].
//!
//! The journal ([`ArenaEvent`]) is the arena: [`Arena::restore`] replays it into the same
//! arena, so a server restarted mid-arena takes it up where it was.
//!
//! # Inputs, events and effects
//!
//! | input | refused with | events | effects |
//! | --- | --- | --- | --- |
//! | `Join { player, name }` | `name-empty`, `name-too-long`, `name-invisible`, `name-taken`, `already-joined`, `arena-over` | `Joined` | `TellStandings` |
//! | `Pause { player }` | `unknown-player`, `arena-over` | `Paused` (none if paused) | `TellStandings` |
//! | `Resume { player }` | `unknown-player`, `arena-over` | `Resumed` (none if active) | `TellStandings` |
//! | `Leave { player }` | `unknown-player`, `arena-over` | `Left` (before the start: gone, name freed) | `TellStandings` |
//! | `Berserk { player, game }` | `not-in-game`, `already-berserk`, `berserk-too-late`, `unknown-player`, `arena-over` | `Berserked` | `HalveClock`, `TellStandings` |
//! | `FirstMove { game, by }` (shell) | `unknown-game` | `FirstMoved` (the first only) | |
//! | `GameEnded { game, verdict, plies }` (shell) | `unknown-game` | `GameEnded` (none after the end) | `TellStandings` |
//! | `Tick` (shell) | | `Started`, `Paired`..., `Finished` | `StartGame`..., `TellStandings`, `Finished { podium, uncounted }` |
//!
//! # Rules where lichess was the guide
//!
//! - Scoring ([`sheet`]): win 2, draw 1, loss 0; after two wins in a row a win scores 4 and a
//!   draw 2; anything but a win puts the fire out (lila `arena/ArenaSheet.scala`). Berserk
//!   halves one's clock before one's first move and adds a point to a win of at least
//!   [`BERSERK_MOVES`] moves of one's own. A draw in fewer than [`QUICK_DRAW_PLIES`] plies
//!   scores nothing. lichess's later rule that a second draw in a row scores nothing unless the
//!   game was long is not taken: the issue's rules leave it out, and it would need a "long game"
//!   measure for Dara first.
//! - A side that makes no first move in time loses the game (the other side wins, as in
//!   lichess's `NoStart` for games that may not be aborted, lila `round/Finisher.scala`) and is
//!   paused, as lichess withdraws it (`TournamentApi.withdrawNonMover`).
//! - Pairing ([`pairing`]): by rank, with neighbours, never last opponents again while another
//!   player is free, colours balanced (lila `arena/PairingSystem.scala`, `ColorHistory.scala`).
//! - The end: games still being played when the time is up do not count. They go on as
//!   ordinary games at their tables. This is lichess's rule (lila `TournamentApi.finish`
//!   removes the pairings still playing, and `finishGame` counts a game only while the
//!   tournament is started), and the reason holds here: the podium is known the moment the
//!   countdown reaches zero, and nobody can change it by playing slowly, or by starting a
//!   quick game in the last second.
//! - Ties: see [`TIE_BREAK`]. lichess breaks them by performance rating; with no accounts
//!   there are no ratings.
//!
//! ```
//! use std::time::Duration;
//! use dara_arena::{Arena, Effect, Input, PlayerId, Settings, WallTime};
//!
//! let start = WallTime::from_millis(1_000_000);
//! let mut arena = Arena::new(Settings::new("arcade", "3+2", start, Duration::from_secs(3600)));
//! for (id, name) in [("a", "Ƙwaro"), ("b", "Hélène")] {
//!     let join = Input::Join { player: PlayerId::new(id), name: name.into() };
//!     arena.handle(start, join).unwrap();
//! }
//! let outcome = arena.handle(start, Input::Tick).unwrap();
//! assert!(outcome.effects.iter().any(|e| matches!(e, Effect::StartGame { .. })));
//! ```

#![forbid(unsafe_code)]

mod arena;
mod colours;
mod effect;
mod event;
mod game;
mod input;
mod name;
pub mod pairing;
mod phase;
mod player;
mod player_id;
mod refusal;
mod settings;
pub mod sheet;
mod standings;
mod time;

pub use arena::{Arena, ReplayError};
pub use colours::{ColourHistory, MAX_RUN};
pub use effect::Effect;
pub use event::{ArenaEvent, ARENA_JOURNAL_FORMAT};
pub use game::{own_moves, GameNo, GameState, Pairing, Verdict};
pub use input::{Input, Outcome};
pub use name::{Name, NameError, MAX_NAME_CHARS};
pub use phase::Phase;
pub use player::{Player, Presence};
pub use player_id::PlayerId;
pub use refusal::Refusal;
pub use settings::{Settings, PAIR_EVERY};
pub use sheet::{Finish, Mark, Sheet, BERSERK_MOVES, QUICK_DRAW_PLIES};
pub use standings::{Playing, Ranked, Row, Standings, TIE_BREAK, TOP_GAMES, TOP_ROWS};
pub use time::WallTime;
