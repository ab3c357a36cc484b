//! Lists the files the server serves from `assets/`: the pages (`*.html`, which have routes of
//! their own) and everything else under `/assets/`, each with its content type, so that a new
//! stylesheet, module or image is served by adding it to the folder. Each is compressed here,
//! once, with brotli and gzip, and given an ETag (its hash), so that a request costs neither:
//! `served.rs` picks what the browser accepts, and `pages.rs` includes the lists. Every file but
//! the pages is served under a content-hashed name, with the names the pages and modules refer
//! to rewritten (`build/hashed_urls.rs`, `src/hashed.rs`). The pages share one `<head>`,
//! written into each first (`build/head.rs`).

use std::path::{Path, PathBuf};
use std::{env, fs};

#[path = "src/compress.rs"]
mod compress;
#[path = "build/css.rs"]
mod css;
#[path = "src/hashed.rs"]
mod hashed;
#[path = "build/hashed_urls.rs"]
mod hashed_urls;
#[path = "build/head.rs"]
mod head;
// The server's own list of languages, so that the build words a copy for each and no other;
// the build uses only the list and the codes of what the server does with it.
#[path = "src/lang.rs"]
#[allow(dead_code)]
mod lang;
#[path = "build/words.rs"]
mod words;

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("assets");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    // A folder: cargo looks at every file in it.
    println!("cargo:rerun-if-changed=assets");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("assets/ is read")
        .map(|entry| entry.expect("assets/ is read").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    println!("cargo:rerun-if-changed=build/head.html");
    let shared_head = fs::read_to_string(Path::new(&dir).join("../build/head.html"))
        .expect("build/head.html is read");
    let rewritten = hashed_urls::rewrite(&out, &files, |name, page| {
        head::fill(name, page, &shared_head).unwrap_or_else(|error| panic!("{error}"))
    });
    // Each asset's name in the folder and its hashed name (`served.rs` keeps the former).
    let mut urls = Vec::new();
    let catalogues = catalogues(&dir);
    let (mut assets, mut pages) = (String::from("&[\n"), String::from("&[\n"));
    // What the service worker keeps, and the hash of it all, which names its release.
    let (mut kept, mut release) = (Vec::new(), blake3::Hasher::new());
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).expect("asset names are UTF-8");
        if name.starts_with('.') {
            continue;
        }
        let content_type = match path.extension().and_then(|e| e.to_str()) {
            // The modules' manifest records how `engine.wasm` and `table.wasm` were built
            // (scripts/build-wasm), for the repository, not the browser.
            Some("manifest") => continue,
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("svg") => "image/svg+xml",
            Some("png") => "image/png",
            Some("wasm") => "application/wasm",
            Some("webmanifest") => "application/manifest+json",
            _ => panic!("assets/{name}: no content type for it; add one in build.rs"),
        };
        let (url, path, bytes) = rewritten.get(name);
        release.update(bytes);
        if name.ends_with(".html") {
            pages += &page_in_each_language(&out, name, content_type, bytes, &catalogues);
        } else {
            assets += &served(&out, name, content_type, path, bytes);
            // The app's PNG icons are for the browser's installing, never for a page offline.
            if content_type != "image/png" {
                kept.push(url.to_owned());
            }
            urls.push((name.to_owned(), url.to_owned()));
        }
    }
    assets += "]\n";
    pages += "]\n";
    hashed_urls::write_table(&out, &urls);
    fs::write(out.join("assets.rs"), assets).expect("OUT_DIR is writable");
    fs::write(out.join("pages.rs"), pages).expect("OUT_DIR is writable");

    // The service worker: its script (offline/sw.js) after the release's hash and the assets
    // to keep, served at /sw.js.
    println!("cargo:rerun-if-changed=offline");
    let script = fs::read_to_string(Path::new(&dir).join("../offline/sw.js"))
        .expect("offline/sw.js is read");
    release.update(script.as_bytes());
    let version = &release.finalize().to_hex()[..16];
    let names: Vec<String> = kept.iter().map(|name| format!("{name:?}")).collect();
    let codes: Vec<String> =
        lang::Language::ALL.iter().map(|language| format!("{:?}", language.code())).collect();
    let worker = format!(
        "// Written by the server's build (build.rs) from offline/sw.js.\nconst VERSION = {version:?};\nconst ASSETS = [{}];\nconst LANGUAGE_CODES = [{}];\n\n{script}",
        names.join(", "),
        codes.join(", ")
    );
    let path = out.join("sw.js");
    fs::write(&path, &worker).expect("OUT_DIR is writable");
    let entry = served(&out, "sw.js", "text/javascript; charset=utf-8", &path, worker.as_bytes());
    fs::write(out.join("service_worker.rs"), entry.trim().trim_end_matches(','))
        .expect("OUT_DIR is writable");
}

/// Every language's catalogue (with the arena pages' words), in the order of `Language::ALL`; a build that cannot read one
/// stops here and says why.
fn catalogues(dir: &Path) -> Vec<words::Catalogue> {
    lang::Language::ALL
        .iter()
        .map(|language| {
            // The language's catalogue and the arena pages' own (`arena-<code>.js`), which
            // only those pages load; a key in both is an error.
            let mut words = words::Catalogue::new();
            for name in
                [format!("lang-{}.js", language.code()), format!("arena-{}.js", language.code())]
            {
                let text = fs::read_to_string(dir.join(&name)).expect("the catalogues are read");
                for (key, text) in
                    words::catalogue(&name, &text).unwrap_or_else(|error| panic!("{error}"))
                {
                    assert!(
                        words.insert(key.clone(), text).is_none(),
                        "{key:?} is in two catalogues"
                    );
                }
            }
            words
        })
        .collect()
}

/// A page as the server serves it: its name and its copy in each language (`Language::ALL`'s
/// order), each worded here and compressed once, as Rust source for `pages.rs`.
fn page_in_each_language(
    out: &Path,
    name: &str,
    content_type: &str,
    bytes: &[u8],
    catalogues: &[words::Catalogue],
) -> String {
    let page = std::str::from_utf8(bytes).expect("pages are UTF-8");
    let mut entry = format!("    ({name:?}, [\n");
    for (language, words) in lang::Language::ALL.iter().zip(catalogues) {
        let code = language.code();
        let worded =
            words::render(name, page, code, words).unwrap_or_else(|error| panic!("{error}"));
        let file = format!("{code}.{name}");
        let path = out.join(&file);
        fs::write(&path, &worded).expect("OUT_DIR is writable");
        entry += &served(out, &file, content_type, &path, worded.as_bytes());
    }
    entry + "    ]),\n"
}

/// One file as `served.rs` serves it, compressed into `out`: a `Served` value, as Rust source.
fn served(out: &Path, name: &str, content_type: &str, path: &Path, bytes: &[u8]) -> String {
    let brotli = out.join(format!("{name}.br"));
    fs::write(&brotli, compress::brotli(bytes)).expect("OUT_DIR is writable");
    let gzip = out.join(format!("{name}.gz"));
    fs::write(&gzip, compress::gzip(bytes)).expect("OUT_DIR is writable");
    let etags = compress::etags(bytes);
    format!(
        "    crate::served::Served {{ name: {name:?}, content_type: {content_type:?}, \
         identity: include_bytes!({path:?}), brotli: include_bytes!({brotli:?}), \
         gzip: include_bytes!({gzip:?}), etags: {etags:?} }},\n"
    )
}
