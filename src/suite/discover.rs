//! Finding the programs of a suite and where their expectations come from.
//!
//! A path on the command line is a file or a directory. Directories are searched
//! recursively (hidden entries and symbolic links to directories are skipped): every
//! `*.horef` and `*.ml` (OCaml) file is a program, and in a directory that holds a manifest (`expected.csv`)
//! so is every `*.txt` file. A `.txt` program listed in its directory's manifest takes its
//! expectations from the manifest; every other program from its header. A file named on
//! the command line is a program whatever its extension (except Boogie `.bpl` and IR `.ir` files and
//! `expected.csv` itself).
//!
//! Guarantees: [`discover`] never panics; it reports every problem it finds (missing path,
//! unreadable file, bad header, bad manifest, a manifest row naming a missing program) at
//! once instead of stopping at the first; a file reached twice (through two paths) is one
//! program; programs come out sorted by path. The partition key of a program is its path
//! relative to the command-line path it was found under (`/`-separated; the file name for a
//! file named directly), so it is the same on every machine.

use super::error::SuiteError;
use super::expect::{Expectation, header_expectation};
use super::manifest::{MANIFEST_NAME, ManifestRow, parse_manifest};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// One program of the suite.
#[derive(Clone, Debug)]
pub struct Program {
    /// The path as the user will read it (the command-line path joined with the rest).
    pub path: PathBuf,
    /// The partition key: the path relative to the command-line path it was found under.
    pub key: String,
    pub source: Source,
}

/// Where a program's expectations come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Its header (`None`: it states no expectation).
    Header(Option<Expectation>),
    /// The rows of its directory's manifest.
    Manifest(Vec<ManifestRow>),
}

type Manifest = BTreeMap<String, Vec<ManifestRow>>;

/// Every program under `paths`, sorted by path, or every problem found.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Program>, Vec<SuiteError>> {
    let mut walk = Walk::default();
    for path in paths {
        walk.root(path);
    }
    if !walk.errors.is_empty() {
        return Err(walk.errors);
    }
    walk.programs.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(walk.programs)
}

#[derive(Default)]
struct Walk {
    programs: Vec<Program>,
    errors: Vec<SuiteError>,
    /// Canonical paths of the programs found so far.
    seen: HashSet<PathBuf>,
}

impl Walk {
    fn root(&mut self, path: &Path) {
        if path.is_dir() {
            self.dir(path, "");
        } else if path.is_file() {
            self.named_file(path);
        } else {
            self.errors.push(SuiteError::Missing { path: path.into() });
        }
    }

    /// A file named on the command line.
    fn named_file(&mut self, path: &Path) {
        let name = file_name(path);
        if has_extension(path, "bpl") || has_extension(path, "ir") || name == MANIFEST_NAME {
            return self
                .errors
                .push(SuiteError::NotAProgram { path: path.into() });
        }
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let manifest = self.manifest(dir.unwrap_or(Path::new(".")));
        self.program(path, name, manifest.as_ref());
    }

    /// Every program in `dir` and below; `prefix` is `dir` relative to the root.
    fn dir(&mut self, dir: &Path, prefix: &str) {
        let Some(entries) = self.entries(dir) else {
            return;
        };
        let manifest = self.manifest(dir);
        for path in entries {
            let key = format!("{prefix}{}", file_name(&path));
            if is_real_dir(&path) {
                self.dir(&path, &format!("{key}/"));
            } else if is_program(&path, manifest.is_some()) {
                self.program(&path, key, manifest.as_ref());
            }
        }
        if let Some(manifest) = &manifest {
            self.check_listed_programs_exist(dir, manifest);
        }
    }

    /// The visible entries of `dir`, sorted.
    fn entries(&mut self, dir: &Path) -> Option<Vec<PathBuf>> {
        let read = std::fs::read_dir(dir).and_then(|entries| {
            entries
                .map(|e| e.map(|e| e.path()))
                .collect::<std::io::Result<Vec<_>>>()
        });
        match read {
            Ok(mut paths) => {
                paths.retain(|p| !file_name(p).starts_with('.'));
                paths.sort();
                Some(paths)
            }
            Err(source) => {
                let path = dir.into();
                self.errors.push(SuiteError::Io { path, source });
                None
            }
        }
    }

    /// The manifest of `dir`, if it has one (a bad one is recorded as an error).
    fn manifest(&mut self, dir: &Path) -> Option<Manifest> {
        let path = dir.join(MANIFEST_NAME);
        if !path.is_file() {
            return None;
        }
        let text = self.read(&path)?;
        match parse_manifest(&text) {
            Ok(manifest) => Some(manifest),
            Err(e) => {
                self.errors.push(SuiteError::Manifest {
                    path,
                    line: e.line,
                    error: e.error,
                });
                None
            }
        }
    }

    fn check_listed_programs_exist(&mut self, dir: &Path, manifest: &Manifest) {
        for (name, rows) in manifest {
            if !dir.join(format!("{name}.txt")).is_file() {
                self.errors.push(SuiteError::Manifest {
                    path: dir.join(MANIFEST_NAME),
                    line: rows[0].line,
                    error: super::manifest::ManifestError::MissingProgram(name.clone()),
                });
            }
        }
    }

    fn program(&mut self, path: &Path, key: String, manifest: Option<&Manifest>) {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.into());
        if !self.seen.insert(canonical) {
            return;
        }
        let rows = manifest.and_then(|m| manifest_rows(path, m));
        let source = match rows {
            Some(rows) => Source::Manifest(rows),
            None => match self.header(path) {
                Some(expectation) => Source::Header(expectation),
                None => return,
            },
        };
        let path = path.into();
        self.programs.push(Program { path, key, source });
    }

    /// The header expectation; `None` when the file is unreadable or the header is bad.
    fn header(&mut self, path: &Path) -> Option<Option<Expectation>> {
        let text = self.read(path)?;
        match header_expectation(&text) {
            Ok(found) => Some(found.map(|l| l.value)),
            Err(e) => {
                self.errors.push(SuiteError::Expectation {
                    path: path.into(),
                    line: e.line,
                    col: e.col,
                    error: e.value,
                });
                None
            }
        }
    }

    /// The file's text (invalid UTF-8 replaced: loading the program reports it properly).
    fn read(&mut self, path: &Path) -> Option<String> {
        match std::fs::read(path) {
            Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Err(source) => {
                let path = path.into();
                self.errors.push(SuiteError::Io { path, source });
                None
            }
        }
    }
}

/// The manifest rows of a `.txt` program, if its manifest lists it.
fn manifest_rows(path: &Path, manifest: &Manifest) -> Option<Vec<ManifestRow>> {
    if !has_extension(path, "txt") {
        return None;
    }
    let stem = path.file_stem()?.to_string_lossy();
    manifest.get(stem.as_ref()).cloned()
}

/// Whether a file found in a directory is a program of the suite.
fn is_program(path: &Path, beside_manifest: bool) -> bool {
    path.is_file()
        && (has_extension(path, "horef")
            || has_extension(path, "ml")
            || beside_manifest && has_extension(path, "txt"))
}

fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension().is_some_and(|e| e == ext)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
