//! Quick messages at one game: how often each seat may say a phrase, and the phrase as everyone
//! at the game is told it. Nothing said is kept: not in the journal, not in the store, and a
//! connection that arrives later never hears what was said before it.

use std::time::Duration;

use dara::{ByColour, Colour};
use dara_table::wire::Phrase;
use tokio::time::Instant;

use crate::protocol::{Answer, Refusal, Wire, WireAnswer};

/// A seat may say this many phrases at once...
const BURST: u32 = 3;
/// ...and one more each time this has passed: a few a minute, however many tabs it has open.
const EVERY: Duration = Duration::from_secs(15);

/// What each seat of one game may still say.
#[derive(Debug, Default)]
pub(super) struct QuickMessages {
    /// For each seat, when its allowance will be whole again (GCRA's theoretical arrival time):
    /// each phrase pushes it `EVERY` later, and a phrase is let through while it lies at most
    /// `BURST` phrases' time ahead. `None`: nothing said yet.
    whole_at: ByColour<Option<Instant>>,
}

impl QuickMessages {
    /// `by` says `phrase` at `now`: what everyone at the game is to be told, or why not (said
    /// too often lately: the seconds until it may say another).
    pub(super) fn say(
        &mut self,
        by: Colour,
        phrase: Phrase,
        now: Instant,
    ) -> Result<Wire, Refusal> {
        let whole_at = self.whole_at[by].map_or(now, |at| at.max(now)) + EVERY;
        let room = EVERY * BURST;
        if whole_at > now + room {
            let wait = whole_at - (now + room);
            return Err(Refusal::TooManyQuickMessages {
                seconds: wait.as_secs_f64().ceil() as u64,
            });
        }
        self.whole_at[by] = Some(whole_at);
        Ok(Answer::Said { by, phrase }.wire())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(messages: &mut QuickMessages, by: Colour, now: Instant) -> Result<(), u64> {
        match messages.say(by, Phrase::Hello, now) {
            Ok(_) => Ok(()),
            Err(Refusal::TooManyQuickMessages { seconds }) => Err(seconds),
            Err(other) => panic!("{other}"),
        }
    }

    #[test]
    fn a_few_at_once_then_one_each_quarter_minute_for_each_seat() {
        let start = Instant::now();
        let mut messages = QuickMessages::default();
        for _ in 0..BURST {
            assert_eq!(said(&mut messages, Colour::White, start), Ok(()));
        }
        assert_eq!(said(&mut messages, Colour::White, start), Err(15));
        assert_eq!(said(&mut messages, Colour::White, start + Duration::from_secs(5)), Err(10));
        // A refusal costs nothing: the next one comes when it was said it would.
        assert_eq!(said(&mut messages, Colour::White, start + EVERY), Ok(()));
        assert_eq!(said(&mut messages, Colour::White, start + EVERY), Err(15));
        // The other seat has its own allowance.
        assert_eq!(said(&mut messages, Colour::Black, start + EVERY), Ok(()));
        // A quiet while fills the allowance again, never beyond the burst.
        let later = start + Duration::from_secs(600);
        for _ in 0..BURST {
            assert_eq!(said(&mut messages, Colour::White, later), Ok(()));
        }
        assert!(said(&mut messages, Colour::White, later).is_err());
        // Over a minute, at most the burst and one a quarter minute.
        let mut minute = QuickMessages::default();
        let let_through = (0..60)
            .filter(|s| said(&mut minute, Colour::Black, start + Duration::from_secs(*s)).is_ok())
            .count();
        assert_eq!(let_through, BURST as usize + 3);
    }

    #[test]
    fn what_is_said_is_told_as_who_and_which_phrase() {
        let mut messages = QuickMessages::default();
        let told = messages.say(Colour::Black, Phrase::GoodGame, Instant::now()).unwrap();
        assert_eq!(told.as_str(), r#"{"t":"said","d":{"by":"black","phrase":"good-game"}}"#);
    }
}
