//! Finding the solver program: a name on PATH, with pyenv shims seen through.
//!
//! `pip install z3-solver` under pyenv puts a shim on PATH: a shell script that runs
//! `pyenv exec z3`, which costs about 150 ms per start against 10 ms for the binary — most of
//! the time of a small verification, and of a suite of them. [`program`] resolves such a
//! shim once per process (`pyenv which z3`) and otherwise returns the name unchanged, so
//! the normal PATH lookup (and its `NotFound` error) applies.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The program to start for solver `name` (`z3`, `cvc5`).
pub fn program(name: &str) -> OsString {
    static Z3: OnceLock<OsString> = OnceLock::new();
    static CVC5: OnceLock<OsString> = OnceLock::new();
    let cell = if name == "z3" { &Z3 } else { &CVC5 };
    cell.get_or_init(|| resolve(name)).clone()
}

fn resolve(name: &str) -> OsString {
    let Some(found) = on_path(name) else {
        return name.into();
    };
    if !found.to_string_lossy().contains("/.pyenv/shims/") {
        return found.into_os_string();
    }
    let real = Command::new("pyenv")
        .args(["which", name])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .filter(|p| p.is_file());
    real.unwrap_or(found).into_os_string()
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
