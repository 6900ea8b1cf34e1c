//! The parser of the IR's text syntax (a subset of Boogie's): text to [`Program`].
//!
//! Guarantees: [`parse`] never panics and never overflows the stack, on any input; every
//! failure is a [`ParseError`] with a 1-based line and column and an "expected X, found Y"
//! style message. A successful parse has every name resolved (see `resolve`), but may still
//! be ill-typed: run [`crate::verify`] on it. For every program `p` that passes verification,
//! `parse(&print(&p)) == Ok(p)`.
//!
//! Stages: `lexer` (text to tokens), `parser` (tokens to an unresolved syntax tree),
//! `resolve` (names to typed ids).

mod lexer;
mod parser;
mod resolve;
mod syntax;

pub use lexer::{KEYWORDS, is_keyword, is_valid_name};

/// The deepest recursion (and the tallest expression tree) the parser accepts.
pub const MAX_NESTING: usize = 1000;

use crate::ir::{Expr, Program};

/// A syntax or name-resolution error at a 1-based position of the IR text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// Parses a whole program.
pub fn parse(text: &str) -> Result<Program, ParseError> {
    let tokens = lexer::lex(text)?;
    let raw = parser::Parser::new(tokens).program()?;
    resolve::program(&raw)
}

/// Parses a comma-separated list of closed expressions (constructor applications and
/// literals, e.g. `5, -1, cons(1, nil())`) against the datatypes of `program`; the empty
/// text is the empty list. Used for run inputs.
pub fn parse_exprs(program: &Program, text: &str) -> Result<Vec<Expr>, ParseError> {
    let tokens = lexer::lex(text)?;
    let raw = parser::Parser::new(tokens).expr_list_to_end()?;
    resolve::closed_exprs(program, &raw)
}

#[cfg(test)]
mod tests;
