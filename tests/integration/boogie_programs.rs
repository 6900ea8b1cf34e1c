//! Our Boogie programs (`tests/boogie/<name>/program.bpl`, CORRAL-style: one folder each,
//! the expected answer and the bound it depends on in `expected.txt`) through the Boogie
//! front end and the same engine as `horef-si verify`. Needs `z3` on PATH.
//!
//! - `verdict: bug within N`: a bug confirmed by replay at depth N, none at N - 1;
//! - `verdict: safe up to K`: no bug at depth K (VERIFIED, being stronger, also passes);
//! - `verdict: verified`: VERIFIED at depth 5;
//! - `verdict: bug within recursion bound N` / `... stack depth bound D`: with CORRAL's
//!   bound (`--recursion-bound N`, `--stack-depth-bound D`) and a depth bound that does not
//!   matter (50), a bug at N, none at N - 1 — in both modes, `si` and `unroll`;
//! - `verdict: safe up to recursion bound N`: no bug at recursion bound N, in both modes;
//! - `error: TEXT`: the front end rejects the program with a message containing TEXT.

use horef_si::engine::CallBounds;
use horef_si::engine::Mode;
use horef_si::engine::verdict::Verdict;
use horef_si::engine::{Options, verify_ir};
use horef_si::frontend::boogie::translate;
use horef_si::span::SourceFile;
use std::path::{Path, PathBuf};

fn verdict(program: &boogie_like::Program, depth: u32) -> Verdict {
    let options = Options {
        max_depth: depth,
        ..Options::default()
    };
    verify_ir(program, &options).verdict
}

/// The depth bound of the runs under CORRAL's bounds: deeper than any of these programs
/// goes within them, so the answers depend on CORRAL's bounds alone.
const UNLIMITING_DEPTH: u32 = 50;

/// The verdict under CORRAL's bound `kind` (`recursion` or `stack depth`) set to `n`.
fn bounded_verdict(program: &boogie_like::Program, kind: &str, n: u32, mode: Mode) -> Verdict {
    let bounds = match kind {
        "recursion" => CallBounds {
            recursion: Some(n),
            stack_depth: None,
        },
        _ => CallBounds {
            recursion: None,
            stack_depth: Some(n),
        },
    };
    let options = Options {
        max_depth: UNLIMITING_DEPTH,
        bounds,
        mode,
        ..Options::default()
    };
    verify_ir(program, &options).verdict
}

/// Checks a `bug within` / `safe up to` line under CORRAL's bound `kind` = `n`, in both
/// modes.
fn check_bounded(
    name: &str,
    program: &boogie_like::Program,
    (bug, kind, n): (bool, &str, u32),
) -> Result<(), String> {
    let is_bug = |v: &Verdict| matches!(v, Verdict::Bug { .. });
    let is_safe = |v: &Verdict| matches!(v, Verdict::SafeUpTo { bounds, .. } if !bounds.is_none());
    for mode in [Mode::Si, Mode::Unroll] {
        let at = format!("{name} ({mode:?}) at {kind} bound");
        let got = bounded_verdict(program, kind, n, mode);
        let below = (bug && n > 1).then(|| bounded_verdict(program, kind, n - 1, mode));
        match (bug, got, below) {
            (true, got, _) if !is_bug(&got) => return Err(format!("{at} {n}: got {got:?}")),
            (true, _, Some(below)) if !is_safe(&below) => {
                return Err(format!("{at} {}: got {below:?}", n - 1));
            }
            (false, got, _) if !is_safe(&got) && got != Verdict::Verified => {
                return Err(format!("{at} {n}: got {got:?}"));
            }
            _ => {}
        }
    }
    Ok(())
}

fn folders() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boogie");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/boogie")
        .flatten()
        .map(|d| d.path())
        .filter(|p| p.join("program.bpl").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn check_folder(dir: &Path) -> Result<(), String> {
    let name = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let text = std::fs::read_to_string(dir.join("program.bpl")).map_err(|e| e.to_string())?;
    let expected = std::fs::read_to_string(dir.join("expected.txt")).map_err(|e| e.to_string())?;
    let line = expected
        .lines()
        .find(|l| l.starts_with("verdict: ") || l.starts_with("error: "))
        .ok_or(format!("{name}: no verdict or error line"))?;
    let file = SourceFile::new(format!("{name}/program.bpl"), text);
    let translated = translate(&file, None);
    if let Some(wanted) = line.strip_prefix("error: ") {
        return match translated {
            Err(d) if d.message.contains(wanted) => Ok(()),
            Err(d) => Err(format!(
                "{name}: expected an error with `{wanted}`, got `{}`",
                d.message
            )),
            Ok(_) => Err(format!(
                "{name}: expected an error with `{wanted}`, the program translated"
            )),
        };
    }
    let program = translated.map_err(|d| format!("{name}: {}", d.render(&file)))?;
    let words: Vec<&str> = line["verdict: ".len()..].split_whitespace().collect();
    match words.as_slice() {
        ["bug", "within", kind @ ("recursion" | "stack"), rest @ ..]
        | [
            "safe",
            "up",
            "to",
            kind @ ("recursion" | "stack"),
            rest @ ..,
        ] => {
            let (kind, n) = match (*kind, rest) {
                ("recursion", ["bound", n]) => ("recursion", n),
                ("stack", ["depth", "bound", n]) => ("stack depth", n),
                _ => return Err(format!("{name}: unknown verdict {words:?}")),
            };
            let n: u32 = n.parse().map_err(|_| format!("{name}: bad bound"))?;
            check_bounded(&name, &program, (words[0] == "bug", kind, n))
        }
        ["verified"] => expect(&name, 5, verdict(&program, 5), |v| *v == Verdict::Verified),
        ["bug", "within", n] => {
            let n: u32 = n.parse().map_err(|_| format!("{name}: bad depth"))?;
            expect(&name, n, verdict(&program, n), |v| {
                matches!(v, Verdict::Bug { .. })
            })?;
            if n == 0 {
                return Ok(());
            }
            expect(&name, n - 1, verdict(&program, n - 1), |v| {
                matches!(v, Verdict::SafeUpTo { .. })
            })
        }
        ["safe", "up", "to", k] => {
            let k: u32 = k.parse().map_err(|_| format!("{name}: bad depth"))?;
            expect(&name, k, verdict(&program, k), |v| {
                matches!(v, Verdict::SafeUpTo { .. } | Verdict::Verified)
            })
        }
        other => Err(format!("{name}: unknown verdict {other:?}")),
    }
}

fn expect(
    name: &str,
    depth: u32,
    got: Verdict,
    ok: impl Fn(&Verdict) -> bool,
) -> Result<(), String> {
    if ok(&got) {
        Ok(())
    } else {
        Err(format!("{name} at depth {depth}: got {got:?}"))
    }
}

#[test]
fn every_boogie_program_gets_its_expected_answer() {
    let dirs = folders();
    let failures: Vec<String> = dirs.iter().filter_map(|d| check_folder(d).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(dirs.len() >= 50, "only {} Boogie programs", dirs.len());
}

/// Every program that translates prints as IR text that parses back to the same program
/// (quantifiers, uninterpreted sorts and code expressions' formulas included).
#[test]
fn every_translated_program_round_trips_through_ir_text() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for dir in folders() {
        let text = std::fs::read_to_string(dir.join("program.bpl")).expect("program.bpl");
        let file = SourceFile::new(dir.display().to_string(), text);
        let Ok(program) = translate(&file, None) else {
            continue;
        };
        let printed = boogie_like::print(&program);
        match boogie_like::parse(&printed) {
            Ok(back) if back == program => checked += 1,
            Ok(_) => failures.push(format!("{}: parsed back differently", dir.display())),
            Err(e) => failures.push(format!("{}: {e}\n{printed}", dir.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 50, "only {checked} programs translated");
}
