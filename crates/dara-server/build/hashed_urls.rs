//! The build's side of content-hashed asset names (`src/hashed.rs` says why each file has its
//! own hash): reads `assets/`, has `hash_all` rewrite and name every file, writes the rewritten
//! copies into `OUT_DIR` to be included, and writes the table the server answers names from.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::css;
use crate::hashed::hash_all;

/// Every file of `assets/` as served: by its name in the folder, its name under `/assets/`
/// (a page's own), the file its bytes are included from, and those bytes.
#[derive(Debug)]
pub struct Rewritten(BTreeMap<String, (String, PathBuf, Vec<u8>)>);

/// Reads `files` (the folder's, hidden ones left out), each page as `page` makes it of its
/// text (given its name) and a stylesheet without its comments (`build/css.rs`), before the
/// names it refers to are read; rewrites and names them. A file the rewriting changed is
/// written to `out/hashed/`, to be included from there.
pub fn rewrite(out: &Path, files: &[PathBuf], page: impl Fn(&str, &str) -> String) -> Rewritten {
    // Each file's name, its bytes, and the file on disk that holds those bytes, if one does (a
    // page's are its file's with the shared head written in).
    let read: Vec<(String, Vec<u8>, Option<&PathBuf>)> = files
        .iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_str().expect("asset names are UTF-8");
            let bytes = fs::read(path).expect("assets/ is read");
            let (bytes, source) = if name.ends_with(".html") {
                let text = std::str::from_utf8(&bytes).expect("pages are UTF-8");
                (page(name, text).into_bytes(), None)
            } else if name.ends_with(".css") {
                let text = std::str::from_utf8(&bytes).expect("stylesheets are UTF-8");
                let served = css::without_comments(text)
                    .unwrap_or_else(|error| panic!("assets/{name}: {error}"));
                (served.into_bytes(), None)
            } else {
                (bytes, Some(path))
            };
            (!name.starts_with('.')).then(|| (name.to_owned(), bytes, source))
        })
        .collect();
    let named: Vec<(String, Vec<u8>)> =
        read.iter().map(|(name, bytes, _)| (name.clone(), bytes.clone())).collect();
    let dir = out.join("hashed");
    fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    let mut served = BTreeMap::new();
    for ((name, bytes, source), (url, rewritten)) in read.iter().zip(hash_all(&named)) {
        let path = if let Some(source) = source.filter(|_| rewritten == *bytes) {
            source.clone()
        } else {
            let path = dir.join(name);
            fs::write(&path, &rewritten).expect("OUT_DIR is writable");
            path
        };
        served.insert(name.clone(), (url, path, rewritten));
    }
    Rewritten(served)
}

impl Rewritten {
    /// The file `name` of `assets/`: its name under `/assets/`, the file to include, its bytes.
    pub fn get(&self, name: &str) -> (&str, &Path, &[u8]) {
        let (url, path, bytes) = &self.0[name];
        (url, path, bytes)
    }
}

/// `out/hashed.rs`: each asset's name in `assets/` beside its hashed name, as Rust source
/// (`pages.rs` includes it).
pub fn write_table(out: &Path, assets: &[(String, String)]) {
    let mut table = String::from("&[\n");
    for (name, url) in assets {
        table += &format!("    ({name:?}, {url:?}),\n");
    }
    table += "]\n";
    fs::write(out.join("hashed.rs"), table).expect("OUT_DIR is writable");
}
