//! horef-si: a stratified-inlining verifier for higher-order programs with references.
//!
//! The pipeline (docs/architecture.md) flows one way:
//! source → [`frontend`] (tokens, AST) → [`core_lang::typecheck`] (types, name resolution) →
//! [`core_lang::interp`] (the concrete bounded interpreter, the oracle for every bug we report).

pub mod cli;
pub mod core_lang;
pub mod diagnostics;
pub mod engine;
pub mod exchange;
pub mod exit_code;
pub mod frontend;
pub mod lower;
pub mod report;
pub mod solver;
pub mod span;
pub mod suite;
pub mod vc;
pub mod verifier;

pub use diagnostics::Diagnostic;
pub use span::{LineCol, SourceFile, Span};
