//! The Boogie programs of tests/proofs (issue 33: proofs for programs nobody tuned for),
//! each with its expectation in its first line: `// expect: verified` (VERIFIED with the
//! proof engines given 60 s, recursion bound 5), `// expect: bug` (a failing mutant: a
//! BUG confirmed by replay, never VERIFIED) or `// expect: safe` (no bug and, honestly,
//! no proof yet: never BUG, never VERIFIED without a reason to believe it). Needs `z3`
//! on PATH.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proofs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/proofs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bpl"))
        .collect();
    files.sort();
    files
}

/// The verdict and whether a bug was confirmed, from `verify --format json`.
fn verdict(file: &Path) -> (String, bool, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args(["verify", "--recursion-bound", "5", "--format", "json"])
        .args(["--proof-budget", "60", "--proof-wait", "60"])
        .arg(file)
        .output()
        .expect("run horef-si");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let verdict = json["verdict"].as_str().unwrap_or("").to_string();
    let confirmed = json["confirmed"] == true;
    (verdict, confirmed, json)
}

#[test]
fn boogie_proof_programs_meet_their_expectations() {
    let (mut verified, mut bugs) = (0, 0);
    for file in programs() {
        let expect = common::expectation(&file, "// expect: ");
        let (got, confirmed, json) = verdict(&file);
        let name = file.display();
        if expect.starts_with("verified") {
            assert_eq!(got, "verified", "{name}: {json}");
            verified += 1;
        } else if expect.starts_with("bug") {
            assert_eq!((got.as_str(), confirmed), ("bug", true), "{name}: {json}");
            bugs += 1;
        } else {
            assert!(got.starts_with("safe"), "{name}: {json}");
        }
    }
    assert!(
        verified >= 8 && bugs >= 8,
        "{verified} verified, {bugs} bugs"
    );
}

/// Loops over maps are proved by their invariants, checked one iteration at a time: the
/// proof names the loops it rests on.
#[test]
fn map_loops_are_proved_by_their_invariants() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proofs/array_copy.bpl");
    let (got, _, json) = verdict(&file);
    assert_eq!(got, "verified", "{json}");
    assert_eq!(json["proof"]["engine"], "loop invariants", "{json}");
    let summaries = json["proof"]["summaries"].as_array().expect("summaries");
    assert!(
        summaries.iter().any(|s| s["procedure"] == "copy#loop1"),
        "{json}"
    );
}
