//! Quick messages: the fixed phrases players of a game between people may send each other, as
//! codes. Each page words a phrase in its reader's own language, so a Hausa speaker and a French
//! speaker greet each other; nothing else can be said, and nothing said is kept.

use serde::{Deserialize, Serialize};

/// A phrase a player may send, travelling as its code (`"good-game"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phrase {
    /// "Hello!"
    Hello,
    /// "Good luck!"
    GoodLuck,
    /// "Have fun!"
    HaveFun,
    /// "Well played!"
    WellPlayed,
    /// "Good game!"
    GoodGame,
    /// "Thank you!"
    ThankYou,
    /// "Sorry!"
    Sorry,
    /// "One moment, please."
    OneMoment,
    /// "Rematch?"
    Rematch,
    /// "Bye!"
    Bye,
}

impl Phrase {
    /// Every phrase, in the order the page shows them.
    pub const ALL: [Phrase; 10] = [
        Phrase::Hello,
        Phrase::GoodLuck,
        Phrase::HaveFun,
        Phrase::WellPlayed,
        Phrase::GoodGame,
        Phrase::ThankYou,
        Phrase::Sorry,
        Phrase::OneMoment,
        Phrase::Rematch,
        Phrase::Bye,
    ];
}

impl dara::Coded for Phrase {
    fn one_of_each() -> Vec<Phrase> {
        // A variant added without a place in `ALL` does not compile.
        for phrase in Phrase::ALL {
            match phrase {
                Phrase::Hello
                | Phrase::GoodLuck
                | Phrase::HaveFun
                | Phrase::WellPlayed
                | Phrase::GoodGame
                | Phrase::ThankYou
                | Phrase::Sorry
                | Phrase::OneMoment
                | Phrase::Rematch
                | Phrase::Bye => {}
            }
        }
        Phrase::ALL.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_travels_as_its_code_and_reads_back() {
        assert_eq!(serde_json::to_string(&Phrase::GoodGame).unwrap(), r#""good-game""#);
        assert_eq!(serde_json::to_string(&Phrase::OneMoment).unwrap(), r#""one-moment""#);
        for phrase in Phrase::ALL {
            let text = serde_json::to_string(&phrase).unwrap();
            assert_eq!(serde_json::from_str::<Phrase>(&text).unwrap(), phrase);
        }
        assert!(serde_json::from_str::<Phrase>(r#""you-lose""#).is_err());
    }
}
