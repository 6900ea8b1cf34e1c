//! Golden tests of the diagnostics for bad programs: `tests/errors/parse/*.horef` (the
//! parser rejects them) and `tests/errors/type/*.horef` (they parse, the checker rejects
//! them). The snapshots in `tests/snapshots/` are the rendered diagnostics, exactly as
//! `horef-si check` prints them.
//!
//! After an intended change of a message: `INSTA_UPDATE=always cargo test --test integration golden::`
//! (or `cargo insta review`), then read every changed snapshot before committing it.

use crate::common;

use horef_si::frontend::{LoadError, load_bytes};
use std::path::Path;

/// The rendered diagnostics for the file at `path`, which must not load.
fn rendered(path: &Path) -> (String, usize) {
    let name = path
        .strip_prefix(common::tests_dir())
        .expect("an error file under tests/")
        .display()
        .to_string();
    let bytes = std::fs::read(path).expect("readable error file");
    let Err(error) = load_bytes(&name, &bytes) else {
        panic!("{name} loads without error")
    };
    let LoadError::Invalid { diagnostics, .. } = &error else {
        panic!("{name}: {}", error.render())
    };
    let text = error.render();
    assert!(
        common::location_after(&text, &name).is_some(),
        "{name}: no `{name}:line:col` in\n{text}"
    );
    (text, diagnostics.len())
}

fn parses(path: &Path) -> bool {
    let text =
        String::from_utf8_lossy(&std::fs::read(path).expect("readable error file")).into_owned();
    horef_si::frontend::horef::parse_program(&text).is_ok()
}

/// Runs `check` with the snapshots kept in `tests/snapshots/` (beside `tests/errors/`).
fn in_snapshots(check: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.bind(check);
}

#[test]
fn parse_errors() {
    in_snapshots(|| {
        insta::glob!("../errors", "parse/*.horef", |path| {
            assert!(!parses(path), "{} parses", path.display());
            let (text, count) = rendered(path);
            assert_eq!(count, 1, "the parser stops at its first error");
            insta::assert_snapshot!(text);
        })
    });
}

#[test]
fn type_errors() {
    in_snapshots(|| {
        insta::glob!("../errors", "type/*.horef", |path| {
            assert!(parses(path), "{} does not parse", path.display());
            let (text, _) = rendered(path);
            insta::assert_snapshot!(text);
        })
    });
}

#[test]
fn several_type_errors_are_reported_together() {
    let path = common::tests_dir().join("errors/type/several_errors.horef");
    let (_, count) = rendered(&path);
    assert_eq!(count, 3);
}

#[test]
fn there_are_enough_error_files() {
    for kind in ["parse", "type"] {
        let dir = common::tests_dir().join("errors").join(kind);
        let count = std::fs::read_dir(&dir).expect("error files").count();
        assert!(count >= 12, "only {count} files in {}", dir.display());
    }
}
