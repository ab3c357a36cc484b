//! How an arena decides what an input does: every check first, so that a refusal leaves the
//! arena as it was, then the events recorded.

use crate::effect::Effect;
use crate::event::ArenaEvent;
use crate::game::{GameNo, Verdict};
use crate::input::{Input, Outcome};
use crate::name::Name;
use crate::pairing::{self, Candidate};
use crate::phase::Phase;
use crate::player::Presence;
use crate::player_id::PlayerId;
use crate::refusal::Refusal;
use crate::time::WallTime;

use super::Arena;

impl Arena {
    /// Handles one input at `now`.
    ///
    /// # Errors
    /// A [`Refusal`]: the arena is exactly as it was.
    pub fn handle(&mut self, now: WallTime, input: Input) -> Result<Outcome, Refusal> {
        let first = self.journal.len() as u64 + 1;
        let mut effects = Vec::new();
        // A player the last wave left waiting alone (an odd number free) is paired as soon as
        // another comes free, not at the next wave: in a small arena the next game to end may
        // be seconds away, and the wave after it two more. A game called off frees nobody new
        // (the shell could not open it, and would fail again at once).
        let frees = match &input {
            Input::GameEnded { verdict, .. } => *verdict != Verdict::Cancelled,
            Input::Resume { .. } | Input::Join { .. } => true,
            _ => false,
        };
        let pair_at_once = frees && self.phase == Phase::Running && self.free_players().len() == 1;
        match input {
            Input::Join { player, name } => self.join(now, player, &name)?,
            Input::Pause { player } => {
                if self.presence(now, &player)? == Presence::Active {
                    self.record(ArenaEvent::Paused { player });
                }
            }
            Input::Resume { player } => {
                if self.presence(now, &player)? != Presence::Active {
                    self.record(ArenaEvent::Resumed { player });
                }
            }
            Input::Leave { player } => {
                let presence = self.presence(now, &player)?;
                if self.phase == Phase::Waiting || presence != Presence::Left {
                    self.record(ArenaEvent::Left { player });
                }
            }
            Input::Berserk { player, game } => {
                let by = self.berserk(now, &player, game)?;
                self.record(ArenaEvent::Berserked { game, by });
                effects.push(Effect::HalveClock { game, side: by });
            }
            Input::FirstMove { game, by } => {
                let pairing = self.games.get(&game).ok_or(Refusal::UnknownGame)?;
                if pairing.is_playing() && !pairing.moved[by] {
                    self.record(ArenaEvent::FirstMoved { game, by });
                }
            }
            Input::GameEnded { game, verdict, plies } => {
                let pairing = self.games.get(&game).ok_or(Refusal::UnknownGame)?;
                // A game that ends once the arena's time is up does not count, whether or not
                // the tick that ends the arena has come yet (see the crate's documentation).
                if pairing.is_playing() && now < self.settings.ends() {
                    self.record(ArenaEvent::GameEnded { game, verdict, plies, at: now });
                }
            }
            Input::Tick => self.tick(now, &mut effects),
        }
        if pair_at_once && self.free_players().len() > 1 && now < self.settings.ends() {
            self.pair_free(&mut effects);
        }
        let end = self.journal.len() as u64 + 1;
        if end > first {
            // Before the podium, so that the last standings a page is told are the final ones.
            let at = effects.iter().position(|e| matches!(e, Effect::Finished { .. }));
            effects.insert(at.unwrap_or(effects.len()), Effect::TellStandings);
        }
        Ok(Outcome { events: first..end, effects })
    }

    fn join(&mut self, now: WallTime, player: PlayerId, typed: &str) -> Result<(), Refusal> {
        self.open(now)?;
        if self.players.contains_key(&player) {
            return Err(Refusal::AlreadyJoined);
        }
        let name = Name::new(typed)?;
        if self.players.values().any(|p| p.name.key() == name.key()) {
            return Err(Refusal::NameTaken);
        }
        self.record(ArenaEvent::Joined { player, name, at: now });
        Ok(())
    }

    /// Refuses once the arena's time is up, even before the tick that ends it.
    fn open(&self, now: WallTime) -> Result<(), Refusal> {
        if self.phase == Phase::Finished || now >= self.settings.ends() {
            return Err(Refusal::ArenaOver);
        }
        Ok(())
    }

    fn presence(&self, now: WallTime, player: &PlayerId) -> Result<Presence, Refusal> {
        self.open(now)?;
        Ok(self.players.get(player).ok_or(Refusal::UnknownPlayer)?.presence)
    }

    fn berserk(
        &self,
        now: WallTime,
        player: &PlayerId,
        game: GameNo,
    ) -> Result<dara::Colour, Refusal> {
        self.presence(now, player)?;
        let pairing = self.games.get(&game).filter(|g| g.is_playing()).ok_or(Refusal::NotInGame)?;
        let side = pairing.colour_of(player).ok_or(Refusal::NotInGame)?;
        if pairing.berserk[side] {
            return Err(Refusal::AlreadyBerserk);
        }
        if pairing.moved[side] {
            return Err(Refusal::BerserkTooLate);
        }
        Ok(side)
    }

    /// The start, a pairing wave, the end.
    fn tick(&mut self, now: WallTime, effects: &mut Vec<Effect>) {
        if self.phase == Phase::Waiting && now >= self.settings.starts {
            self.record(ArenaEvent::Started);
        }
        if self.phase != Phase::Running {
            return;
        }
        if now >= self.settings.ends() {
            let uncounted: Vec<GameNo> =
                self.games.values().filter(|g| g.is_playing()).map(|g| g.game).collect();
            self.record(ArenaEvent::Finished);
            effects.push(Effect::Finished { podium: self.podium(), uncounted });
            return;
        }
        self.pair_free(effects);
    }

    /// Pairs the free players (see [`pairing::pair`]).
    fn pair_free(&mut self, effects: &mut Vec<Effect>) {
        let free: Vec<Candidate<PlayerId>> = self
            .ranked()
            .into_iter()
            .zip(1..)
            .filter(|((_, p), _)| p.presence == Presence::Active && p.playing.is_none())
            .map(|((id, p), rank)| Candidate {
                who: id.clone(),
                rank,
                free_since: p.free_at,
                last_opponent: p.last_opponent.clone(),
                colours: p.colours,
            })
            .collect();
        for pair in pairing::pair(&free) {
            let game = self.next_game();
            self.record(ArenaEvent::Paired {
                game,
                pale: pair.pale.clone(),
                dark: pair.dark.clone(),
            });
            effects.push(Effect::StartGame { game, pale: pair.pale, dark: pair.dark });
        }
    }
}
