//! `horef-si suite` (issue 5): expectations in headers and manifests, the table and its
//! summary line, exit codes, `--jobs`, `--partition`, JSON and JUnit output. Every suite
//! here is a handful of tiny programs written to a temporary directory.

use crate::common;

use common::{CliRun, horef_si, location_after};
use horef_si::suite::partition::fnv1a;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A failure at depth 1 (`id` runs at depth 1): n = 3.
const BUG_AT_1: &str = "Methods:
id (x:Int) :Int = x;
Main (n:Int) :Unit: assert (id n != 3)
";

/// A failure at depth 2: n = 1 needs `count 1` (depth 1) and `count 0` (depth 2).
const BUG_AT_2: &str = "Methods:
count (x:Int) :Int = if x <= 0 then 0 else 1 + count (x - 1);
Main (n:Int) :Unit: assert (count n < 1)
";

/// A failure at depth 6 only (n = 5): safe up to depth 5.
const BUG_AT_6: &str = "Methods:
count (x:Int) :Int = if x <= 0 then 0 else 1 + count (x - 1);
Main (n:Int) :Unit: assert (count n < 5)
";

/// No failure at any depth, and the verifier proves it.
const SAFE: &str = "Methods:
id (x:Int) :Int = x;
Main (n:Int) :Unit: assert (id n == n)
";

/// A temporary directory of programs.
struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Dir {
        Dir(tempfile::tempdir().expect("temporary directory"))
    }

    /// Writes `header` then `body` to `name` (subdirectories are created).
    fn write(&self, name: &str, header: &str, body: &str) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create dirs");
        std::fs::write(&path, format!("{header}{body}")).expect("write program");
        path
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// The directory as a command-line argument.
    fn root(&self) -> String {
        self.path().display().to_string()
    }

    fn show(&self, name: &str) -> String {
        self.path().join(name).display().to_string()
    }
}

fn suite(args: &[&str]) -> CliRun {
    let run = horef_si(std::iter::once("suite").chain(args.iter().copied()));
    run.assert_no_panic("suite");
    run
}

fn last_line(run: &CliRun) -> &str {
    run.stdout.lines().last().unwrap_or("")
}

/// The table row of `file` at `depth`, split on runs of two or more spaces.
fn row<'a>(run: &'a CliRun, file: &str, depth: u32) -> Vec<&'a str> {
    run.stdout
        .lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
        })
        .find(|cells| cells.len() >= 6 && cells[1] == file && cells[2] == depth.to_string())
        .unwrap_or_else(|| panic!("no row for {file} at depth {depth}:\n{}", run.stdout))
}

/// The output without the time column (the only part that may differ between runs).
fn without_times(stdout: &str) -> String {
    stdout
        .lines()
        .map(|l| match l.strip_suffix(" s") {
            Some(rest) => rest.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.'),
            None => l.strip_suffix("time").unwrap_or(l),
        })
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_passing_suite_exits_0_and_ends_with_the_summary_line() {
    let dir = Dir::new();
    dir.write("bug1.horef", "(* expect: bug within 1 *)\n", BUG_AT_1);
    dir.write(
        "bug2.horef",
        "(* a comment first *) (* expect: bug within 2 *)\n",
        BUG_AT_2,
    );
    dir.write("safe.horef", "(* expect: safe up to 5 *)\n", BUG_AT_6);
    dir.write("sub/verified.horef", "(*expect:   verified*)\n", SAFE);
    let run = suite(&[&dir.root()]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(last_line(&run), "4 passed, 0 failed");
    assert!(
        run.stderr.is_empty(),
        "no progress bar when piped: {}",
        run.stderr
    );
    assert_eq!(
        row(&run, &dir.show("bug1.horef"), 10)[..5],
        ["ok", &dir.show("bug1.horef"), "10", "BUG", "BUG"]
    );
    // `safe up to 5` runs at min(10, 5): the bug at depth 6 is out of reach.
    let safe = row(&run, &dir.show("safe.horef"), 5);
    assert_eq!(
        safe[3..5],
        ["SAFE UP TO DEPTH 5 or VERIFIED", "SAFE UP TO DEPTH 5"]
    );
    let verified = row(&run, &dir.show("sub/verified.horef"), 10);
    assert_eq!(verified[3..5], ["VERIFIED", "VERIFIED"]);
}

#[test]
fn below_its_depth_a_bug_expectation_wants_safe_up_to_k() {
    let dir = Dir::new();
    let bug2 = dir.write("bug2.horef", "(* expect: bug within 2 *)\n", BUG_AT_2);
    let bug1 = dir.write("bug1.horef", "(* expect: bug within 1 *)\n", BUG_AT_1);
    let safe = dir.write("safe.horef", "(* expect: safe up to 5 *)\n", BUG_AT_6);
    let [bug2, bug1, safe] = [bug2, bug1, safe].map(|p| p.display().to_string());
    let run = suite(&[&bug2, &bug1, &safe, "--max-depth", "1"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    let shallow = row(&run, &bug2, 1);
    assert_eq!(shallow[3..5], ["SAFE UP TO DEPTH 1", "SAFE UP TO DEPTH 1"]);
    assert_eq!(row(&run, &bug1, 1)[4], "BUG");
    assert_eq!(row(&run, &safe, 1)[4], "SAFE UP TO DEPTH 1");
    let at_0 = suite(&[&bug1, "--max-depth", "0"]);
    assert_eq!(at_0.code, Some(0), "{at_0:#?}");
    assert_eq!(row(&at_0, &bug1, 0)[4], "SAFE UP TO DEPTH 0");
}

#[test]
fn each_kind_of_mismatch_fails_and_exits_10() {
    let dir = Dir::new();
    // VERIFIED claimed, but n = 3 fails.
    dir.write(
        "a_wrong_verified.horef",
        "(* expect: verified *)\n",
        BUG_AT_1,
    );
    // A bug claimed from depth 12 only, but it is found at K = 10.
    dir.write(
        "b_too_shallow.horef",
        "(* expect: bug within 12 *)\n",
        BUG_AT_1,
    );
    // A bug claimed from depth 12: at K = 10 VERIFIED is wrong, SAFE UP TO DEPTH 10 is right.
    dir.write(
        "c_verified_not_safe.horef",
        "(* expect: bug within 12 *)\n",
        SAFE,
    );
    // Safe up to 8 claimed, but depth 6 fails.
    dir.write(
        "d_safe_but_bug.horef",
        "(* expect: safe up to 8 *)\n",
        BUG_AT_6,
    );
    dir.write("e_ok.horef", "(* expect: bug within 6 *)\n", BUG_AT_6);
    let run = suite(&[&dir.root()]);
    assert_eq!(run.code, Some(10), "{run:#?}");
    assert_eq!(last_line(&run), "1 passed, 4 failed");
    let wrong = row(&run, &dir.show("a_wrong_verified.horef"), 10);
    assert_eq!(
        wrong[..5],
        [
            "FAIL",
            &dir.show("a_wrong_verified.horef"),
            "10",
            "VERIFIED",
            "BUG"
        ]
    );
    assert_eq!(
        row(&run, &dir.show("b_too_shallow.horef"), 10)[3..5],
        ["SAFE UP TO DEPTH 10", "BUG"]
    );
    let verified = row(&run, &dir.show("c_verified_not_safe.horef"), 10);
    assert_eq!(
        verified[..5],
        [
            "FAIL",
            &dir.show("c_verified_not_safe.horef"),
            "10",
            "SAFE UP TO DEPTH 10",
            "VERIFIED"
        ]
    );
    assert_eq!(
        row(&run, &dir.show("d_safe_but_bug.horef"), 8)[..1],
        ["FAIL"]
    );
    assert_eq!(row(&run, &dir.show("e_ok.horef"), 10)[..1], ["ok"]);
    let details = run
        .stdout
        .split("failures:")
        .nth(1)
        .expect("a failures section");
    assert!(
        details.contains("expected VERIFIED, got BUG (assert at 4:21 with n=3)"),
        "{details}"
    );
}

#[test]
fn a_program_without_expectation_or_that_does_not_load_is_a_failed_row() {
    let dir = Dir::new();
    dir.write("bare.horef", "(* just a comment *)\n", SAFE);
    dir.write(
        "broken.horef",
        "(* expect: verified *)\n",
        "Main () :Unit: assert (",
    );
    dir.write("good.horef", "(* expect: verified *)\n", SAFE);
    let run = suite(&[&dir.root()]);
    assert_eq!(run.code, Some(10), "{run:#?}");
    assert_eq!(last_line(&run), "1 passed, 2 failed");
    assert_eq!(
        row(&run, &dir.show("bare.horef"), 10)[..5],
        [
            "FAIL",
            &dir.show("bare.horef"),
            "10",
            "-",
            "ERROR: no expectation"
        ]
    );
    assert_eq!(
        row(&run, &dir.show("broken.horef"), 10)[4],
        "ERROR: does not load"
    );
    assert!(
        run.stdout.contains("no `(* expect: ... *)` in the header"),
        "{}",
        run.stdout
    );
    assert!(
        location_after(&run.stdout, &dir.show("broken.horef")).is_some(),
        "{}",
        run.stdout
    );
}

#[test]
fn malformed_headers_are_input_errors_at_file_line_col() {
    let cases = [
        ("(* ok *)\n  (* expect: bug within two *)\n", (2, 3)),
        ("(* expect: verified *)\n(* expect: verified *)\n", (2, 1)),
        ("(* expect: safe *)\n", (1, 1)),
    ];
    for (header, at) in cases {
        let dir = Dir::new();
        let file = dir.write("bad.horef", header, SAFE);
        dir.write("good.horef", "(* expect: verified *)\n", SAFE);
        let run = suite(&[&dir.root()]);
        assert_eq!(run.code, Some(2), "{header}: {run:#?}");
        assert_eq!(
            location_after(&run.stderr, &file.display().to_string()),
            Some(at),
            "{}",
            run.stderr
        );
        assert!(
            run.stdout.is_empty(),
            "a broken suite does not run: {}",
            run.stdout
        );
    }
    let dir = Dir::new();
    let late = dir.write(
        "late.horef",
        "",
        "Main () :Unit:\n  (* expect: verified *) skip\n",
    );
    let run = suite(&[&late.display().to_string()]);
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(
        run.stderr.contains("put it in the header"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_command_lines_exit_1_and_missing_paths_exit_2() {
    let dir = Dir::new();
    let file = dir.write("ok.horef", "(* expect: verified *)\n", SAFE);
    let file = file.display().to_string();
    let bad: [&[&str]; 10] = [
        &[],
        &[&file, "--jobs", "0"],
        &[&file, "--partition", "hash:0/2"],
        &[&file, "--partition", "hash:3/2"],
        &[&file, "--partition", "mod:1/2"],
        &[&file, "--format", "xml"],
        &[&file, "--timeout", "-1"],
        &[&file, "--timeout", "1e300"],
        &[&file, "--mode", "fast"],
        &[&file, "--max-depth", "deep"],
    ];
    for args in bad {
        assert_eq!(suite(args).code, Some(1), "{args:?}");
    }
    let missing = dir.path().join("nothing-here");
    let run = suite(&[&missing.display().to_string()]);
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
}

/// A suite of a dozen programs in two directories, one of them with a manifest.
fn mixed_suite() -> Dir {
    let dir = Dir::new();
    let bodies = [BUG_AT_1, BUG_AT_2, SAFE, BUG_AT_6];
    let headers = [
        "(* expect: bug within 1 *)\n",
        "(* expect: bug within 2 *)\n",
        "(* expect: verified *)\n",
        "(* expect: safe up to 5 *)\n",
    ];
    for i in 0..8 {
        let name = format!("{}/p{i}.horef", if i % 2 == 0 { "a" } else { "b/c" });
        dir.write(&name, headers[i % 4], bodies[i % 4]);
    }
    dir.write("a/wrong.horef", "(* expect: verified *)\n", BUG_AT_2);
    dir.write("m/one.txt", "", BUG_AT_1);
    dir.write("m/two.txt", "", BUG_AT_2);
    let manifest = "program,k,expect,source\none,0,no_bug,x\none,1,bug,x\none,2,bug,x\n\
                    two,1,no_bug,x\ntwo,2,bug,x\ntwo,3,bug,x\n";
    dir.write("m/expected.csv", "", manifest);
    dir
}

#[test]
fn jobs_do_not_change_the_table() {
    let dir = mixed_suite();
    let one = suite(&[&dir.root(), "--jobs", "1"]);
    let two = suite(&[&dir.root(), "--jobs", "2"]);
    let three = suite(&[&dir.root(), "--jobs", "3"]);
    assert_eq!(one.code, Some(10), "{one:#?}");
    assert_eq!(last_line(&one), "14 passed, 1 failed");
    assert_eq!(without_times(&one.stdout), without_times(&two.stdout));
    assert_eq!(without_times(&one.stdout), without_times(&three.stdout));
    assert_eq!((two.code, three.code), (Some(10), Some(10)));
}

/// The (file, depth) pairs of a run's table.
fn table_rows(run: &CliRun) -> Vec<(String, String)> {
    let cells = run
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>());
    cells
        .filter(|c| c.len() >= 4 && ["ok", "FAIL"].contains(&c[0]))
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect()
}

#[test]
fn two_partitions_cover_the_suite_exactly_once() {
    let dir = mixed_suite();
    let root = dir.root();
    let all = table_rows(&suite(&[&root]));
    let first = table_rows(&suite(&[&root, "--partition", "hash:1/2"]));
    let second = table_rows(&suite(&[&root, "--partition", "hash:2/2"]));
    assert_eq!(all.len(), 15);
    assert!(
        !first.is_empty() && !second.is_empty(),
        "{first:?} {second:?}"
    );
    let mut union: Vec<_> = first.iter().chain(&second).cloned().collect();
    union.sort();
    let mut expected = all.clone();
    expected.sort();
    assert_eq!(union, expected, "each run in exactly one partition");
    // The partition is FNV-1a of the path relative to the suite root, mod N: the same on
    // every machine. All runs of one program share it.
    let mut partition_of: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    for (part, rows) in [(0, &first), (1, &second)] {
        for (file, _) in rows.iter() {
            let relative = Path::new(file)
                .strip_prefix(dir.path())
                .expect("under the root");
            let key = relative.to_string_lossy().replace('\\', "/");
            assert_eq!(fnv1a(key.as_bytes()) % 2, part, "{key}");
            partition_of.entry(file).or_default().insert(part);
        }
    }
    assert!(partition_of.values().all(|parts| parts.len() == 1));
    let again = table_rows(&suite(&[&root, "--partition", "hash:1/2"]));
    assert_eq!(first, again);
}

#[test]
fn junit_output_is_well_formed_xml_with_one_testcase_per_run() {
    let dir = mixed_suite();
    dir.write("a/bare.horef", "(* <no> & \"expectation\" *)\n", SAFE);
    let run = suite(&[&dir.root(), "--format", "junit"]);
    assert_eq!(run.code, Some(10), "{run:#?}");
    assert_eq!(run.stderr.trim_end(), "14 passed, 2 failed");
    let doc = roxmltree::Document::parse(&run.stdout).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 1);
    let cases: Vec<_> = suites[0]
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 16);
    assert_eq!(suites[0].attribute("tests"), Some("16"));
    let failures = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
        .count();
    let errors = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("error")))
        .count();
    assert_eq!((failures, errors), (1, 1));
    assert_eq!(suites[0].attribute("failures"), Some("1"));
    assert_eq!(suites[0].attribute("errors"), Some("1"));
    for case in &cases {
        let time = case.attribute("time").expect("time").parse::<f64>();
        assert!(time.is_ok_and(|t| t >= 0.0), "{case:?}");
        assert!(
            case.attribute("classname")
                .is_some_and(|c| c.ends_with(".horef") || c.ends_with(".txt"))
        );
    }
}

#[test]
fn json_output_has_rows_and_totals() {
    let dir = mixed_suite();
    let run = suite(&[&dir.root(), "--format", "json"]);
    assert_eq!(run.code, Some(10), "{run:#?}");
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        (json["passed"].as_u64(), json["failed"].as_u64()),
        (Some(14), Some(1))
    );
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 15);
    let wrong = rows
        .iter()
        .find(|r| r["passed"] == false)
        .expect("a failed row");
    assert_eq!(wrong["expected"], "VERIFIED");
    assert_eq!(wrong["got"], "BUG");
    assert_eq!(wrong["verdict"], "bug");
    for key in ["file", "depth", "time_ms", "detail", "expected_key"] {
        assert!(wrong.get(key).is_some(), "missing {key}");
    }
    assert_eq!(run.stderr.trim_end(), "14 passed, 1 failed");
}

#[test]
fn a_manifest_directory_runs_its_rows() {
    let dir = Dir::new();
    dir.write("one.txt", "", BUG_AT_1);
    dir.write("two.txt", "", BUG_AT_2);
    dir.write("README.md", "", "not a program");
    dir.write("hdr.horef", "(* expect: verified *)\n", SAFE);
    let manifest = "program,k,expect,source,bmc2,bmc2_seconds\n\
                    one,0,no_bug,bmc2,no_bug,0.1\none,1,bug,bmc2,bug,0.1\none,2,bug,monotone,timeout,60\n\
                    two,1,no_bug,bmc2,no_bug,0.1\ntwo,2,bug,bmc2,bug,0.1\n";
    dir.write("expected.csv", "", manifest);
    let run = suite(&[&dir.root()]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(last_line(&run), "6 passed, 0 failed");
    assert_eq!(
        row(&run, &dir.show("one.txt"), 0)[3..5],
        ["SAFE UP TO DEPTH 0 or VERIFIED", "SAFE UP TO DEPTH 0"]
    );
    assert_eq!(row(&run, &dir.show("two.txt"), 2)[3..5], ["BUG", "BUG"]);
    assert_eq!(row(&run, &dir.show("hdr.horef"), 10)[4], "VERIFIED");
    // --max-depth keeps the rows with k <= K (and runs header programs at K).
    let bounded = suite(&[&dir.root(), "--max-depth", "1"]);
    assert_eq!(
        last_line(&bounded),
        "4 passed, 0 failed",
        "{}",
        bounded.stdout
    );
    // One file named on the command line still takes its rows from the manifest.
    let single = suite(&[&dir.show("two.txt")]);
    assert_eq!(
        last_line(&single),
        "2 passed, 0 failed",
        "{}",
        single.stdout
    );
}

#[test]
fn txt_files_are_programs_only_beside_a_manifest() {
    let dir = Dir::new();
    dir.write("notes.txt", "", "not a program");
    dir.write("p.horef", "(* expect: bug within 1 *)\n", BUG_AT_1);
    let run = suite(&[&dir.root()]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(last_line(&run), "1 passed, 0 failed");
}

#[test]
fn a_bad_manifest_is_an_input_error_at_its_line() {
    let cases = [
        ("program,k,expect\none,1,bug\none,2,maybe\n", 3),
        ("program,k,expect\nmissing,1,bug\n", 2),
        ("program,expect\none,bug\n", 1),
        ("program,k,expect\none,x,bug\n", 2),
    ];
    for (manifest, line) in cases {
        let dir = Dir::new();
        dir.write("one.txt", "", BUG_AT_1);
        let csv = dir.write("expected.csv", "", manifest);
        let run = suite(&[&dir.root()]);
        assert_eq!(run.code, Some(2), "{manifest}: {run:#?}");
        let at = format!("{}:{line}:", csv.display());
        assert!(
            run.stderr.contains(&at),
            "{manifest}: wanted {at} in\n{}",
            run.stderr
        );
    }
}
