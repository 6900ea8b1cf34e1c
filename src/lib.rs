//! horef-si: a stratified-inlining verifier for higher-order programs with references.
//!
//! The pipeline (DESIGN.md §3) flows one way:
//! source → [`syntax`] (tokens, AST) → [`typecheck`] (types, name resolution) →
//! [`interp`] (the concrete bounded interpreter, the oracle for every bug we report).

pub mod cli;
pub mod diagnostics;
pub mod engine;
pub mod exchange;
pub mod exit_code;
pub mod frontend;
pub mod inputs;
pub mod interp;
pub mod ir_file;
pub mod lower;
pub mod method_scope;
pub mod names;
pub mod progress_line;
pub mod proof_cases;
pub mod refine;
pub mod solver;
pub mod span;
pub mod suite;
pub mod syntax;
pub mod typecheck;
pub mod vc;

pub use diagnostics::Diagnostic;
pub use span::{LineCol, SourceFile, Span};
