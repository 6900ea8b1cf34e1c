//! The front end as one call: read a file, parse it, check it.
//!
//! Guarantees: [`load`] either returns a checked program or diagnostics that point into the
//! file; unreadable files and non-UTF-8 bytes are diagnostics too, never panics.

use crate::diagnostics::Diagnostic;
use crate::names::FunctionNames;
use crate::span::{SourceFile, Span};
use crate::syntax::{ast::Program, parse_program};
use crate::typecheck::{TypeInfo, check_program};
use std::path::Path;

/// A parsed and type-checked HORef program with its source.
#[derive(Debug)]
pub struct Checked {
    pub file: SourceFile,
    pub program: Program,
    pub info: TypeInfo,
    pub names: FunctionNames,
}

/// Why a file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read at all.
    Io { path: String, error: std::io::Error },
    /// The file was read but is not a valid program.
    Invalid {
        file: SourceFile,
        diagnostics: Vec<Diagnostic>,
    },
}

impl LoadError {
    /// The full message for a terminal: every diagnostic with its source line.
    pub fn render(&self) -> String {
        match self {
            LoadError::Io { path, error } => format!("error: cannot read `{path}`: {error}"),
            LoadError::Invalid { file, diagnostics } => {
                crate::diagnostics::render_all(diagnostics, file)
            }
        }
    }
}

/// Reads, parses and checks the HORef file at `path`.
pub fn load(path: &Path) -> Result<Checked, LoadError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|error| LoadError::Io {
        path: name.clone(),
        error,
    })?;
    load_bytes(&name, &bytes)
}

/// Parses and checks `bytes` as the contents of a file called `name`.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Result<Checked, LoadError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(e) => return Err(not_utf8(name, bytes, e)),
    };
    let file = SourceFile::new(name, text);
    let program = match parse_program(&file.text) {
        Ok(program) => program,
        Err(d) => return Err(invalid(file, vec![d])),
    };
    let info = match check_program(&program) {
        Ok(info) => info,
        Err(diagnostics) => return Err(invalid(file, diagnostics)),
    };
    let names = FunctionNames::new(&program, &file);
    Ok(Checked {
        file,
        program,
        info,
        names,
    })
}

fn invalid(file: SourceFile, diagnostics: Vec<Diagnostic>) -> LoadError {
    LoadError::Invalid { file, diagnostics }
}

fn not_utf8(name: &str, bytes: &[u8], e: std::str::Utf8Error) -> LoadError {
    let at = e.valid_up_to();
    let file = SourceFile::new(name, String::from_utf8_lossy(bytes).into_owned());
    let lossy_at = String::from_utf8_lossy(&bytes[..at]).len();
    let d = Diagnostic::error(
        Span::new(lossy_at, lossy_at + 1),
        format!("the file is not valid UTF-8 (byte {at})"),
        "invalid byte here",
    );
    invalid(file, vec![d])
}
