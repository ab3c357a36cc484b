//! The pages in each language, worded at build time as `assets/i18n.js` words them in the
//! browser, so that the server sends a page in its reader's language from the first byte and
//! the script finds nothing to change. Included by `build.rs` (kept apart from its listing of
//! the assets, which changes for other reasons).
//!
//! The same rules as `translate()` in i18n.js: `data-i18n="key"` sets the element's text,
//! `data-i18n-html="key"` its markup (the catalogue's own), `data-i18n-attr="a:key;b:key"` its
//! attributes; `<html lang>` names the language. Anything this reader does not expect fails
//! the build with the file and what it found, rather than sending a page half worded.

use std::collections::HashMap;

/// A catalogue, `assets/lang-<code>.js`: key to words.
pub type Catalogue = HashMap<String, String>;

/// Reads a catalogue as the files are written: `//` comment lines, `export default {`, one
/// `"key": "words",` a line (JSON strings), `};`. Any other line is an error.
pub fn catalogue(name: &str, text: &str) -> Result<Catalogue, String> {
    let mut words = Catalogue::new();
    let (mut opened, mut closed) = (false, false);
    for (n, line) in text.lines().enumerate() {
        let at = |what: &str| format!("{name}:{}: {what}: {line:?}", n + 1);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        if closed {
            return Err(at("text after the catalogue's end"));
        }
        if !opened {
            if trimmed != "export default {" {
                return Err(at("expected `export default {`"));
            }
            opened = true;
            continue;
        }
        if trimmed == "};" {
            closed = true;
            continue;
        }
        let (key, rest) = string(trimmed).map_err(|e| at(&e))?;
        let rest = rest.trim_start().strip_prefix(':').ok_or_else(|| at("expected `:`"))?;
        let (value, rest) = string(rest.trim_start()).map_err(|e| at(&e))?;
        if !matches!(rest.trim(), "," | "") {
            return Err(at("expected `,` after the words"));
        }
        if words.insert(key, value).is_some() {
            return Err(at("a key given twice"));
        }
    }
    if !closed {
        return Err(format!("{name}: no `}};` closes the catalogue"));
    }
    Ok(words)
}

/// A JSON string at the start of `text`, and what follows it.
fn string(text: &str) -> Result<(String, &str), String> {
    let body = text.strip_prefix('"').ok_or("expected a string in double quotes")?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &body[i + 1..])),
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some('/') => out.push('/'),
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = (0..4).filter_map(|_| chars.next().map(|(_, c)| c)).collect();
                    let code = u32::from_str_radix(&hex, 16)
                        .map_err(|_| format!("a bad escape \\u{hex}"))?;
                    // Pairs of surrogates are not used in the catalogues: refused, not guessed.
                    out.push(char::from_u32(code).ok_or(format!("\\u{hex} is not a character"))?);
                }
                other => return Err(format!("an escape this reader does not know: \\{other:?}")),
            },
            c => out.push(c),
        }
    }
    Err("a string with no closing quote".into())
}

/// Text as an element's content (what `textContent =` makes).
fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Text as a double-quoted attribute's value (what `setAttribute` makes).
fn escape_attr(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;")
}

/// Elements with no content, which cannot carry `data-i18n` or `data-i18n-html`.
const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"];

/// One start tag: its name, and each attribute's name and value's place in the page.
struct Tag {
    name: String,
    /// The attribute's name, and where its value's text lies (empty range for none).
    attrs: Vec<(String, std::ops::Range<usize>)>,
    /// Just past the `>`.
    end: usize,
}

/// Reads the start tag at `at` (a `<` followed by a letter).
fn start_tag(page: &str, at: usize) -> Result<Tag, String> {
    let b = page.as_bytes();
    let mut i = at + 1;
    let word = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && !b[*i].is_ascii_whitespace() && !matches!(b[*i], b'>' | b'=' | b'/') {
            *i += 1;
        }
        page[s..*i].to_ascii_lowercase()
    };
    let name = word(&mut i);
    let mut attrs = Vec::new();
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        match b.get(i) {
            None => return Err(format!("a tag <{name} that never ends")),
            Some(b'>') => return Ok(Tag { name, attrs, end: i + 1 }),
            _ => {}
        }
        let attr = word(&mut i);
        if b.get(i) != Some(&b'=') {
            attrs.push((attr, i..i));
            continue;
        }
        i += 1;
        let value = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let close = page[i + 1..].find(q as char).ok_or("an unclosed attribute")? + i + 1;
                let range = i + 1..close;
                i = close + 1;
                range
            }
            _ => {
                let s = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                    i += 1;
                }
                s..i
            }
        };
        attrs.push((attr, value));
    }
}

/// Where the content of the element `tag` (which began at `from`) ends: the `</name>` that
/// closes it, counting elements of the same name opened inside it.
fn content_end(page: &str, tag: &Tag) -> Result<usize, String> {
    let lower = page.to_ascii_lowercase();
    let (open, close) = (format!("<{}", tag.name), format!("</{}", tag.name));
    let (mut depth, mut i) = (0usize, tag.end);
    loop {
        let next_close = lower[i..].find(&close).map(|p| p + i);
        let next_open = lower[i..].find(&open).map(|p| p + i).filter(|&p| {
            // `<a` must not match `<abbr`.
            lower
                .as_bytes()
                .get(p + open.len())
                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'>')
        });
        match (next_open, next_close) {
            (Some(o), Some(c)) if o < c => {
                depth += 1;
                i = o + open.len();
            }
            (_, Some(c)) if depth == 0 => return Ok(c),
            (_, Some(c)) => {
                depth -= 1;
                i = c + close.len();
            }
            (_, None) => return Err(format!("<{}> is never closed", tag.name)),
        }
    }
}

/// `page` (the file `name`) worded from `words`, in the language `code`.
pub fn render(name: &str, page: &str, code: &str, words: &Catalogue) -> Result<String, String> {
    let fail = |what: String| format!("assets/{name} in {code}: {what}");
    let word = |key: &str| {
        words.get(key).ok_or_else(|| fail(format!("no words for {key:?} in lang-{code}.js")))
    };
    let mut out = String::with_capacity(page.len());
    let mut at = 0;
    let mut saw_html = false;
    while let Some(found) = page[at..].find('<') {
        let lt = at + found;
        out.push_str(&page[at..lt]);
        let rest = &page[lt..];
        if rest.starts_with("<!--") {
            let end = rest.find("-->").ok_or_else(|| fail("an unclosed comment".into()))? + lt + 3;
            out.push_str(&page[lt..end]);
            at = end;
            continue;
        }
        if !rest[1..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            out.push('<');
            at = lt + 1;
            continue;
        }
        let tag = start_tag(page, lt).map_err(fail)?;
        let attr = |n: &str| tag.attrs.iter().find(|(a, _)| a == n).map(|(_, r)| &page[r.clone()]);
        // Each attribute's new value, where one is set.
        let mut set: Vec<(String, String)> = Vec::new();
        if tag.name == "html" {
            saw_html = true;
            set.push(("lang".into(), code.into()));
        }
        if let Some(pairs) = attr("data-i18n-attr") {
            for pair in pairs.split(';') {
                let (a, key) = pair
                    .split_once(':')
                    .ok_or_else(|| fail(format!("data-i18n-attr {pairs:?} is not `attr:key;…`")))?;
                set.push((a.to_owned(), escape_attr(word(key)?)));
            }
        }
        // The start tag, with the values set replaced or added.
        let mut cursor = lt;
        for (a, range) in &tag.attrs {
            if let Some((_, value)) = set.iter().find(|(n, _)| n == a) {
                if range.is_empty() || !matches!(page.as_bytes()[range.start - 1], b'"') {
                    return Err(fail(format!(
                        "<{} {a}> is set, so its value must be in \"…\"",
                        tag.name
                    )));
                }
                out.push_str(&page[cursor..range.start]);
                out.push_str(value);
                cursor = range.end;
            }
        }
        let body_end = tag.end - 1;
        out.push_str(&page[cursor..body_end]);
        for (a, value) in &set {
            if !tag.attrs.iter().any(|(n, _)| n == a) {
                out.push_str(&format!(" {a}=\"{value}\""));
            }
        }
        out.push('>');
        at = tag.end;
        let content = match (attr("data-i18n"), attr("data-i18n-html")) {
            (Some(key), None) => Some(escape_text(word(key)?)),
            (None, Some(key)) => Some(word(key)?.clone()),
            (None, None) => None,
            (Some(_), Some(_)) => {
                return Err(fail(format!("<{}> has both data-i18n and data-i18n-html", tag.name)))
            }
        };
        if let Some(content) = content {
            if VOID.contains(&tag.name.as_str()) {
                return Err(fail(format!("<{}> has no content to word", tag.name)));
            }
            let end = content_end(page, &tag).map_err(fail)?;
            out.push_str(&content);
            at = end;
        } else if matches!(tag.name.as_str(), "script" | "style") {
            // Their text is not markup: copied as it is, to its end tag.
            let end = content_end(page, &tag).map_err(fail)?;
            out.push_str(&page[at..end]);
            at = end;
        }
    }
    out.push_str(&page[at..]);
    if !saw_html {
        return Err(fail("no <html> tag to name the language on".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(pairs: &[(&str, &str)]) -> Catalogue {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn text_markup_and_attributes_are_worded_as_the_script_words_them() {
        let page = "<!doctype html>\n<html lang=\"en\"><title data-i18n=\"t\">Old</title>\
            <p data-i18n-html=\"h\">Old <a href=\"/\">link</a></p>\
            <div data-i18n=\"d\"><div>inner</div> tail</div>\
            <button aria-label=\"Old\" data-i18n-attr=\"aria-label:a;title:b\">«</button>\
            <!-- <p data-i18n=\"none\"> -->";
        let w = words(&[
            ("t", "Neuf & <beau>"),
            ("h", "Le <a href=\"/\">lien</a>"),
            ("d", "D"),
            ("a", "A \"q\""),
            ("b", "B"),
        ]);
        let out = render("x.html", page, "fr", &w).unwrap();
        assert_eq!(
            out,
            "<!doctype html>\n<html lang=\"fr\"><title data-i18n=\"t\">Neuf &amp; &lt;beau&gt;</title>\
            <p data-i18n-html=\"h\">Le <a href=\"/\">lien</a></p>\
            <div data-i18n=\"d\">D</div>\
            <button aria-label=\"A &quot;q&quot;\" data-i18n-attr=\"aria-label:a;title:b\" title=\"B\">«</button>\
            <!-- <p data-i18n=\"none\"> -->"
        );
    }

    #[test]
    fn a_missing_key_or_an_odd_catalogue_fails() {
        let err =
            render("x.html", "<html><p data-i18n=\"k\">x</p>", "ha", &words(&[])).unwrap_err();
        assert!(err.contains("\"k\"") && err.contains("lang-ha.js"), "{err}");
        assert!(
            catalogue("c", "export default {\n  \"a\": \"b\\u00e9\\\"\",\n};\n").unwrap()["a"]
                == "bé\""
        );
        assert!(catalogue("c", "export default {\n  a: \"b\",\n};").is_err());
        assert!(catalogue("c", "export default {\n  \"a\": \"b\",\n").is_err());
        assert!(catalogue("c", "export default {\n  \"a\": \"b\" + x,\n};").is_err());
    }
}
