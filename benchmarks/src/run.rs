//! Running `horef-si verify` as a subprocess, the way a user does.
//!
//! Guarantees: each run gets the verifier's own `--timeout` and, as a safety net, is killed
//! (with its whole process group, so the solver too) a few seconds after it; the wall time is
//! measured around the process, start-up included. A run that does not print a JSON report
//! is an `error` (a hard kill is a `timeout`), never a verdict.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How to run the verifier.
#[derive(Clone, Debug)]
pub struct Runner {
    pub binary: PathBuf,
    /// Seconds, passed as `--timeout`.
    pub timeout: f64,
}

/// What one run answered.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The report's `verdict`, or `timeout` / `error`.
    pub verdict: String,
    pub seconds: f64,
    /// The reason of an `unknown`, or what went wrong.
    pub detail: String,
}

/// Grace period after the verifier's own timeout before the process group is killed.
const GRACE: Duration = Duration::from_secs(10);

impl Runner {
    /// `horef-si verify FILE --max-depth K --mode MODE --timeout T --format json`; the mode
    /// `si-no-summaries` is `--mode si --no-summaries`.
    pub fn verify(&self, file: &Path, k: u32, mode: &str) -> Outcome {
        let start = Instant::now();
        let child = Command::new(&self.binary)
            .arg("verify")
            .arg(file)
            .args(["--max-depth", &k.to_string()])
            .args(mode_args(mode))
            .args(["--timeout", &self.timeout.to_string(), "--format", "json"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn();
        match child {
            Ok(child) => self.finish(child, start),
            Err(e) => Outcome {
                verdict: "error".to_string(),
                seconds: 0.0,
                detail: format!("cannot run {}: {e}", self.binary.display()),
            },
        }
    }

    fn finish(&self, mut child: Child, start: Instant) -> Outcome {
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let deadline = Duration::from_secs_f64(self.timeout) + GRACE;
        let killed = loop {
            match child.try_wait() {
                Ok(Some(_)) => break false,
                Ok(None) if start.elapsed() > deadline => {
                    kill_group(&mut child);
                    break true;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break false,
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let stdout = stdout.join().unwrap_or_default();
        let stderr = stderr.join().unwrap_or_default();
        if killed {
            return Outcome {
                verdict: "timeout".to_string(),
                seconds,
                detail: "killed after the timeout".to_string(),
            };
        }
        parse_report(&stdout, &stderr, seconds)
    }
}

/// The command-line options of a mode name.
pub fn mode_args(mode: &str) -> Vec<&str> {
    match mode {
        "si-no-summaries" => vec!["--mode", "si", "--no-summaries"],
        other => vec!["--mode", other],
    }
}

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    })
}

/// Kills the child's process group (the verifier and its solver).
fn kill_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let killed = Command::new("kill").args(["-KILL", "--", &group]).status();
    if !killed.is_ok_and(|s| s.success()) {
        let _ = child.kill();
    }
    let _ = child.wait();
}

fn parse_report(stdout: &str, stderr: &str, seconds: f64) -> Outcome {
    let report: Option<serde_json::Value> = serde_json::from_str(stdout.trim()).ok();
    let verdict = report
        .as_ref()
        .and_then(|r| r.get("verdict"))
        .and_then(|v| v.as_str());
    match verdict {
        Some(verdict) => Outcome {
            verdict: verdict.to_string(),
            seconds,
            detail: report
                .as_ref()
                .and_then(|r| r.get("reason"))
                .and_then(|r| r.as_str())
                .unwrap_or_default()
                .to_string(),
        },
        None => Outcome {
            verdict: "error".to_string(),
            seconds,
            detail: last_chars(
                if stderr.trim().is_empty() {
                    stdout
                } else {
                    stderr
                },
                300,
            ),
        },
    }
}

fn last_chars(text: &str, n: usize) -> String {
    let chars: Vec<char> = text.trim().chars().collect();
    chars[chars.len().saturating_sub(n)..].iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_json_report() {
        let out = parse_report(r#"{"verdict":"unknown","reason":"timeout"}"#, "", 1.5);
        assert_eq!(out.verdict, "unknown");
        assert_eq!(out.detail, "timeout");
        let bad = parse_report("", "error: cannot read", 0.1);
        assert_eq!(bad.verdict, "error");
        assert_eq!(bad.detail, "error: cannot read");
    }
}
