//! The checks that need the shared BMC-2 suite (`../shared/bmc2-suite`, beside this checkout
//! in the project's workspace): every program checks (issue 2), the `mc91` runs at the depths
//! worked out by hand, the whole manifest `expected.csv` at k = 1..15 (issue 5), and the
//! differential and soundness cross-checks of `differential.rs` over the suite's programs,
//! and a witness for every bug of the suite that replays (`exchange.rs`, issue 14).
//!
//! In a clone without that folder every check here is reported as **ignored**, with the
//! reason, never as passed. libtest decides `#[ignore]` at compile time, so this file runs
//! under `libtest-mimic` (`harness = false` in Cargo.toml), which decides at run time and
//! takes the usual test arguments (`--nocapture`, `--ignored`, filters, ...).

mod common;
#[allow(dead_code)] // its own `#[test]`s and their helpers are compiled out here
#[path = "integration/differential.rs"]
mod differential;
// `exchange.rs` declares `mod common;` as a test file of its own; included here it loads
// `tests/common` a second time, which is harmless (nothing crosses between the copies).
#[allow(dead_code, clippy::duplicate_mod)]
#[path = "integration/exchange.rs"]
mod exchange;

use common::{CliRun, assert_all_pass, horef_si, suite};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

/// Where the shared suite is looked for.
fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bmc2-suite")
}

fn main() {
    let args = Arguments::from_args();
    let present = suite_dir().join("expected.csv").is_file();
    if !present {
        eprintln!(
            "note: {} is absent: the checks of tests/shared_suite.rs are ignored, not run",
            suite_dir().display()
        );
    }
    let trials = checks()
        .into_iter()
        .map(|(name, check)| {
            Trial::test(name, move || {
                check();
                Ok::<(), Failed>(())
            })
            .with_kind("needs ../shared/bmc2-suite")
            .with_ignored_flag(!present)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

type Check = (&'static str, fn());

fn checks() -> Vec<Check> {
    vec![
        ("every_bmc2_program_checks", every_bmc2_program_checks),
        (
            "mc91_e_fails_at_depth_1_on_line_10",
            mc91_e_fails_at_depth_1_on_line_10,
        ),
        ("mc91_e_at_depth_0_is_cut_off", mc91_e_at_depth_0_is_cut_off),
        ("mc91_of_5_needs_depth_19", mc91_of_5_needs_depth_19),
        (
            "the_bmc2_suite_meets_its_manifest",
            the_bmc2_suite_meets_its_manifest,
        ),
        ("lowering_preserves_outcomes", || {
            differential::lowering_agrees_on(&suite_programs())
        }),
        ("verdicts_agree_with_exhaustive_runs", || {
            differential::verdicts_agree_on(&suite_programs())
        }),
        ("every_bug_has_a_witness_that_replays", || {
            exchange::every_bug_has_a_witness_that_replays(&suite_dir())
        }),
    ]
}

/// The suite's programs (`*.txt`), sorted.
fn suite_programs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    differential::collect(&suite_dir(), "txt", &mut files);
    files.sort();
    files
}

fn every_bmc2_program_checks() {
    let programs = suite_programs();
    assert!(!programs.is_empty(), "no programs in the suite");
    for path in programs {
        let run = horef_si(["check", &path.display().to_string()]);
        assert_eq!(run.code, Some(0), "{}: {run:#?}", path.display());
    }
}

fn mc91(name: &str, n: &str, depth: &str) -> CliRun {
    let path = suite_dir().join(name).display().to_string();
    horef_si([
        "run",
        &path,
        "--arg",
        &format!("n={n}"),
        "--max-depth",
        depth,
    ])
}

fn mc91_e_fails_at_depth_1_on_line_10() {
    let run = mc91("mc91-e.txt", "102", "1");
    assert_eq!(run.code, Some(10), "{run:#?}");
    // mc91(102) = 92 (one call, at depth 1), so `assert ((mc91 n) == 91)` on line 10 fails.
    assert_eq!(
        run.stdout.lines().next(),
        Some("failure at 10:3 (assert)"),
        "{run:#?}"
    );
}

fn mc91_e_at_depth_0_is_cut_off() {
    let run = mc91("mc91-e.txt", "102", "0");
    assert_eq!(run.code, Some(0), "{run:#?}");
    // Main's body runs at depth 0; the call `mc91 n` (10:12) would run at depth 1.
    assert_eq!(
        run.stdout.trim(),
        "cut off at depth 0: the call to `mc91` at 10:12 would run at depth 1",
    );
}

fn mc91_of_5_needs_depth_19() {
    // mc91 x (x <= 100) calls mc91 (x + 11), then mc91 on the result, each one level
    // deeper. From mc91 5 at depth 1 the inner calls climb to mc91 93 at depth 9 and
    // mc91 104 at depth 10; the outer calls then walk mc91 94 (depth 10), 95, ..., 99
    // (depth 15), whose inner call mc91 110 (line 6, column 11) would run at depth 16.
    let run = mc91("mc91.txt", "5", "15");
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(
        run.stdout.trim(),
        "cut off at depth 15: the call to `mc91` at 6:11 would run at depth 16",
    );
    // The deepest call of mc91 5 runs at depth 19 (mc91 91 at depth 8 needs ten more
    // levels): with K = 19 the run returns and the assertion holds; with 18 it is cut off.
    let run = mc91("mc91.txt", "5", "19");
    assert_eq!((run.code, run.stdout.trim()), (Some(0), "value: skip"));
    let run = mc91("mc91.txt", "5", "18");
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(run.stdout.starts_with("cut off at depth 18:"), "{run:#?}");
}

/// The shared suite with its manifest: every row, k = 1..15 (issue 5's bar).
fn the_bmc2_suite_meets_its_manifest() {
    let run = suite(&[&suite_dir().display().to_string(), "--timeout", "60"]);
    assert_all_pass(&run, "../shared/bmc2-suite (k = 1..15)", 15 * 30);
}
