//! The OCaml front end: the subset of OCaml that the MoCHi benchmark programs are written in,
//! plus top-level references (docs/ocaml.md).
//!
//! Pipeline: [`lexer`] → [`parser`] (AST, [`ast`]) → [`infer`] (Hindley–Milner with
//! let-polymorphism, [`types`]) → [`to_core`] (specialisation per use, translation into the
//! shared core: the HORef AST that the checker, the interpreter and the lowering read).
//!
//! Guarantees: [`translate`] returns a core program that the HORef checker accepts, or
//! diagnostics pointing into the `.ml` file (syntax and type errors, constructs outside the
//! subset named as such); it never panics. The core program's spans point into the `.ml`
//! file, so traces, failures and witnesses show OCaml positions.

pub mod ast;
pub mod infer;
pub mod lexer;
pub mod or_patterns;
pub mod parser;
pub mod stdlib;
pub mod to_core;
pub mod types;

use crate::core_lang::ast as core;
use crate::diagnostics::Diagnostic;

/// Parses, infers and translates `text` (the contents of a `.ml` file) into the core.
pub fn translate(text: &str, entry: Option<&str>) -> Result<core::Program, Diagnostic> {
    let mut program = parser::parse_program(text)?;
    let typing = infer::infer_program(&mut program)?;
    to_core::to_core(&program, &typing, entry)
}
