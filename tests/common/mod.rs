//! Helpers shared by the integration tests: running the `horef-si` binary under a time
//! limit (or as a whole `suite` run), and finding the `file:line:col` a diagnostic names.
//!
//! Each test binary uses only some of these helpers.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A run of the binary that takes longer than this is a hang, not a slow run. (Speed targets
/// belong in `benchmarks/`: this limit only turns a hang into a failing test.)
pub const TIME_LIMIT: Duration = Duration::from_secs(120);

/// How one run of the binary ended.
#[derive(Debug)]
pub struct CliRun {
    /// The exit code; `None` when the process was killed by a signal (a stack overflow).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl CliRun {
    /// Asserts that the run ended as an input error: exit code 2, a `file:line:col` on
    /// stderr, no panic.
    pub fn assert_input_error(&self, file: &str, what: &str) {
        assert_eq!(self.code, Some(2), "{what}: expected exit 2\n{self:#?}");
        assert!(
            location_after(&self.stderr, file).is_some(),
            "{what}: stderr does not name `{file}:line:col`\n{}",
            self.stderr
        );
        self.assert_no_panic(what);
    }

    pub fn assert_no_panic(&self, what: &str) {
        assert!(
            !self.stderr.contains("panicked") && !self.stderr.contains("internal error"),
            "{what}: the binary panicked\n{}",
            self.stderr
        );
    }
}

/// The tests directory (where `programs/` and `errors/` live).
pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// `text` in a temporary file named `*.<suffix>` (deleted when dropped).
pub fn temp_program(text: &str, suffix: &str) -> tempfile::NamedTempFile {
    use std::io::Write as _;
    let mut file = tempfile::Builder::new()
        .suffix(&format!(".{suffix}"))
        .tempfile()
        .expect("tempfile");
    file.write_all(text.as_bytes()).expect("write");
    file
}

/// Our OCaml test programs (`tests/ocaml/*.ml`), sorted by path.
pub fn ocaml_programs() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(tests_dir().join("ocaml"))
        .expect("tests/ocaml")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ml"))
        .collect();
    paths.sort();
    paths
}

/// Runs `horef-si` with `args` (no stdin), failing the test if it runs past [`TIME_LIMIT`].
pub fn horef_si<I, S>(args: I) -> CliRun
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(env!("CARGO_BIN_EXE_horef-si"));
    command.args(args);
    run_limited(command)
}

/// Runs `command` (no stdin, output captured), failing the test if it runs past
/// [`TIME_LIMIT`].
pub fn run_limited(mut command: Command) -> CliRun {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait().expect("cannot wait for the child") {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish within {TIME_LIMIT:?}");
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    CliRun {
        code: status.code(),
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// Reads a pipe to the end on its own thread, so a chatty child never blocks on a full pipe.
fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Each suite already keeps both cores busy (`--jobs 2`): suite runs of one test binary take turns, so
/// that one suite's timeouts are not spent waiting for another's solvers.
static ONE_SUITE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// How one `horef-si suite` run ended.
pub struct SuiteRun {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `horef-si suite` with `args` on two threads. Every verification has its own
/// `--timeout` (or is tiny), so the whole run is bounded without a watchdog here.
pub fn suite(args: &[&str]) -> SuiteRun {
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

/// Asserts that every run passed and that there were `at_least` runs; prints the summary.
pub fn assert_all_pass(run: &SuiteRun, what: &str, at_least: usize) {
    let last = run.stdout.lines().last().unwrap_or("");
    println!("{what}: {last}");
    assert_eq!(run.code, Some(0), "{what}:\n{}\n{}", run.stdout, run.stderr);
    let passed: usize = last
        .strip_suffix(" passed, 0 failed")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{what}: unexpected last line `{last}`"));
    assert!(passed >= at_least, "{what}: only {passed} runs");
}

/// The first `line:col` written right after `file:` in `text`, if any.
pub fn location_after(text: &str, file: &str) -> Option<(u32, u32)> {
    let prefix = format!("{file}:");
    text.match_indices(&prefix)
        .find_map(|(at, _)| line_col(&text[at + prefix.len()..]))
}

/// Parses `line:col` at the start of `text` (both numbers at least 1).
fn line_col(text: &str) -> Option<(u32, u32)> {
    let (line, rest) = number(text)?;
    let (col, _) = number(rest.strip_prefix(':')?)?;
    (line >= 1 && col >= 1).then_some((line, col))
}

fn number(text: &str) -> Option<(u32, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    Some((text[..digits].parse().ok()?, &text[digits..]))
}

/// A small deterministic generator (xorshift64*), so "random" inputs are the same on every
/// run and a failure can be reproduced from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// What a test program expects, from its first line after `prefix` (`"(* expect: "`,
/// `"// expect: "`); panics, naming the file, when the line is missing.
pub fn expectation(file: &Path, prefix: &str) -> String {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix(prefix))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{}: no `{}` line", file.display(), prefix.trim()))
}
