//! The bars of issue 5, item 4: `horef-si suite` passes over our own programs
//! (`tests/programs`, `examples`), over `benchmarks/programs` and `benchmarks/generated`, and over the
//! shared BMC-2 suite (`../shared/bmc2-suite`, with its `expected.csv`) when that folder
//! exists. Each test prints the summary line (see it with `--nocapture`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Each suite already keeps both cores busy (`--jobs 2`): the tests here take turns, so
/// that one suite's timeouts are not spent waiting for another's solvers.
static ONE_SUITE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// How one `horef-si suite` run ended.
struct SuiteRun {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `horef-si suite` with `args` on two threads. Every verification has its own
/// `--timeout` (or is tiny), so the whole run is bounded without a watchdog here.
fn suite(args: &[&str]) -> SuiteRun {
    let _turn = ONE_SUITE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let output = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .arg("suite")
        .args(args)
        .args(["--jobs", "2"])
        .output()
        .expect("cannot start horef-si");
    SuiteRun {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Asserts that every run passed and that there were `at_least` runs; prints the summary.
fn assert_all_pass(run: &SuiteRun, what: &str, at_least: usize) {
    let last = run.stdout.lines().last().unwrap_or("");
    println!("{what}: {last}");
    assert_eq!(run.code, Some(0), "{what}:\n{}\n{}", run.stdout, run.stderr);
    let passed: usize = last
        .strip_suffix(" passed, 0 failed")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{what}: unexpected last line `{last}`"));
    assert!(passed >= at_least, "{what}: only {passed} runs");
}

/// The `.horef` files under `dir`, recursively.
fn horef_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            files.extend(horef_files(&path));
        } else if path.extension().is_some_and(|e| e == "horef") {
            files.push(path);
        }
    }
    files
}

#[test]
fn our_programs_meet_their_expectations() {
    let dirs = [root().join("tests/programs"), root().join("examples")];
    let count: usize = dirs.iter().map(|d| horef_files(d).len()).sum();
    let args: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_all_pass(&suite(&args), "tests/programs and examples", count);
}

#[test]
fn benchmark_programs_meet_their_expectations() {
    let dir = root().join("benchmarks/programs");
    let count = horef_files(&dir).len();
    assert!(count >= 40, "benchmarks/programs holds {count} programs");
    let run = suite(&[&dir.display().to_string(), "--timeout", "60"]);
    assert_all_pass(&run, "benchmarks/programs", count);
}

/// The generated large programs (100 to 4000 lines) at depth bound 3, where their bugs are:
/// deeper bounds on the 4000-line ones take minutes (benchmarks/RESULTS.md has the figures).
#[test]
fn generated_programs_meet_their_expectations_up_to_depth_3() {
    let dir = root().join("benchmarks/generated");
    let count = horef_files(&dir).len();
    assert!(count >= 10, "benchmarks/generated holds {count} programs");
    let run = suite(&[
        &dir.display().to_string(),
        "--max-depth",
        "3",
        "--timeout",
        "60",
    ]);
    assert_all_pass(&run, "benchmarks/generated (k = 3)", count);
}

/// The shared suite with its manifest: every row, k = 1..15 (issue 5's bar).
#[test]
fn the_bmc2_suite_meets_its_manifest() {
    let dir = root().join("../shared/bmc2-suite");
    if !dir.join("expected.csv").is_file() {
        println!("SKIPPED: {} does not exist", dir.display());
        return;
    }
    let run = suite(&[&dir.display().to_string(), "--timeout", "60"]);
    assert_all_pass(&run, "../shared/bmc2-suite (k = 1..15)", 15 * 30);
}
