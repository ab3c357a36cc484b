//! Rulesets: one of the four presets plus overrides, as in `jaques,diagonal=yes`.

use core::fmt;
use core::str::FromStr;

use crate::cell::MAX_SIDE;
use crate::direction::Direction;
pub use crate::options::MAX_QUIET;
use crate::options::{value_name, OptionValue, OPTION_NAMES};
pub use crate::options::{Blocked, Captures, Long, Opening, Place};
pub use crate::ruleset_error::RulesetError;
use crate::serde_text::serde_through_text;

/// The four rulesets the sources describe.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The Arcade's table rules (the default).
    Arcade,
    /// The Smalltalk Ninja board.
    Ninja,
    /// Jaques of London's rules.
    Jaques,
    /// The Wikipedia article.
    Wikipedia,
}

impl Preset {
    /// All presets, in the order of RULES.md.
    pub const ALL: [Preset; 4] = [Preset::Arcade, Preset::Ninja, Preset::Jaques, Preset::Wikipedia];

    /// The preset's name in ruleset notation.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Arcade => "arcade",
            Preset::Ninja => "ninja",
            Preset::Jaques => "jaques",
            Preset::Wikipedia => "wikipedia",
        }
    }

    /// The preset by name.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// A builder starting from this preset's rules, to override some options.
    pub const fn builder(self) -> RulesetBuilder {
        RulesetBuilder { rules: self.ruleset() }
    }

    /// The preset's rules, with none of its options overridden.
    pub const fn ruleset(self) -> Ruleset {
        let base = Ruleset {
            preset: self,
            rows: 5,
            cols: 6,
            stones: 12,
            place: Place::Three,
            blocked: Blocked::Any,
            diagonal: false,
            long: Long::Allowed,
            captures: Captures::One,
            protect: false,
            lose_at: 2,
            quiet: None,
            opening: Opening::Free,
        };
        match self {
            Preset::Arcade => Ruleset { quiet: Some(80), ..base },
            // The Ninja board places freely, so `blocked` never comes into play; `any` is kept as
            // the value that a `place` override would then use.
            Preset::Ninja => Ruleset { place: Place::Free, protect: true, ..base },
            Preset::Jaques => Ruleset { blocked: Blocked::Pass, ..base },
            Preset::Wikipedia => Ruleset {
                place: Place::Four,
                blocked: Blocked::Pass,
                long: Long::Illegal,
                protect: true,
                ..base
            },
        }
    }
}

/// A complete set of rules: board size, stones, and every option of RULES.md section 4.
///
/// Every `Ruleset` is within the ranges of RULES.md: the fields are private, and the only ways
/// to make one ([`Preset::ruleset`], parsing, [`RulesetBuilder::build`]) check them. So a
/// position can always be set up under it, and board geometry never meets an impossible size.
///
/// # Examples
/// ```
/// use dara::{Preset, Ruleset};
/// let rules = Preset::Jaques.builder().rows(6).stones(15).build().unwrap();
/// assert_eq!(rules.to_string(), "jaques,rows=6,stones=15");
/// assert_eq!((rules.cols(), rules.rows(), rules.stones()), (6, 6, 15));
/// // Out of range is an error, never a ruleset.
/// assert!(Preset::Arcade.builder().rows(9).build().is_err());
/// assert!("arcade,stones=30".parse::<Ruleset>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    preset: Preset,
    rows: u8,
    cols: u8,
    stones: u8,
    place: Place,
    blocked: Blocked,
    diagonal: bool,
    long: Long,
    captures: Captures,
    protect: bool,
    lose_at: u8,
    quiet: Option<u32>,
    opening: Opening,
}

/// A ruleset being put together from a preset, option by option, with values not yet checked:
/// [`RulesetBuilder::build`] checks them all at once, since the limits depend on each other (the
/// most stones depend on the board size).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesetBuilder {
    /// The values so far, in a `Ruleset` that may be out of range until `build` checks it.
    rules: Ruleset,
}

impl Default for Ruleset {
    fn default() -> Ruleset {
        Preset::Arcade.ruleset()
    }
}

/// The value of option `option` written `text`, or an error listing the names it may take.
pub(crate) fn read_value<T: OptionValue>(
    option: &'static str,
    text: &str,
) -> Result<T, RulesetError> {
    if let Some(&(value, _)) = T::NAMES.iter().find(|(_, n)| *n == text) {
        return Ok(value);
    }
    let expected = T::NAMES.iter().map(|&(_, n)| n).collect();
    Err(RulesetError::UnknownValue { option, value: text.to_owned(), expected })
}

impl Ruleset {
    /// The preset this ruleset was written as; only options that differ from it are printed.
    #[inline]
    pub const fn preset(&self) -> Preset {
        self.preset
    }

    /// Ranks on the board (3 to 7).
    #[inline]
    pub const fn rows(&self) -> u8 {
        self.rows
    }

    /// Files on the board (3 to 7).
    #[inline]
    pub const fn cols(&self) -> u8 {
        self.cols
    }

    /// The number of cells on the board.
    #[inline]
    pub const fn cells(&self) -> u8 {
        self.rows * self.cols
    }

    /// Stones per player (3 up to half the cells).
    #[inline]
    pub const fn stones(&self) -> u8 {
        self.stones
    }

    /// The placement limit.
    #[inline]
    pub const fn place(&self) -> Place {
        self.place
    }

    /// What a placer with no legal cell does.
    #[inline]
    pub const fn blocked(&self) -> Blocked {
        self.blocked
    }

    /// Whether steps may go diagonally.
    #[inline]
    pub const fn diagonal(&self) -> bool {
        self.diagonal
    }

    /// Whether steps may make runs of four or more.
    #[inline]
    pub const fn long(&self) -> Long {
        self.long
    }

    /// Stones taken for two rows at once.
    #[inline]
    pub const fn captures(&self) -> Captures {
        self.captures
    }

    /// Whether stones in a row are protected from capture (while the enemy has others).
    #[inline]
    pub const fn protect(&self) -> bool {
        self.protect
    }

    /// A player with this many stones or fewer in the movement phase has lost (2 or 3).
    #[inline]
    pub const fn lose_at(&self) -> u8 {
        self.lose_at
    }

    /// Movement plies without a capture that draw the game; `None` for no limit.
    #[inline]
    pub const fn quiet(&self) -> Option<u32> {
        self.quiet
    }

    /// The opening restriction.
    #[inline]
    pub const fn opening(&self) -> Opening {
        self.opening
    }

    /// The directions a stone may step in: the four orthogonal ones, and the diagonals too
    /// under `diagonal=yes`. Rows never count diagonally, whatever this says.
    #[inline]
    pub const fn step_directions(&self) -> &'static [Direction] {
        if self.diagonal {
            &Direction::ALL
        } else {
            &Direction::ORTHOGONAL
        }
    }

    /// A builder holding these rules, to change some options.
    pub const fn to_builder(self) -> RulesetBuilder {
        RulesetBuilder { rules: self }
    }

    /// Checks the ranges of RULES.md section 4.
    fn check(&self) -> Result<(), RulesetError> {
        for (option, value) in [("rows", self.rows), ("cols", self.cols)] {
            if !(3..=MAX_SIDE).contains(&value) {
                return Err(RulesetError::BoardSide { option, value });
            }
        }
        // Sides are checked first: the product of two sides up to 7 cannot overflow.
        let most = self.cells() / 2;
        if self.stones < 3 || self.stones > most {
            return Err(RulesetError::StonesOutOfRange {
                stones: self.stones,
                most,
                cols: self.cols,
                rows: self.rows,
            });
        }
        if !(2..=3).contains(&self.lose_at) {
            return Err(RulesetError::LoseAtOutOfRange { lose_at: self.lose_at });
        }
        if self.lose_at >= self.stones {
            return Err(RulesetError::LostBeforeFirstMove {
                lose_at: self.lose_at,
                stones: self.stones,
            });
        }
        if let Some(quiet) = self.quiet {
            if quiet == 0 || quiet > MAX_QUIET {
                return Err(RulesetError::QuietOutOfRange { quiet });
            }
        }
        Ok(())
    }

    fn option_value(&self, name: &str) -> String {
        match name {
            "rows" => self.rows.to_string(),
            "cols" => self.cols.to_string(),
            "stones" => self.stones.to_string(),
            "place" => value_name(self.place).to_string(),
            "blocked" => value_name(self.blocked).to_string(),
            "diagonal" => value_name(self.diagonal).to_string(),
            "long" => value_name(self.long).to_string(),
            "captures" => value_name(self.captures).to_string(),
            "protect" => value_name(self.protect).to_string(),
            "lose-at" => self.lose_at.to_string(),
            "quiet" => self.quiet.map_or("none".to_string(), |q| q.to_string()),
            "opening" => value_name(self.opening).to_string(),
            _ => unreachable!("option names come from OPTION_NAMES"),
        }
    }

    /// Sets option `name` to `value` as written; the option's own name, for the caller to
    /// remember it was given.
    fn set_option(&mut self, name: &str, value: &str) -> Result<&'static str, RulesetError> {
        let Some(option) = OPTION_NAMES.into_iter().find(|&known| known == name) else {
            return Err(RulesetError::UnknownOption { option: name.to_owned() });
        };
        let number = |max: u32| -> Result<u32, RulesetError> {
            match value.parse::<u32>() {
                Ok(n) if n <= max && !value.starts_with('+') => Ok(n),
                _ => Err(RulesetError::NotANumber { option, value: value.to_owned() }),
            }
        };
        match option {
            "rows" => self.rows = number(99)? as u8,
            "cols" => self.cols = number(99)? as u8,
            "stones" => self.stones = number(255)? as u8,
            "lose-at" => self.lose_at = number(99)? as u8,
            "place" => self.place = read_value(option, value)?,
            "blocked" => self.blocked = read_value(option, value)?,
            "diagonal" => self.diagonal = read_value(option, value)?,
            "long" => self.long = read_value(option, value)?,
            "captures" => self.captures = read_value(option, value)?,
            "protect" => self.protect = read_value(option, value)?,
            "quiet" => {
                self.quiet = match value.parse::<u32>() {
                    _ if value == "none" => None,
                    Ok(n) if !value.starts_with('+') => Some(n),
                    _ => return Err(RulesetError::QuietNotANumber { value: value.to_owned() }),
                }
            }
            "opening" => self.opening = read_value(option, value)?,
            _ => unreachable!("every name of OPTION_NAMES is matched above"),
        }
        Ok(option)
    }
}

impl RulesetBuilder {
    /// Ranks on the board (3 to 7).
    pub const fn rows(mut self, rows: u8) -> RulesetBuilder {
        self.rules.rows = rows;
        self
    }

    /// Files on the board (3 to 7).
    pub const fn cols(mut self, cols: u8) -> RulesetBuilder {
        self.rules.cols = cols;
        self
    }

    /// Stones per player (3 up to half the cells).
    pub const fn stones(mut self, stones: u8) -> RulesetBuilder {
        self.rules.stones = stones;
        self
    }

    /// The placement limit.
    pub const fn place(mut self, place: Place) -> RulesetBuilder {
        self.rules.place = place;
        self
    }

    /// What a placer with no legal cell does.
    pub const fn blocked(mut self, blocked: Blocked) -> RulesetBuilder {
        self.rules.blocked = blocked;
        self
    }

    /// Whether steps may go diagonally.
    pub const fn diagonal(mut self, diagonal: bool) -> RulesetBuilder {
        self.rules.diagonal = diagonal;
        self
    }

    /// Whether steps may make runs of four or more.
    pub const fn long(mut self, long: Long) -> RulesetBuilder {
        self.rules.long = long;
        self
    }

    /// Stones taken for two rows at once.
    pub const fn captures(mut self, captures: Captures) -> RulesetBuilder {
        self.rules.captures = captures;
        self
    }

    /// Whether stones in a row are protected from capture.
    pub const fn protect(mut self, protect: bool) -> RulesetBuilder {
        self.rules.protect = protect;
        self
    }

    /// The losing stone count (2 or 3, below `stones`).
    pub const fn lose_at(mut self, lose_at: u8) -> RulesetBuilder {
        self.rules.lose_at = lose_at;
        self
    }

    /// Movement plies without a capture that draw the game (1 to 100,000), or `None`.
    pub const fn quiet(mut self, quiet: Option<u32>) -> RulesetBuilder {
        self.rules.quiet = quiet;
        self
    }

    /// The opening restriction.
    pub const fn opening(mut self, opening: Opening) -> RulesetBuilder {
        self.rules.opening = opening;
        self
    }

    /// The ruleset, if every option is within the ranges of RULES.md section 4.
    ///
    /// # Errors
    /// A [`RulesetError`] naming the first option out of range and why.
    pub fn build(self) -> Result<Ruleset, RulesetError> {
        self.rules.check()?;
        Ok(self.rules)
    }
}

impl FromStr for Ruleset {
    type Err = RulesetError;

    /// Parses `PRESET[,option=value]...` and checks the result's ranges.
    fn from_str(text: &str) -> Result<Ruleset, RulesetError> {
        let mut parts = text.split(',');
        let preset_name = parts.next().unwrap_or_default();
        let preset = Preset::from_name(preset_name)
            .ok_or_else(|| RulesetError::UnknownPreset { preset: preset_name.to_owned() })?;
        let mut rules = preset.ruleset();
        let mut seen: Vec<&'static str> = Vec::new();
        for part in parts {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| RulesetError::NotOptionValue { text: part.to_owned() })?;
            if let Some(&option) = seen.iter().find(|&&o| o == name) {
                return Err(RulesetError::OptionTwice { option });
            }
            seen.push(rules.set_option(name, value)?);
        }
        rules.check()?;
        Ok(rules)
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.preset.name())?;
        let base = self.preset.ruleset();
        for name in OPTION_NAMES {
            let value = self.option_value(name);
            if value != base.option_value(name) {
                write!(f, ",{name}={value}")?;
            }
        }
        Ok(())
    }
}

serde_through_text!(Ruleset);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_print_as_their_names() {
        for preset in Preset::ALL {
            assert_eq!(preset.ruleset().to_string(), preset.name());
            assert_eq!(preset.name().parse::<Ruleset>().unwrap(), preset.ruleset());
        }
    }

    #[test]
    fn overrides_print_in_table_order() {
        let rules: Ruleset = "jaques,stones=15,rows=6".parse().unwrap();
        assert_eq!(rules.to_string(), "jaques,rows=6,stones=15");
        let same: Ruleset = "arcade,quiet=80".parse().unwrap();
        assert_eq!(same.to_string(), "arcade");
        let wiki: Ruleset = "wikipedia,place=3".parse().unwrap();
        assert_eq!(wiki.place(), Place::Three);
        assert_eq!(wiki.to_string(), "wikipedia,place=3");
    }

    #[test]
    fn every_option_value_reads_back_and_errors_list_the_values() {
        fn each<T: OptionValue + core::fmt::Debug>(option: &'static str) {
            for &(value, name) in T::NAMES {
                assert_eq!(read_value::<T>(option, name), Ok(value));
                let rules: Ruleset = format!("arcade,{option}={name}").parse().unwrap();
                assert_eq!(rules.to_string().parse::<Ruleset>(), Ok(rules));
            }
        }
        each::<Place>("place");
        each::<Blocked>("blocked");
        each::<bool>("diagonal");
        each::<Long>("long");
        each::<Captures>("captures");
        each::<bool>("protect");
        each::<Opening>("opening");
        let err = "arcade,place=5".parse::<Ruleset>().unwrap_err().to_string();
        assert!(err.ends_with("place=5: expected 3, 4 or free"), "{err}");
        let err = "arcade,protect=maybe".parse::<Ruleset>().unwrap_err().to_string();
        assert!(err.ends_with("protect=maybe: expected yes or no"), "{err}");
    }

    #[test]
    fn nonsense_is_rejected_with_a_reason() {
        let err = "arcade,stones=40".parse::<Ruleset>().unwrap_err().to_string();
        assert!(err.contains("stones=40") && err.contains("half"), "{err}");
        for bad in [
            "chess",
            "",
            "arcade,",
            "arcade,rows=8",
            "arcade,rows=2",
            "arcade,cols=x",
            "arcade,place=5",
            "arcade,lose-at=4",
            "arcade,quiet=0",
            "arcade,quiet=-3",
            "arcade,diagonal",
            "arcade,colour=red",
            "arcade,rows=6,rows=6",
            "arcade,stones=2",
            "arcade,rows=3,cols=3,stones=3,lose-at=3",
        ] {
            assert!(bad.parse::<Ruleset>().is_err(), "{bad} should be rejected");
        }
    }
}
