//! `suite --cache DIR` (issue 14): unchanged programs are answered from the cache, changed
//! ones are verified again; `--no-cache` and `HOREF_SI_CACHE`.

use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

/// `suite DIR --format json` with `extra` arguments and `env`; the rows by file name.
fn suite(dir: &Path, extra: &[&str], env: &[(&str, &Path)]) -> Vec<Json> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_horef-si"));
    command
        .arg("suite")
        .arg(dir)
        .args(["--format", "json", "--jobs", "2"])
        .args(extra);
    command.env_remove("HOREF_SI_CACHE");
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command.output().expect("run horef-si");
    let json: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    json["rows"].as_array().unwrap().clone()
}

fn cached(rows: &[Json]) -> Vec<bool> {
    rows.iter()
        .map(|r| r["cached"].as_bool().unwrap())
        .collect()
}

fn verdicts(rows: &[Json]) -> Vec<String> {
    rows.iter()
        .map(|r| r["got"].as_str().unwrap().to_string())
        .collect()
}

const SAFE: &str = "(* expect: verified *)\nMain (n:Int) :Unit: assert (n * 0 == 0)\n";
const BUG: &str = "(* expect: bug within 0 *)\nMain (n:Int) :Unit: assert (n != 7)\n";

#[test]
fn unchanged_programs_come_from_the_cache_and_changed_ones_are_verified() {
    let programs = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(programs.path().join("a.horef"), SAFE).unwrap();
    std::fs::write(programs.path().join("b.horef"), BUG).unwrap();
    let dir = cache.path().to_str().unwrap();
    let cold = suite(programs.path(), &["--cache", dir], &[]);
    assert_eq!(cached(&cold), [false, false]);
    let warm = suite(programs.path(), &["--cache", dir], &[]);
    assert_eq!(cached(&warm), [true, true]);
    assert_eq!(verdicts(&warm), verdicts(&cold));
    // b changes: its new verdict comes from a verification, a still comes from the cache.
    std::fs::write(
        programs.path().join("b.horef"),
        BUG.replace("bug within 0", "verified")
            .replace("n != 7", "n == n"),
    )
    .unwrap();
    let changed = suite(programs.path(), &["--cache", dir], &[]);
    assert_eq!(cached(&changed), [true, false]);
    assert_eq!(verdicts(&changed), ["VERIFIED", "VERIFIED"]);
    // Another depth is another key.
    let deeper = suite(programs.path(), &["--cache", dir, "--max-depth", "3"], &[]);
    assert_eq!(cached(&deeper), [false, false]);
    // --no-cache verifies everything.
    let fresh = suite(programs.path(), &["--cache", dir, "--no-cache"], &[]);
    assert_eq!(cached(&fresh), [false, false]);
}

#[test]
fn the_environment_variable_turns_the_cache_on() {
    let programs = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(programs.path().join("a.horef"), SAFE).unwrap();
    let env = [("HOREF_SI_CACHE", cache.path())];
    assert_eq!(cached(&suite(programs.path(), &[], &env)), [false]);
    assert_eq!(cached(&suite(programs.path(), &[], &env)), [true]);
    assert_eq!(
        cached(&suite(programs.path(), &["--no-cache"], &env)),
        [false]
    );
    assert_eq!(cached(&suite(programs.path(), &[], &[])), [false]);
}

#[test]
fn a_corrupt_entry_is_a_miss() {
    let programs = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(programs.path().join("b.horef"), BUG).unwrap();
    let dir = cache.path().to_str().unwrap();
    suite(programs.path(), &["--cache", dir], &[]);
    for entry in std::fs::read_dir(cache.path()).unwrap() {
        std::fs::write(entry.unwrap().path(), "{\"verdict\": \"verified\"").unwrap();
    }
    let rows = suite(programs.path(), &["--cache", dir], &[]);
    assert_eq!(cached(&rows), [false]);
    assert_eq!(verdicts(&rows), ["BUG"]);
}
