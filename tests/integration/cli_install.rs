//! The CLI as users install it (issue 14): shell completions, the man page, `--version`
//! naming the solver, and programs read from stdin with `-`.

use crate::common;

use common::horef_si;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn completions_are_generated_for_bash_zsh_and_fish() {
    for shell in ["bash", "zsh", "fish"] {
        let run = horef_si(["completions", shell]);
        assert_eq!(run.code, Some(0), "{shell}: {run:#?}");
        for word in ["verify", "suite", "max-depth", "witness", "cache"] {
            assert!(run.stdout.contains(word), "{shell} completions lack {word}");
        }
    }
    let bad = horef_si(["completions", "tcsh"]);
    assert_eq!(bad.code, Some(1), "{bad:#?}");
}

#[test]
fn the_man_page_is_roff_naming_every_command() {
    let run = horef_si(["manpage"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(
        run.stdout.contains(".TH horef-si"),
        "{}",
        &run.stdout[..200.min(run.stdout.len())]
    );
    for command in [
        "check",
        "verify",
        "run",
        "lower",
        "suite",
        "completions",
        "manpage",
    ] {
        assert!(run.stdout.contains(command), "the man page lacks {command}");
    }
}

#[test]
fn version_names_the_solver_found() {
    let run = horef_si(["--version"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    let mut lines = run.stdout.lines();
    assert_eq!(
        lines.next(),
        Some(concat!("horef-si ", env!("CARGO_PKG_VERSION")))
    );
    let z3 = lines.next().expect("a solver line");
    assert!(z3.starts_with("solver: z3 "), "{z3}");
    // The version z3 itself reports, when z3 is on PATH.
    if let Ok(out) = Command::new("z3").arg("--version").output() {
        let own = String::from_utf8_lossy(&out.stdout);
        assert!(
            z3.contains(own.lines().next().unwrap_or("?").trim()),
            "{z3} vs {own}"
        );
    }
}

/// Runs horef-si with `stdin` as its standard input.
fn with_stdin(args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_horef-si"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start horef-si");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().expect("horef-si ends")
}

const BUGGY: &str = "Main (n:Int) :Unit: assert (n != 7)\n";

#[test]
fn a_program_is_read_from_stdin_with_a_dash() {
    let check = with_stdin(&["check", "-"], BUGGY);
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    assert!(String::from_utf8_lossy(&check.stdout).contains("<stdin>"));
    let verify = with_stdin(&["verify", "-", "--format", "json"], BUGGY);
    assert_eq!(verify.status.code(), Some(10), "{verify:?}");
    let json: serde_json::Value = serde_json::from_slice(&verify.stdout).unwrap();
    assert_eq!(json["inputs"]["n"], "7");
    let run = with_stdin(&["run", "-", "--arg", "n=7"], BUGGY);
    assert_eq!(run.status.code(), Some(10), "{run:?}");
    let bad = with_stdin(&["check", "-"], "Main (n:Int) :Unit: assert (n +)\n");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("<stdin>:1:"),
        "{bad:?}"
    );
}
