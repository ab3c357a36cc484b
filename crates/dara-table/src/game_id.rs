//! A game's public name, in invite and spectator links, and in the journal where a game names
//! its rematch.

use core::fmt;

/// 64 bits shown as 16 lowercase hex digits, kept in place, not on the heap: an id is copied
/// into every write a game sends its store and every request sent to it, and a copy that
/// allocates, freed on another thread, costs more than the bytes. The bits come from the shell
/// (the table has no randomness of its own): [`GameId::from_bits`].
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId([u8; 16]);

impl GameId {
    /// The id of these 64 bits (from a random source, so games cannot be found by counting).
    pub fn from_bits(bits: u64) -> GameId {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut digits = [0u8; 16];
        for (i, d) in digits.iter_mut().enumerate() {
            *d = DIGITS[((bits >> (60 - 4 * i)) & 0xf) as usize];
        }
        GameId(digits)
    }

    /// Accepts only text that could be an id (so a path segment never reaches a registry
    /// unchecked).
    pub fn parse(text: &str) -> Option<GameId> {
        let digits: [u8; 16] = text.as_bytes().try_into().ok()?;
        digits
            .iter()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            .then_some(GameId(digits))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).expect("an id is ASCII hex digits")
    }
}

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("GameId").field(&self.as_str()).finish()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for GameId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for GameId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameId, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        GameId::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not a game id")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_its_bits_in_hex_and_reads_back() {
        let id = GameId::from_bits(0x0123_4567_89ab_cdef);
        assert_eq!(id.as_str(), "0123456789abcdef");
        assert_eq!(GameId::parse(id.as_str()), Some(id));
        for bad in ["0123456789ABCDEF", "0123456789abcde", "0123456789abcdeg", ""] {
            assert_eq!(GameId::parse(bad), None, "{bad}");
        }
    }
}
