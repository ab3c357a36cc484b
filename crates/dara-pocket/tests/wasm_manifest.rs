//! The committed WebAssembly (`crates/dara-server/assets/engine.wasm` and `table.wasm`) is built
//! from the sources in the tree: their manifest's hash of the inputs matches theirs. The rustup
//! toolchain cannot build for wasm32 here, so the modules are a committed build output
//! (scripts/build-wasm, with Debian's rustc-web); this test is what keeps them from going stale
//! unnoticed. `.ci/run` also rebuilds them (`scripts/build-wasm --check`) and holds the engine to
//! the native build's moves.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

const RUN: &str = "run scripts/build-wasm (it needs Debian's rustc-web: apt-get install rustc-web cargo-web rust-web-src lld) and commit engine.wasm, table.wasm and wasm.manifest";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The manifest's lines that start with `key `, without it.
fn values<'a>(manifest: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("{key} ");
    manifest.lines().filter_map(|l| l.strip_prefix(prefix.as_str())).collect()
}

fn manifest() -> String {
    let path = root().join("crates/dara-server/assets/wasm.manifest");
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}: {RUN}", path.display()))
}

/// Every file under `dir`, as paths from the root.
fn files_under(dir: &Path, found: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let relative = dir.join(path.file_name().unwrap());
        if path.is_dir() {
            files_under(&relative, found);
        } else {
            found.push(relative.to_str().expect("paths are UTF-8").to_owned());
        }
    }
}

/// The input files as scripts/build-wasm lists them: a file as it is, a crate's folder as its
/// Cargo.toml and everything under its src/; in byte order.
fn input_files(inputs: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for input in inputs {
        if root().join(input).is_dir() {
            files.push(format!("{input}/Cargo.toml"));
            files_under(&Path::new(input).join("src"), &mut files);
        } else {
            files.push((*input).to_owned());
        }
    }
    files.sort();
    files
}

#[test]
fn the_committed_module_is_built_from_these_sources() {
    let manifest = manifest();
    let inputs = values(&manifest, "input");
    assert!(!inputs.is_empty(), "the manifest names no inputs: {RUN}");
    let now: BTreeMap<String, String> = input_files(&inputs)
        .into_iter()
        .map(|file| {
            let bytes = fs::read(root().join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            (file, sha256(&bytes))
        })
        .collect();
    // `<sha256>  <path>` lines, as sha256sum writes them: their hash is the inputs' hash.
    let listing: String = now.iter().map(|(file, hash)| format!("{hash}  {file}\n")).collect();
    if values(&manifest, "inputs") == [sha256(listing.as_bytes())] {
        return;
    }
    let then: BTreeMap<&str, &str> = values(&manifest, "file")
        .iter()
        .filter_map(|line| line.split_once("  ").map(|(hash, file)| (file, hash)))
        .collect();
    let mut changed: Vec<&str> = now
        .iter()
        .filter(|(f, h)| then.get(f.as_str()) != Some(&h.as_str()))
        .map(|(f, _)| f.as_str())
        .collect();
    changed.extend(then.keys().filter(|f| !now.contains_key(**f)));
    panic!(
        "the modules were built from other sources (changed, added or removed: {changed:?}): {RUN}"
    );
}

#[test]
fn the_modules_are_the_ones_the_manifest_describes() {
    let manifest = manifest();
    // `wasm <name> <sha256> <what it weighs, how it was built>`, a line a module.
    let described: BTreeMap<&str, &str> = values(&manifest, "wasm")
        .iter()
        .filter_map(|line| {
            let mut words = line.split(' ');
            Some((words.next()?, words.next()?))
        })
        .collect();
    assert_eq!(described.keys().copied().collect::<Vec<_>>(), ["engine.wasm", "table.wasm"]);
    for (name, hash) in described {
        let path = root().join("crates/dara-server/assets").join(name);
        let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: {RUN}", path.display()));
        assert_eq!(sha256(&bytes), hash, "{name} is not the module the manifest describes: {RUN}");
    }
}

/// The crates a crate's `[dependencies]` name by path, as folders from the root.
fn path_dependencies(krate: &str) -> Vec<String> {
    let toml = fs::read_to_string(root().join(krate).join("Cargo.toml")).unwrap();
    let mut section = "";
    let mut found = Vec::new();
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]" {
            if let Some(rest) = line.split("path = \"").nth(1) {
                let path = &rest[..rest.find('"').unwrap()];
                let name = path.strip_prefix("../").expect("crates stand side by side");
                found.push(format!("crates/{name}"));
            }
        }
    }
    found
}

#[test]
fn the_inputs_hold_every_crate_the_module_stands_on() {
    let manifest = manifest();
    let inputs = values(&manifest, "input");
    let mut todo = vec!["crates/dara-pocket".to_owned()];
    let mut seen = Vec::new();
    while let Some(krate) = todo.pop() {
        if seen.contains(&krate) {
            continue;
        }
        assert!(
            inputs.contains(&krate.as_str()),
            "{krate} is not among scripts/build-wasm's INPUTS"
        );
        todo.extend(path_dependencies(&krate));
        seen.push(krate);
    }
    assert!(seen.len() >= 4, "{seen:?}");
    for file in ["Cargo.toml", "Cargo.lock", "scripts/build-wasm"] {
        assert!(inputs.contains(&file), "{file} is not among scripts/build-wasm's INPUTS");
    }
}
