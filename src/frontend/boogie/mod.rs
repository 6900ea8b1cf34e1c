//! The Boogie 2 front end: a `.bpl` file to an IR program (the language of "This is
//! Boogie 2", read as CORRAL reads it; docs/boogie.md lists what is supported).
//!
//! [`emit`] prints any IR program as Boogie text this front end reads back.
//!
//! Pipeline: [`lexer`] → [`parser`] (syntax tree [`ast`]) → [`codeexpr`] (code
//! expressions as the formulas they mean) → [`types`] (type synonyms) →
//! [`macros`] (definitional axioms as function bodies) → [`to_ir`] (names, types,
//! contracts, the entry; statements in [`stmt`], expressions in [`expr`]) → an IR program
//! that passes `boogie_like::verify`.
//!
//! Guarantees: [`translate`] never panics; a program outside the supported subset gets one
//! [`Diagnostic`] at the construct ("unsupported: …"), a malformed one a diagnostic saying
//! what was expected.

pub mod ast;
pub mod codeexpr;
pub mod decls;
pub mod emit;
pub mod expr;
pub mod lexer;
pub mod macros;
pub mod parser;
pub mod stmt;
pub mod to_ir;
pub mod types;

use crate::diagnostics::Diagnostic;
use crate::span::{SourceFile, Span};
use boogie_like::ir::Program as IrProgram;

/// Parses and translates the Boogie program in `file`; `entry` names the entry procedure
/// (else the one marked `{:entrypoint}`, else `main`).
pub fn translate(file: &SourceFile, entry: Option<&str>) -> Result<IrProgram, Diagnostic> {
    let mut program = parser::parse(&file.text)?;
    codeexpr::lower(&mut program, &file.text)?;
    types::resolve(&mut program)?;
    macros::inline_definitions(&mut program);
    to_ir::translate(&program, file, entry)
}

/// Whether `name` is a Boogie file (`.bpl`).
pub fn is_boogie_file(name: &str) -> bool {
    name.ends_with(".bpl")
}

/// The error for a Boogie construct the front end does not support (yet).
pub fn unsupported(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("unsupported: {what}"),
        "not supported by horef-si's Boogie front end (see docs/boogie.md)",
    )
}
