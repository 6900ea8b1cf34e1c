//! Exchange formats (issue 14): SV-COMP violation witnesses written by `verify --witness`
//! and replayed by `run --witness`, and SARIF 2.1.0 from `verify` and `suite`.
//!
//! Every witness we write is validated against `tests/schemas/violation-witness-2.0.schema.json`
//! (the format's required keys and enums) and every SARIF log against the official SARIF
//! 2.1.0 schema, `tests/schemas/sarif-schema-2.1.0.json`.

use crate::common;

use common::{CliRun, horef_si};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The official SARIF 2.1.0 schema's pattern for `run.language` has a stray `]` that the
/// validator's meta-schema check rejects as a regular expression; we escape that one
/// character in memory (our logs do not set `run.language`, so nothing else changes).
const SARIF_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

fn schema(name: &str) -> jsonschema::Validator {
    let path = root().join("tests/schemas").join(name);
    let text = std::fs::read_to_string(&path).expect("schema file");
    let fixed = SARIF_LANGUAGE_PATTERN.replace("]?", "\\\\]?");
    let text = text.replace(SARIF_LANGUAGE_PATTERN, &fixed);
    let schema: Json = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, document: &Json, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(document)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} is not valid:\n{}",
        errors.join("\n")
    );
}

/// Reads a witness file as YAML into JSON values (for the schema), checking it parses.
fn read_witness(path: &Path) -> Json {
    let text = std::fs::read_to_string(path).expect("witness written");
    serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{}: not YAML: {e}", path.display()))
}

fn program(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write program");
    path
}

/// `verify FILE --max-depth K --witness W`.
fn verify_with_witness(file: &Path, depth: u32, witness: &Path) -> CliRun {
    let depth = depth.to_string();
    horef_si([
        "verify".as_ref(),
        file.as_os_str(),
        "--max-depth".as_ref(),
        depth.as_ref(),
        "--witness".as_ref(),
        witness.as_os_str(),
    ])
}

/// `run FILE --witness W`.
fn replay(file: &Path, witness: &Path) -> CliRun {
    horef_si([
        "run".as_ref(),
        file.as_os_str(),
        "--witness".as_ref(),
        witness.as_os_str(),
    ])
}

const BUGGY: &str = "Methods:
half (x:Int) :Int = if x <= 1 then 0 else 1 + half (x - 2);
Main (n:Int) :Unit: if n >= 0 then assert (half n * 2 == n) else skip
";

/// `verify --witness`, then `run --witness`: the witness is valid and replays (exit 10).
fn witness_round_trip(file: &Path, depth: u32, dir: &Path, validator: &jsonschema::Validator) {
    let witness = dir.join("witness.yml");
    let _ = std::fs::remove_file(&witness);
    let verify = verify_with_witness(file, depth, &witness);
    let name = file.display();
    assert_eq!(verify.code, Some(10), "{name} at {depth}: {verify:#?}");
    let document = read_witness(&witness);
    assert_valid(validator, &document, &format!("the witness of {name}"));
    let run = replay(file, &witness);
    assert_eq!(
        run.code,
        Some(10),
        "{name}: the witness does not replay\n{run:#?}"
    );
    assert!(run.stdout.contains("witness confirmed"), "{run:#?}");
}

#[test]
fn a_witness_has_the_format_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), "half.horef", BUGGY);
    witness_round_trip(
        &file,
        5,
        dir.path(),
        &schema("violation-witness-2.0.schema.json"),
    );
    let witness = read_witness(&dir.path().join("witness.yml"));
    let entry = &witness[0];
    assert_eq!(entry["entry_type"], "violation_sequence");
    let hash = &entry["metadata"]["task"]["input_file_hashes"][file.display().to_string()];
    let expected = sha256_of(&file);
    assert_eq!(hash.as_str(), Some(expected.as_str()));
    let waypoints: Vec<&Json> = entry["content"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["segment"].as_array().unwrap())
        .map(|w| &w["waypoint"])
        .collect();
    // The inputs first, the target last, at the assertion (3:36).
    let first = waypoints.first().unwrap();
    assert_eq!(first["type"], "assumption");
    assert!(
        first["constraint"]["value"]
            .as_str()
            .unwrap()
            .starts_with("n == ")
    );
    let last = waypoints.last().unwrap();
    assert_eq!(last["type"], "target");
    assert_eq!(
        (
            last["location"]["line"].as_u64(),
            last["location"]["column"].as_u64()
        ),
        (Some(3), Some(36))
    );
    // Each call is entered and returns with `\result == v` at the same call site.
    let enters = waypoints
        .iter()
        .filter(|w| w["type"] == "function_enter")
        .count();
    let returns: Vec<&&Json> = waypoints
        .iter()
        .filter(|w| w["type"] == "function_return")
        .collect();
    assert!(enters >= 1 && enters == returns.len(), "{waypoints:#?}");
    assert!(returns.iter().all(|w| {
        w["constraint"]["value"]
            .as_str()
            .unwrap()
            .starts_with("\\result == ")
    }));
}

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    let bytes = std::fs::read(path).unwrap();
    sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn a_witness_of_one_file_is_refused_for_another() {
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), "half.horef", BUGGY);
    let witness = dir.path().join("w.yml");
    let verify = verify_with_witness(&file, 5, &witness);
    assert_eq!(verify.code, Some(10), "{verify:#?}");
    // The same program with one more space: another file.
    let other = program(
        dir.path(),
        "other.horef",
        &BUGGY.replace("Main (n:Int)", "Main (n:Int) "),
    );
    let run = replay(&other, &witness);
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(
        run.stderr.contains("another program") && run.stderr.contains("half.horef"),
        "{}",
        run.stderr
    );
    run.assert_no_panic("a witness for another file");
}

#[test]
fn a_witness_whose_target_is_not_reached_is_not_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let file = program(dir.path(), "half.horef", BUGGY);
    let witness = dir.path().join("w.yml");
    verify_with_witness(&file, 5, &witness);
    // Move the target to another line: the run still fails, but not there.
    let text = std::fs::read_to_string(&witness).unwrap();
    let at = text.rfind("line: 3").expect("the target's line");
    let moved = format!("{}line: 2{}", &text[..at], &text[at + "line: 3".len()..]);
    std::fs::write(&witness, moved).unwrap();
    let run = replay(&file, &witness);
    assert_eq!(run.code, Some(5), "{run:#?}");
    assert!(run.stdout.contains("witness not confirmed"), "{run:#?}");
}

#[test]
fn no_witness_is_written_without_a_bug() {
    let dir = tempfile::tempdir().unwrap();
    let file = program(
        dir.path(),
        "ok.horef",
        "Main (n:Int) :Unit: assert (n * 0 == 0)\n",
    );
    let witness = dir.path().join("w.yml");
    let run = verify_with_witness(&file, 10, &witness);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(!witness.exists());
    assert!(run.stderr.contains("no witness written"), "{}", run.stderr);
}

/// The manifest's programs that have a bug, each with the smallest depth it shows at.
#[allow(dead_code)] // used by `tests/shared_suite.rs`, which includes this file
fn shared_bugs(dir: &Path) -> Vec<(PathBuf, u32)> {
    let manifest = std::fs::read_to_string(dir.join("expected.csv")).unwrap();
    let mut bugs: std::collections::BTreeMap<String, u32> = Default::default();
    for line in manifest.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() >= 3 && cells[2] == "bug" {
            let k: u32 = cells[1].parse().unwrap();
            let entry = bugs.entry(cells[0].to_string()).or_insert(k);
            *entry = (*entry).min(k);
        }
    }
    bugs.into_iter()
        .map(|(p, k)| (dir.join(format!("{p}.txt")), k))
        .collect()
}

/// Issue 14's bar: a witness for every bug of the shared suite `shared` is valid and
/// replays (run by `shared_suite.rs`, which reports it ignored without the suite).
#[allow(dead_code)] // run by `tests/shared_suite.rs`, which includes this file
pub fn every_bug_has_a_witness_that_replays(shared: &Path) {
    let bugs = shared_bugs(shared);
    assert!(
        bugs.len() >= 10,
        "the manifest lists {} buggy programs",
        bugs.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let validator = schema("violation-witness-2.0.schema.json");
    for (file, depth) in &bugs {
        witness_round_trip(file, *depth, dir.path(), &validator);
    }
}

fn sarif_of(run: &CliRun) -> Json {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {run:#?}"))
}

#[test]
fn verify_sarif_is_valid_with_a_code_flow_and_stable_fingerprints() {
    let dir = tempfile::tempdir().unwrap();
    // Only odd n >= 5 fail: half recurses at least twice.
    let deep = BUGGY.replace("if n >= 0", "if n >= 4");
    let file = program(dir.path(), "half.horef", &deep);
    let validator = schema("sarif-schema-2.1.0.json");
    let run = || {
        horef_si([
            "verify",
            file.to_str().unwrap(),
            "--max-depth",
            "6",
            "--format",
            "sarif",
        ])
    };
    let (first, second) = (run(), run());
    assert_eq!(first.code, Some(10), "{first:#?}");
    let log = sarif_of(&first);
    assert_valid(&validator, &log, "verify's SARIF");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let result = &results[0];
    assert_eq!(result["ruleId"], "assertion-failure");
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(3), Some(36))
    );
    assert!(result["message"]["text"].as_str().unwrap().contains("n = "));
    let flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap();
    let levels: Vec<u64> = flow
        .iter()
        .filter_map(|l| l["nestingLevel"].as_u64())
        .collect();
    assert_eq!(levels.first(), Some(&0));
    assert!(levels.windows(2).all(|w| w[1] <= w[0] + 1), "{levels:?}");
    assert!(levels.iter().any(|&l| l >= 2), "half recurses: {levels:?}");
    let fingerprints = |log: &Json| log["runs"][0]["results"][0]["partialFingerprints"].clone();
    assert_eq!(fingerprints(&log), fingerprints(&sarif_of(&second)));
    assert!(
        fingerprints(&log)
            .as_object()
            .is_some_and(|f| !f.is_empty())
    );
}

#[test]
fn verify_sarif_without_a_bug_has_no_results() {
    let dir = tempfile::tempdir().unwrap();
    let file = program(
        dir.path(),
        "ok.horef",
        "Main (n:Int) :Unit: assert (n * 0 == 0)\n",
    );
    let run = horef_si(["verify", file.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    let log = sarif_of(&run);
    assert_valid(&schema("sarif-schema-2.1.0.json"), &log, "verify's SARIF");
    assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(0));
}

/// Issue 14's bar: the SARIF of a suite run validates; bugs, expected or not, are results.
#[test]
fn suite_sarif_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    program(
        dir.path(),
        "expected.horef",
        &format!("(* expect: bug within 2 *)\n{BUGGY}"),
    );
    program(
        dir.path(),
        "wrong.horef",
        &format!("(* expect: verified *)\n{BUGGY}"),
    );
    program(
        dir.path(),
        "ok.horef",
        "(* expect: verified *)\nMain (n:Int) :Unit: assert (n * 0 == 0)\n",
    );
    let mut paths = vec![
        dir.path().display().to_string(),
        root().join("tests/programs").display().to_string(),
    ];
    let shared = root().join("../shared/bmc2-suite");
    if shared.is_dir() {
        paths.push(shared.display().to_string());
    }
    let mut args = vec![
        "suite".to_string(),
        "--format".into(),
        "sarif".into(),
        "--max-depth".into(),
        "3".into(),
    ];
    args.extend(paths);
    let run = horef_si(&args);
    assert_eq!(run.code, Some(10), "wrong.horef fails: {}", run.stderr);
    let log = sarif_of(&run);
    assert_valid(&schema("sarif-schema-2.1.0.json"), &log, "suite's SARIF");
    let results = log["runs"][0]["results"].as_array().unwrap();
    let about = |name: &str| -> Vec<&Json> {
        results
            .iter()
            .filter(|r| {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .ends_with(name)
            })
            .collect()
    };
    assert_eq!(about("/expected.horef").len(), 1);
    assert_eq!(about("/expected.horef")[0]["level"], "note");
    assert_eq!(about("/wrong.horef").len(), 1);
    assert_eq!(about("/wrong.horef")[0]["level"], "error");
    assert!(about("/ok.horef").is_empty());
}
