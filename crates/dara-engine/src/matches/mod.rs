//! The match runner: two players (engine levels, the baselines, or any program speaking the
//! engine protocol) play colour-swapped pairs of games from random short placement openings, on
//! several threads. Every move is checked with the rules crate: an illegal or missing move loses
//! the game and is reported. The tally gives the score, an Elo difference with its 95% error bar,
//! and a sequential probability ratio test.

mod outside;
mod player;
mod stats;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use dara::{Colour, Move, Position, Ruleset, Status};
use dara_tablebase::Tablebase;

pub use player::{MoveAllowance, PlayerError, PlayerSpec, PlayerSpecError};
pub use stats::{Sprt, Tally, Verdict, Wdl};

use crate::baselines;
use crate::rng::Rng;
use player::Player;

/// How to run a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The ruleset of every game.
    pub rules: Ruleset,
    /// The first player (results are given from its side).
    pub first: PlayerSpec,
    /// The second player.
    pub second: PlayerSpec,
    /// Games to play (rounded up to whole colour-swapped pairs).
    pub games: usize,
    /// Time per move in milliseconds for engines; `None`: their level decides.
    pub movetime: Option<u64>,
    /// Nodes per move for engines.
    pub nodes: Option<u64>,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed of the openings and the players' randomness.
    pub seed: u64,
    /// Random placements before the players take over.
    pub opening_plies: usize,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    /// Stop early once this test is decided.
    pub sprt: Option<Sprt>,
    /// Tablebases for the players that search with them (`level:N+tables`).
    pub tablebase: Option<Arc<Tablebase>>,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules.
    Rules(Status),
    /// A player made an illegal move, or none: it loses.
    Illegal {
        /// Who.
        colour: Colour,
        /// What it said, and why that is wrong.
        what: String,
    },
    /// Too long: scored as a draw.
    Adjudicated,
}

impl Termination {
    /// Who won: the winner by the rules, or the opponent of an illegal mover.
    pub fn winner(&self) -> Option<Colour> {
        match self {
            Termination::Rules(Status::Won { winner, .. }) => Some(*winner),
            Termination::Illegal { colour, .. } => Some(!*colour),
            _ => None,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// Its number, from 0.
    pub index: usize,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// The moves, opening included.
    pub moves: Vec<Move>,
    /// How it ended.
    pub termination: Termination,
    /// The result from the first player's side.
    pub result: Wdl,
    /// For the first and the second player: moves whose search the tablebases answered
    /// somewhere (only a player given the tables has any).
    pub table_moves: [usize; 2],
}

/// `count` openings of `plies` random legal placements each (fewer if the placement ends).
pub fn openings(rules: Ruleset, count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut pos = Position::start(rules);
            let mut moves = Vec::new();
            while moves.len() < plies && pos.phase() == dara::Phase::Placement {
                let Some(m) = baselines::random_move(&pos, &mut rng) else { break };
                pos.play_unchecked(m);
                moves.push(m);
            }
            moves
        })
        .collect()
}

fn play_game(
    config: &MatchConfig,
    index: usize,
    opening: &[Move],
    players: &mut [Box<dyn Player>; 2],
) -> FinishedGame {
    let first_is_white = index % 2 == 0;
    let seed = config.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ index as u64;
    let mut pos = Position::start(config.rules);
    let mut moves = Vec::new();
    let mut history = Vec::new();
    let white = usize::from(!first_is_white);
    let player_of = |c: Colour| if c == Colour::White { white } else { 1 - white };
    let first = if first_is_white { Colour::White } else { Colour::Black };
    let finish = |termination: Termination, moves: Vec<Move>, players: &[Box<dyn Player>; 2]| {
        let result = Wdl::for_colour(termination.winner(), first);
        let table_moves = [players[0].table_moves(), players[1].table_moves()];
        FinishedGame { index, first_is_white, moves, termination, result, table_moves }
    };
    for (i, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game(config.rules, seed ^ i as u64) {
            let colour = if i == 0 { first } else { !first };
            return finish(Termination::Illegal { colour, what: e.0 }, moves, players);
        }
    }
    for &m in opening {
        history.push(pos.hash());
        pos.play_unchecked(m);
        moves.push(m);
    }
    loop {
        let status = pos.status();
        if status != Status::Ongoing {
            return finish(Termination::Rules(status), moves, players);
        }
        if moves.len() >= config.max_plies {
            return finish(Termination::Adjudicated, moves, players);
        }
        let side = pos.side();
        let reply = players[player_of(side)].choose(
            &pos,
            &moves,
            &history,
            MoveAllowance { movetime: config.movetime, nodes: config.nodes },
        );
        let checked = reply.and_then(|text| {
            let m = pos
                .parse_move(&text)
                .map_err(|e| PlayerError(format!("{text:?} in {pos}: {e}")))?;
            pos.clone().play(m).map_err(|e| PlayerError(format!("{text} in {pos}: {e}")))?;
            Ok(m)
        });
        match checked {
            Ok(m) => {
                history.push(pos.hash());
                pos.play_unchecked(m);
                moves.push(m);
            }
            Err(e) => {
                return finish(Termination::Illegal { colour: side, what: e.0 }, moves, players)
            }
        }
    }
}

/// Plays the match, calling `each` with every finished game and the tally so far, in the order
/// games finish. Returns the final tally.
///
/// # Errors
/// A player that cannot be started at all (an outside command that fails its handshake).
pub fn run(
    config: &MatchConfig,
    mut each: impl FnMut(&FinishedGame, &Tally),
) -> Result<Tally, PlayerError> {
    let pairs = config.games.div_ceil(2).max(1);
    let openings = openings(config.rules, pairs, config.opening_plies, config.seed);
    let next = AtomicUsize::new(0);
    let quit = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<FinishedGame, PlayerError>>();
    let mut tally = Tally::default();
    let mut failure = None;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..config.concurrency.max(1))
            .map(|_| {
                let (openings, next, quit, tx) = (&openings, &next, &quit, tx.clone());
                scope.spawn(move || {
                    let tables = config.tablebase.as_ref();
                    let mut players =
                        match (config.first.start(tables), config.second.start(tables)) {
                            (Ok(a), Ok(b)) => [a, b],
                            (Err(e), _) | (_, Err(e)) => {
                                let _ = tx.send(Err(e));
                                return;
                            }
                        };
                    while !quit.load(Ordering::Relaxed) {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= 2 * pairs {
                            break;
                        }
                        let game = play_game(config, index, &openings[index / 2], &mut players);
                        if tx.send(Ok(game)).is_err() {
                            break;
                        }
                    }
                })
            })
            .collect();
        drop(tx);
        for game in rx {
            match game {
                Ok(game) => {
                    tally.add(&game);
                    each(&game, &tally);
                    if config.sprt.is_some_and(|s| tally.verdict(s) != Verdict::Continue) {
                        quit.store(true, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    quit.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
        }
        // Joined here, so that a worker's panic is passed over as before rather than raised by
        // the scope.
        for w in workers {
            let _ = w.join();
        }
    });
    match failure {
        Some(e) if tally.games() == 0 => Err(e),
        _ => Ok(tally),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    #[test]
    fn a_small_match_counts_every_game() {
        let config = MatchConfig {
            rules: "arcade,rows=4,cols=4,stones=4".parse().unwrap(),
            first: PlayerSpec::Level {
                level: Level::new(3).unwrap(),
                movetime: None,
                tables: false,
            },
            second: PlayerSpec::Random,
            games: 6,
            movetime: None,
            nodes: None,
            concurrency: 2,
            seed: 5,
            opening_plies: 2,
            max_plies: 200,
            sprt: None,
            tablebase: None,
        };
        let mut seen = 0;
        let tally = run(&config, |_, _| seen += 1).unwrap();
        assert_eq!((tally.games(), seen), (6, 6));
        assert_eq!(tally.first_illegal + tally.second_illegal, 0);
    }
}
