//! The HORef front end's syntax: tokens, the abstract syntax tree and the parser.

pub mod ast;
pub mod lexer;
pub mod parser;

pub use parser::{MAX_NESTING, parse_program};
