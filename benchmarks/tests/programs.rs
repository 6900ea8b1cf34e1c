//! The benchmark programs and the generated large programs: every one parses and
//! type-checks and carries a well-formed expectation; every program comes in a safe and a
//! buggy variant; the generator is deterministic and its committed output is up to date.

use horef_bench::expect::from_header;
use horef_bench::generate::{Options, generate, load_blocks};
use horef_si::suite::expect::Expectation;
use std::path::{Path, PathBuf};

const PROGRAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/programs");
const GENERATED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/generated");

fn horef_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "horef"))
        .collect();
    files.sort();
    files
}

fn expectation(path: &Path) -> Expectation {
    let text = std::fs::read_to_string(path).expect("readable program");
    match from_header(&text) {
        Ok(Some(e)) => e,
        Ok(None) => panic!("{}: no `(* expect: ... *)` header", path.display()),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

#[test]
fn every_program_parses_type_checks_and_has_an_expectation() {
    let files: Vec<PathBuf> = horef_files(PROGRAMS)
        .into_iter()
        .chain(horef_files(GENERATED))
        .collect();
    assert!(
        files.len() >= 50,
        "expected the programs and the generated programs"
    );
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            horef_si::frontend::load_core(path)
                .err()
                .map(|e| e.render())
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for path in &files {
        expectation(path);
    }
}

#[test]
fn programs_come_in_safe_and_buggy_pairs() {
    let files = horef_files(PROGRAMS);
    let mut pairs = 0;
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let buggy = stem.ends_with("-e");
        let is_bug = matches!(expectation(path), Expectation::BugWithin { .. });
        assert_eq!(
            buggy, is_bug,
            "{stem}: a `-e` program and only it expects a bug"
        );
        if !buggy {
            let twin = path.with_file_name(format!("{stem}-e.horef"));
            assert!(
                twin.exists(),
                "{stem} has no buggy variant {}",
                twin.display()
            );
            pairs += 1;
        }
    }
    assert!(
        pairs * 2 == files.len(),
        "every buggy program has a safe twin"
    );
    assert!(
        files.len() >= 40,
        "at least 40 programs, found {}",
        files.len()
    );
}

#[test]
fn the_generator_is_deterministic_and_its_output_is_committed() {
    let blocks = load_blocks(Path::new(PROGRAMS)).expect("building blocks");
    let first = generate(&blocks, &Options::default()).expect("generated");
    let again = load_blocks(Path::new(PROGRAMS)).expect("building blocks");
    let second = generate(&again, &Options::default()).expect("generated");
    assert_eq!(first, second, "two runs of the generator differ");
    for program in &first {
        let path = Path::new(GENERATED).join(&program.file_name);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == program.text,
            "{} is stale: run `cargo run -p horef-bench --release --bin generate`",
            path.display()
        );
    }
}

#[test]
fn generated_programs_have_the_expected_sizes_and_claims() {
    for size in [100usize, 200, 400, 1000, 4000] {
        for (suffix, buggy) in [("", false), ("-e", true)] {
            let path = Path::new(GENERATED).join(format!("gen-{size}{suffix}.horef"));
            let text = std::fs::read_to_string(&path).expect("generated program");
            let lines = text.lines().count();
            assert!(
                (size..size + size / 10 + 20).contains(&lines),
                "{}: {lines} lines",
                path.display()
            );
            let expect = expectation(&path);
            assert_eq!(
                matches!(expect, Expectation::BugWithin { depth: 3 }),
                buggy,
                "{}",
                path.display()
            );
        }
    }
}

#[test]
fn the_generate_binary_writes_the_same_bytes_twice() {
    let run = |out: &Path| {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_generate"))
            .args(["--programs", PROGRAMS, "--out"])
            .arg(out)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("generate runs");
        assert!(status.success());
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run(a.path());
    run(b.path());
    let names = horef_files(a.path().to_str().unwrap());
    assert_eq!(names.len(), 10);
    for path in names {
        let twin = b.path().join(path.file_name().unwrap());
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&twin).unwrap(),
            "{}",
            path.display()
        );
    }
}
