//! Suites: a directory of programs with `(* expect: ... *)` headers, or a directory with an
//! `expected.csv` manifest (the shared BMC-2 suite's format: `program,k,expect,...`, one
//! row per program and depth, `expect` = `bug` or `no_bug`).
//!
//! Headers are read by [`crate::expect::from_header`] (`horef_si`'s `header_expectation`),
//! manifests by `horef_si::suite::manifest::parse_manifest`.
//!
//! Guarantees: programs come in file-name order; every program of a header suite has a
//! well-formed header, every manifest is well-formed (no (program, k) pair twice), and
//! every program of a manifest exists as `NAME.txt` or `NAME.horef` (else an error naming
//! it).

use crate::expect::{Claim, from_header};
use horef_si::suite::expect::Expectation;
use horef_si::suite::manifest::{MANIFEST_NAME, ManifestRow, parse_manifest};
use std::path::{Path, PathBuf};

/// Where a program's expectations come from.
#[derive(Clone, Debug)]
pub enum Expect {
    Header(Expectation),
    /// The program's manifest rows, one per depth.
    Manifest(Vec<ManifestRow>),
}

#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub path: PathBuf,
    pub lines: usize,
    pub expect: Expect,
}

#[derive(Clone, Debug)]
pub struct Suite {
    pub name: String,
    pub programs: Vec<Program>,
}

impl Program {
    /// What a run with `--max-depth k` must answer.
    pub fn expected(&self, k: u32) -> Claim {
        match &self.expect {
            Expect::Header(e) => Claim::at(*e, k),
            Expect::Manifest(rows) => rows
                .iter()
                .find(|row| row.k == k)
                .map_or(Claim::Unchecked, |row| row.expect.into()),
        }
    }
}

/// Loads the suite in `dir`: by its manifest when it has `expected.csv`, else by headers.
pub fn load(dir: &Path) -> Result<Suite, String> {
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());
    let manifest = dir.join(MANIFEST_NAME);
    let programs = if manifest.exists() {
        from_manifest(dir, &manifest)?
    } else {
        from_headers(dir)?
    };
    Ok(Suite { name, programs })
}

fn from_headers(dir: &Path) -> Result<Vec<Program>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "horef"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = read(&path)?;
            let expect = from_header(&text)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .ok_or_else(|| format!("{}: no `(* expect: ... *)` header", path.display()))?;
            Ok(program(path, &text, Expect::Header(expect)))
        })
        .collect()
}

fn from_manifest(dir: &Path, manifest: &Path) -> Result<Vec<Program>, String> {
    let rows = parse_manifest(&read(manifest)?)
        .map_err(|e| format!("{}:{}: {}", manifest.display(), e.line, e.error))?;
    rows.into_iter()
        .map(|(name, rows)| {
            let path = ["txt", "horef"]
                .iter()
                .map(|ext| dir.join(format!("{name}.{ext}")))
                .find(|p| p.exists())
                .ok_or_else(|| format!("{}: no program file for `{name}`", dir.display()))?;
            let text = read(&path)?;
            Ok(program(path, &text, Expect::Manifest(rows)))
        })
        .collect()
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn program(path: PathBuf, text: &str, expect: Expect) -> Program {
    let name = path
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    Program {
        name,
        lines: text.lines().count(),
        path,
        expect,
    }
}
