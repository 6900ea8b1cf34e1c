//! The architecture invariants of `docs/architecture.md`, checked on the source: each layer
//! of `src/` imports only the layers it may (the engine no front end and no output layer,
//! nothing below the command line the command line), only the command line uses clap, and
//! no source file cites a file outside this repository.
//!
//! An import is a `crate::<module>` path outside comments and outside the file's unit-test
//! module (a test may build its input with a front end).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and the top-level modules it may import, lowest layer
/// first. The table is `docs/architecture.md`'s "Layers"; change both together.
const LAYERS: &[(&str, &[&str])] = &[
    ("span", &[]),
    ("diagnostics", &["span"]),
    ("solver", &["span", "diagnostics"]),
    ("core_lang", &["span", "diagnostics"]),
    ("frontend", &["span", "diagnostics", "core_lang"]),
    ("lower", &["span", "diagnostics", "core_lang"]),
    ("vc", &["span", "diagnostics", "solver", "lower"]),
    (
        "engine",
        &["span", "diagnostics", "solver", "core_lang", "lower", "vc"],
    ),
    (
        "verifier",
        &[
            "span",
            "diagnostics",
            "solver",
            "core_lang",
            "frontend",
            "lower",
            "vc",
            "engine",
        ],
    ),
    ("exit_code", &[]),
    (
        "report",
        &[
            "span",
            "diagnostics",
            "solver",
            "core_lang",
            "engine",
            "exit_code",
        ],
    ),
    (
        "exchange",
        &[
            "span",
            "diagnostics",
            "solver",
            "core_lang",
            "frontend",
            "engine",
            "verifier",
        ],
    ),
    (
        "suite",
        &[
            "span",
            "diagnostics",
            "solver",
            "core_lang",
            "frontend",
            "engine",
            "verifier",
            "report",
            "exchange",
        ],
    ),
    (
        "cli",
        &[
            "span",
            "diagnostics",
            "solver",
            "core_lang",
            "frontend",
            "lower",
            "vc",
            "engine",
            "verifier",
            "report",
            "exchange",
            "suite",
            "exit_code",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a source file without comments and without its unit-test module.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a readable source file");
    without_comments(text.split("#[cfg(test)]").next().unwrap_or(""))
}

/// `text` with every `//` comment (doc comments included) cut off its line.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level module a file of `src/` belongs to (`None`: the crate root, `main.rs`).
fn layer_of(path: &Path) -> Option<String> {
    let relative = path.strip_prefix(src()).expect("a file under src/");
    let first = relative
        .components()
        .next()?
        .as_os_str()
        .to_str()?
        .to_string();
    let module = first.trim_end_matches(".rs").to_string();
    (module != "lib" && module != "main").then_some(module)
}

/// Every `crate::<module>` a piece of code names, and the `crate::{a, b}` groups.
fn imported_modules(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let before = code[..i].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `horef_si_crate::`, not ours
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            out.extend(
                inner
                    .split(',')
                    .filter_map(|item| first_segment(item.trim())),
            );
        } else if let Some(module) = first_segment(rest) {
            out.push(module);
        }
    }
    out
}

fn first_segment(path: &str) -> Option<String> {
    let name: String = path
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Every import of `src/` that its layer may not make: `(file, module)`.
fn forbidden_imports() -> Vec<(String, String)> {
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut found = Vec::new();
    for file in files {
        let Some(layer) = layer_of(&file) else {
            continue;
        };
        let may = allowed
            .get(layer.as_str())
            .unwrap_or_else(|| panic!("{} is in no layer of LAYERS", file.display()));
        for module in imported_modules(&code_of(&file)) {
            if module != layer && !may.contains(&module.as_str()) {
                found.push((file.display().to_string(), module));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn every_layer_imports_only_the_layers_below_it() {
    let found = forbidden_imports();
    assert!(
        found.is_empty(),
        "imports across the layers of docs/architecture.md: {found:#?}"
    );
}

#[test]
fn the_layer_check_sees_an_import() {
    let code =
        "use crate::engine::Options;\nuse crate::{cli, suite::Row};\nlet x = horef_si_crate::y;";
    assert_eq!(imported_modules(code), ["engine", "cli", "suite"]);
    let comment = without_comments("// use crate::cli;\n/// [`crate::suite`]\n");
    assert_eq!(imported_modules(&comment), Vec::<String>::new());
    let commented = code_of(&src().join("engine/mod.rs"));
    assert!(!commented.contains("//!"), "comments are left out");
}

#[test]
fn only_the_command_line_uses_clap() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let users: Vec<String> = files
        .iter()
        .filter(|f| layer_of(f).as_deref() != Some("cli"))
        .filter(|f| code_of(f).contains("clap"))
        .map(|f| f.display().to_string())
        .collect();
    assert!(users.is_empty(), "clap outside src/cli: {users:?}");
}

#[test]
fn no_source_file_cites_a_file_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "boogie_like/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    let citing: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).expect("a readable source file");
            text.contains("DESIGN.md") || text.contains("../shared")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        citing.is_empty(),
        "files citing outside the repository: {citing:?}"
    );
}
