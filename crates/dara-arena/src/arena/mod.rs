//! An arena as a state machine with no runtime: an [`Input`] and the time go in; the new
//! journal events and the effects for the shell come out ([`Outcome`]), or a [`Refusal`] that
//! changed nothing. Every change is made by recording an event and applying it, so replaying a
//! journal ([`Arena::restore`]) rebuilds the same arena.

use core::fmt;
use std::collections::BTreeMap;

use dara::{ByColour, Colour};

use crate::event::ArenaEvent;
use crate::game::{own_moves, GameNo, GameState, Pairing, Verdict};
use crate::phase::Phase;
use crate::player::{Player, Presence};
use crate::player_id::PlayerId;
use crate::settings::Settings;
use crate::sheet;
use crate::standings::{self, Playing, Ranked, Row, Standings, TIE_BREAK, TOP_GAMES, TOP_ROWS};
use crate::time::WallTime;

mod handle;

/// A stored journal that does not replay: event `v` (1 for the first) does not fit the arena
/// the events before it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// The version of the event.
    pub v: u64,
    /// What does not fit.
    pub why: &'static str,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "arena event {}: {}", self.v, self.why)
    }
}

impl std::error::Error for ReplayError {}

/// One arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arena {
    settings: Settings,
    phase: Phase,
    players: BTreeMap<PlayerId, Player>,
    games: BTreeMap<GameNo, Pairing>,
    /// How many have joined, ever: the next joiner's place in the join order.
    joins: u64,
    /// Everything that happened: event `v` is `journal[v - 1]`.
    journal: Vec<ArenaEvent>,
}

impl Arena {
    /// A new arena, nobody in it yet.
    pub fn new(settings: Settings) -> Arena {
        Arena {
            settings,
            phase: Phase::Waiting,
            players: BTreeMap::new(),
            games: BTreeMap::new(),
            joins: 0,
            journal: Vec::new(),
        }
    }

    /// A stored arena taken up again: its journal replayed.
    ///
    /// # Errors
    /// An event that does not fit the arena the events before it made (a journal not written
    /// by this arena, or damaged).
    pub fn restore(settings: Settings, events: Vec<ArenaEvent>) -> Result<Arena, ReplayError> {
        let mut arena = Arena::new(settings);
        for (v, event) in (1..).zip(&events) {
            arena.apply(event).map_err(|why| ReplayError { v, why })?;
        }
        arena.journal = events;
        Ok(arena)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Before, during or after.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Everything that happened, oldest first.
    pub fn journal(&self) -> &[ArenaEvent] {
        &self.journal
    }

    /// Every game paired, in order.
    pub fn games(&self) -> impl Iterator<Item = &Pairing> {
        self.games.values()
    }

    /// A game paired.
    pub fn game(&self, game: GameNo) -> Option<&Pairing> {
        self.games.get(&game)
    }

    /// A player's record.
    pub fn player(&self, player: &PlayerId) -> Option<&Player> {
        self.players.get(player)
    }

    /// Every player, best-ranked first (see [`TIE_BREAK`]).
    pub fn ranked(&self) -> Vec<(&PlayerId, &Player)> {
        standings::ranked(&self.players)
    }

    /// The players a pairing wave would pair: in the arena, paired when free, not playing.
    pub fn free_players(&self) -> Vec<&PlayerId> {
        self.players
            .iter()
            .filter(|(_, p)| p.presence == Presence::Active && p.playing.is_none())
            .map(|(id, _)| id)
            .collect()
    }

    /// When the shell is to send the next [`crate::Input::Tick`]: the start, then every
    /// pairing interval until the end, then never.
    pub fn next_tick(&self, now: WallTime) -> Option<WallTime> {
        match self.phase {
            Phase::Waiting => Some(self.settings.starts),
            Phase::Running => Some((now + self.settings.pair_every).min(self.settings.ends())),
            Phase::Finished => None,
        }
    }

    /// The standings at `now` as `viewer` (if they joined) sees them.
    pub fn standings(&self, now: WallTime, viewer: Option<&PlayerId>) -> Standings {
        let ranked = self.ranked();
        let rank_of: BTreeMap<&PlayerId, u32> =
            ranked.iter().zip(1..).map(|((id, _), rank)| (*id, rank)).collect();
        let time_left = match self.phase {
            Phase::Waiting => self.settings.starts.saturating_since(now),
            Phase::Running => self.settings.ends().saturating_since(now),
            Phase::Finished => Default::default(),
        };
        let ranked_name =
            |id: &PlayerId| Ranked { name: self.players[id].name.clone(), rank: rank_of[id] };
        let mut playing: Vec<Playing> = self
            .games
            .values()
            .filter(|g| g.is_playing())
            .map(|g| Playing {
                game: g.game,
                pale: ranked_name(&g.players.white),
                dark: ranked_name(&g.players.black),
            })
            .collect();
        playing.sort_by_key(|g| g.pale.rank.min(g.dark.rank));
        playing.truncate(TOP_GAMES);
        Standings {
            phase: self.phase,
            time_left,
            players: u32::try_from(self.players.len()).unwrap_or(u32::MAX),
            top: ranked
                .iter()
                .zip(1..)
                .take(TOP_ROWS)
                .map(|((_, p), r)| standings::row(r, p))
                .collect(),
            mine: viewer.and_then(|id| Some(standings::row(*rank_of.get(id)?, &self.players[id]))),
            playing,
            tie_break: TIE_BREAK,
        }
    }

    /// The first three who played at least one game, best first: a player who never played
    /// has not earned a place on a podium, even in an arena where few did.
    pub fn podium(&self) -> Vec<Row> {
        self.ranked()
            .into_iter()
            .zip(1..)
            .filter(|((_, p), _)| !p.sheet.marks().is_empty())
            .take(3)
            .map(|((_, p), rank)| standings::row(rank, p))
            .collect()
    }

    /// Every player's row, best first: what a shell sends each player as their own row,
    /// ranked once for all of them.
    pub fn rows(&self) -> Vec<(&PlayerId, Row)> {
        self.ranked()
            .into_iter()
            .zip(1..)
            .map(|((id, p), rank)| (id, standings::row(rank, p)))
            .collect()
    }

    /// Records an event the arena has decided on: it is applied, then kept.
    fn record(&mut self, event: ArenaEvent) {
        if let Err(why) = self.apply(&event) {
            unreachable!("a decided event applies: {why}: {event:?}");
        }
        self.journal.push(event);
    }

    /// The change an event makes. Live, every event was checked when decided; in a replay, an
    /// event that does not fit is an error.
    fn apply(&mut self, event: &ArenaEvent) -> Result<(), &'static str> {
        match event {
            ArenaEvent::Joined { player, name, at } => {
                if self.phase == Phase::Finished {
                    return Err("a join after the end");
                }
                if self.players.contains_key(player) {
                    return Err("a player who joined twice");
                }
                if self.players.values().any(|p| p.name.key() == name.key()) {
                    return Err("a name taken twice");
                }
                self.players.insert(player.clone(), Player::new(name.clone(), self.joins, *at));
                self.joins += 1;
            }
            ArenaEvent::Paused { player } => self.known(player)?.presence = Presence::Paused,
            ArenaEvent::Resumed { player } => self.known(player)?.presence = Presence::Active,
            ArenaEvent::Left { player } => {
                if self.phase == Phase::Waiting {
                    self.players.remove(player).ok_or("an unknown player")?;
                } else {
                    self.known(player)?.presence = Presence::Left;
                }
            }
            ArenaEvent::Started => {
                if self.phase != Phase::Waiting {
                    return Err("a start after the start");
                }
                self.phase = Phase::Running;
            }
            ArenaEvent::Paired { game, pale, dark } => {
                if self.phase != Phase::Running {
                    return Err("a pairing while the arena is not running");
                }
                if *game != self.next_game() {
                    return Err("a game out of order");
                }
                if pale == dark {
                    return Err("a player paired with themselves");
                }
                for (me, them) in [(pale, dark), (dark, pale)] {
                    let p = self.known(me)?;
                    if p.playing.is_some() {
                        return Err("a player paired while playing");
                    }
                    p.playing = Some(*game);
                    p.last_opponent = Some(them.clone());
                }
                self.games.insert(
                    *game,
                    Pairing {
                        game: *game,
                        players: ByColour { white: pale.clone(), black: dark.clone() },
                        moved: ByColour::default(),
                        berserk: ByColour::default(),
                        state: GameState::Playing,
                    },
                );
            }
            ArenaEvent::FirstMoved { game, by } => self.playing(*game)?.moved[*by] = true,
            ArenaEvent::Berserked { game, by } => self.playing(*game)?.berserk[*by] = true,
            ArenaEvent::GameEnded { game, verdict, plies, at } => {
                let pairing = self.playing(*game)?;
                pairing.state = GameState::Ended { verdict: *verdict, plies: *plies };
                let pairing = pairing.clone();
                for side in Colour::ALL {
                    let p = self.known(&pairing.players[side])?;
                    p.playing = None;
                    // Free for the next wave at once.
                    p.free_at = *at;
                    let Some(finish) = verdict.finish_for(side) else { continue };
                    let mark = p.sheet.add(sheet::Game {
                        finish,
                        plies: *plies,
                        own_moves: own_moves(*plies, side),
                        berserk: pairing.berserk[side],
                    });
                    if mark.points > 0 {
                        p.reached = *at;
                    }
                    p.colours = p.colours.with(side);
                    if *verdict == (Verdict::NoFirstMove { idle: side })
                        && p.presence == Presence::Active
                    {
                        p.presence = Presence::Paused;
                    }
                }
            }
            ArenaEvent::Finished => {
                if self.phase != Phase::Running {
                    return Err("an end while the arena is not running");
                }
                self.phase = Phase::Finished;
                for pairing in self.games.values_mut().filter(|g| g.is_playing()) {
                    pairing.state = GameState::Uncounted;
                }
                for p in self.players.values_mut() {
                    p.playing = None;
                }
            }
        }
        Ok(())
    }

    fn known(&mut self, player: &PlayerId) -> Result<&mut Player, &'static str> {
        self.players.get_mut(player).ok_or("an unknown player")
    }

    fn playing(&mut self, game: GameNo) -> Result<&mut Pairing, &'static str> {
        self.games.get_mut(&game).filter(|g| g.is_playing()).ok_or("a game not being played")
    }

    fn next_game(&self) -> GameNo {
        GameNo(u32::try_from(self.games.len() + 1).unwrap_or(u32::MAX))
    }
}
