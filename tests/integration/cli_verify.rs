//! `horef-si verify` from the command line: verdicts, exit codes, JSON keys, and what
//! happens when the solver is missing or the time runs out (issue 4).

use std::io::Write;
use std::process::Command;

fn program(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(".horef")
        .tempfile()
        .expect("tempfile");
    file.write_all(text.as_bytes()).expect("write");
    file
}

fn verify(file: &tempfile::NamedTempFile, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .arg("verify")
        .arg(file.path())
        .args(extra)
        .output()
        .expect("run horef-si")
}

/// `verify` with `HOREF_TRACE=1` when `traced`, and without `HOREF_TRACE` otherwise.
fn verify_traced(
    file: &tempfile::NamedTempFile,
    extra: &[&str],
    traced: bool,
) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_horef-si"));
    command.arg("verify").arg(file.path()).args(extra);
    match traced {
        true => command.env("HOREF_TRACE", "1"),
        false => command.env_remove("HOREF_TRACE"),
    };
    command.output().expect("run horef-si")
}

const BUGGY: &str = "Methods:
half (x:Int) :Int = if x <= 1 then 0 else 1 + half (x - 2);
Main (n:Int) :Unit: if n >= 0 then assert (half n * 2 == n) else skip
";

/// Fermat's last theorem for cubes: true, and far beyond the solver in a second.
const FERMAT: &str = "Methods:
cube (x:Int) :Int = x * x * x;
Main (x:Int, y:Int, z:Int) :Unit:
  if x > 0 && y > 0 && z > 0 then assert (cube x + cube y != cube z) else skip
";

#[test]
fn a_bug_exits_10_with_stable_json_keys() {
    let file = program(BUGGY);
    let out = verify(&file, &["--max-depth", "5", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "bug");
    assert_eq!(json["confirmed"], true);
    assert_eq!(json["max_depth"], 5);
    assert_eq!(json["failure"]["at"], "3:36");
    let n: i64 = json["inputs"]["n"]
        .as_str()
        .expect("n")
        .parse()
        .expect("int");
    assert!(n >= 0 && n % 2 == 1, "an odd n fails, got {n}");
    for key in ["trace", "reason", "stats"] {
        assert!(json.get(key).is_some(), "missing key {key}");
    }
    for key in ["time_ms", "solver_calls", "inlined", "open_sites", "mode"] {
        assert!(json["stats"].get(key).is_some(), "missing stats key {key}");
    }
    // The solver's share is measured (starting z3 alone takes some time) and is a part of
    // the whole.
    let ms = |key: &str| json["stats"][key].as_u64().expect(key);
    assert!(ms("solver_ms") > 0, "{json}");
    assert!(ms("solver_ms") <= ms("time_ms"), "{json}");
}

/// The keys of `docs/json.md`'s table (`file`, `stats.time_ms`, `trace[].returns`, ...).
fn documented_keys() -> std::collections::BTreeSet<String> {
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json.md");
    let text = std::fs::read_to_string(doc).expect("docs/json.md");
    text.lines()
        .filter_map(|line| line.strip_prefix("| `")?.split_once('`'))
        .map(|(key, _)| key.to_string())
        .collect()
}

/// Every key of `json`, dotted as in `docs/json.md` (array elements as `[]`; the keys of
/// `inputs` are the program's parameter names, not keys of the format).
fn keys_of(json: &serde_json::Value, prefix: &str, out: &mut std::collections::BTreeSet<String>) {
    match json {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                let name = format!("{prefix}{key}");
                if name != "inputs" {
                    keys_of(value, &format!("{name}."), out);
                }
                out.insert(name);
            }
        }
        serde_json::Value::Array(items) => {
            let element = format!("{}[].", prefix.trim_end_matches('.'));
            items.iter().for_each(|item| keys_of(item, &element, out));
        }
        _ => {}
    }
}

/// `verify --max-depth K --format json` on a file of the project (`path` relative to it).
fn json_report(path: &str, depth: u32) -> serde_json::Value {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let out = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args([
            "verify",
            "--max-depth",
            &depth.to_string(),
            "--format",
            "json",
        ])
        .arg(&file)
        .output()
        .expect("run horef-si");
    serde_json::from_slice(&out.stdout).expect("json")
}

/// The JSON keys of a bug report with those of a proved program's report are exactly the
/// table of `docs/json.md`; a safe and an unknown report use none outside it. The
/// provenance keys name the file, tool and solver.
#[test]
fn the_json_keys_are_the_documented_ones() {
    let documented = documented_keys();
    let json = json_report("benchmarks/programs/ackermann.horef", 4);
    assert_eq!(json["verdict"], "verified", "{json}");
    let mut keys = std::collections::BTreeSet::new();
    keys_of(&json, "", &mut keys);
    // A bug that needs fresh inputs (`read_int ()`) fills `fresh`.
    let fresh = json_report("tests/ocaml/input_read_e.ml", 4);
    assert_eq!(fresh["verdict"], "bug", "{fresh}");
    assert_eq!(fresh["fresh"][1]["value"], "42", "{fresh}");
    keys_of(&fresh, "", &mut keys);
    // A bug through allocated cells names them: `share` gives two objects one cell, so
    // after `inc` on each the cell (allocated at 11:21) holds 2.
    let cells = json_report("tests/refs/alloc_counter_bug.horef", 3);
    assert_eq!(cells["verdict"], "bug", "{cells}");
    assert_eq!(
        cells["cells"],
        serde_json::json!([{ "cell": "<cell 0>", "allocated": "11:21", "holds": "2" }]),
        "{cells}"
    );
    keys_of(&cells, "", &mut keys);
    let file = program(BUGGY);
    let out = verify(&file, &["--max-depth", "5", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    keys_of(&json, "", &mut keys);
    assert_eq!(keys, documented, "docs/json.md and the reports disagree");
    assert_eq!(json["file"], file.path().display().to_string());
    assert_eq!(json["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(json["solver"]["name"], "z3");
    assert!(json["solver"]["version"].is_string(), "{json}");
    // `half x` returns x / 2 (rounded down) for x >= 0; the failure is in Main, after them.
    for step in json["trace"].as_array().expect("trace") {
        let x: i64 = step["args"][0]
            .as_str()
            .and_then(|a| a.parse().ok())
            .expect("arg");
        assert_eq!(step["returns"], (x / 2).to_string(), "{step}");
    }
    for extra in [&["--max-depth", "0"][..], &["--timeout", "0.001"][..]] {
        let args: Vec<&str> = extra.iter().copied().chain(["--format", "json"]).collect();
        let json: serde_json::Value =
            serde_json::from_slice(&verify(&file, &args).stdout).expect("json");
        let mut keys = std::collections::BTreeSet::new();
        keys_of(&json, "", &mut keys);
        assert!(keys.is_subset(&documented), "{extra:?}: {keys:?}");
    }
}

#[test]
fn human_output_puts_the_verdict_first() {
    let file = program(BUGGY);
    let out = verify(&file, &["--max-depth", "5"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("BUG\n"), "{text}");
    assert!(text.contains("confirmed by concrete replay"), "{text}");
    let safe = verify(&file, &["--max-depth", "0"]);
    assert_eq!(safe.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&safe.stdout).starts_with("SAFE UP TO DEPTH 0\n"));
}

#[test]
fn a_missing_solver_is_an_error_not_a_verdict() {
    let file = program(BUGGY);
    let out = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args(["verify", "--max-depth", "3"])
        .arg(file.path())
        .env("PATH", "/nonexistent")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(6));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("UNKNOWN"), "{text}");
    assert!(text.contains("not found"), "{text}");
    assert!(text.contains("pip install z3-solver"), "{text}");
}

#[test]
fn a_timeout_is_unknown_with_exit_5() {
    let file = program(FERMAT);
    let started = std::time::Instant::now();
    let out = verify(
        &file,
        &["--max-depth", "3", "--timeout", "1", "--format", "json"],
    );
    assert!(
        started.elapsed().as_secs() < 30,
        "the time limit was not kept"
    );
    assert_eq!(
        out.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "unknown");
    assert!(json["reason"].as_str().expect("reason").contains("timeout"));
}

#[test]
fn proof_wait_takes_seconds_and_leaves_the_search_proofs_alone() {
    let file = program(FERMAT);
    let out = verify(&file, &["--max-depth", "2", "--proof-wait=-1"]);
    assert_eq!(out.status.code(), Some(1), "a usage error");
    let message = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(message.contains("--proof-wait must be"), "{message}");
    // A finite call tree is a proof of the search itself: no wait needed.
    let finite = program(
        "Methods:\ndouble (x:Int) :Int = x + x;\nMain (n:Int) :Unit: assert (double n != 2 * n + 1)\n",
    );
    let out = verify(&finite, &["--max-depth", "3", "--proof-wait", "0"]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.starts_with("VERIFIED"), "{report}");
}

#[test]
fn a_bad_timeout_is_a_usage_error() {
    let file = program(BUGGY);
    assert_eq!(verify(&file, &["--timeout", "-3"]).status.code(), Some(1));
    assert_eq!(verify(&file, &["--mode", "fast"]).status.code(), Some(1));
}

#[test]
fn dump_smt_replays_in_z3() {
    let file = program(BUGGY);
    let dump = tempfile::NamedTempFile::new().expect("tempfile");
    let out = verify(
        &file,
        &[
            "--max-depth",
            "4",
            "--dump-smt",
            dump.path().to_str().expect("path"),
        ],
    );
    assert_eq!(out.status.code(), Some(10));
    let replay = Command::new("z3")
        .arg(dump.path())
        .output()
        .expect("z3 on PATH");
    let answers: Vec<String> = String::from_utf8_lossy(&replay.stdout)
        .lines()
        .filter(|l| *l == "sat" || *l == "unsat")
        .map(str::to_string)
        .collect();
    assert_eq!(
        answers.last().map(String::as_str),
        Some("sat"),
        "{answers:?}"
    );
}

/// A safe program the exact Horn clauses prove at once: `sum n >= n`.
const SUM_AT_LEAST_N: &str = "Methods:
sum (n:Int) :Int = if n <= 0 then 0 else n + sum (n - 1);
Main (n:Int) :Unit: assert (sum n >= n)
";

/// `verify`'s arguments for [`SUM_AT_LEAST_N`] proved by the Horn clauses alone, each system
/// written beside `dump` (`--dump-smt`).
fn proved_by_chc_dumping(dump: &std::path::Path) -> [&str; 8] {
    let dump = dump.to_str().expect("path");
    [
        "--max-depth",
        "2",
        "--proofs",
        "chc",
        "--proof-wait",
        "budget",
        "--dump-smt",
        dump,
    ]
}

/// With `--dump-smt FILE`, the Horn systems Spacer works on are written beside FILE, and
/// z3 alone finds them satisfiable (the proof) as the run did.
#[test]
fn dump_smt_writes_the_horn_systems_spacer_solved() {
    let file = program(SUM_AT_LEAST_N);
    let dir = tempfile::tempdir().expect("tempdir");
    let dump = dir.path().join("dialogue");
    let out = verify(&file, &proved_by_chc_dumping(&dump));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("VERIFIED"), "{stdout}");
    let systems: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().contains(".horn-"))
        .collect();
    assert!(!systems.is_empty(), "no Horn system written");
    let mut solved = 0;
    for system in &systems {
        let text = std::fs::read_to_string(system).expect("read");
        let script = dir.path().join("replay.smt2");
        std::fs::write(
            &script,
            format!("(set-option :fp.spacer.global true)\n{text}"),
        )
        .expect("write");
        let replay = Command::new("z3")
            .arg(&script)
            .output()
            .expect("z3 on PATH");
        let first = String::from_utf8_lossy(&replay.stdout);
        solved += usize::from(first.lines().next() == Some("sat"));
    }
    assert!(solved >= 1, "none of {systems:?} replays as sat");
}

/// A solver that stops reading its input (as one the watchdog killed at the deadline
/// does) makes our next write fail: that is a solver error (exit 6, `UNKNOWN`), never the
/// silent death of the verifier by SIGPIPE.
#[test]
fn a_solver_that_stops_reading_is_a_solver_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let fake = dir.path().join("z3");
    // Acknowledges the set-up commands, closes its stdin, lingers, and exits.
    let script = "#!/bin/sh
i=0
while read line; do
  echo success
  i=$((i + 1))
  if [ $i -ge 6 ]; then break; fi
done
exec 0<&-
/bin/sleep 1
";
    std::fs::write(&fake, script).expect("write the fake solver");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let file = program(BUGGY);
    let out = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args(["verify", "--max-depth", "3", "--format", "json"])
        .arg(file.path())
        .env("PATH", dir.path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(6), "{:?}: {text}", out.status);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "unknown");
}

/// Without `--timeout`, a solver that never answers a check ends the run after
/// `--solver-wait` seconds: UNKNOWN with the reason, exit 6 (a solver error), no hang.
#[test]
fn a_solver_that_never_answers_is_unknown_after_the_solver_wait() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let fake = dir.path().join("z3");
    // Acknowledges every command but hangs on the first check.
    let script = "#!/bin/sh
while read -r line; do
  case \"$line\" in
    *check-sat*) exec /bin/sleep 600 ;;
    *) echo success ;;
  esac
done
";
    std::fs::write(&fake, script).expect("write the fake solver");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let file = program(BUGGY);
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args(["verify", "--max-depth", "3", "--solver-wait", "1"])
        .arg(file.path())
        .env("PATH", dir.path())
        .output()
        .expect("run");
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(30), "{took:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(6), "{:?}: {text}", out.status);
    assert!(text.starts_with("UNKNOWN"), "{text}");
    assert!(text.contains("no complete reply within 1 s"), "{text}");
    assert!(text.contains("check-sat"), "{text}");
}

#[test]
fn a_bad_solver_wait_is_a_usage_error() {
    let file = program(BUGGY);
    for bad in ["0", "-1", "soon"] {
        let out = verify(&file, &["--solver-wait", bad]);
        assert_eq!(out.status.code(), Some(1), "--solver-wait {bad}");
    }
}

// ----- the progress line (issue 17) -----

/// On a terminal, `verify` draws a spinner line with the depth bound, the instances inlined,
/// the open call sites and the elapsed time, redrawn as the rounds go. `script` (Debian's
/// util-linux) gives the run a pseudo-terminal and records everything written to it.
/// How many rounds `benchmarks/programs/ackermann.horef` takes is the engine's business
/// (and the terminal is redrawn at most 20 times a second, so fast rounds share a frame):
/// this checks that rounds are drawn in full and that the line moves; the unit tests of
/// `progress_line.rs` check that every round's figures are rendered.
#[test]
fn the_progress_line_moves_on_a_terminal() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let command = format!(
        "{} verify {} --max-depth 10",
        env!("CARGO_BIN_EXE_horef-si"),
        root.join("benchmarks/programs/ackermann.horef").display()
    );
    // The line is drawn on a terminal whose type is known: the test sets that up itself
    // (cron jobs, containers and some CI runners have no TERM).
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm-256color")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run script (util-linux)");
    let screen = String::from_utf8_lossy(&out.stdout);
    let mut rounds: Vec<&str> = screen
        .split(['\r', '\n'])
        .filter(|l| l.contains("depth bound "))
        .collect();
    for line in &rounds {
        assert!(
            line.contains(" instances inlined, ") && line.contains(" open call sites [00:"),
            "{line:?}"
        );
    }
    assert!(!rounds.is_empty(), "no round was drawn: {screen:?}");
    // The line moves: its frames differ (the spinner turns, the figures change).
    rounds.dedup();
    assert!(rounds.len() >= 2, "the line did not move: {screen:?}");
    assert!(screen.contains("VERIFIED"), "{screen:?}");
}

/// When stderr is not a terminal, nothing is drawn.
#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    let file = program(BUGGY);
    let out = verify(&file, &["--max-depth", "6"]);
    assert_eq!(out.status.code(), Some(10));
    assert!(
        out.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A call that fails, and every call it runs in, has no return value in the JSON trace;
/// a call that returned has its value (`f x` is x + 1 unless it fails at x = 3).
#[test]
fn calls_on_the_way_to_a_failure_return_nothing() {
    let file = program(
        "Methods:
f (x:Int) :Int = let (u:Unit) = assert (x != 3) in x + 1;
g (x:Int) :Int = f (f x);
Main (n:Int) :Unit: let (y:Int) = g n in skip
",
    );
    let out = verify(&file, &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "bug", "{json}");
    let trace = json["trace"].as_array().expect("trace");
    assert!(trace.iter().any(|s| s["function"] == "g"), "{json}");
    for step in trace {
        let x: i64 = step["args"][0]
            .as_str()
            .and_then(|a| a.parse().ok())
            .expect("arg");
        let expected = match step["function"].as_str() {
            Some("f") if x != 3 => serde_json::json!((x + 1).to_string()),
            _ => serde_json::Value::Null,
        };
        assert_eq!(step["returns"], expected, "{step}");
    }
}

/// The stdout of `verify` as text.
fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_bug_names_its_file_shows_the_line_and_a_command_that_reproduces_it() {
    let file = program(BUGGY);
    let out = verify(&file, &["--max-depth", "5"]);
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    let text = stdout_of(&out);
    let name = file.path().display().to_string();
    assert!(text.contains(&format!("failure at {name}:3:")), "{text}");
    assert!(
        text.contains("3 | Main (n:Int) :Unit: if n >= 0 then assert"),
        "{text}"
    );
    let command = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce with: horef-si "))
        .unwrap_or_else(|| panic!("no reproduce line in {text}"));
    // The command runs the failing input: the run fails at the reported assertion.
    let words: Vec<&str> = command.split(' ').collect();
    let run = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args(&words)
        .output()
        .expect("run horef-si");
    assert_eq!(run.status.code(), Some(10), "{command}: {run:?}");
    let at = text.split("failure at ").nth(1).unwrap_or("");
    let position = at
        .split(' ')
        .next()
        .unwrap_or("")
        .trim_start_matches(&format!("{name}:"));
    assert!(
        stdout_of(&run).starts_with(&format!("failure at {position} (assert)")),
        "{run:?}"
    );
}

#[test]
fn quiet_prints_the_verdict_line_alone_and_verbose_adds_the_statistics() {
    let file = program(BUGGY);
    let quiet = verify(&file, &["--max-depth", "5", "-q"]);
    assert_eq!(
        (quiet.status.code(), stdout_of(&quiet).as_str()),
        (Some(10), "BUG\n")
    );
    let normal = stdout_of(&verify(&file, &["--max-depth", "5"]));
    assert!(!normal.contains("stats:"), "{normal}");
    let verbose = stdout_of(&verify(&file, &["--max-depth", "5", "-v"]));
    assert!(verbose.contains("  stats: "), "{verbose}");
    let both = verify(&file, &["-q", "-v"]);
    assert_eq!(both.status.code(), Some(1), "-q and -v conflict: {both:?}");
}

#[test]
fn the_verdict_is_coloured_only_when_asked_or_on_a_terminal() {
    let file = program(BUGGY);
    let always = stdout_of(&verify(
        &file,
        &["--max-depth", "5", "-q", "--color", "always"],
    ));
    assert!(
        always.starts_with("\u{1b}[") && always.contains("BUG"),
        "{always:?}"
    );
    // stdout is a pipe here: `auto` does not colour.
    let auto = stdout_of(&verify(&file, &["--max-depth", "5", "-q"]));
    assert_eq!(auto, "BUG\n");
}

#[test]
fn an_unwritable_witness_path_does_not_lose_the_verdict() {
    let file = program(BUGGY);
    let dir = tempfile::tempdir().expect("tempdir");
    let witness = dir.path().join("missing-folder").join("w.yml");
    let out = verify(
        &file,
        &["--max-depth", "5", "--witness", witness.to_str().unwrap()],
    );
    assert!(stdout_of(&out).starts_with("BUG\n"), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot write the witness"), "{stderr}");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn an_input_error_gives_a_json_and_a_sarif_document() {
    let file = program("Main (n:Int) : Int : n +\n");
    let json = verify(&file, &["--format", "json"]);
    assert_eq!(json.status.code(), Some(2), "{json:?}");
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON on stdout");
    assert_eq!(doc["verdict"], "input_error");
    assert!(
        doc["error"].as_str().unwrap_or("").contains(":1:25"),
        "{doc}"
    );
    let sarif = verify(&file, &["--format", "sarif"]);
    assert_eq!(sarif.status.code(), Some(2), "{sarif:?}");
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF on stdout");
    let run = &log["runs"][0];
    assert_eq!(run["properties"]["verdict"], "input_error");
    let note = &run["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "error");
    assert!(
        note["message"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("expected an expression")
    );
}

#[test]
fn sarif_tells_verified_from_safe_up_to_the_bound() {
    let safe = program("Main (n:Int) :Unit: if n > 0 then assert (n + 1 > 1) else skip\n");
    let log: serde_json::Value =
        serde_json::from_slice(&verify(&safe, &["--format", "sarif"]).stdout).expect("SARIF");
    assert_eq!(log["runs"][0]["properties"]["verdict"], "verified");
    // Safe, but recursive: without proof engines the answer holds up to the bound only.
    let bounded = program(
        "Methods:\ndown (x:Int) :Int = if x <= 0 then 0 else down (x - 1);\n\
         Main (n:Int) :Unit: assert (down n == 0)\n",
    );
    let out = verify(
        &bounded,
        &["--max-depth", "1", "--format", "sarif", "--proofs", "none"],
    );
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    assert_eq!(log["runs"][0]["properties"]["verdict"], "safe_up_to_depth");
    assert_eq!(log["runs"][0]["properties"]["maxDepth"], 1);
}

/// The pids of the running (not yet reaped, not zombie) processes named `name` whose
/// parent is `parent`, from /proc.
fn running_children(parent: u32, name: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let comm = stat[..close].split_once('(').map_or("", |(_, c)| c);
        let mut fields = stat[close + 1..].split_whitespace();
        let (state, ppid) = (fields.next(), fields.next());
        if comm == name && ppid == Some(&parent.to_string()) && state != Some("Z") {
            pids.push(pid);
        }
    }
    pids
}

/// Whether `pid` still runs (a zombie has ended: it only waits to be reaped).
fn is_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next());
        state != Some("Z") && state != Some("X")
    })
}

/// SIGTERM (what `timeout` and CI cancellation send), SIGINT (Ctrl-C) or SIGHUP during
/// `verify` ends horef-si by that signal, its solver processes end with it and its temporary
/// files are removed (issue 34). The loops below only wait (a hang guard of a minute), they
/// assert nothing about time.
#[test]
fn a_signal_during_verify_ends_the_solvers_and_removes_the_temporary_files() {
    use std::os::unix::process::ExitStatusExt;
    let file = program(FERMAT);
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let temp = tempfile::tempdir().expect("temporary directory");
        let mut child = Command::new(env!("CARGO_BIN_EXE_horef-si"))
            .arg("verify")
            .arg(file.path())
            .args(["--max-depth", "50", "--timeout", "100", "--check-proof"])
            .env("TMPDIR", temp.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run horef-si");
        let guard = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let solvers = loop {
            let solvers = running_children(child.id(), "z3");
            if !solvers.is_empty() {
                break solvers;
            }
            assert!(
                std::time::Instant::now() < guard && child.try_wait().unwrap().is_none(),
                "no solver started"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert!(
            std::fs::read_dir(temp.path()).unwrap().next().is_some(),
            "--check-proof records the dialogues in a temporary folder"
        );
        // SAFETY: a signal to our own child, whose pid is valid until it is reaped below.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let status = child.wait().expect("wait for horef-si");
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        while solvers.iter().any(|pid| is_running(*pid)) {
            assert!(
                std::time::Instant::now() < guard,
                "a solver outlived horef-si: {solvers:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let left: Vec<_> = std::fs::read_dir(temp.path()).unwrap().flatten().collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    }
}

// ----- the proof cache (issue 30) -----

/// `verify --cache DIR` keeps the certificate of a proof and reuses it at another depth,
/// re-checked before the search (so even a run that waits for no proof is VERIFIED); a
/// certificate the clauses do not admit is not believed.
#[test]
fn a_cached_proof_is_reused_at_another_depth_and_rechecked() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let fib = root.join("benchmarks/programs/fib.horef");
    let cache = tempfile::tempdir().expect("temp dir");
    let dir = cache.path().to_str().expect("utf-8 path");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_horef-si"))
            .args(["verify", "--proofs", "chc", "--cache", dir])
            .args(extra)
            .arg(&fib)
            .output()
            .expect("run horef-si");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let first = run(&["--max-depth", "3", "--proof-wait", "budget"]);
    assert!(first.starts_with("VERIFIED"), "{first}");
    let entries: Vec<std::path::PathBuf> = std::fs::read_dir(cache.path().join("proofs"))
        .expect("a proofs directory")
        .map(|e| e.expect("entry").path())
        .collect();
    assert!(!entries.is_empty(), "nothing was kept");
    let again = run(&["--max-depth", "7", "--proof-wait", "0"]);
    assert!(again.starts_with("VERIFIED"), "{again}");
    assert!(again.contains("proof (chc)"), "{again}");
    // A certificate that interprets every relation as `true` does not pass the re-check.
    for entry in &entries {
        let text = std::fs::read_to_string(entry).expect("read entry");
        if text.contains("definitions") {
            std::fs::write(entry, r#"{"definitions": []}"#).expect("write entry");
        }
    }
    let tampered = run(&[
        "--max-depth",
        "2",
        "--proof-wait",
        "0",
        "--proof-budget",
        "0",
    ]);
    assert!(tampered.starts_with("SAFE UP TO DEPTH 2"), "{tampered}");
}

// ----- the proof engines' timeline (HOREF_TRACE) -----

#[test]
fn horef_trace_writes_the_runs_timeline_to_stderr_and_nothing_without_it() {
    let file = program(BUGGY);
    let args = ["--max-depth", "5", "-q"];
    let traced = verify_traced(&file, &args, true);
    let plain = verify_traced(&file, &args, false);
    // The same answer either way.
    assert_eq!(traced.status.code(), Some(10));
    assert_eq!(traced.stdout, plain.stdout);
    let stderr = String::from_utf8_lossy(&traced.stderr);
    let events: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("[trace +"))
        .collect();
    assert!(
        events
            .first()
            .is_some_and(|l| l.contains("run: the search starts (max depth 5)")),
        "{stderr}"
    );
    assert!(
        events.iter().any(|l| l.contains("run: the answer is bug")),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&plain.stderr).contains("[trace"));
}

/// With `HOREF_TRACE`, each system of the whole program is named once by kind, under the
/// key its `--dump-smt` file carries: the exact clauses' file is among those written.
#[test]
fn horef_trace_names_each_system_by_the_key_of_its_dump_file() {
    let file = program(SUM_AT_LEAST_N);
    let dir = tempfile::tempdir().expect("tempdir");
    let dump = dir.path().join("dialogue");
    let out = verify_traced(&file, &proved_by_chc_dumping(&dump), true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("VERIFIED"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let planned: Vec<(&str, &str)> = stderr
        .lines()
        .filter_map(|l| l.split_once("Spacer plan: system ")?.1.split_once(" is "))
        .collect();
    let exact: Vec<&str> = (planned.iter())
        .filter(|(_, kind)| *kind == "the exact clauses")
        .map(|(key, _)| *key)
        .collect();
    assert_eq!(exact.len(), 1, "{stderr}");
    let written = dir.path().join(format!("dialogue.horn-{}.smt2", exact[0]));
    assert!(written.exists(), "{written:?} not written; {stderr}");
}
