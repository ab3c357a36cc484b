//! Lists the files the server serves from `assets/`: the pages (`*.html`, which have routes of
//! their own) and everything else under `/assets/`, each with its content type, so that a new
//! stylesheet, module or image is served by adding it to the folder. Each is compressed here,
//! once, with brotli and gzip, and given an ETag (its hash), so that a request costs neither:
//! `served.rs` picks what the browser accepts, and `pages.rs` includes the lists. Every file but
//! the pages is served under a content-hashed name, with the names the pages and modules refer
//! to rewritten (`build/hashed_urls.rs`, `src/hashed.rs`).

use std::path::{Path, PathBuf};
use std::{env, fs};

#[path = "src/compress.rs"]
mod compress;
#[path = "src/hashed.rs"]
mod hashed;
#[path = "build/hashed_urls.rs"]
mod hashed_urls;

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
    let rewritten = hashed_urls::rewrite(&out, &files);
    // Each asset's name in the folder and its hashed name (`served.rs` keeps the former).
    let mut urls = Vec::new();
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
            Some("wasm") => "application/wasm",
            Some("webmanifest") => "application/manifest+json",
            _ => panic!("assets/{name}: no content type for it; add one in build.rs"),
        };
        let (url, path, bytes) = rewritten.get(name);
        release.update(bytes);
        let entry = served(&out, name, content_type, path, bytes);
        if name.ends_with(".html") {
            pages += &entry;
        } else {
            assets += &entry;
            kept.push(url.to_owned());
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
    let worker = format!(
        "// Written by the server's build (build.rs) from offline/sw.js.\nconst VERSION = {version:?};\nconst ASSETS = [{}];\n\n{script}",
        names.join(", ")
    );
    let path = out.join("sw.js");
    fs::write(&path, &worker).expect("OUT_DIR is writable");
    let entry = served(&out, "sw.js", "text/javascript; charset=utf-8", &path, worker.as_bytes());
    fs::write(out.join("service_worker.rs"), entry.trim().trim_end_matches(','))
        .expect("OUT_DIR is writable");
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
