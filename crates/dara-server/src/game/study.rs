//! What the computer studies for people rather than plays: a position on the analysis board,
//! or every position of a finished game for its review. Studies wait behind the games in play,
//! keep to budgets of their own, and take turns client by client (`rotation`): a review goes
//! [`POSITIONS_PER_TURN`] positions a turn, so nobody waits behind a whole review.

use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use dara::{Move, Position};
use dara_engine::search::{Outcome, Style};
use dara_engine::{Limits, Searcher};
use tokio::time::Instant;

use super::computer::{searcher, Booking, Computer, Kind, Search, Turn, Waiting};
use super::queue::Queue;

/// A position to study: the analysis board's, or one of a finished game's for its review.
#[derive(Debug)]
pub struct Study {
    /// The position.
    pub pos: Position,
    /// The hashes of the positions before it, in the game or line that led there (so that a
    /// repetition counts as it would in play).
    pub history: Vec<u64>,
    /// The client address it counts against.
    pub client: Option<IpAddr>,
}

/// What the engine found in a studied position.
#[derive(Debug)]
pub struct Analysis {
    /// Its best move, score (for the side to move), depth and line.
    pub outcome: Outcome,
    /// How long it waited for a thread.
    pub waited: Duration,
}

/// The most one analysis may take: a few hundred milliseconds of a thread, so that a page
/// stepping through a game is answered briskly and nobody can buy a long search with one
/// request.
#[derive(Debug, Clone, Copy)]
pub struct AnalysisBudget {
    /// Time.
    pub time: Duration,
    /// Nodes, whichever comes first.
    pub nodes: u64,
}

impl AnalysisBudget {
    /// The search limits of this budget: whichever of time and nodes comes first.
    fn limits(self) -> Limits {
        Limits { movetime: Some(self.time), nodes: Some(self.nodes), ..Limits::default() }
    }
}

/// The budget of each position of a review: a twelfth of an analysis's, so that a game of a
/// hundred turns is reviewed in about five seconds of one thread.
pub const REVIEW_BUDGET: AnalysisBudget =
    AnalysisBudget { time: Duration::from_millis(80), nodes: 60_000 };

/// The positions a review goes through in one turn before it gives its thread to the next
/// client: at most 0.64 s, about an analysis's budget, so that clients' turns are of a size
/// and nobody waits behind a whole review.
const POSITIONS_PER_TURN: usize = 8;

/// A whole game to review: its start, its turns (each checked against the rules), and the
/// client address it counts against.
#[derive(Debug)]
pub struct Line {
    /// The position the turns start from.
    pub start: Position,
    /// The turns.
    pub moves: Vec<Move>,
    /// Who asks.
    pub client: Option<IpAddr>,
}

/// The budget of every analysis.
pub const ANALYSIS_BUDGET: AnalysisBudget =
    AnalysisBudget { time: Duration::from_millis(700), nodes: 1_500_000 };

/// At most this many analyses booked (running or waiting) per client address: a page asks for
/// one position at a time, and a review walks a game one position after another.
const ANALYSES_PER_CLIENT: usize = 2;

/// Why an analysis was not booked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalysisRefused {
    /// As many analyses wait as the server lets wait.
    Busy {
        /// Analyses waiting.
        waiting: usize,
        /// About when to come back.
        retry_after: Duration,
    },
    /// The client already has its share of analyses booked.
    OneAtATime {
        /// About when one of them will be done.
        retry_after: Duration,
    },
}

impl Computer {
    /// Asks the engine to study a position, after the searches of games in play and within a
    /// bounded budget ([`ANALYSIS_BUDGET`]); booked and called off as [`Computer::think`]. The
    /// future gives what the search found, or `None` if it was called off. Refused while as many
    /// analyses wait as the server lets wait, or when the client already has its share booked.
    #[allow(clippy::type_complexity)]
    pub fn analyse(
        &self,
        study: Study,
    ) -> Result<(Search, impl Future<Output = Option<Analysis>> + Send), AnalysisRefused> {
        let asked = Instant::now();
        let Study { pos, history, client } = study;
        let tablebase = self.tablebase().cloned();
        let admit = self.admit_analysis(client);
        let kind = Kind::Study { turns: 1, turn: ANALYSIS_BUDGET.time };
        let booking = Booking { kind, client, tell: None };
        let (search, answer) = self.book(booking, admit, move |stop| {
            let mut searcher = searcher(Arc::clone(stop), tablebase.clone());
            let limits = ANALYSIS_BUDGET.limits();
            let outcome = searcher.search(&pos, &history, &limits, &Style::default(), &mut |_| {});
            Some(Turn::Done(Analysis { outcome, waited: Duration::ZERO }))
        })?;
        let answer = async move {
            let mut analysis = answer.await?;
            analysis.waited = asked.elapsed().saturating_sub(analysis.outcome.time);
            Some(analysis)
        };
        Ok((search, answer))
    }

    /// Asks the engine to go through a whole game for its review: every position from the
    /// start, each within [`REVIEW_BUDGET`], in one booking as an analysis (one search table
    /// serves the whole game), taking [`POSITIONS_PER_TURN`] positions a turn in turn with the
    /// other clients' studies.
    /// The future gives each position with its outcome (none where the game is over), or
    /// `None` if the review was called off.
    #[allow(clippy::type_complexity)]
    pub fn review(
        &self,
        line: Line,
    ) -> Result<
        (Search, impl Future<Output = Option<Vec<(Position, Option<Outcome>)>>> + Send),
        AnalysisRefused,
    > {
        let Line { start, moves, client } = line;
        let tablebase = self.tablebase().cloned();
        let positions = moves.len() + 1;
        let turns = u32::try_from(positions.div_ceil(POSITIONS_PER_TURN)).unwrap_or(u32::MAX);
        let turn = REVIEW_BUDGET.time * POSITIONS_PER_TURN as u32;
        let booking = Booking { kind: Kind::Study { turns, turn }, client, tell: None };
        let limits = REVIEW_BUDGET.limits();
        // Carried from turn to turn: the search (and its table), where the review has got to.
        let mut searcher_made: Option<Searcher> = None;
        let (mut pos, mut history) = (start, Vec::with_capacity(moves.len()));
        let mut found = Vec::with_capacity(positions);
        self.book(booking, self.admit_analysis(client), move |stop| {
            let engine =
                searcher_made.get_or_insert_with(|| searcher(Arc::clone(stop), tablebase.clone()));
            for _ in 0..POSITIONS_PER_TURN {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let outcome = (!pos.is_over()).then(|| {
                    engine.search(&pos, &history, &limits, &Style::default(), &mut |_| {})
                });
                found.push((pos.clone(), outcome));
                let Some(&m) = moves.get(found.len() - 1) else {
                    return Some(Turn::Done(std::mem::take(&mut found)));
                };
                history.push(pos.hash());
                // Every turn was checked against the rules before the review was booked.
                pos.play_unchecked(m);
            }
            Some(Turn::More)
        })
    }

    /// Lets an analysis (or a review) in unless as many wait as the server lets wait, or the
    /// client already has its share booked: looked at under the queue's lock.
    fn admit_analysis(
        &self,
        client: Option<IpAddr>,
    ) -> impl FnOnce(&Queue<Waiting>) -> Result<(), AnalysisRefused> + 'static {
        let bound = self.bound();
        move |queue| {
            // When to come back is read from the queue as it stands: what is ahead.
            let now = std::time::Instant::now();
            let waiting = queue.studies_waiting();
            if waiting >= bound {
                let retry_after = queue.until_a_study_ends(now);
                return Err(AnalysisRefused::Busy { waiting, retry_after });
            }
            if queue.studies_of(client) >= ANALYSES_PER_CLIENT {
                let retry_after = queue.until_a_study_of_ends(client, now);
                return Err(AnalysisRefused::OneAtATime { retry_after });
            }
            Ok(())
        }
    }
}
