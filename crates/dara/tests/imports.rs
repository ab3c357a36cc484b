//! The files of `src/` depend on each other without a circle: if `a.rs` names `crate::b` (in a
//! `use` or inline), `b.rs` may not name `a`, directly or through other files. A circle would
//! mean two concepts that cannot be understood apart, so they would belong in one file.
//!
//! References through the crate root (`crate::Position`) count as references to the file that
//! defines the name, read from `lib.rs`'s `pub use` lines. Comments are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The text of a file without its comments (line comments and doc comments).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string literal on the line is kept: count the quotes before it.
            Some(i) if line[..i].matches('"').count() % 2 == 0 => &line[..i],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first path segment of every item `crate::` names in `text`: `crate::a::B`,
/// `crate::{a, b::{C, D}, E}` give `a`, and `a`, `b`, `E`.
fn crate_references(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        // `$crate::` in a macro is the same crate, seen from outside; `dara_crate::` is not ours.
        let before = rest[..i].chars().last();
        let part_of_a_name = before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if !part_of_a_name {
            if let Some(group) = after.strip_prefix('{') {
                let mut depth = 0;
                let mut item_start = true;
                let mut name = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => item_start = true,
                        c if item_start && (c.is_alphanumeric() || c == '_') => {
                            name.push(c);
                            continue;
                        }
                        _ => {}
                    }
                    // The item's first segment ends at the first other character.
                    if !name.is_empty() {
                        names.push(std::mem::take(&mut name));
                        item_start = c == ',';
                    }
                }
                if !name.is_empty() {
                    names.push(name);
                }
            } else {
                let name: String =
                    after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                names.push(name);
            }
        }
        rest = after;
    }
    names
}

/// The names `lib.rs` re-exports, and the file each comes from. A `pub use` may span lines.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for statement in lib.split(';') {
        // Whatever comes before it in the statement (a `#[cfg]`, the previous line's end) is not
        // part of the path.
        let Some((_, path)) = statement.split_once("pub use ") else {
            continue;
        };
        let (module, items) = path.split_once("::").expect("pub use module::items");
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            map.insert(item.to_string(), module.to_string());
        }
    }
    map
}

/// The files each file of `src/` names, by module name (`lib.rs` left out: it is the root).
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = without_comments(&fs::read_to_string(src.join("lib.rs")).unwrap());
    let reexported = reexports(&lib);
    let mut modules = BTreeMap::new();
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let module = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.extension().is_some_and(|e| e == "rs") && module != "lib" {
            modules.insert(module, without_comments(&fs::read_to_string(&path).unwrap()));
        }
    }
    let mut deps = BTreeMap::new();
    for (module, text) in &modules {
        let mut named = BTreeSet::new();
        for name in crate_references(text) {
            let target = if modules.contains_key(&name) {
                name
            } else if let Some(target) = reexported.get(&name) {
                target.clone()
            } else {
                panic!("{module}.rs names crate::{name}, which is neither a file nor re-exported");
            };
            if &target != module {
                named.insert(target);
            }
        }
        deps.insert(module.clone(), named);
    }
    deps
}

/// A circle of files, if there is one, as the list of files around it.
fn find_circle(deps: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        deps: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|m| m == module) {
            let mut circle = path[i..].to_vec();
            circle.push(module.to_string());
            return Some(circle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in deps.get(module).into_iter().flatten() {
            if let Some(circle) = visit(next, deps, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    deps.keys().find_map(|m| visit(m, deps, &mut Vec::new(), &mut done))
}

#[test]
fn the_files_of_the_rules_crate_import_each_other_without_a_circle() {
    let deps = dependencies();
    assert!(deps.len() > 10, "the source files were not found: {deps:?}");
    if let Some(circle) = find_circle(&deps) {
        panic!("import circle: {}", circle.join(" -> "));
    }
}

#[test]
fn the_check_reads_grouped_and_inline_references() {
    let text = "use crate::{a, b::{C, D}, E};\nfn f() { crate::f::g(); x.crate_y(); }";
    assert_eq!(crate_references(text), ["a", "b", "E", "f"]);
    let mut deps = BTreeMap::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a")] {
        deps.insert(from.to_string(), BTreeSet::from([to.to_string()]));
    }
    assert_eq!(find_circle(&deps).unwrap(), ["a", "b", "c", "a"]);
    deps.remove("c");
    assert_eq!(find_circle(&deps), None);
    let lib = "mod a;\npub use a::{\n    B,\n    C,\n};\n#[cfg(x)]\npub use d::E;\n";
    let names: Vec<_> = reexports(lib).into_iter().collect();
    assert_eq!(names, [("B", "a"), ("C", "a"), ("E", "d")].map(|(n, m)| (n.into(), m.into())));
}
