//! Who a player of an arena is, with no account: the random token their browser makes and
//! keeps. The arena knows them by the token's keyed hash (the server's seat key), which is
//! also their seat in every game the arena pairs them in: the page takes its seat with the
//! token it already holds, and neither the arena's standings nor a stored journal hold it.

use dara_arena::PlayerId;
use serde::Deserialize;

use crate::seat::{Seat, SeatHash, SeatKey};

/// The shortest token a browser may choose: 96 bits of base64.
pub const TOKEN_MIN: usize = 16;
/// The longest.
pub const TOKEN_MAX: usize = 64;

/// A player's token as the browser sent it, checked: 16 to 64 of `A-Z a-z 0-9 _ -`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct PlayerToken(String);

impl PlayerToken {
    /// `text`, if it has a token's shape.
    pub fn parse(text: &str) -> Option<PlayerToken> {
        let shaped = (TOKEN_MIN..=TOKEN_MAX).contains(&text.len())
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        shaped.then(|| PlayerToken(text.to_owned()))
    }

    /// The token as text: only for the player's own seat link.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The player this token is, under `key`.
    pub fn player(&self, key: &SeatKey) -> PlayerId {
        PlayerId::new(key.hash(&self.0).to_hex())
    }
}

impl TryFrom<String> for PlayerToken {
    type Error = &'static str;

    fn try_from(text: String) -> Result<PlayerToken, &'static str> {
        PlayerToken::parse(&text).ok_or("a player token is 16 to 64 of A-Z, a-z, 0-9, _ and -")
    }
}

impl core::fmt::Debug for PlayerToken {
    // Tokens never appear in logs.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PlayerToken(..)")
    }
}

/// The seat `player` holds in every game the arena pairs them in.
pub fn seat_of(player: &PlayerId) -> Option<Seat> {
    SeatHash::from_hex(player.as_str()).map(Seat::Human)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_has_its_shape() {
        assert!(PlayerToken::parse("abcdefghij_-0123").is_some());
        assert!(PlayerToken::parse("short").is_none());
        assert!(PlayerToken::parse(&"a".repeat(65)).is_none());
        assert!(PlayerToken::parse("abcdefghij 0123456").is_none());
    }

    #[test]
    fn the_player_s_seat_is_their_token_s() {
        let key = SeatKey::random();
        let token = PlayerToken::parse("abcdefghij_-0123").unwrap();
        let player = token.player(&key);
        assert!(!player.as_str().contains(token.as_str()));
        match seat_of(&player) {
            Some(Seat::Human(hash)) => assert!(hash.matches(&key.hash(token.as_str()))),
            other => panic!("{other:?}"),
        }
    }
}
