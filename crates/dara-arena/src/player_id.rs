//! Who a player is: there are no accounts, so a player is the random token their browser keeps.

use core::fmt;

use serde::{Deserialize, Serialize};

/// A player of one arena, as the shell names them: from the token the browser keeps (in local
/// storage, so every tab of one browser, and a reload, is the same player).
///
/// Whoever holds it can act as the player, so the shell should make it from the token (a hash
/// of it, say) rather than be the token, and the arena never shows it: standings name players
/// by their [`crate::Name`].
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(String);

impl PlayerId {
    /// The player known by this text.
    pub fn new(id: impl Into<String>) -> PlayerId {
        PlayerId(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PlayerId({:?})", self.0)
    }
}
