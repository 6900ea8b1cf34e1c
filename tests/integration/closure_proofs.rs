//! The programs of tests/proofs whose closures are built, stored and composed (issue 33's
//! closure class: `closure_*.horef` at K = 15, `closure_*.ml` at K = 8), each with its
//! expectation in its first line: `(* expect: verified *)` (VERIFIED with the proof
//! engines given 60 s), `(* expect: bug *)` (a failing mutant: a BUG confirmed by
//! replay, never VERIFIED) or `(* expect: safe *)` (safe, not proved reliably yet: never
//! a BUG). Every VERIFIED is checked here against the interpreter's runs on `proofs::`'
//! grid of inputs, and every mutant must fail on it; the `.horef` ones are also in
//! `proofs::`' exhaustive-run and comparison-flipping mutant checks. Needs `z3` on PATH.

use crate::common;
use horef_si::core_lang::interp::{self, Outcome, RunConfig, Value};
use horef_si::frontend::load_core;
use std::path::{Path, PathBuf};
use std::process::Command;

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proofs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/proofs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with("closure_") && (name.ends_with(".horef") || name.ends_with(".ml"))
        })
        .collect();
    files.sort();
    files
}

/// `verify --format json` on `file` at the depth of its language, the proof engines given
/// `wait` seconds.
fn verdict(file: &Path, wait: &str) -> serde_json::Value {
    let depth = if file.extension().is_some_and(|e| e == "ml") {
        "8"
    } else {
        "15"
    };
    let out = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args(["verify", "--max-depth", depth, "--format", "json"])
        .args(["--proof-budget", "60", "--proof-wait", wait])
        .arg(file)
        .output()
        .expect("run horef-si");
    serde_json::from_slice(&out.stdout).expect("json")
}

/// An input on `proofs::`' grid on which the program fails within depth 8, if any.
fn failing_input(file: &Path) -> Option<Vec<Value>> {
    let checked = load_core(file).expect("load");
    let config = RunConfig {
        max_depth: 8,
        fuel: 200_000,
        trace: false,
        memory_limit_mib: None,
    };
    crate::proofs::grid(&checked).into_iter().find(|inputs| {
        matches!(
            interp::run(&checked.program, &checked.info, inputs, &config).outcome,
            Outcome::Failure { .. }
        )
    })
}

#[test]
fn closure_programs_meet_their_expectations() {
    let (mut verified, mut bugs) = (0, 0);
    for file in programs() {
        let expect = common::expectation(&file, "(* expect: ");
        // A program not proved yet is checked to be no BUG: the search says so without
        // a wait for a proof.
        let wait = if expect.starts_with("safe") {
            "0"
        } else {
            "60"
        };
        let json = verdict(&file, wait);
        let got = json["verdict"].as_str().unwrap_or("");
        let name = file.display();
        if expect.starts_with("verified") {
            assert_eq!(got, "verified", "{name}: {json}");
            if let Some(inputs) = failing_input(&file) {
                panic!("{name} is VERIFIED but the run on {inputs:?} fails");
            }
            verified += 1;
        } else if expect.starts_with("bug") {
            assert_eq!(
                (got, json["confirmed"] == true),
                ("bug", true),
                "{name}: {json}"
            );
            assert!(
                failing_input(&file).is_some(),
                "{name}: a mutant that never fails"
            );
            bugs += 1;
        } else {
            assert_ne!(got, "bug", "{name}: {json}");
        }
    }
    assert!(
        verified >= 5 && bugs >= 7,
        "{verified} verified, {bugs} bugs"
    );
}
