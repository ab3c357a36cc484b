//! A material: how many stones the side to move has on the board, and how many its opponent has.

use core::fmt;
use core::str::FromStr;

/// Stones on the board, seen from the side to move. Colours do not matter in the movement phase
/// (both sides step and capture alike), so `3v4` holds White to move with 3 against 4 and Black
/// to move with 3 against 4.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// The side to move's stones.
    pub mover: u8,
    /// The other side's stones.
    pub other: u8,
}

impl Material {
    /// The material with `mover` stones to move against `other`.
    pub const fn new(mover: u8, other: u8) -> Material {
        Material { mover, other }
    }

    /// Stones on the board in all.
    pub const fn stones(self) -> u8 {
        self.mover + self.other
    }

    /// The same stones with the other side to move: where a quiet step leads.
    pub const fn flipped(self) -> Material {
        Material { mover: self.other, other: self.mover }
    }

    /// Where a capture by the side to move leads: the opponent, one stone down, is to move.
    pub const fn after_capture(self) -> Material {
        Material { mover: self.other - 1, other: self.mover }
    }

    /// Every material with at most `stones` stones in all and more than `lose_at` a side (fewer
    /// have lost and are no table), smallest first: a capture only leads to a smaller one.
    pub fn up_to(stones: u8, lose_at: u8) -> Vec<Material> {
        let mut all = Vec::new();
        for total in 2 * (lose_at + 1)..=stones {
            for mover in (lose_at + 1)..=(total - lose_at - 1) {
                all.push(Material::new(mover, total - mover));
            }
        }
        all
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.mover, self.other)
    }
}

/// A material text that is not `<mover>v<other>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMaterialError(String);

impl fmt::Display for ParseMaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a material: expected stones to move, v, other stones (as 3v4)",
            self.0
        )
    }
}

impl std::error::Error for ParseMaterialError {}

impl FromStr for Material {
    type Err = ParseMaterialError;

    fn from_str(text: &str) -> Result<Material, ParseMaterialError> {
        let err = || ParseMaterialError(text.to_string());
        let (mover, other) = text.split_once('v').ok_or_else(err)?;
        let count = |t: &str| t.parse::<u8>().ok().filter(|n| (1..=49).contains(n));
        Ok(Material::new(count(mover).ok_or_else(err)?, count(other).ok_or_else(err)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn materials_come_smallest_first() {
        let all: Vec<String> = Material::up_to(8, 2).iter().map(|m| m.to_string()).collect();
        assert_eq!(all, ["3v3", "3v4", "4v3", "3v5", "4v4", "5v3"]);
        assert_eq!("3v4".parse::<Material>(), Ok(Material::new(3, 4)));
        assert!("3-4".parse::<Material>().is_err());
        assert!("3v".parse::<Material>().is_err());
        assert!("0v3".parse::<Material>().is_err());
    }
}
