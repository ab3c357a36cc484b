//! Who sits where: game ids and the unguessable seat tokens that stand in for accounts.
//!
//! A seat token is the only proof of holding a seat: 128 random bits from the operating
//! system's generator, shown as 32 hex digits. It travels in the fragment of the seat's URL (so
//! it never reaches a server log or a `Referer`) and in the browser's local storage.

use core::fmt;

use rand::rngs::OsRng;
use rand::RngCore;

use crate::hex;

pub use dara_table::GameId;

/// A fresh game id: 64 random bits from the operating system, so games cannot be found by
/// counting, but holding an id gives no seat.
pub fn new_game_id() -> GameId {
    GameId::from_bits(OsRng.next_u64())
}

/// The secret that holds one seat of one game (or, after a rematch, the same player's seat in
/// the next game).
#[derive(Clone, PartialEq, Eq)]
pub struct SeatToken(String);

impl SeatToken {
    /// A fresh token: 128 bits from the operating system.
    pub fn random() -> SeatToken {
        SeatToken(hex::encode(&random_bytes::<16>()))
    }

    /// The token as text, for the one response that hands it to its holder.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `text` is this token. Compares every byte whatever the first difference, so the
    /// time taken says nothing about how much of a guess was right.
    pub fn matches(&self, text: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), text.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

impl fmt::Debug for SeatToken {
    // Tokens never appear in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(..)")
    }
}

/// The server's secret for hashing seat tokens: what the store keeps of a token is its keyed
/// hash, so a copy of the store (a backup, a stolen disk) holds no seat. The key is kept in the
/// data directory, apart from the store's file; a memory-only server makes a fresh one.
#[derive(Clone)]
pub struct SeatKey([u8; 32]);

impl SeatKey {
    /// A fresh key: 256 bits from the operating system.
    pub fn random() -> SeatKey {
        SeatKey(random_bytes::<32>())
    }

    /// A key read back from its 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> SeatKey {
        SeatKey(bytes)
    }

    /// The key's bytes, to be written where it is kept.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The keyed hash of the token `text` (blake3 in keyed mode, a MAC).
    pub fn hash(&self, text: &str) -> SeatHash {
        SeatHash(*blake3::keyed_hash(&self.0, text.as_bytes()).as_bytes())
    }

    /// The keyed hash of `token`.
    pub fn seal(&self, token: &SeatToken) -> SeatHash {
        self.hash(token.as_str())
    }
}

impl fmt::Debug for SeatKey {
    // Nor does the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatKey(..)")
    }
}

/// Who sits in a seat: a person is known only by the keyed hash of the token they hold.
pub type Seat = dara_table::Seat<SeatHash>;

/// What the server keeps of a seat token: its keyed hash under the [`SeatKey`]. A token offered
/// is hashed and compared with this.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SeatHash([u8; 32]);

impl SeatHash {
    /// Whether `other` is this hash. Compares every byte whatever the first difference (a
    /// hash's prefix says nothing of the token, but nothing is lost by being careful).
    pub fn matches(&self, other: &SeatHash) -> bool {
        self.0.iter().zip(&other.0).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// As 64 hex digits, the store's form.
    pub fn to_hex(&self) -> String {
        hex::encode(&self.0)
    }

    /// Read back from [`SeatHash::to_hex`].
    pub fn from_hex(text: &str) -> Option<SeatHash> {
        hex::decode(text).map(SeatHash)
    }
}

impl fmt::Debug for SeatHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatHash(..)")
    }
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    OsRng.fill_bytes(&mut bytes);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_and_distinct() {
        let a = SeatToken::random();
        let b = SeatToken::random();
        assert_eq!(a.as_str().len(), 32);
        assert_ne!(a, b);
        assert!(a.matches(a.as_str()));
        assert!(!a.matches(b.as_str()));
        assert!(!a.matches(""));
    }

    #[test]
    fn a_token_is_known_by_its_keyed_hash_only() {
        let key = SeatKey::random();
        let token = SeatToken::random();
        let sealed = key.seal(&token);
        assert!(sealed.matches(&key.hash(token.as_str())));
        assert!(!sealed.matches(&key.hash(SeatToken::random().as_str())));
        assert!(!sealed.matches(&SeatKey::random().seal(&token)));
        assert!(!sealed.to_hex().contains(token.as_str()));
        assert!(SeatHash::from_hex(&sealed.to_hex()).unwrap().matches(&sealed));
        assert!(SeatHash::from_hex("zz").is_none());
    }

    #[test]
    fn game_ids_parse_only_their_own_shape() {
        let id = new_game_id();
        assert_eq!(GameId::parse(id.as_str()), Some(id));
        assert_eq!(GameId::parse("../../etc/passwd"), None);
        assert_eq!(GameId::parse("ABCDEF0123456789"), None);
    }
}
