//! The browser a "play anyone" request comes from, as the page names it: a random id the page
//! makes once and keeps in its local storage, shared by all of that browser's tabs.
//!
//! It proves nothing and holds nothing: anyone may send any id. It only lets the lobby keep a
//! person from being paired with their own waiting table from a second tab. Sending someone
//! else's id can only keep the sender from being paired with that person's table.

use core::fmt;

use serde::{Deserialize, Serialize};

/// The shortest and longest id taken: long enough that two browsers never draw the same one,
/// short enough that a request cannot make the lobby keep much.
const LENGTH: core::ops::RangeInclusive<usize> = 16..=64;

/// A browser's id, checked: 16 to 64 letters, digits, `-` or `_`.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct BrowserId(String);

impl TryFrom<String> for BrowserId {
    type Error = String;

    fn try_from(text: String) -> Result<BrowserId, String> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if LENGTH.contains(&text.len()) && text.chars().all(allowed) {
            Ok(BrowserId(text))
        } else {
            Err(format!(
                "a browser id is {} to {} letters, digits, - or _",
                LENGTH.start(),
                LENGTH.end()
            ))
        }
    }
}

impl From<BrowserId> for String {
    fn from(id: BrowserId) -> String {
        id.0
    }
}

impl fmt::Debug for BrowserId {
    // Kept out of the logs, which name no person (the privacy page says so).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BrowserId(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_sixteen_to_sixty_four_safe_characters() {
        let read = |text: &str| serde_json::from_str::<BrowserId>(&format!("\"{text}\""));
        assert!(read("0123456789abcdef").is_ok());
        assert!(read(&"x".repeat(64)).is_ok());
        assert!(read("a8Zq-4_r-9b1e0f7c3d2").is_ok());
        for bad in ["short", &"x".repeat(65), "0123456789abcdef!", "0123456789 abcdef", ""] {
            let error = read(bad).unwrap_err().to_string();
            assert!(error.contains("a browser id is 16 to 64"), "{bad:?}: {error}");
        }
    }

    #[test]
    fn an_id_is_not_written_to_the_log() {
        let id: BrowserId = serde_json::from_str("\"0123456789abcdef\"").unwrap();
        assert_eq!(format!("{id:?}"), "BrowserId(..)");
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"0123456789abcdef\"");
    }
}
