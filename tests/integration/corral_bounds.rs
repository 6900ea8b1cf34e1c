//! CORRAL's bounds from the command line (issue 13): `--recursion-bound` and
//! `--stack-depth-bound` on HORef and Boogie programs, the verdict's wording, the JSON keys,
//! `suite`, and the usage errors. (The bound-dependent answers of our Boogie programs, in
//! both modes, are checked by `tests/integration/boogie_programs.rs`.)

use crate::common;

use common::{CliRun, horef_si, temp_program, tests_dir};

/// `count n` recurses n + 1 times: the assertion fails for n >= 5, which needs six
/// activations of `count` (depth 6).
const COUNT: &str = "Methods:
count (x:Int) :Int = if x <= 0 then 0 else 1 + count (x - 1);
Main (n:Int) :Unit: assert (count n < 5)
";

fn verify(path: &str, extra: &[&str]) -> CliRun {
    let run = horef_si(["verify", path].iter().chain(extra).copied());
    run.assert_no_panic("verify");
    run
}

fn first_line(run: &CliRun) -> &str {
    run.stdout.lines().next().unwrap_or("")
}

#[test]
fn the_recursion_bound_decides_a_horef_bug() {
    let file = temp_program(COUNT, "horef");
    let path = file.path().to_str().expect("utf-8 path");
    let below = verify(path, &["--recursion-bound", "5", "--max-depth", "20"]);
    assert_eq!(below.code, Some(0), "{below:#?}");
    assert_eq!(first_line(&below), "SAFE UP TO RECURSION BOUND 5, DEPTH 20");
    let at = verify(path, &["--recursion-bound", "6", "--max-depth", "20"]);
    assert_eq!(at.code, Some(10), "{at:#?}");
    assert_eq!(first_line(&at), "BUG");
    assert!(
        at.stdout
            .contains("within recursion bound 6, depth 20; confirmed"),
        "{}",
        at.stdout
    );
}

#[test]
fn the_stack_depth_bound_cuts_a_boogie_call_chain() {
    let chain = tests_dir().join("boogie/sdb_call_chain/program.bpl");
    let path = chain.to_str().expect("utf-8 path");
    let below = verify(path, &["--stack-depth-bound", "3"]);
    assert_eq!(below.code, Some(0), "{below:#?}");
    assert_eq!(
        first_line(&below),
        "SAFE UP TO STACK DEPTH BOUND 3, DEPTH 10"
    );
    let at = verify(path, &["--stack-depth-bound", "4", "--format", "json"]);
    assert_eq!(at.code, Some(10), "{at:#?}");
    let json: serde_json::Value = serde_json::from_str(&at.stdout).expect("json");
    assert_eq!(json["verdict"], "bug");
    assert_eq!(json["stack_depth_bound"], 4);
    assert_eq!(json["recursion_bound"], serde_json::Value::Null);
    let both = verify(
        path,
        &["--stack-depth-bound", "3", "--recursion-bound", "1"],
    );
    assert_eq!(
        first_line(&both),
        "SAFE UP TO RECURSION BOUND 1, STACK DEPTH BOUND 3, DEPTH 10"
    );
}

#[test]
fn bad_bounds_are_usage_errors() {
    let file = temp_program(COUNT, "horef");
    let path = file.path().to_str().expect("utf-8 path");
    for (flag, value) in [
        ("--recursion-bound", "0"),
        ("--recursion-bound", "-1"),
        ("--recursion-bound", "two"),
        ("--stack-depth-bound", "-1"),
    ] {
        let run = verify(path, &[&format!("{flag}={value}")]);
        assert_eq!(run.code, Some(1), "{flag} {value}: {run:#?}");
        assert!(run.stderr.contains(flag), "{flag} {value}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{flag} {value}: {}", run.stdout);
    }
}

#[test]
fn a_suite_runs_every_program_under_the_bounds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let program = dir.path().join("count.horef");
    std::fs::write(&program, format!("(* expect: safe up to 8 *)\n{COUNT}")).expect("write");
    let root = dir.path().to_str().expect("utf-8 path");
    let run = horef_si(["suite", root, "--recursion-bound", "3", "--no-cache"]);
    run.assert_no_panic("suite");
    // Without the bound the bug at depth 6 is within 8 and the row fails.
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(
        run.stdout.contains("SAFE UP TO RECURSION BOUND 3, DEPTH 8"),
        "{}",
        run.stdout
    );
    let unbounded = horef_si(["suite", root, "--no-cache"]);
    assert_ne!(unbounded.code, Some(0), "{unbounded:#?}");
}
