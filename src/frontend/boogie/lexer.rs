//! Turns Boogie 2 source text into tokens.
//!
//! Guarantees: every byte of the input is part of a token, whitespace or a comment (`// …`,
//! `/* … */`), or else a [`Diagnostic`] at its position; never a panic. Identifiers use
//! Boogie's characters (letters, digits, `_ . $ # ' ? ^ ~ \``, not starting with a digit; a
//! leading `\` escapes a keyword). Integer literals are unbounded; bit-vector and real
//! literals are named as unsupported.

use crate::diagnostics::Diagnostic;
use crate::span::Span;
use num_bigint::BigInt;
use std::fmt;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(Rc<str>),
    Int(BigInt),
    Str(Rc<str>),
    Keyword(&'static str),
    Punct(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(n) => write!(f, "identifier `{n}`"),
            Tok::Int(i) => write!(f, "integer `{i}`"),
            Tok::Str(_) => write!(f, "a string"),
            Tok::Keyword(k) | Tok::Punct(k) => write!(f, "`{k}`"),
            Tok::Eof => write!(f, "end of file"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

pub const KEYWORDS: &[&str] = &[
    "var",
    "const",
    "unique",
    "axiom",
    "type",
    "function",
    "procedure",
    "implementation",
    "returns",
    "requires",
    "ensures",
    "modifies",
    "free",
    "invariant",
    "assert",
    "assume",
    "havoc",
    "call",
    "if",
    "then",
    "else",
    "while",
    "break",
    "return",
    "goto",
    "old",
    "int",
    "bool",
    "true",
    "false",
    "forall",
    "exists",
    "lambda",
    "div",
    "mod",
    "datatype",
    "is",
    "where",
    "complete",
    "extends",
    "finite",
    "async",
    "par",
    "yield",
    "real",
];

/// Punctuation, longest first so that the first match is the longest.
pub const PUNCTS: &[&str] = &[
    "<==>", "==>", "<==", ":=", "::", "==", "!=", "<=", ">=", "<:", "&&", "||", "++", "{:", "->",
    "+", "-", "*", "/", "%", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ";", ":", "|", "=",
];

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || "_.$#'?^~`".contains(c)
}

fn is_ident_char(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// The tokens of `text`, ending with [`Tok::Eof`].
pub fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut lexer = Lexer { text, pos: 0 };
    let mut tokens = Vec::new();
    loop {
        lexer.skip_trivia()?;
        let start = lexer.pos;
        let Some(c) = lexer.peek() else {
            tokens.push(Token {
                tok: Tok::Eof,
                span: Span::new(start, start),
            });
            return Ok(tokens);
        };
        let tok = lexer.token(c)?;
        tokens.push(Token {
            tok,
            span: Span::new(start, lexer.pos),
        });
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl Lexer<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_trivia(&mut self) -> Result<(), Diagnostic> {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if self.rest().starts_with("//") {
                let line = self.rest().find('\n').unwrap_or(self.rest().len());
                self.pos += line;
            } else if self.rest().starts_with("/*") {
                self.block_comment()?;
            } else {
                return Ok(());
            }
        }
    }

    /// A `/* … */` comment; they nest, as in Boogie.
    fn block_comment(&mut self) -> Result<(), Diagnostic> {
        let start = self.pos;
        let mut depth = 0usize;
        while !self.rest().is_empty() {
            if self.rest().starts_with("/*") {
                depth += 1;
                self.pos += 2;
            } else if self.rest().starts_with("*/") {
                depth -= 1;
                self.pos += 2;
                if depth == 0 {
                    return Ok(());
                }
            } else {
                self.pos += self.peek().map_or(1, char::len_utf8);
            }
        }
        Err(Diagnostic::error(
            Span::new(start, start + 2),
            "unterminated comment: expected `*/`",
            "comment starts here",
        ))
    }

    fn token(&mut self, c: char) -> Result<Tok, Diagnostic> {
        if c.is_ascii_digit() {
            return self.number();
        }
        if c == '"' {
            return self.string();
        }
        if c == '\\' && self.rest()[1..].starts_with(is_ident_start) {
            self.pos += 1;
            return Ok(Tok::Ident(self.word().into()));
        }
        if is_ident_start(c) {
            let word = self.word();
            return Ok(match KEYWORDS.iter().find(|k| **k == word) {
                Some(k) => Tok::Keyword(k),
                None => Tok::Ident(word.into()),
            });
        }
        match PUNCTS.iter().find(|p| self.rest().starts_with(**p)) {
            Some(p) => {
                self.pos += p.len();
                Ok(Tok::Punct(p))
            }
            None => Err(Diagnostic::error(
                Span::new(self.pos, self.pos + c.len_utf8()),
                format!("unexpected character `{c}`"),
                "not part of Boogie's syntax",
            )),
        }
    }

    fn word(&mut self) -> &str {
        let start = self.pos;
        let len = self
            .rest()
            .find(|c: char| !is_ident_char(c))
            .unwrap_or(self.rest().len());
        self.pos += len;
        &self.text[start..self.pos]
    }

    fn number(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        let digits = self.rest().find(|c: char| !c.is_ascii_digit());
        self.pos += digits.unwrap_or(self.rest().len());
        let value: BigInt = self.text[start..self.pos].parse().unwrap_or_default();
        let kind = if self.rest().starts_with("bv") {
            Some("bit-vector literals")
        } else if self.rest().starts_with('.')
            && self.rest()[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            Some("real literals")
        } else {
            None
        };
        match kind {
            Some(what) => Err(super::unsupported(Span::new(start, self.pos + 1), what)),
            None => Ok(Tok::Int(value)),
        }
    }

    fn string(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        self.pos += 1;
        match self.rest().find(['"', '\n']) {
            Some(end) if self.rest()[end..].starts_with('"') => {
                let s = self.rest()[..end].to_string();
                self.pos += end + 1;
                Ok(Tok::Str(s.into()))
            }
            _ => Err(Diagnostic::error(
                Span::new(start, start + 1),
                "unterminated string: expected `\"`",
                "string starts here",
            )),
        }
    }
}
