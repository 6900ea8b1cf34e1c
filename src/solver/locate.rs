//! Finding the solver program: a name on PATH, with pyenv shims seen through.
//!
//! `pip install z3-solver` under pyenv puts a shim on PATH: a shell script that runs
//! `pyenv exec z3`, which costs about 150 ms per start against 10 ms for the binary — most of
//! the time of a small verification, and of a suite of them. Asking `pyenv which z3` costs
//! the same again (0.1–0.4 s), once per process, which is every `horef-si verify`.
//! [`program`] therefore resolves a shim the way pyenv does, without running it: the version
//! from `PYENV_VERSION`, else the nearest `.python-version` from the working directory up,
//! else `$PYENV_ROOT/version`; the first of its versions whose `bin/` holds the program wins.
//! Only when that finds nothing (`system`, a version prefix, an unusual set-up) does it ask
//! `pyenv which`; and a name not on PATH comes back unchanged, so the normal PATH lookup
//! (and its `NotFound` error) applies. Each name is resolved once per process.
//! [`installed`] names the solver found and its version (for `--version` and the suite's
//! result cache).

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
    let Some(root) = pyenv_root_of_shim(&found) else {
        return found.into_os_string();
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let versions = pyenv_versions(&root, &cwd, std::env::var_os("PYENV_VERSION"));
    let real = versions
        .iter()
        .map(|v| root.join("versions").join(v).join("bin").join(name))
        .find(|candidate| is_executable(candidate))
        .or_else(|| pyenv_which(name));
    real.unwrap_or(found).into_os_string()
}

/// `$PYENV_ROOT` when `path` is a pyenv shim (`$PYENV_ROOT/shims/NAME`).
fn pyenv_root_of_shim(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    if dir.file_name()? != "shims" || !dir.to_string_lossy().contains("pyenv") {
        return None;
    }
    Some(dir.parent()?.to_path_buf())
}

/// The selected pyenv versions, in order (pyenv's `version-name`), from `cwd` and the value
/// of `PYENV_VERSION`.
fn pyenv_versions(root: &Path, cwd: &Path, env: Option<OsString>) -> Vec<String> {
    if let Some(env) = env.filter(|v| !v.is_empty()) {
        return words(&env.to_string_lossy().replace(':', " "));
    }
    let local = cwd
        .ancestors()
        .map(|dir| dir.join(".python-version"))
        .find(|file| file.is_file());
    let file = local.unwrap_or_else(|| root.join("version"));
    std::fs::read_to_string(file)
        .map(|text| words(&text))
        .unwrap_or_default()
}

/// The whitespace-separated words of a version file, without `#` comments.
fn words(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(str::to_string)
        .collect()
}

fn pyenv_which(name: &str) -> Option<PathBuf> {
    Command::new("pyenv")
        .args(["which", name])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .filter(|p| p.is_file())
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

/// The solver a run would start, as `--version` and the suite cache name it: the program
/// found on PATH and the first line of its `--version` output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    pub path: PathBuf,
    pub version: String,
}

/// The solver `name` found on PATH and its version (`None` when it is not found or does
/// not answer `--version`). Asked once per process.
pub fn installed(name: &str) -> Option<Installed> {
    static Z3: OnceLock<Option<Installed>> = OnceLock::new();
    static CVC5: OnceLock<Option<Installed>> = OnceLock::new();
    let cell = if name == "z3" { &Z3 } else { &CVC5 };
    cell.get_or_init(|| ask_version(name)).clone()
}

fn ask_version(name: &str) -> Option<Installed> {
    let path = PathBuf::from(program(name));
    let output = Command::new(&path)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&output.stdout);
    let version = text.lines().next()?.trim().to_string();
    Some(Installed { path, version })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shim_names_its_pyenv_root() {
        let root = pyenv_root_of_shim(Path::new("/home/u/.pyenv/shims/z3"));
        assert_eq!(root, Some(PathBuf::from("/home/u/.pyenv")));
        assert_eq!(pyenv_root_of_shim(Path::new("/usr/bin/z3")), None);
        assert_eq!(pyenv_root_of_shim(Path::new("/opt/shims/z3")), None);
    }

    #[test]
    fn the_nearest_version_file_wins_and_comments_are_skipped() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("version"), "3.11.7\n").unwrap();
        let project = root.path().join("project/sub");
        std::fs::create_dir_all(&project).unwrap();
        let local = root.path().join("project/.python-version");
        std::fs::write(&local, "# pinned\n3.12.1 3.10.13\n").unwrap();
        let versions =
            |env: Option<&str>| pyenv_versions(root.path(), &project, env.map(Into::into));
        assert_eq!(versions(None), ["3.12.1", "3.10.13"]);
        assert_eq!(versions(Some("3.9.18:3.8.18")), ["3.9.18", "3.8.18"]);
        std::fs::remove_file(&local).unwrap();
        assert_eq!(versions(None), ["3.11.7"]);
    }
}
