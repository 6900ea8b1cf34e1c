//! What stops a suite before it runs: a path that is not there, a file that cannot be read,
//! a malformed header expectation or manifest.
//!
//! Guarantees: every [`SuiteError`] names the file, and where it can, the 1-based line (and
//! column) of the problem, as `file:line:col: message`. A suite with any of these errors
//! does not run (exit 2): a broken suite definition is not a failing program.

use super::expect::ExpectError;
use super::manifest::ManifestError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error("error: `{}` does not exist", .path.display())]
    Missing { path: PathBuf },
    #[error("error: cannot read `{}`: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "error: {}: the suite runs HORef programs (`.horef`, or `.txt` beside a manifest), \
         not this kind of file",
        .path.display()
    )]
    NotAProgram { path: PathBuf },
    #[error("error: {}:{line}:{col}: {error}", .path.display())]
    Expectation {
        path: PathBuf,
        line: usize,
        col: usize,
        error: ExpectError,
    },
    #[error("error: cannot use `{}` as the result cache: {source}", .path.display())]
    Cache {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("error: {}:{line}: {error}", .path.display())]
    Manifest {
        path: PathBuf,
        line: usize,
        error: ManifestError,
    },
}
