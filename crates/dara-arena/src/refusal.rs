//! Why the arena refused what it was asked. Whatever the reason, the arena is exactly as it was:
//! nothing is kept from a refusal.
//!
//! A refusal serialises as its code (the variant's name in kebab case) with its figures, as it
//! travels to the page, which words it in the player's language; its `Display` is the English.
//! An unknown arena and a flood of requests are the server's refusals, not the arena's.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::name::{NameError, MAX_NAME_CHARS};

/// Why an input changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Refusal {
    /// A name with nothing in it but spaces.
    NameEmpty,
    /// A name longer than the longest allowed.
    NameTooLong {
        /// The most characters a name may have.
        max: usize,
    },
    /// A name with a character that cannot be seen: a control, a zero-width space, a bidi
    /// control.
    NameInvisible,
    /// Another player of this arena has this name (compared without case).
    NameTaken,
    /// A join from a player already in the arena (paused or gone players come back with
    /// resume).
    AlreadyJoined,
    /// The arena has ended.
    ArenaOver,
    /// A request from someone who has not joined this arena.
    UnknownPlayer,
    /// Berserk in a game the player is not playing, or that has ended.
    NotInGame,
    /// Berserk after one's own first move in the game.
    BerserkTooLate,
    /// Berserk twice in one game.
    AlreadyBerserk,
    /// The shell named a game this arena never paired.
    UnknownGame,
}

impl From<NameError> for Refusal {
    fn from(e: NameError) -> Refusal {
        match e {
            NameError::Empty => Refusal::NameEmpty,
            NameError::TooLong => Refusal::NameTooLong { max: MAX_NAME_CHARS },
            NameError::Invisible => Refusal::NameInvisible,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NameEmpty => f.write_str("choose a name to play under"),
            Refusal::NameTooLong { max } => {
                write!(f, "a name may have at most {max} characters")
            }
            Refusal::NameInvisible => f.write_str(
                "a name may not hold characters that cannot be seen (controls, zero-width or \
                 direction marks)",
            ),
            Refusal::NameTaken => {
                f.write_str("someone in this arena already plays under that name")
            }
            Refusal::AlreadyJoined => f.write_str("you are already in this arena"),
            Refusal::ArenaOver => f.write_str("this arena has ended"),
            Refusal::UnknownPlayer => f.write_str("join the arena first"),
            Refusal::NotInGame => f.write_str("you are not playing that game"),
            Refusal::BerserkTooLate => f.write_str("berserk only before your first move"),
            Refusal::AlreadyBerserk => f.write_str("you have already gone berserk in this game"),
            Refusal::UnknownGame => f.write_str("this arena paired no such game"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Every refusal, for the pages' catalogues to be checked against, as the table's are.
impl dara::Coded for Refusal {
    fn one_of_each() -> Vec<Refusal> {
        let all = vec![
            Refusal::NameEmpty,
            Refusal::NameTooLong { max: MAX_NAME_CHARS },
            Refusal::NameInvisible,
            Refusal::NameTaken,
            Refusal::AlreadyJoined,
            Refusal::ArenaOver,
            Refusal::UnknownPlayer,
            Refusal::NotInGame,
            Refusal::BerserkTooLate,
            Refusal::AlreadyBerserk,
            Refusal::UnknownGame,
        ];
        for refusal in &all {
            match refusal {
                Refusal::NameEmpty
                | Refusal::NameTooLong { .. }
                | Refusal::NameInvisible
                | Refusal::NameTaken
                | Refusal::AlreadyJoined
                | Refusal::ArenaOver
                | Refusal::UnknownPlayer
                | Refusal::NotInGame
                | Refusal::BerserkTooLate
                | Refusal::AlreadyBerserk
                | Refusal::UnknownGame => {}
            }
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use dara::Coded;

    use super::*;

    #[test]
    fn codes_are_kebab_case_with_their_figures() {
        let text = serde_json::to_string(&Refusal::NameTooLong { max: 20 }).unwrap();
        assert_eq!(text, r#"{"code":"name-too-long","max":20}"#);
        assert_eq!(
            serde_json::to_string(&Refusal::BerserkTooLate).unwrap(),
            r#"{"code":"berserk-too-late"}"#
        );
        let codes: std::collections::BTreeSet<String> = Refusal::one_of_each()
            .iter()
            .map(|r| serde_json::to_value(r).unwrap()["code"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(codes.len(), Refusal::one_of_each().len());
    }
}
