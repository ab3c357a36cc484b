//! An arena's name in links: 64 random bits, so arenas cannot be found by counting (a private
//! arena is reached only by its link).

use core::fmt;

use rand::rngs::OsRng;
use rand::RngCore;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An arena's id: 16 lowercase hex digits.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArenaId(String);

impl ArenaId {
    /// A fresh id.
    pub fn random() -> ArenaId {
        ArenaId(format!("{:016x}", OsRng.next_u64()))
    }

    /// The id of the server's own arena of the schedule's slot starting at `starts` with
    /// games on `clock`: the same on every node of a cluster (a keyed hash, with the cluster's
    /// seat key), so that each slot is made once.
    pub fn of_slot(
        key: &crate::seat::SeatKey,
        starts: dara_arena::WallTime,
        clock: &str,
    ) -> ArenaId {
        let hash = key.hash(&format!("arena-slot:{}:{clock}", starts.as_millis()));
        ArenaId(hash.to_hex()[..16].to_owned())
    }

    /// The id `text` names, if it has an id's shape.
    pub fn parse(text: &str) -> Option<ArenaId> {
        let shaped =
            text.len() == 16 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        shaped.then(|| ArenaId(text.to_owned()))
    }

    /// As text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ArenaId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for ArenaId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArenaId({})", self.0)
    }
}

impl Serialize for ArenaId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ArenaId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ArenaId, D::Error> {
        use serde::de::Error;
        let text = String::deserialize(d)?;
        ArenaId::parse(&text).ok_or_else(|| D::Error::custom(format!("an arena id {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_only_their_own_shape() {
        let id = ArenaId::random();
        assert_eq!(ArenaId::parse(id.as_str()), Some(id));
        assert_eq!(ArenaId::parse("../../etc/passwd"), None);
        assert_eq!(ArenaId::parse("ABCDEF0123456789"), None);
    }
}
