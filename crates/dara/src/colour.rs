//! The two sides: White (the pale stones, who always places first) and Black.

use core::fmt;
use core::ops::{Index, IndexMut, Not};
use core::str::FromStr;

use crate::serde_text::serde_through_text;

/// A side of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// The pale stones. White places first and moves first.
    White = 0,
    /// The dark stones.
    Black = 1,
}

impl Colour {
    /// Both colours, White first.
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    /// The letter used for this colour's stones on a board (`W` or `B`).
    pub const fn stone_char(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'B',
        }
    }

    /// The letter used for this colour in the side-to-move field (`w` or `b`).
    pub const fn side_char(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }

    /// The word players use for the stones: White's are pale, Black's dark (lower case; a
    /// sentence capitalises it). The colour's own name is its `Display`.
    pub const fn stone_word(self) -> &'static str {
        match self {
            Colour::White => "pale",
            Colour::Black => "dark",
        }
    }

    /// Parses the side-to-move letter.
    pub const fn from_side_char(c: char) -> Option<Colour> {
        match c {
            'w' => Some(Colour::White),
            'b' => Some(Colour::Black),
            _ => None,
        }
    }

    /// Parses a stone letter of the board field.
    pub const fn from_stone_char(c: char) -> Option<Colour> {
        match c {
            'W' => Some(Colour::White),
            'B' => Some(Colour::Black),
            _ => None,
        }
    }

    /// The other side.
    pub const fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Colour {
    type Output = Colour;
    fn not(self) -> Colour {
        self.other()
    }
}

impl fmt::Display for Colour {
    /// The colour's name, `white` or `black`: the name the notation's tags, error messages and
    /// the server's messages use (and serde, with the `serde` feature). Players' words for the
    /// stones are [`Colour::stone_word`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Colour {
    /// `white` or `black`, as [`Colour`]'s `Display` writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

/// A colour name that is neither `white` nor `black`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColourError(String);

impl fmt::Display for ParseColourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a colour: expected white or black", self.0)
    }
}

impl std::error::Error for ParseColourError {}

impl FromStr for Colour {
    type Err = ParseColourError;

    /// Reads `white` or `black`, as `Display` writes them.
    fn from_str(text: &str) -> Result<Colour, ParseColourError> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name() == text)
            .ok_or_else(|| ParseColourError(text.to_string()))
    }
}

serde_through_text!(Colour);

/// One value per colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColour<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColour<T> {
    /// Builds the pair from a function of the colour.
    pub fn new_with(mut f: impl FnMut(Colour) -> T) -> ByColour<T> {
        ByColour { white: f(Colour::White), black: f(Colour::Black) }
    }
}

impl<T> Index<Colour> for ByColour<T> {
    type Output = T;
    #[inline]
    fn index(&self, colour: Colour) -> &T {
        match colour {
            Colour::White => &self.white,
            Colour::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Colour> for ByColour<T> {
    #[inline]
    fn index_mut(&mut self, colour: Colour) -> &mut T {
        match colour {
            Colour::White => &mut self.white,
            Colour::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for colour in Colour::ALL {
            assert_eq!(colour.to_string().parse::<Colour>(), Ok(colour));
        }
        assert_eq!(Colour::White.to_string(), "white");
        assert_eq!(Colour::Black.stone_word(), "dark");
        assert!("White".parse::<Colour>().is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_uses_the_name() {
        assert_eq!(serde_json::to_string(&Colour::Black).unwrap(), "\"black\"");
        assert_eq!(serde_json::from_str::<Colour>("\"white\"").unwrap(), Colour::White);
        assert!(serde_json::from_str::<Colour>("\"w\"").is_err());
    }
}
