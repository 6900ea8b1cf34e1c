//! The HORef front end: BMC-2's concrete syntax read into the core AST
//! ([`crate::core_lang::ast`]). HORef is the core language's own surface syntax, so this
//! front end is only a lexer and a parser; checking is the core's.

pub mod lexer;
pub mod parser;

pub use parser::{MAX_NESTING, parse_program};
