//! How a game's end at the table counts in the arena: the table decides how a game ends, the
//! arena what that is worth; this is where one becomes the other.

use dara::record::GameResult;
use dara::Colour;
use dara_arena::Verdict;
use dara_table::{EndReason, Ending};

/// The arena's verdict on a game that ended so.
pub fn verdict(ending: &Ending) -> Verdict {
    match (ending.reason, ending.result) {
        // The table's first-move abort: in an arena the idle side loses (see `dara_arena`).
        (EndReason::Aborted { idle }, _) => Verdict::NoFirstMove { idle },
        (_, GameResult::WhiteWins) => Verdict::Won { winner: Colour::White },
        (_, GameResult::BlackWins) => Verdict::Won { winner: Colour::Black },
        (_, GameResult::Draw) => Verdict::Drawn,
        // Called off by a player before both had moved, or anything else with no result.
        (_, GameResult::Unfinished) => Verdict::Cancelled,
    }
}

#[cfg(test)]
mod tests {
    use dara_table::Moment;

    use super::*;

    fn ended(result: GameResult, reason: EndReason) -> Verdict {
        verdict(&Ending { result, reason, at: Moment::from_origin(Default::default()) })
    }

    #[test]
    fn each_end_has_its_verdict() {
        let dark = Colour::Black;
        assert_eq!(
            ended(GameResult::WhiteWins, EndReason::Resigned { loser: dark }),
            Verdict::Won { winner: Colour::White }
        );
        assert_eq!(ended(GameResult::Draw, EndReason::Agreement), Verdict::Drawn);
        assert_eq!(
            ended(GameResult::Unfinished, EndReason::Aborted { idle: dark }),
            Verdict::NoFirstMove { idle: dark }
        );
        assert_eq!(
            ended(GameResult::Unfinished, EndReason::AbortedBy { by: dark }),
            Verdict::Cancelled
        );
    }
}
