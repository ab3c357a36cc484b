//! The server's book of live arenas: each one's handle, whether it is listed, and the hash of
//! its maker's secret.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::board::About;
use super::handle::ArenaHandle;
use super::id::ArenaId;
use super::refused::Shell;
use crate::seat::SeatHash;
use dara_arena::Phase;

/// The live arenas.
#[derive(Debug, Default)]
pub struct Arenas {
    // A std mutex: held only to look up, add or remove an arena, never across an await.
    held: Mutex<HashMap<ArenaId, Held>>,
    /// How often each address asks things of arenas.
    pub requests: super::requests::Requests,
    /// On a node of a cluster: the arenas other nodes hold, as reached from here.
    pub there: super::there::Remotes,
}

#[derive(Debug)]
struct Held {
    handle: ArenaHandle,
    /// Who made it; `None` for the server's own.
    maker: Option<Maker>,
}

/// Who made a private arena.
#[derive(Debug, Clone, Copy)]
pub struct Maker {
    /// The keyed hash of their secret, which starts an arena that waits for them.
    pub secret: SeatHash,
    /// The client address it counts against (see `crate::address`).
    pub from: IpAddr,
}

/// How many private arenas the book takes: the server's own always have room, so that nobody
/// can keep them out by making arenas.
#[derive(Debug, Clone, Copy)]
pub struct Room {
    /// Private arenas in all.
    pub private: usize,
    /// Private arenas made from one client address.
    pub per_address: usize,
}

/// An arena as `GET /api/arenas` lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Listed {
    /// What it is.
    #[serde(flatten)]
    pub about: About,
    /// Before, during or after.
    pub phase: Phase,
    /// How many have joined.
    pub players: u32,
}

impl Arenas {
    /// The live arena `id`.
    pub fn get(&self, id: &ArenaId) -> Option<ArenaHandle> {
        self.held.lock().expect("arenas lock").get(id).map(|held| held.handle.clone())
    }

    /// Enters a new arena made by `maker` (`None`: the server), unless it is private and there
    /// is no `room` for it.
    ///
    /// # Errors
    /// [`Shell::TooManyArenas`], [`Shell::TooManyArenasFromYou`].
    pub fn enter(
        &self,
        handle: ArenaHandle,
        maker: Option<Maker>,
        room: Room,
    ) -> Result<(), Shell> {
        let mut held = self.held.lock().expect("arenas lock");
        if let Some(maker) = &maker {
            let private = held.values().filter_map(|h| h.maker.as_ref());
            let (all, here) = private
                .fold((0, 0), |(all, here), m| (all + 1, here + usize::from(m.from == maker.from)));
            if here >= room.per_address {
                return Err(Shell::TooManyArenasFromYou { limit: room.per_address });
            }
            if all >= room.private {
                return Err(Shell::TooManyArenas);
            }
        }
        held.insert(handle.id.clone(), Held { handle, maker });
        Ok(())
    }

    /// Whether `offered` is the hash of arena `id`'s maker's secret.
    pub fn made_by(&self, id: &ArenaId, offered: &SeatHash) -> bool {
        let held = self.held.lock().expect("arenas lock");
        held.get(id).and_then(|h| h.maker.as_ref()).is_some_and(|m| m.secret.matches(offered))
    }

    /// Whether one of the server's own arenas starts at `starts` (milliseconds since the Unix
    /// epoch) with games on `clock`: one taken up after a restart is not made again.
    pub fn has_scheduled(&self, starts: u64, clock: &str) -> bool {
        let held = self.held.lock().expect("arenas lock");
        held.values().filter(|h| h.maker.is_none()).any(|h| {
            let board = h.handle.board();
            let about = &board.borrow().about;
            about.starts == Some(starts) && about.clock == clock
        })
    }

    /// Forgets arena `id`: it ended an hour ago.
    pub fn forget(&self, id: &ArenaId) {
        self.held.lock().expect("arenas lock").remove(id);
    }

    /// The server's own arenas (a private one is reached only by its link), soonest first.
    pub fn listed(&self) -> Vec<Listed> {
        let held = self.held.lock().expect("arenas lock");
        let mut listed: Vec<Listed> = held
            .values()
            .filter(|h| h.maker.is_none())
            .map(|h| {
                let board = h.handle.board();
                let board = board.borrow();
                Listed {
                    about: board.about.clone(),
                    phase: board.standings.phase,
                    players: board.standings.players,
                }
            })
            .collect();
        listed.sort_by_key(|l| (l.about.starts, l.about.id.clone()));
        listed
    }
}
