//! Why a request changed nothing: the connection's own refusals (unreadable frames, the hello,
//! seat links, a rematch that could not start, a store out of reach, quick messages) and, as
//! they are, the table's ([`crate::Refusal`]). Each is sent as a code with its parameters (the page words it,
//! in any language) beside plain English for any other client.
//!
//! `B` is why a rematch could not start, which only the shell knows: the server's error (its
//! tables full, an address holding too many games); the page's own table, which starts its
//! rematches itself, uses [`NoShellError`].

use core::fmt;

use serde::Serialize;

use super::client::{ParseError, PROTOCOL_VERSION};

/// Why a message was refused. Whatever the reason, the game is exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Refusal<B> {
    /// The frame could not be read as a message.
    Unreadable {
        /// What is wrong with it, in English.
        detail: String,
    },
    /// `hello` names another version of the protocol: the page must reload.
    OtherProtocol {
        /// The version the server speaks.
        server: u32,
        /// What the page said, in English.
        detail: String,
    },
    /// A binary frame.
    Binary,
    /// Anything before `hello`.
    HelloFirst,
    /// A second `hello`.
    HelloAgain,
    /// The seat token offered is not one of this game's.
    NotYourSeatLink,
    /// The rematch could not be started.
    RematchUnavailable {
        /// Why, as an HTTP answer would have said it: its code and figures (the server is full,
        /// or this address holds too many games).
        because: B,
        /// The same in English.
        detail: String,
    },
    /// The server cannot reach where it keeps games (a node of a cluster whose Redis does not
    /// answer): what would change the game is refused rather than played and lost.
    StoreUnreachable,
    /// A quick message in a game against the computer, which reads none.
    QuickMessagesBetweenPeople,
    /// A quick message from a seat that has said as many as it may for now.
    TooManyQuickMessages {
        /// Whole seconds until the seat may say another.
        seconds: u64,
    },
    /// What the table refused, with its own code and figures.
    #[serde(untagged)]
    Table(crate::Refusal),
}

/// The shell of a page's own table never fails to start a rematch: no value has this type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum NoShellError {}

impl fmt::Display for NoShellError {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

impl dara::Coded for NoShellError {
    fn one_of_each() -> Vec<NoShellError> {
        Vec::new()
    }
}

impl<B: fmt::Display> Refusal<B> {
    /// The rematch could not be started, for the reason `because` gives.
    pub fn rematch_unavailable(because: B) -> Refusal<B> {
        Refusal::RematchUnavailable { detail: because.to_string(), because }
    }
}

impl<B> From<crate::Refusal> for Refusal<B> {
    fn from(refusal: crate::Refusal) -> Refusal<B> {
        Refusal::Table(refusal)
    }
}

impl<B> From<ParseError> for Refusal<B> {
    fn from(error: ParseError) -> Refusal<B> {
        match error {
            ParseError::OtherProtocol(_) => {
                Refusal::OtherProtocol { server: PROTOCOL_VERSION, detail: error.to_string() }
            }
            _ => Refusal::Unreadable { detail: error.to_string() },
        }
    }
}

impl<B> fmt::Display for Refusal<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Unreadable { detail }
            | Refusal::RematchUnavailable { detail, .. }
            | Refusal::OtherProtocol { detail, .. } => f.write_str(detail),
            Refusal::Binary => f.write_str("messages are JSON text, not binary"),
            Refusal::HelloFirst => f.write_str("say hello first"),
            Refusal::HelloAgain => f.write_str("you have already said hello"),
            Refusal::NotYourSeatLink => {
                f.write_str("that seat link does not belong to this game; you are watching")
            }
            Refusal::StoreUnreachable => f.write_str(
                "the server cannot keep the game just now, so nothing was played: try again in \
                 a moment",
            ),
            Refusal::QuickMessagesBetweenPeople => {
                f.write_str("quick messages are for games between people")
            }
            Refusal::TooManyQuickMessages { seconds } => write!(
                f,
                "you have sent as many quick messages as you may for now: send another in \
                 {seconds} s"
            ),
            Refusal::Table(refusal) => refusal.fmt(f),
        }
    }
}

impl<B: dara::Coded + fmt::Display> dara::Coded for Refusal<B> {
    /// The connection's own refusals, then every one of the table's.
    fn one_of_each() -> Vec<Refusal<B>> {
        let mut all = vec![
            Refusal::Unreadable { detail: "expected value at line 1 column 1".to_owned() },
            Refusal::OtherProtocol { server: PROTOCOL_VERSION, detail: "protocol 0".to_owned() },
            Refusal::Binary,
            Refusal::HelloFirst,
            Refusal::HelloAgain,
            Refusal::NotYourSeatLink,
            Refusal::StoreUnreachable,
            Refusal::QuickMessagesBetweenPeople,
            Refusal::TooManyQuickMessages { seconds: 12 },
        ];
        // One value a code: the reasons themselves are listed by `B`'s own codes.
        all.extend(B::one_of_each().into_iter().take(1).map(Refusal::rematch_unavailable));
        // A variant added without a value above does not compile.
        for refusal in &all {
            match refusal {
                Refusal::Unreadable { .. }
                | Refusal::OtherProtocol { .. }
                | Refusal::Binary
                | Refusal::HelloFirst
                | Refusal::HelloAgain
                | Refusal::NotYourSeatLink
                | Refusal::RematchUnavailable { .. }
                | Refusal::StoreUnreachable
                | Refusal::QuickMessagesBetweenPeople
                | Refusal::TooManyQuickMessages { .. }
                | Refusal::Table(_) => {}
            }
        }
        all.extend(crate::Refusal::one_of_each().into_iter().map(Refusal::Table));
        all
    }
}

/// A refusal as it travels: its code and parameters, and the same in English.
#[derive(Debug, Clone, Serialize)]
pub struct Explained<B> {
    #[serde(flatten)]
    refusal: Refusal<B>,
    reason: String,
}

impl<B> From<Refusal<B>> for Explained<B> {
    fn from(refusal: Refusal<B>) -> Explained<B> {
        Explained { reason: refusal.to_string(), refusal }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Local = Refusal<NoShellError>;

    #[test]
    fn a_refusal_travels_as_code_parameters_and_english() {
        let claim = crate::Refusal::ClaimTooEarly { seconds: 12 };
        let text = serde_json::to_string(&Explained::from(Local::from(claim))).unwrap();
        assert_eq!(
            text,
            r#"{"code":"claim-too-early","seconds":12,"reason":"your opponent may still come back: you can claim in 12 s"}"#
        );
        let text = serde_json::to_string(&Explained::from(Local::HelloFirst)).unwrap();
        assert_eq!(text, r#"{"code":"hello-first","reason":"say hello first"}"#);
    }

    #[test]
    fn an_illegal_move_travels_with_the_rules_reason_as_a_code() {
        let pos = dara::Position::from_text("6/6/6/BB4/WW4 w 10 10 0", Default::default()).unwrap();
        let why = pos.parse_move("c1").unwrap_err();
        let refusal = Local::from(crate::Refusal::illegal_move(why));
        let text = serde_json::to_string(&Explained::from(refusal)).unwrap();
        let english = r#""c1": a stone on c1 would stand in a line of 3; placements may not make three or more in a line"#
            .replace('"', "\\\"");
        assert_eq!(
            text,
            format!(
                r#"{{"code":"illegal-move","detail":"{english}","why":{{"code":"line-too-long","cell":"c1","run":3,"limit":3}},"reason":"{english}"}}"#
            )
        );
    }
}
