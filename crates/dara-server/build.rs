//! Lists the files served under `/assets/`: every file in `assets/` but the pages (`*.html`,
//! which have routes of their own), each with its content type, so that a new stylesheet,
//! module or image is served by adding it to the folder. `pages.rs` includes the list.

use std::path::Path;
use std::{env, fs};

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("assets");
    // A folder: cargo looks at every file in it.
    println!("cargo:rerun-if-changed=assets");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("assets/ is read")
        .map(|entry| entry.expect("assets/ is read").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    let mut list = String::from("&[\n");
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).expect("asset names are UTF-8");
        if name.starts_with('.') {
            continue;
        }
        let content_type = match path.extension().and_then(|e| e.to_str()) {
            // The pages have routes of their own; the engine's manifest records how
            // `engine.wasm` was built (scripts/build-wasm), for the repository, not the browser.
            Some("html" | "manifest") => continue,
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("svg") => "image/svg+xml",
            Some("wasm") => "application/wasm",
            _ => panic!("assets/{name}: no content type for it; add one in build.rs"),
        };
        list += &format!("    ({name:?}, {content_type:?}, include_bytes!({path:?})),\n");
    }
    list += "]\n";
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets it")).join("assets.rs");
    fs::write(out, list).expect("OUT_DIR is writable");
}
