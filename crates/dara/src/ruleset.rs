//! Rulesets: one of the four presets plus overrides, as in `jaques,diagonal=yes`.

use core::fmt;
use core::str::FromStr;

use crate::cell::MAX_SIDE;
use crate::direction::Direction;
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

/// How long a run a placed stone may stand in (`place`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A placement may not make a run of three or more.
    Three,
    /// A placement may not make a run of four or more.
    Four,
    /// Any empty cell.
    Free,
}

/// What a placer with no legal cell does (`blocked`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Blocked {
    /// Places on any empty cell.
    Any,
    /// Passes the turn.
    Pass,
}

/// Whether a step may make a run of four or more (`long`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Long {
    /// Legal, and it captures nothing.
    Allowed,
    /// Not a legal step.
    Illegal,
}

/// Stones taken by a step that makes two rows at once (`captures`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Captures {
    /// One stone, however many rows.
    One,
    /// One stone per row formed.
    PerRow,
}

/// Restrictions on the first placements (`opening`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// None.
    Free,
    /// The first stone of the game goes in a corner.
    Corner,
    /// No stone in the middle files during each player's first four placements.
    Centre,
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

/// The largest `quiet` value accepted: far beyond any game, small enough for any counter.
pub const MAX_QUIET: u32 = 100_000;

impl Default for Ruleset {
    fn default() -> Ruleset {
        Preset::Arcade.ruleset()
    }
}

/// Why a ruleset text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetError(String);

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid ruleset: {}", self.0)
    }
}

impl std::error::Error for RulesetError {}

/// The option names, in the order of RULES.md section 4 (which is also the printing order).
const OPTION_NAMES: [&str; 12] = [
    "rows", "cols", "stones", "place", "blocked", "diagonal", "long", "captures", "protect",
    "lose-at", "quiet", "opening",
];

/// The values of an option and their names in ruleset notation: one table both prints and
/// reads them.
trait OptionValue: Copy + PartialEq + 'static {
    const NAMES: &'static [(Self, &'static str)];
}

impl OptionValue for Place {
    const NAMES: &'static [(Place, &'static str)] =
        &[(Place::Three, "3"), (Place::Four, "4"), (Place::Free, "free")];
}

impl OptionValue for Blocked {
    const NAMES: &'static [(Blocked, &'static str)] =
        &[(Blocked::Any, "any"), (Blocked::Pass, "pass")];
}

impl OptionValue for Long {
    const NAMES: &'static [(Long, &'static str)] =
        &[(Long::Allowed, "allowed"), (Long::Illegal, "illegal")];
}

impl OptionValue for Captures {
    const NAMES: &'static [(Captures, &'static str)] =
        &[(Captures::One, "one"), (Captures::PerRow, "per-row")];
}

impl OptionValue for Opening {
    const NAMES: &'static [(Opening, &'static str)] =
        &[(Opening::Free, "free"), (Opening::Corner, "corner"), (Opening::Centre, "centre")];
}

/// `diagonal` and `protect`.
impl OptionValue for bool {
    const NAMES: &'static [(bool, &'static str)] = &[(true, "yes"), (false, "no")];
}

/// The name of an option's value.
fn value_name<T: OptionValue>(value: T) -> &'static str {
    T::NAMES.iter().find(|(v, _)| *v == value).map_or("", |&(_, name)| name)
}

/// The value of option `name` written `text`, or an error listing the names it may take.
fn read_value<T: OptionValue>(name: &str, text: &str) -> Result<T, RulesetError> {
    if let Some(&(value, _)) = T::NAMES.iter().find(|(_, n)| *n == text) {
        return Ok(value);
    }
    let names: Vec<&str> = T::NAMES.iter().map(|&(_, n)| n).collect();
    let (last, others) = names.split_last().expect("every option has values");
    Err(RulesetError(format!("{name}={text}: expected {} or {last}", others.join(", "))))
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
        for (name, value) in [("rows", self.rows), ("cols", self.cols)] {
            if !(3..=MAX_SIDE).contains(&value) {
                return Err(RulesetError(format!(
                    "{name}={value}: boards are 3 to 7 cells a side"
                )));
            }
        }
        // Sides are checked first: the product of two sides up to 7 cannot overflow.
        let most = self.cells() / 2;
        if self.stones < 3 || self.stones > most {
            return Err(RulesetError(format!(
                "stones={}: each player has 3 to {most} stones on {}x{} (at most half of its {} cells)",
                self.stones,
                self.cols,
                self.rows,
                self.cells()
            )));
        }
        if !(2..=3).contains(&self.lose_at) {
            return Err(RulesetError(format!("lose-at={}: must be 2 or 3", self.lose_at)));
        }
        if self.lose_at >= self.stones {
            return Err(RulesetError(format!(
                "lose-at={} with stones={}: a player would have lost before the first move",
                self.lose_at, self.stones
            )));
        }
        if let Some(q) = self.quiet {
            if q == 0 || q > MAX_QUIET {
                return Err(RulesetError(format!("quiet={q}: must be 1 to {MAX_QUIET}, or none")));
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

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), RulesetError> {
        let number = |max: u32| -> Result<u32, RulesetError> {
            match value.parse::<u32>() {
                Ok(n) if n <= max && !value.starts_with('+') => Ok(n),
                _ => Err(RulesetError(format!("{name}={value}: expected a number"))),
            }
        };
        match name {
            "rows" => self.rows = number(99)? as u8,
            "cols" => self.cols = number(99)? as u8,
            "stones" => self.stones = number(255)? as u8,
            "lose-at" => self.lose_at = number(99)? as u8,
            "place" => self.place = read_value(name, value)?,
            "blocked" => self.blocked = read_value(name, value)?,
            "diagonal" => self.diagonal = read_value(name, value)?,
            "long" => self.long = read_value(name, value)?,
            "captures" => self.captures = read_value(name, value)?,
            "protect" => self.protect = read_value(name, value)?,
            "quiet" => {
                self.quiet = if value == "none" {
                    None
                } else {
                    match value.parse::<u32>() {
                        Ok(n) if !value.starts_with('+') => Some(n),
                        _ => {
                            return Err(RulesetError(format!(
                                "{name}={value}: expected a number or none"
                            )))
                        }
                    }
                }
            }
            "opening" => self.opening = read_value(name, value)?,
            _ => {
                return Err(RulesetError(format!(
                    "unknown option {name:?} (options: {})",
                    OPTION_NAMES.join(", ")
                )))
            }
        }
        Ok(())
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
        let preset = Preset::from_name(preset_name).ok_or_else(|| {
            RulesetError(format!(
                "unknown preset {preset_name:?} (presets: arcade, ninja, jaques, wikipedia)"
            ))
        })?;
        let mut rules = preset.ruleset();
        let mut seen = Vec::new();
        for part in parts {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| RulesetError(format!("{part:?} is not option=value")))?;
            if seen.contains(&name) {
                return Err(RulesetError(format!("option {name} is given twice")));
            }
            rules.set_option(name, value)?;
            seen.push(name);
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
        fn each<T: OptionValue + core::fmt::Debug>(option: &str) {
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
