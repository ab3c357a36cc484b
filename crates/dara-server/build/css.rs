//! The stylesheet as served: without its comments, which say why a rule is there for whoever
//! reads `assets/style.css`, and which no browser needs. They were a third of its bytes
//! compressed (2.9 KB of 8), on every page's first visit, against each page's 60 KB budget
//! (browser-tests/tests/weight.test.js). Included by `build.rs`.

/// `css` with every `/* … */` left out, and the lines a comment filled alone with it; strings
/// (`content: "/*"`) are kept as written. An unclosed comment is an error, as it would hide the
/// rest of the sheet from the browser.
pub fn without_comments(css: &str) -> Result<String, String> {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    let mut quote: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        if let Some(q) = quote {
            // Inside a string: only its closing quote (not an escaped one) ends it.
            let len = if c == '\\' {
                rest.chars().take(2).map(char::len_utf8).sum()
            } else {
                c.len_utf8()
            };
            out.push_str(&rest[..len]);
            if c == q {
                quote = None;
            }
            rest = &rest[len..];
        } else if rest.starts_with("/*") {
            let end = rest[2..].find("*/").ok_or("a comment that is never closed")?;
            rest = &rest[2 + end + 2..];
            // A comment on lines of its own goes with its line: no blank line is left.
            let line_start = out.rfind('\n').map_or(0, |n| n + 1);
            let line_end = rest.find('\n').map_or(rest.len(), |n| n + 1);
            if out[line_start..].trim().is_empty() && rest[..line_end].trim().is_empty() {
                out.truncate(line_start);
                rest = &rest[line_end..];
            }
        } else {
            if c == '"' || c == '\'' {
                quote = Some(c);
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if quote.is_some() {
        return Err("a string that is never closed".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_and_strings_stay() {
        let css = "/* The look. */\n:root { --a: 1; }\n  /* Two\n     lines. */\n.a::before { content: \"/* not */\"; } /* after */\n.b { content: '\\'/*'; }\n";
        assert_eq!(
            without_comments(css).unwrap(),
            ":root { --a: 1; }\n.a::before { content: \"/* not */\"; } \n.b { content: '\\'/*'; }\n"
        );
        assert!(without_comments(".a { } /* open").is_err());
    }
}
