//! BenchExec runs horef-si through our tool-info module (`benchmarks/benchexec/horef_si.py`)
//! on the `small` task set of `benchmarks/benchexec/horef-si.xml`, and every task comes out
//! correct (`check_results.py` on the result file BenchExec wrote).
//!
//! BenchExec is a Python program (`pip install benchexec`; `.ci/run` installs it into the
//! checkout's `.venv`). Without `benchexec` on PATH this check is reported as **ignored**,
//! with the reason, never as passed — so this file runs under `libtest-mimic`
//! (`harness = false` in Cargo.toml), which decides that at run time. BenchExec runs in
//! `--no-container` mode: containers need user namespaces a CI machine may not grant; the
//! verdicts are the same.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn benchexec_present() -> bool {
    Command::new("benchexec")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn main() {
    let args = Arguments::from_args();
    let present = benchexec_present();
    if !present {
        eprintln!("note: `benchexec` is not on PATH: tests/benchexec_run.rs is ignored, not run");
    }
    let trial = Trial::test("benchexec_small_task_set_is_all_correct", small_task_set)
        .with_kind("needs benchexec")
        .with_ignored_flag(!present);
    libtest_mimic::run(&args, vec![trial]).exit();
}

fn small_task_set() -> Result<(), Failed> {
    let tool = Path::new(env!("CARGO_BIN_EXE_horef-si"));
    let tool_dir = tool.parent().ok_or("the binary has no directory")?;
    let out = tempfile::tempdir().map_err(|e| e.to_string())?;
    let run = Command::new("benchexec")
        .current_dir(root())
        .env("PYTHONPATH", root())
        .args(["benchmarks/benchexec/horef-si.xml", "--tasks", "small"])
        .arg("--no-container")
        .arg("--tool-directory")
        .arg(tool_dir)
        .arg("--outputpath")
        .arg(out.path().join("results/"))
        .output()
        .map_err(|e| format!("benchexec did not start: {e}"))?;
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    if !run.status.success() {
        return Err(format!("benchexec failed ({}):\n{log}", run.status).into());
    }
    let results: Vec<_> = std::fs::read_dir(out.path().join("results"))
        .map_err(|e| format!("no results directory: {e}\n{log}"))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".results.si.small.xml.bz2"))
        .collect();
    let [result] = results.as_slice() else {
        return Err(format!("expected one result file, found {results:?}\n{log}").into());
    };
    let check = Command::new("python3")
        .arg(root().join("benchmarks/benchexec/check_results.py"))
        .arg(result)
        .output()
        .map_err(|e| format!("check_results.py did not start: {e}"))?;
    let summary = String::from_utf8_lossy(&check.stdout).to_string();
    if !check.status.success() || !summary.contains("8 of 8 tasks correct") {
        return Err(format!("not every task is correct:\n{summary}\n{log}").into());
    }
    Ok(())
}
