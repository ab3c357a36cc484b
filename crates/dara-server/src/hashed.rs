//! Content-hashed asset names: `game.js` is served as `game.0123456789ab.js`, a name whose bytes
//! never change, so that a browser may keep it a year without asking again (`immutable`), and a
//! new release is new names.
//!
//! Each file has its own hash (not one folder per release), so that a release that changes one
//! module leaves every other file's name, and the copies browsers hold, as they were. The price
//! is that a file's hash must cover the names it loads: `build.rs` rewrites the references in
//! the pages and modules (`'./board.js'` → `'./board.<hash>.js'`, `/assets/style.css`,
//! `fetchModule('engine.wasm')`), in the order of what loads what, so that a module is hashed
//! after everything it names. A module's relative imports keep working as they are written:
//! they name a file beside it, only by its hashed name. The files in `assets/` stay as written
//! (the tests under Node import them directly); only the served copies are rewritten.
//!
//! `build.rs` includes this file (for [`hash_all`]); the server uses it to read a name back
//! ([`plain_name`]).

/// Hex digits of a name's hash: 48 bits, which no two versions of one file will share.
pub const HASH_LEN: usize = 12;

/// `name` with the hash of `bytes` before its extension: `game.js` → `game.0123456789ab.js`.
#[allow(dead_code)] // build.rs's
pub fn hashed_name(name: &str, bytes: &[u8]) -> String {
    let hash = blake3::hash(bytes).to_hex();
    let hash = &hash.as_str()[..HASH_LEN];
    match name.rsplit_once('.') {
        Some((stem, extension)) => format!("{stem}.{hash}.{extension}"),
        None => format!("{name}.{hash}"),
    }
}

/// The file a hashed name is a version of (`game.0123456789ab.js` → `game.js`), whatever its
/// hash; `None` for a name with no hash in it.
#[allow(dead_code)] // the server's
pub fn plain_name(file: &str) -> Option<String> {
    let (rest, extension) = file.rsplit_once('.')?;
    let (stem, hash) = rest.rsplit_once('.')?;
    let hex =
        hash.len() == HASH_LEN && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    (hex && !stem.is_empty()).then(|| format!("{stem}.{extension}"))
}

/// A character of a file name as the assets are named.
fn in_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// Where in `text` one of `names` is referred to, each as (start, end, name): a relative URL
/// in quotes (`'./x.js'`, `"./x.js"`, `` `./x.js` ``), an absolute one (`/assets/x.js`), or the
/// bare name in quotes (`fetchModule('engine.wasm')`, which resolves it beside itself). Prose
/// that mentions a name (in backticks, or unquoted) is not a reference and is left as written.
fn references<'a>(text: &str, names: &[&'a str]) -> Vec<(usize, usize, &'a str)> {
    let mut found = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (in_name(c), start) {
            (true, None) => start = Some(i),
            (false, Some(from)) => {
                start = None;
                let Some(name) = names.iter().find(|name| **name == &text[from..i]) else {
                    continue;
                };
                let before = &text[..from];
                let quoted = |q: char| {
                    c == q && (before.ends_with(q) || before.ends_with(&format!("{q}./")))
                };
                let absolute = before.ends_with("/assets/");
                if absolute || quoted('\'') || quoted('"') || (c == '`' && before.ends_with("`./"))
                {
                    found.push((from, i, *name));
                }
            }
            _ => {}
        }
    }
    found
}

/// A name a module makes at run time, which no build can rewrite (`` `./lang-${lang}.js` ``): a
/// relative URL in a template that starts a name and then takes a value.
fn made_at_run_time(text: &str) -> Option<&str> {
    text.match_indices("`./").find_map(|(i, _)| {
        let rest = &text[i + 3..];
        let name = &rest[..rest.find(|c| !in_name(c)).unwrap_or(rest.len())];
        (!name.is_empty() && rest[name.len()..].starts_with("${"))
            .then(|| &text[i..i + 3 + name.len() + 2])
    })
}

/// Whether a file is text whose references are rewritten (the WebAssembly is not).
fn is_text(name: &str) -> bool {
    [".js", ".css", ".html", ".svg", ".webmanifest"].iter().any(|e| name.ends_with(e))
}

/// Every file of `assets/` (name, bytes) as served: its name (the pages keep theirs, which
/// their routes serve; every other file's is hashed) and its bytes with the names it refers to
/// rewritten to theirs. Panics on what cannot be hashed: two modules that name each other (the
/// first's hash would cover the second's, which covers the first's), or a name made at run time.
#[allow(dead_code)] // build.rs's
pub fn hash_all(files: &[(String, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    let mut done: Vec<Option<(String, Vec<u8>)>> = vec![None; files.len()];
    // Depth first, each file after what it names; `open` is the path down, to find a circle.
    fn visit(
        at: usize,
        files: &[(String, Vec<u8>)],
        names: &[&str],
        open: &mut Vec<usize>,
        done: &mut Vec<Option<(String, Vec<u8>)>>,
    ) {
        if done[at].is_some() {
            return;
        }
        let (name, bytes) = &files[at];
        if let Some(from) = open.iter().position(|&i| i == at) {
            let circle: Vec<&str> = open[from..].iter().map(|&i| names[i]).collect();
            panic!("assets/{name}: a circle of references ({circle:?}); hashed names need none");
        }
        let bytes = if is_text(name) {
            let text = std::str::from_utf8(bytes).expect("a text asset is UTF-8");
            if let Some(made) = made_at_run_time(text) {
                panic!("assets/{name}: `{made}` makes a name at run time, which cannot be hashed: write each name whole");
            }
            let others: Vec<&str> = names.iter().copied().filter(|n| n != name).collect();
            let found = references(text, &others);
            open.push(at);
            let mut rewritten = String::with_capacity(text.len() + found.len() * (HASH_LEN + 1));
            let mut from = 0;
            for (start, end, referred) in found {
                let index = names.iter().position(|n| *n == referred).expect("found among names");
                visit(index, files, names, open, done);
                rewritten += &text[from..start];
                rewritten += &done[index].as_ref().expect("visited").0;
                from = end;
            }
            rewritten += &text[from..];
            open.pop();
            rewritten.into_bytes()
        } else {
            bytes.clone()
        };
        let served = if name.ends_with(".html") { name.clone() } else { hashed_name(name, &bytes) };
        done[at] = Some((served, bytes));
    }
    let mut open = Vec::new();
    for at in 0..files.len() {
        visit(at, files, &names, &mut open, &mut done);
    }
    done.into_iter().map(|file| file.expect("every file visited")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> (String, Vec<u8>) {
        (name.to_owned(), text.as_bytes().to_vec())
    }

    fn text(served: &(String, Vec<u8>)) -> &str {
        std::str::from_utf8(&served.1).unwrap()
    }

    #[test]
    fn a_hashed_name_reads_back_and_only_a_hashed_one() {
        let name = hashed_name("engine-worker.js", b"x");
        assert_eq!(name.len(), "engine-worker.js".len() + HASH_LEN + 1);
        assert_eq!(plain_name(&name).as_deref(), Some("engine-worker.js"));
        assert_eq!(plain_name("engine-worker.js"), None);
        assert_eq!(plain_name("manifest.webmanifest"), None);
        assert_eq!(plain_name("game.0123456789AB.js"), None, "lower-case hex only");
        assert_eq!(plain_name("game.0123.js"), None);
        assert_eq!(plain_name(".0123456789ab.js"), None);
        assert_ne!(hashed_name("game.js", b"x"), hashed_name("game.js", b"y"));
    }

    #[test]
    fn references_are_rewritten_and_prose_is_not() {
        let files = [
            file("a.js", "import { b } from './b.js';\nconst w = new URL(\"./w.js\", import.meta.url);\nfetchModule('m.wasm'); // `b.js` and b.js, './bb.js'\n"),
            file("b.js", "export const b = 1;"),
            file("w.js", "import { b } from './b.js';"),
            file("m.wasm", "\0asm"),
            file("p.html", "<link href=\"/assets/s.css\"><script src=\"/assets/a.js\"></script>"),
            file("s.css", "body {}"),
        ];
        let served = hash_all(&files);
        let name = |i: usize| served[i].0.as_str();
        assert_eq!(name(4), "p.html", "a page keeps its name");
        assert_eq!(plain_name(name(0)).as_deref(), Some("a.js"));
        let a = text(&served[0]);
        assert!(a.starts_with(&format!("import {{ b }} from './{}';", name(1))), "{a}");
        assert!(a.contains(&format!("new URL(\"./{}\"", name(2))), "{a}");
        assert!(a.contains(&format!("fetchModule('{}')", name(3))), "{a}");
        assert!(a.ends_with("// `b.js` and b.js, './bb.js'\n"), "{a}");
        assert_eq!(served[3].1, b"\0asm");
        let page = text(&served[4]);
        assert_eq!(
            page,
            format!(
                "<link href=\"/assets/{}\"><script src=\"/assets/{}\"></script>",
                name(5),
                name(0)
            )
        );
        // A module's name covers the names it loads: b changed, a's name changes with it.
        let mut changed = files.clone();
        changed[1] = file("b.js", "export const b = 2;");
        let again = hash_all(&changed);
        assert_ne!(again[1].0, served[1].0);
        assert_ne!(again[0].0, served[0].0);
        assert_eq!(again[5].0, served[5].0, "what does not load b keeps its name");
    }

    #[test]
    #[should_panic(expected = "a circle of references")]
    fn two_modules_that_import_each_other_cannot_be_hashed() {
        hash_all(&[file("a.js", "import './b.js';"), file("b.js", "import './a.js';")]);
    }

    #[test]
    #[should_panic(expected = "makes a name at run time")]
    fn a_name_made_at_run_time_cannot_be_hashed() {
        hash_all(&[file("i18n.js", "await import(`./lang-${lang}.js`);")]);
    }

    #[test]
    fn a_whole_name_in_a_template_is_rewritten() {
        let served =
            hash_all(&[file("a.js", "fetch(`./${name}`); import(`./b.js`);"), file("b.js", "")]);
        assert_eq!(text(&served[0]), format!("fetch(`./${{name}}`); import(`./{}`);", served[1].0));
    }
}
