//! The `<head>` every page shares, written once (`build/head.html`) rather than by hand in each
//! of `assets/*.html`. A page's own `<head>` holds only what is its own, one element a line:
//! its `<title>`, its description (`<meta>`) and any `<link>` go right after the charset and
//! the viewport, where the first bytes and link previews find them; a classic `<script>` (it
//! runs as the head is read) before the shared modules; its modules after them, as modules
//! run in the order they are written and every page's own runs after `i18n.js`. Included by
//! `build.rs`, which fills each page before its assets' names are hashed and it is worded.

/// The marks in `head.html` where a page's own elements go, each with the kind it takes.
const SLOTS: [(&str, Kind); 3] = [
    ("{title, meta, link}", Kind::Described),
    ("{script}", Kind::Classic),
    ("{script type=module}", Kind::Module),
];

/// Where a page's own element goes in the shared head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Described,
    Classic,
    Module,
}

fn kind(line: &str) -> Option<Kind> {
    if line.starts_with("<script type=\"module\"") {
        Some(Kind::Module)
    } else if line.starts_with("<script") {
        Some(Kind::Classic)
    } else if ["<title", "<meta", "<link"].iter().any(|tag| line.starts_with(tag)) {
        Some(Kind::Described)
    } else {
        None
    }
}

/// `page` (the file `name`) with the shared head `shared` (`head.html`'s text) written around
/// its own head's elements. A page whose head has anything else, or repeats a line of the
/// shared head, or has no `<title>`, fails the build, saying which.
pub fn fill(name: &str, page: &str, shared: &str) -> Result<String, String> {
    let fail = |what: &str| format!("assets/{name}: {what}");
    let open = page.find("<head>\n").ok_or_else(|| fail("no `<head>` on a line of its own"))?;
    let inside = open + "<head>\n".len();
    let close = page[inside..].find("</head>").ok_or_else(|| fail("no `</head>`"))? + inside;
    let mut own: Vec<(Kind, &str)> = Vec::new();
    for line in page[inside..close].lines().map(str::trim).filter(|line| !line.is_empty()) {
        let kind = kind(line).ok_or_else(|| {
            fail(&format!("{line:?}: a page's own head holds title, meta, link and script lines"))
        })?;
        if shared.lines().any(|shared| shared.trim() == line) {
            return Err(fail(&format!(
                "{line:?} is in every page's head already (build/head.html)"
            )));
        }
        own.push((kind, line));
    }
    if !own.iter().any(|(_, line)| line.starts_with("<title")) {
        return Err(fail("its head has no <title>"));
    }
    let mut head = String::new();
    let mut in_comment = false;
    for line in shared.lines() {
        // The file's comments say how it is used, to its reader, not to a browser.
        if in_comment || line.trim_start().starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        match SLOTS.iter().find(|(mark, _)| line.trim() == *mark) {
            Some((_, slot)) => {
                for (_, element) in own.iter().filter(|(kind, _)| kind == slot) {
                    head += element;
                    head.push('\n');
                }
            }
            None => {
                head += line;
                head.push('\n');
            }
        }
    }
    Ok(format!("{}{head}{}", &page[..inside], &page[close..]))
}

#[cfg(test)]
mod tests {
    use super::fill;

    const SHARED: &str = "<!-- How it is used,\n  over two lines. -->\n<meta charset=\"utf-8\">\n\
        {title, meta, link}\n<link rel=\"stylesheet\" href=\"/assets/style.css\">\n{script}\n\
        <script type=\"module\" src=\"/assets/i18n.js\"></script>\n{script type=module}\n";

    #[test]
    fn a_page_s_own_elements_go_in_their_places() {
        let page = "<!doctype html>\n<html lang=\"en\">\n<head>\n<title>T</title>\n\
            <meta name=\"description\" content=\"D\">\n<script src=\"/assets/early.js\"></script>\n\
            <script type=\"module\" src=\"/assets/page.js\"></script>\n</head>\n<body></body>\n";
        assert_eq!(
            fill("p.html", page, SHARED).unwrap(),
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>T</title>\n\
            <meta name=\"description\" content=\"D\">\n<link rel=\"stylesheet\" href=\"/assets/style.css\">\n\
            <script src=\"/assets/early.js\"></script>\n\
            <script type=\"module\" src=\"/assets/i18n.js\"></script>\n\
            <script type=\"module\" src=\"/assets/page.js\"></script>\n</head>\n<body></body>\n"
        );
        // A page with no scripts of its own: the marks leave nothing.
        let bare = fill("b.html", "<html>\n<head>\n<title>B</title>\n</head>\n", SHARED).unwrap();
        assert!(!bare.contains('{') && !bare.contains("How it is used"), "{bare}");
    }

    #[test]
    fn a_head_that_is_not_the_page_s_own_fails() {
        let head = |inside: &str| format!("<html>\n<head>\n<title>T</title>\n{inside}</head>\n");
        let twice = fill("p.html", &head("<meta charset=\"utf-8\">\n"), SHARED).unwrap_err();
        assert!(twice.contains("already"), "{twice}");
        let odd = fill("p.html", &head("<style>p {}</style>\n"), SHARED).unwrap_err();
        assert!(odd.contains("<style>"), "{odd}");
        let untitled = fill("p.html", "<html>\n<head>\n</head>\n", SHARED).unwrap_err();
        assert!(untitled.contains("<title>"), "{untitled}");
    }
}
