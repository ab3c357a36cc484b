//! The languages the pages are written in, and which one a request is answered in. Plain Rust
//! with no dependency, so that `build.rs` includes it too (to word each page in each language)
//! and the list is written once.

/// A language the pages are written in: the languages Dara's players speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// `en`, the pages as written and the answer where nothing names another.
    English,
    /// `fr`.
    French,
    /// `ha`.
    Hausa,
}

impl Language {
    /// Every language, in the order `build.rs` writes each page's copies.
    pub const ALL: [Language; 3] = [Language::English, Language::French, Language::Hausa];

    /// Its code: the catalogue's name (`assets/lang-<code>.js`), `<html lang>`, the `lang`
    /// cookie and `Content-Language`.
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::French => "fr",
            Language::Hausa => "ha",
        }
    }

    /// Its place in [`Language::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The language a tag names by its main subtag (`fr-NE` is French), any case.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let main = tag.trim().split(['-', '_']).next().unwrap_or_default();
        Language::ALL.into_iter().find(|language| main.eq_ignore_ascii_case(language.code()))
    }

    /// The language of a request: the player's own choice (the `lang` cookie the page's switch
    /// sets) when it names one of ours, else the browser's most preferred language of ours in
    /// `Accept-Language` (by q-value, then by order; `q=0` refuses), else English.
    pub fn chosen(cookie: Option<&str>, accept_language: Option<&str>) -> Language {
        if let Some(chosen) = cookie.and_then(lang_cookie).and_then(Language::from_tag) {
            return chosen;
        }
        let mut best: Option<(f32, Language)> = None;
        for item in accept_language.unwrap_or_default().split(',') {
            let mut parts = item.split(';');
            let Some(language) = parts.next().and_then(Language::from_tag) else { continue };
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok());
            // An unreadable q-value is ignored rather than guessed at.
            let Some(q) = q else { continue };
            // The first of equal weights wins: the browser lists them in the player's order.
            if q > 0.0 && !matches!(best, Some((b, _)) if b >= q) {
                best = Some((q, language));
            }
        }
        best.map_or(Language::English, |(_, language)| language)
    }
}

/// The value of the `lang` cookie in a `Cookie` header, if it has one.
fn lang_cookie(header: &str) -> Option<&str> {
    header.split(';').find_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        (name.trim() == "lang").then(|| value.trim().trim_matches('"'))
    })
}

#[cfg(test)]
mod tests {
    use super::Language::{self, English, French, Hausa};

    #[test]
    fn the_cookie_first_then_accept_language_then_english() {
        assert_eq!(Language::chosen(Some("lang=ha"), Some("fr")), Hausa);
        assert_eq!(Language::chosen(Some("other=1; lang=fr"), None), French);
        assert_eq!(Language::chosen(Some("lang=de"), Some("ha")), Hausa);
        assert_eq!(Language::chosen(Some("xlang=fr"), None), English);
        assert_eq!(Language::chosen(None, Some("fr-NE,fr;q=0.9")), French);
        assert_eq!(Language::chosen(None, Some("de-DE, ha;q=0.5, en;q=0.4")), Hausa);
        assert_eq!(Language::chosen(None, Some("de, es")), English);
        assert_eq!(Language::chosen(None, None), English);
        assert_eq!(Language::chosen(Some(""), Some("")), English);
    }

    #[test]
    fn q_values_and_then_order_decide() {
        assert_eq!(Language::chosen(None, Some("en;q=0.5, fr;q=0.8")), French);
        assert_eq!(Language::chosen(None, Some("ha, fr")), Hausa);
        assert_eq!(Language::chosen(None, Some("fr;q=0.7, ha;q=0.7")), French);
        assert_eq!(Language::chosen(None, Some("fr;q=0, ha;q=0.1")), Hausa);
        assert_eq!(Language::chosen(None, Some("fr;q=0")), English);
        assert_eq!(Language::chosen(None, Some("fr;q=junk, ha;q=0.2")), Hausa);
        assert_eq!(Language::chosen(None, Some("HA-ng ; q=1.0")), Hausa);
    }

    #[test]
    fn codes_and_places() {
        for (i, language) in Language::ALL.into_iter().enumerate() {
            assert_eq!(language.index(), i);
            assert_eq!(Language::from_tag(language.code()), Some(language));
        }
        assert_eq!(Language::from_tag("fra"), None);
    }
}
