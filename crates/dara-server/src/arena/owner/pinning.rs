//! The board an arena's owner pins up for its sockets: the standings, each player's row and
//! seat, the games listed, at most once a second ([`BOARD_EVERY`]), and timed so that
//! a pairing wave's news is not held back.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use dara::Colour;
use dara_arena::GameNo;
use tokio::time::Instant;

use super::Owner;
use crate::arena::board::BOARD_EVERY;
use crate::arena::board::{Board, Seated};
use crate::arena::wall;
use crate::game::host::Host;

impl<H: Host> Owner<H> {
    /// When the board is next pinned up, if the standings changed: a second after the last
    /// pinning, unless the next pairing wave comes less than a second after that. Then the
    /// standings wait for the wave: pinned just before it, they would hold its pairings back
    /// a second, and a player's next game is the news they wait on.
    pub(super) fn pin_at(&self, now: Instant) -> Option<Instant> {
        if !self.untold {
            return None;
        }
        let earliest = self.told_at.map_or(now, |at| at + BOARD_EVERY);
        match self.tick_at.map(wall::instant) {
            Some(wave) if earliest < wave && wave < earliest + BOARD_EVERY => Some(wave),
            _ => Some(earliest),
        }
    }

    /// Pins up the board if the standings changed and its time has come (`pin_at`); says
    /// whether it did.
    pub(super) fn pin_if_due(&mut self) -> bool {
        let now = Instant::now();
        if !self.pin_at(now).is_some_and(|at| now >= at) {
            return false;
        }
        self.untold = false;
        self.told_at = Some(now);
        let board = self.board_now();
        self.board.send_replace(Arc::new(board));
        true
    }

    pub(super) fn board_now(&self) -> Board {
        let now = wall::now();
        let mut seated = HashMap::new();
        let standings = self.arena.standings(now, None);
        let listed: HashSet<GameNo> = standings.playing.iter().map(|g| g.game).collect();
        let mut tables = BTreeMap::new();
        for pairing in self.arena.games().filter(|g| g.is_playing()) {
            let Some(game) = self.tables.get(&pairing.game) else { continue };
            // Only the games the standings list: a thousand players' 500 would weigh on every
            // socket's message again.
            if listed.contains(&pairing.game) {
                tables.insert(pairing.game, game.clone());
            }
            for colour in Colour::ALL {
                let at = Seated { game: game.clone(), no: pairing.game, colour };
                seated.insert(pairing.players[colour].clone(), at);
            }
        }
        Board {
            about: self.about.clone(),
            standings,
            rows: self.arena.rows().into_iter().map(|(id, row)| (id.clone(), row)).collect(),
            seated,
            tables,
            podium: self.podium.clone(),
            visitor: OnceLock::new(),
        }
    }
}
