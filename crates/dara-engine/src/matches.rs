//! The match runner: two players (engine levels, the baselines, or any program speaking the
//! engine protocol) play colour-swapped pairs of games from random short placement openings, on
//! several threads. Every move is checked with the rules crate: an illegal or missing move loses
//! the game and is reported. The tally gives the score, an Elo difference with its 95% error bar,
//! and a sequential probability ratio test.

use core::fmt;
use core::str::FromStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use dara::{Colour, Move, Position, Ruleset, Status};

use crate::baselines;
use crate::level::Level;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::search::Searcher;

/// Who plays: `level:N` (or `level:N@MS`, with its own time per move), `random`, `material4`,
/// or `cmd:<command line>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// This engine at a level, with its own milliseconds per move if given.
    Level(Level, Option<u64>),
    /// A uniformly random legal move.
    Random,
    /// Depth-4 alpha-beta on material.
    Material4,
    /// An outside program speaking the engine protocol, run through `sh -c`.
    Command(String),
}

/// A player description that is none of the known forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpecError(String);

impl fmt::Display for PlayerSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown player {:?}: expected level:1..8, random, material4 or cmd:<command>",
            self.0
        )
    }
}

impl std::error::Error for PlayerSpecError {}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;
    fn from_str(s: &str) -> Result<PlayerSpec, PlayerSpecError> {
        let err = || PlayerSpecError(s.to_owned());
        if let Some(n) = s.strip_prefix("level:") {
            let (n, ms) = match n.split_once('@') {
                Some((n, ms)) => (n, Some(ms.trim_end_matches("ms").parse().map_err(|_| err())?)),
                None => (n, None),
            };
            return n.parse().map(|l| PlayerSpec::Level(l, ms)).map_err(|_| err());
        }
        if let Some(cmd) = s.strip_prefix("cmd:") {
            return if cmd.trim().is_empty() {
                Err(err())
            } else {
                Ok(PlayerSpec::Command(cmd.into()))
            };
        }
        match s {
            "random" => Ok(PlayerSpec::Random),
            "material4" => Ok(PlayerSpec::Material4),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Level(l, None) => write!(f, "level:{l}"),
            PlayerSpec::Level(l, Some(ms)) => write!(f, "level:{l}@{ms}"),
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Material4 => f.write_str("material4"),
            PlayerSpec::Command(c) => write!(f, "cmd:{c}"),
        }
    }
}

/// What a player did wrong, as the runner saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerError(pub String);

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlayerError {}

/// Something that chooses moves.
trait Player {
    fn new_game(&mut self, rules: Ruleset, seed: u64) -> Result<(), PlayerError>;
    /// The move's text, for the runner to check. `moves` is the whole game from the start.
    fn choose(
        &mut self,
        pos: &Position,
        moves: &[Move],
        history: &[u64],
        budget: Budget,
    ) -> Result<String, PlayerError>;
}

/// What the match gives each engine per move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Milliseconds per move.
    pub movetime: Option<u64>,
    /// Nodes per move (deterministic, and independent of the machine's load).
    pub nodes: Option<u64>,
}

struct Internal {
    level: Level,
    /// Overrides the match's time per move.
    movetime: Option<u64>,
    searcher: Searcher,
    rng: Rng,
}

impl Player for Internal {
    fn new_game(&mut self, _: Ruleset, seed: u64) -> Result<(), PlayerError> {
        self.searcher.clear();
        self.rng = Rng::new(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        pos: &Position,
        _: &[Move],
        history: &[u64],
        budget: Budget,
    ) -> Result<String, PlayerError> {
        let mut asked =
            self.movetime.or(budget.movetime).map_or_else(Limits::default, Limits::movetime);
        asked.nodes = budget.nodes;
        let (limits, style) = self.level.plan(&asked, &mut self.rng);
        let out = self.searcher.search(pos, history, &limits, &style, &mut |_| {});
        out.best.map(|m| m.to_string()).ok_or_else(|| PlayerError("no move".into()))
    }
}

struct Baseline {
    material: bool,
    rng: Rng,
}

impl Player for Baseline {
    fn new_game(&mut self, _: Ruleset, seed: u64) -> Result<(), PlayerError> {
        self.rng = Rng::new(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        pos: &Position,
        _: &[Move],
        _: &[u64],
        _: Budget,
    ) -> Result<String, PlayerError> {
        let m = if self.material {
            baselines::material_move(pos, 4, &mut self.rng)
        } else {
            baselines::random_move(pos, &mut self.rng)
        };
        m.map(|m| m.to_string()).ok_or_else(|| PlayerError("no move".into()))
    }
}

/// An outside engine: its standard input, and its output lines arriving on a channel so that
/// waiting for them can time out.
struct External {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    rules: Ruleset,
}

impl External {
    fn spawn(command: &str) -> Result<External, PlayerError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| PlayerError(format!("cannot start {command:?}: {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| PlayerError("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| PlayerError("no stdout".into()))?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External { child, stdin, lines, rules: Ruleset::default() };
        e.send("dep")?;
        e.wait_for(|l| l == "depok", Duration::from_secs(10))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| PlayerError(format!("engine input closed: {e}")))
    }

    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, PlayerError> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if done(&line) => return Ok(line),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(PlayerError("engine did not answer in time".into()))
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PlayerError("engine exited".into()))
                }
            }
        }
    }
}

impl Player for External {
    fn new_game(&mut self, rules: Ruleset, _: u64) -> Result<(), PlayerError> {
        self.rules = rules;
        self.send("newgame")?;
        self.send(&format!("rules {rules}"))?;
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", Duration::from_secs(10)).map(drop)
    }

    fn choose(
        &mut self,
        _: &Position,
        moves: &[Move],
        _: &[u64],
        budget: Budget,
    ) -> Result<String, PlayerError> {
        let mut position = String::from("position start");
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&m.to_string());
            }
        }
        self.send(&position)?;
        let mut go = String::from("go");
        if let Some(ms) = budget.movetime {
            go.push_str(&format!(" movetime {ms}"));
        }
        if let Some(n) = budget.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        self.send(&go)?;
        let timeout = match budget.movetime {
            Some(ms) => Duration::from_millis(ms * 3 + 2000),
            None => Duration::from_secs(30),
        };
        let line = self.wait_for(|l| l.starts_with("bestmove"), timeout)?;
        Ok(line.trim_start_matches("bestmove").trim().to_owned())
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn make_player(spec: &PlayerSpec) -> Result<Box<dyn Player>, PlayerError> {
    Ok(match spec {
        PlayerSpec::Level(level, movetime) => Box::new(Internal {
            level: *level,
            movetime: *movetime,
            searcher: Searcher::new(16),
            rng: Rng::new(0),
        }),
        PlayerSpec::Random => Box::new(Baseline { material: false, rng: Rng::new(0) }),
        PlayerSpec::Material4 => Box::new(Baseline { material: true, rng: Rng::new(0) }),
        PlayerSpec::Command(cmd) => Box::new(External::spawn(cmd)?),
    })
}

/// How to run a match.
#[derive(Clone, Debug)]
pub struct Config {
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
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
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

/// One finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// Its number, from 0.
    pub index: usize,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// The moves, opening included.
    pub moves: Vec<Move>,
    /// How it ended.
    pub ending: Ending,
    /// From the first player's side: 1, ½ or 0.
    pub score: f64,
}

/// Wins, draws and losses from the first player's side, and what follows from them.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
    /// Illegal or missing moves by the first player.
    pub first_illegal: u32,
    /// Illegal or missing moves by the second player.
    pub second_illegal: u32,
}

/// An SPRT of H0: elo = elo0 against H1: elo = elo1, at 5% error each way.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The null hypothesis.
    pub elo0: f64,
    /// The alternative.
    pub elo1: f64,
}

/// The state of an SPRT.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Verdict {
    /// H1 accepted: the first player is stronger by about elo1.
    H1,
    /// H0 accepted.
    H0,
    /// Not yet decided.
    Continue,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "continue",
        })
    }
}

fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's mean score.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games().max(1))
    }

    fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// The Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let margin = 1.96 * (self.variance() / n).sqrt();
        let (lo, hi) = (elo_of(s - margin), elo_of(s + margin));
        (elo_of(s), (hi - lo) / 2.0)
    }

    /// The log-likelihood ratio of the test (normal approximation), with its bounds.
    pub fn llr(&self, sprt: Sprt) -> (f64, f64, f64) {
        let (s0, s1) = (expected(sprt.elo0), expected(sprt.elo1));
        let n = f64::from(self.games());
        let var = self.variance().max(1e-3);
        let llr = n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var);
        let bound = (0.95f64 / 0.05).ln();
        (llr, -bound, bound)
    }

    /// The test's verdict so far.
    pub fn verdict(&self, sprt: Sprt) -> Verdict {
        let (llr, lower, upper) = self.llr(sprt);
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    fn add(&mut self, game: &Game) {
        if game.score == 1.0 {
            self.wins += 1;
        } else if game.score == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        if let Ending::Illegal { colour, .. } = game.ending {
            if (colour == Colour::White) == game.first_is_white {
                self.first_illegal += 1;
            } else {
                self.second_illegal += 1;
            }
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {} W {} D {} L {} score {:.1}% ",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score(),
        )?;
        let n = f64::from(self.games().max(1));
        if self.wins == self.games() || self.losses == self.games() {
            // A clean sweep has no finite estimate; the rule of three bounds it at 95%.
            let bound = elo_of((1.0 - 3.0 / n).max(0.5));
            let sign = if self.wins > 0 { '+' } else { '-' };
            write!(f, "elo {sign}inf ({sign}{bound:.0} at 95%)")
        } else {
            let (elo, margin) = self.elo();
            write!(f, "elo {elo:+.0} +/- {margin:.0}")
        }
    }
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
    config: &Config,
    index: usize,
    opening: &[Move],
    players: &mut [Box<dyn Player>; 2],
) -> Game {
    let first_is_white = index % 2 == 0;
    let seed = config.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ index as u64;
    let mut pos = Position::start(config.rules);
    let mut moves = Vec::new();
    let mut history = Vec::new();
    let white = usize::from(!first_is_white);
    let player_of = |c: Colour| if c == Colour::White { white } else { 1 - white };
    let finish = |ending: Ending, moves: Vec<Move>| {
        let white_score = match &ending {
            Ending::Rules(Status::Won { winner, .. }) => f64::from(*winner == Colour::White),
            Ending::Illegal { colour, .. } => f64::from(*colour == Colour::Black),
            _ => 0.5,
        };
        let score = if first_is_white { white_score } else { 1.0 - white_score };
        Game { index, first_is_white, moves, ending, score }
    };
    for (i, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game(config.rules, seed ^ i as u64) {
            let colour = if (i == 0) == first_is_white { Colour::White } else { Colour::Black };
            return finish(Ending::Illegal { colour, what: e.0 }, moves);
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
            return finish(Ending::Rules(status), moves);
        }
        if moves.len() >= config.max_plies {
            return finish(Ending::Adjudicated, moves);
        }
        let side = pos.side();
        let reply = players[player_of(side)].choose(
            &pos,
            &moves,
            &history,
            Budget { movetime: config.movetime, nodes: config.nodes },
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
            Err(e) => return finish(Ending::Illegal { colour: side, what: e.0 }, moves),
        }
    }
}

/// Plays the match, calling `each` with every finished game and the tally so far, in the order
/// games finish. Returns the final tally.
///
/// # Errors
/// A player that cannot be started at all (an outside command that fails its handshake).
pub fn run(config: &Config, mut each: impl FnMut(&Game, &Tally)) -> Result<Tally, PlayerError> {
    let pairs = config.games.div_ceil(2).max(1);
    let openings = Arc::new(openings(config.rules, pairs, config.opening_plies, config.seed));
    let next = Arc::new(AtomicUsize::new(0));
    let quit = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<Game, PlayerError>>();
    let workers: Vec<_> = (0..config.concurrency.max(1))
        .map(|_| {
            let (config, openings, next, quit, tx) = (
                config.clone(),
                Arc::clone(&openings),
                Arc::clone(&next),
                Arc::clone(&quit),
                tx.clone(),
            );
            std::thread::spawn(move || {
                let mut players = match (make_player(&config.first), make_player(&config.second)) {
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
                    let game = play_game(&config, index, &openings[index / 2], &mut players);
                    if tx.send(Ok(game)).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    drop(tx);
    let mut tally = Tally::default();
    let mut failure = None;
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
    for w in workers {
        let _ = w.join();
    }
    match failure {
        Some(e) if tally.games() == 0 => Err(e),
        _ => Ok(tally),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs() {
        assert_eq!("level:3".parse(), Ok(PlayerSpec::Level(Level::new(3).unwrap(), None)));
        assert_eq!("level:8@200".parse(), Ok(PlayerSpec::Level(Level::MAX, Some(200))));
        assert_eq!("material4".parse(), Ok(PlayerSpec::Material4));
        assert_eq!("cmd:dara engine".parse(), Ok(PlayerSpec::Command("dara engine".into())));
        assert!("level:0".parse::<PlayerSpec>().is_err());
        assert!("stockfish".parse::<PlayerSpec>().is_err());
    }

    #[test]
    fn elo_and_sprt() {
        let even = Tally { wins: 40, draws: 20, losses: 40, ..Tally::default() };
        assert!(even.elo().0.abs() < 1e-9);
        let strong = Tally { wins: 90, draws: 5, losses: 5, ..Tally::default() };
        let (elo, margin) = strong.elo();
        assert!(elo > 300.0 && margin > 0.0, "{elo} {margin}");
        assert_eq!(strong.verdict(Sprt { elo0: 0.0, elo1: 5.0 }), Verdict::H1);
        assert_eq!(even.verdict(Sprt { elo0: 0.0, elo1: 5.0 }), Verdict::Continue);
    }

    #[test]
    fn a_small_match_counts_every_game() {
        let config = Config {
            rules: "arcade,rows=4,cols=4,stones=4".parse().unwrap(),
            first: PlayerSpec::Level(Level::new(3).unwrap(), None),
            second: PlayerSpec::Random,
            games: 6,
            movetime: None,
            nodes: None,
            concurrency: 2,
            seed: 5,
            opening_plies: 2,
            max_plies: 200,
            sprt: None,
        };
        let mut seen = 0;
        let tally = run(&config, |_, _| seen += 1).unwrap();
        assert_eq!((tally.games(), seen), (6, 6));
        assert_eq!(tally.first_illegal + tally.second_illegal, 0);
    }
}
