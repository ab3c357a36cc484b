//! The players of a match: how a player is named on the command line (`level:N`,
//! `budget:<fields>`, `random`, `greedy`, `material4`, `cmd:<command>`), what every player
//! answers to, and the players that live in this process (the engine at a level or within a
//! budget, with or without the match's tablebases, and the baselines).

use core::fmt;
use core::str::FromStr;
use std::sync::Arc;

use dara::{Move, Position, Ruleset};
use dara_tablebase::Tablebase;

use super::outside::OutsideEngine;
use crate::baselines;
use crate::budget::{Budget, BudgetError};
use crate::level::Level;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::search::Searcher;

/// Who plays: `level:N` (or `level:N@MS`, with its own time per move; either followed by
/// `+tables` to search with the match's tablebases), `budget:<fields>` (a level not yet in the
/// table, as `budget:nodes=50000,noise=35`), `random`, `greedy`, `material4`, or
/// `cmd:<command line>`.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// This engine at a level, with its own milliseconds per move if given.
    Level {
        /// The level.
        level: Level,
        /// Milliseconds per move, instead of the match's.
        movetime: Option<u64>,
        /// Whether it searches with the match's tablebases.
        tables: bool,
    },
    /// This engine within a budget written out, to try it against the levels.
    Budget(Budget),
    /// A uniformly random legal move.
    Random,
    /// A capture whenever it can, otherwise a random legal move.
    Greedy,
    /// Depth-4 alpha-beta on material.
    Material4,
    /// An outside program speaking the engine protocol, run through `sh -c`.
    Command(String),
}

/// A player description that is none of the known forms, or a budget that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpecError {
    /// None of the known forms.
    Unknown(String),
    /// `budget:` followed by something that is not a budget.
    Budget(String, BudgetError),
}

impl fmt::Display for PlayerSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpecError::Unknown(s) => write!(
                f,
                "unknown player {s:?}: expected level:1..8 (as level:8, level:8@100, level:8+tables), budget:<fields> (as budget:nodes=50000,noise=35), random, greedy, material4 or cmd:<command>",
            ),
            PlayerSpecError::Budget(s, e) => write!(f, "player {s:?}: {e}"),
        }
    }
}

impl std::error::Error for PlayerSpecError {}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;
    fn from_str(s: &str) -> Result<PlayerSpec, PlayerSpecError> {
        let err = || PlayerSpecError::Unknown(s.to_owned());
        if let Some(n) = s.strip_prefix("level:") {
            let (n, tables) = match n.strip_suffix("+tables") {
                Some(n) => (n, true),
                None => (n, false),
            };
            let (n, movetime) = match n.split_once('@') {
                Some((n, ms)) => (n, Some(ms.trim_end_matches("ms").parse().map_err(|_| err())?)),
                None => (n, None),
            };
            return n
                .parse()
                .map(|level| PlayerSpec::Level { level, movetime, tables })
                .map_err(|_| err());
        }
        if let Some(fields) = s.strip_prefix("budget:") {
            return fields
                .parse()
                .map(PlayerSpec::Budget)
                .map_err(|e| PlayerSpecError::Budget(s.to_owned(), e));
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
            "greedy" => Ok(PlayerSpec::Greedy),
            "material4" => Ok(PlayerSpec::Material4),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Level { level, movetime, tables } => {
                write!(f, "level:{level}")?;
                if let Some(ms) = movetime {
                    write!(f, "@{ms}")?;
                }
                if *tables {
                    f.write_str("+tables")?;
                }
                Ok(())
            }
            PlayerSpec::Budget(b) => write!(f, "budget:{b}"),
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Material4 => f.write_str("material4"),
            PlayerSpec::Command(c) => write!(f, "cmd:{c}"),
        }
    }
}

impl PlayerSpec {
    /// Whether the player searches with the match's tablebases.
    pub fn wants_tables(&self) -> bool {
        matches!(self, PlayerSpec::Level { tables: true, .. })
    }

    /// The player ready to play: an outside command is started and has passed its handshake.
    /// `tablebase`: the match's tables, for a player that wants them.
    pub(super) fn start(
        &self,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> Result<Box<dyn Player>, PlayerError> {
        let kind = match self {
            PlayerSpec::Level { level, movetime, tables } => {
                let mut searcher = Box::new(Searcher::new(16));
                if *tables {
                    let Some(tb) = tablebase else {
                        return Err(PlayerError(format!(
                            "{self} searches with the match's tablebases, but the match has none (--tablebases DIR)"
                        )));
                    };
                    searcher.set_tablebase(Some(Arc::clone(tb)));
                }
                Kind::Engine { budget: level.budget(), movetime: *movetime, searcher }
            }
            PlayerSpec::Budget(budget) => Kind::Engine {
                budget: *budget,
                movetime: None,
                searcher: Box::new(Searcher::new(16)),
            },
            PlayerSpec::Random => Kind::Random,
            PlayerSpec::Greedy => Kind::Greedy,
            PlayerSpec::Material4 => Kind::Material4,
            PlayerSpec::Command(cmd) => return Ok(Box::new(OutsideEngine::spawn(cmd)?)),
        };
        Ok(Box::new(InProcess { kind, rng: Rng::new(0), table_moves: 0 }))
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

/// What the match gives each engine per move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveAllowance {
    /// Milliseconds per move.
    pub movetime: Option<u64>,
    /// Nodes per move (deterministic, and independent of the machine's load).
    pub nodes: Option<u64>,
}

/// Something that chooses moves.
pub(super) trait Player {
    fn new_game(&mut self, rules: Ruleset, seed: u64) -> Result<(), PlayerError>;
    /// The move's text, for the runner to check. `moves` is the whole game from the start.
    fn choose(
        &mut self,
        pos: &Position,
        moves: &[Move],
        history: &[u64],
        allowance: MoveAllowance,
    ) -> Result<String, PlayerError>;
    /// Moves of this game whose search asked the tablebases about some position (0 for a
    /// player without tables).
    fn table_moves(&self) -> usize {
        0
    }
}

/// A player in this process, with dice reseeded every game.
struct InProcess {
    kind: Kind,
    rng: Rng,
    /// Moves of the current game whose search the tablebases answered somewhere.
    table_moves: usize,
}

enum Kind {
    Engine {
        /// The level's budget, or one being tried.
        budget: Budget,
        /// Overrides the match's time per move.
        movetime: Option<u64>,
        /// Boxed: its killer table would make the baselines as large.
        searcher: Box<Searcher>,
    },
    Random,
    Greedy,
    Material4,
}

impl Player for InProcess {
    fn new_game(&mut self, _: Ruleset, seed: u64) -> Result<(), PlayerError> {
        if let Kind::Engine { searcher, .. } = &mut self.kind {
            searcher.clear();
        }
        self.rng = Rng::new(seed);
        self.table_moves = 0;
        Ok(())
    }

    fn choose(
        &mut self,
        pos: &Position,
        _: &[Move],
        history: &[u64],
        allowance: MoveAllowance,
    ) -> Result<String, PlayerError> {
        let m = match &mut self.kind {
            Kind::Engine { budget, movetime, searcher } => {
                let mut asked =
                    movetime.or(allowance.movetime).map_or_else(Limits::default, Limits::movetime);
                asked.nodes = allowance.nodes;
                let (limits, style) = budget.plan(&asked, &mut self.rng);
                let outcome = searcher.search(pos, history, &limits, &style, &mut |_| {});
                if outcome.tb_hits > 0 {
                    self.table_moves += 1;
                }
                outcome.best
            }
            Kind::Random => baselines::random_move(pos, &mut self.rng),
            Kind::Greedy => baselines::greedy_move(pos, &mut self.rng),
            Kind::Material4 => baselines::material_move(pos, 4, &mut self.rng),
        };
        m.map(|m| m.to_string()).ok_or_else(|| PlayerError("no move".into()))
    }

    fn table_moves(&self) -> usize {
        self.table_moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs() {
        let level = |n, movetime, tables| PlayerSpec::Level {
            level: Level::new(n).unwrap(),
            movetime,
            tables,
        };
        assert_eq!("level:3".parse(), Ok(level(3, None, false)));
        assert_eq!("level:8@200".parse(), Ok(level(8, Some(200), false)));
        assert_eq!("level:8+tables".parse(), Ok(level(8, None, true)));
        assert_eq!("level:8@100+tables".parse(), Ok(level(8, Some(100), true)));
        for text in ["level:3", "level:8@200", "level:8+tables", "level:8@100+tables"] {
            assert_eq!(text.parse::<PlayerSpec>().unwrap().to_string(), text);
        }
        assert!("level:8+tables".parse::<PlayerSpec>().unwrap().wants_tables());
        assert!(!"level:8".parse::<PlayerSpec>().unwrap().wants_tables());
        assert!("level:8+table".parse::<PlayerSpec>().is_err());
        assert!("level:8+tables".parse::<PlayerSpec>().unwrap().start(None).is_err());
        assert_eq!("material4".parse(), Ok(PlayerSpec::Material4));
        assert_eq!("greedy".parse(), Ok(PlayerSpec::Greedy));
        assert_eq!(PlayerSpec::Greedy.to_string(), "greedy");
        assert_eq!("cmd:dara engine".parse(), Ok(PlayerSpec::Command("dara engine".into())));
        assert!("level:0".parse::<PlayerSpec>().is_err());
        assert!("stockfish".parse::<PlayerSpec>().is_err());
        let tried = "budget:depth=4,nodes=50000,noise=35,blunder=0.05";
        assert_eq!(tried.parse::<PlayerSpec>().unwrap().to_string(), tried);
        let err = "budget:noise=35".parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(err.contains("budget:noise=35") && err.contains("never stop"), "{err}");
    }

    /// A level written out as a budget is that level: same dice, same moves.
    #[test]
    fn a_level_written_out_as_a_budget_plays_as_the_level() {
        let rules = dara::Preset::Arcade.ruleset();
        for n in [2, 5] {
            let level = Level::new(n).unwrap();
            let spec = |s: String| s.parse::<PlayerSpec>().unwrap().start(None).unwrap();
            let mut players =
                [spec(format!("level:{n}")), spec(format!("budget:{}", level.budget()))];
            let mut pos = Position::start(rules);
            let mut history = vec![pos.hash()];
            let mut moves = Vec::new();
            for p in &mut players {
                p.new_game(rules, 7).unwrap();
            }
            // The placements and two steps: no game ends so soon.
            for _ in 0..26 {
                let allowance = MoveAllowance::default();
                let [a, b] = &mut players;
                let chosen = a.choose(&pos, &moves, &history, allowance).unwrap();
                assert_eq!(
                    b.choose(&pos, &moves, &history, allowance).unwrap(),
                    chosen,
                    "level {n}"
                );
                let m = pos.parse_move(&chosen).unwrap();
                pos.play(m).unwrap();
                moves.push(m);
                history.push(pos.hash());
            }
        }
    }
}
