//! The name a player plays under in one arena: chosen at the door, shown on the standings.

use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The longest name, in characters (Unicode scalar values after NFC): room for a given name and
/// a family name, and still one line of the standings on a phone.
pub const MAX_NAME_CHARS: usize = 20;

/// A name as the arena accepts it: trimmed, each run of spaces inside it made one ordinary
/// space, composed (NFC), 1 to [`MAX_NAME_CHARS`] characters, every one of them visible.
///
/// Letters of every script are welcome: Hausa's ƙ ɗ ɓ ƴ, French accents, Arabic, N'Ko. What is
/// refused is what cannot be seen or breaks the line around it: control characters, format
/// characters (the zero-width space U+200B, the byte-order mark U+FEFF, the bidi controls that
/// turn the rest of a row around), line and paragraph separators, unassigned and private-use
/// code points, and the fillers that render as nothing.
///
/// NFC matters because "é" may arrive as one character or as "e" and a combining accent,
/// depending on the keyboard: composed, they are one name, counted as one character each.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Name {
    text: String,
    key: String,
}

/// Why a name is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameError {
    /// Nothing left after trimming.
    Empty,
    /// Longer than [`MAX_NAME_CHARS`].
    TooLong,
    /// A character that cannot be seen (control, format, separator, unassigned, filler).
    Invisible,
}

impl Name {
    /// Checks and tidies a name as typed.
    ///
    /// # Errors
    /// [`NameError`]: empty, too long, or with a character that cannot be seen.
    ///
    /// # Examples
    /// ```
    /// use dara_arena::Name;
    /// let name = Name::new("  Ɗan  Ƙwaro ").unwrap();
    /// assert_eq!(name.as_str(), "Ɗan Ƙwaro");
    /// assert!(Name::new("a\u{200B}b").is_err());
    /// ```
    pub fn new(typed: &str) -> Result<Name, NameError> {
        if typed.chars().any(invisible) {
            return Err(NameError::Invisible);
        }
        // Inner runs of whitespace (a tab is refused above as a control) become one space, so
        // two names that look the same on the standings are the same.
        let words: Vec<&str> = typed.split_whitespace().collect();
        let text: String = words.join(" ").nfc().collect();
        let chars = text.chars().count();
        if chars == 0 {
            return Err(NameError::Empty);
        }
        if chars > MAX_NAME_CHARS {
            return Err(NameError::TooLong);
        }
        let key = fold(&text);
        Ok(Name { text, key })
    }

    /// The name as shown.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// What two names are compared by for uniqueness: lower case, composed. "Ƙwaro" and
    /// "ƙwaro" are one person on a standings table to anyone reading it, so the second is
    /// refused rather than left to be mistaken for the first.
    pub fn key(&self) -> &str {
        &self.key
    }
}

/// Lower case, then NFC again (lowering may decompose: `İ` becomes `i` and a combining dot).
fn fold(text: &str) -> String {
    text.to_lowercase().nfc().collect()
}

/// A character that shows nothing, or that changes how what is around it shows.
fn invisible(c: char) -> bool {
    // Whitespace is tidied, not refused, but only the ordinary kinds: a line or paragraph
    // separator breaks the row.
    if c == ' ' || (c.is_whitespace() && !c.is_control()) {
        return matches!(
            c.general_category(),
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
        );
    }
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::Unassigned
            | GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || FILLERS.contains(&c)
}

/// Letters, marks and symbols by category that draw nothing: the Hangul fillers, the combining
/// grapheme joiner and the Braille blank (names made of them read as empty rows).
const FILLERS: [char; 6] = ['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{034F}', '\u{2800}'];

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name({:?})", self.text)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// A name read back from a journal is checked again: a journal is read, not trusted.
impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        use serde::de::Error;
        let text = String::deserialize(d)?;
        Name::new(&text).map_err(|e| D::Error::custom(format!("{text:?}: {e:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_of_every_script_are_names() {
        for name in
            ["Ƙwaro", "ɗan ɓaƙo", "ƴaƴa", "Hélène", "Zoë", "محمد", "ߒߞߏ", "李小龙", "O'Neil"]
        {
            assert_eq!(Name::new(name).unwrap().as_str(), name);
        }
    }

    #[test]
    fn a_name_is_trimmed_and_its_spaces_made_one() {
        assert_eq!(Name::new("  Aïcha \u{00A0} Bello\u{3000}").unwrap().as_str(), "Aïcha Bello");
    }

    #[test]
    fn a_decomposed_accent_is_composed() {
        let composed = Name::new("H\u{e9}l\u{e8}ne").unwrap();
        let decomposed = Name::new("He\u{301}le\u{300}ne").unwrap();
        assert_eq!(composed, decomposed);
        assert_eq!(decomposed.as_str().chars().count(), 6);
    }

    #[test]
    fn twenty_characters_after_composing_and_no_more() {
        let twenty = "é".repeat(20);
        assert!(Name::new(&twenty).is_ok());
        // Forty code points typed, twenty once composed.
        assert!(Name::new(&"e\u{301}".repeat(20)).is_ok());
        assert_eq!(Name::new(&"é".repeat(21)), Err(NameError::TooLong));
        assert_eq!(Name::new(&format!("  {twenty}  ")).map(|n| n.as_str().to_owned()), Ok(twenty));
    }

    #[test]
    fn empty_and_blank_are_refused() {
        for blank in ["", "   ", "\u{3000}"] {
            assert_eq!(Name::new(blank), Err(NameError::Empty), "{blank:?}");
        }
    }

    #[test]
    fn invisible_characters_are_refused() {
        for bad in [
            "a\u{0}b",
            "a\tb",
            "a\nb",
            "a\u{7f}",
            "a\u{200B}b",
            "\u{FEFF}ab",
            "ab\u{202E}cd",
            "ab\u{2066}",
            "a\u{200E}",
            "a\u{2028}b",
            "a\u{E000}",
            "\u{3164}",
            "a\u{AD}b",
        ] {
            assert_eq!(Name::new(bad), Err(NameError::Invisible), "{bad:?}");
        }
    }

    #[test]
    fn names_compare_without_case() {
        assert_eq!(Name::new("ƘWARO").unwrap().key(), Name::new("ƙwaro").unwrap().key());
        assert_eq!(Name::new("ÉLODIE").unwrap().key(), Name::new("élodie").unwrap().key());
        assert_ne!(Name::new("Ɗan").unwrap().key(), Name::new("Dan").unwrap().key());
    }

    #[test]
    fn a_name_reads_back_and_a_bad_one_does_not() {
        let name = Name::new("Ɓello").unwrap();
        let text = serde_json::to_string(&name).unwrap();
        assert_eq!(text, "\"Ɓello\"");
        assert_eq!(serde_json::from_str::<Name>(&text).unwrap(), name);
        assert!(serde_json::from_str::<Name>("\"a\\u200bb\"").is_err());
    }
}
