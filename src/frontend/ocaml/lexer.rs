//! Turns OCaml source text into tokens.
//!
//! Guarantees: every byte of the input is part of a token, whitespace, a (nested) comment
//! `(* ... *)` or an attribute `[@...]`/`[@@...]`/`[@@@...]` (skipped, as MoCHi's
//! `[@@@assert ...]`), or else a [`Diagnostic`] at its position. Integer literals are
//! unbounded. Constructs of OCaml outside the subset that the lexer can already recognise
//! (floats, characters) are named in the error. A run of OCaml's operator characters that
//! starts an infix symbol (`$ & * + - / = > @ ^ | % <`) and is not one of the fixed
//! punctuation tokens is one [`Tok::Op`] (`>>=`, `+!`, `|>>`), as OCaml's lexer reads it.

use crate::diagnostics::Diagnostic;
use crate::span::Span;
use num_bigint::BigInt;
use std::fmt;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A lowercase identifier (or `_`-led); `_` alone is [`Tok::Underscore`].
    Ident(Rc<str>),
    /// A capitalised identifier (constructor or module name).
    UIdent(Rc<str>),
    /// A type variable `'a`.
    TyVar(Rc<str>),
    Int(BigInt),
    Str(Rc<str>),
    Keyword(&'static str),
    Punct(&'static str),
    /// An infix operator symbol other than the fixed punctuation (`>>=`, `+!`).
    Op(Rc<str>),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(n) | Tok::UIdent(n) => write!(f, "identifier `{n}`"),
            Tok::TyVar(n) => write!(f, "type variable `'{n}`"),
            Tok::Int(i) => write!(f, "integer `{i}`"),
            Tok::Str(_) => write!(f, "a string"),
            Tok::Keyword(k) | Tok::Punct(k) => write!(f, "`{k}`"),
            Tok::Op(k) => write!(f, "operator `{k}`"),
            Tok::Eof => write!(f, "end of file"),
        }
    }
}

/// A token with its span.
#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// OCaml's keywords (all reserved, so that unsupported ones are named, not misread).
const KEYWORDS: &[&str] = &[
    "and",
    "as",
    "assert",
    "asr",
    "begin",
    "class",
    "constraint",
    "do",
    "done",
    "downto",
    "else",
    "end",
    "exception",
    "external",
    "false",
    "for",
    "fun",
    "function",
    "functor",
    "if",
    "in",
    "include",
    "inherit",
    "initializer",
    "land",
    "lazy",
    "let",
    "lor",
    "lsl",
    "lsr",
    "lxor",
    "match",
    "method",
    "mod",
    "module",
    "mutable",
    "new",
    "nonrec",
    "object",
    "of",
    "open",
    "or",
    "private",
    "rec",
    "sig",
    "struct",
    "then",
    "to",
    "true",
    "try",
    "type",
    "val",
    "virtual",
    "when",
    "while",
    "with",
];

/// Punctuation, longest first so that the first match is the longest.
const PUNCT: &[&str] = &[
    ";;", "::", ":=", "->", "<-", "|>", "@@", "<=", ">=", "<>", "==", "!=", "&&", "||", "[|", "|]",
    "[<", "[>", "**", "..", "(", ")", "[", "]", "{", "}", ",", ";", ":", "=", "<", ">", "+", "-",
    "*", "/", "!", "|", "&", "@", "^", ".", "#", "~", "?", "%", "$",
];

/// Tokenises `text`; the last token is [`Tok::Eof`].
pub fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut lexer = Lexer {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        tokens: Vec::new(),
    };
    lexer.run()?;
    Ok(lexer.tokens)
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
}

impl Lexer<'_> {
    fn run(&mut self) -> Result<(), Diagnostic> {
        loop {
            self.skip_trivia()?;
            let start = self.pos;
            let Some(&b) = self.bytes.get(self.pos) else {
                self.push(Tok::Eof, start);
                return Ok(());
            };
            let tok = self.token(b)?;
            self.push(tok, start);
        }
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.tokens.push(Token {
            tok,
            span: Span::new(start, self.pos),
        });
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn error(&self, start: usize, message: impl Into<String>, label: &str) -> Diagnostic {
        let end = (start + 1).min(self.text.len()).max(start);
        Diagnostic::error(Span::new(start, end), message, label)
    }

    fn skip_trivia(&mut self) -> Result<(), Diagnostic> {
        loop {
            match self.peek(0) {
                Some(b) if b.is_ascii_whitespace() => self.pos += 1,
                Some(b'(') if self.peek(1) == Some(b'*') && self.peek(2) != Some(b')') => {
                    self.comment()?
                }
                Some(b'[') if self.peek(1) == Some(b'@') => self.attribute()?,
                _ => return Ok(()),
            }
        }
    }

    /// A comment, nesting as in OCaml; string literals inside are skipped whole.
    fn comment(&mut self) -> Result<(), Diagnostic> {
        let start = self.pos;
        let mut depth = 0usize;
        while self.pos < self.bytes.len() {
            match (self.bytes[self.pos], self.peek(1)) {
                (b'(', Some(b'*')) => {
                    depth += 1;
                    self.pos += 2;
                }
                (b'*', Some(b')')) => {
                    depth -= 1;
                    self.pos += 2;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                (b'"', _) => {
                    self.string()?;
                }
                _ => self.pos += 1,
            }
        }
        Err(self.error(
            start,
            "unterminated comment",
            "this comment is never closed",
        ))
    }

    /// An attribute `[@...]`, `[@@...]` or `[@@@...]`: skipped up to its matching `]`.
    fn attribute(&mut self) -> Result<(), Diagnostic> {
        let start = self.pos;
        let mut depth = 0usize;
        while self.pos < self.bytes.len() {
            match self.bytes[self.pos] {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return Ok(());
                    }
                }
                b'"' => {
                    self.string()?;
                    continue;
                }
                _ => {}
            }
            self.pos += 1;
        }
        Err(self.error(start, "unterminated attribute", "this `[@` is never closed"))
    }

    fn token(&mut self, b: u8) -> Result<Tok, Diagnostic> {
        match b {
            b'0'..=b'9' => self.number(),
            b'a'..=b'z' | b'_' => Ok(self.word(false)),
            b'A'..=b'Z' => Ok(self.word(true)),
            b'"' => self.string(),
            b'\'' => self.quote(),
            _ => self.punct(),
        }
    }

    fn word(&mut self, upper: bool) -> Tok {
        let start = self.pos;
        while let Some(b) = self.peek(0) {
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'\'' {
                self.pos += 1;
            } else {
                break;
            }
        }
        let text = &self.text[start..self.pos];
        if upper {
            return Tok::UIdent(text.into());
        }
        match KEYWORDS.iter().find(|k| **k == text) {
            Some(k) => Tok::Keyword(k),
            None if text == "_" => Tok::Punct("_"),
            None => Tok::Ident(text.into()),
        }
    }

    fn number(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        if self.peek(0) == Some(b'0')
            && matches!(self.peek(1), Some(b'x' | b'X' | b'o' | b'O' | b'b' | b'B'))
        {
            return Err(self.error(
                start,
                "hexadecimal, octal and binary literals are not supported",
                "write the number in decimal",
            ));
        }
        while matches!(self.peek(0), Some(b'0'..=b'9' | b'_')) {
            self.pos += 1;
        }
        if matches!(self.peek(0), Some(b'.' | b'e' | b'E')) && self.peek(1) != Some(b'.') {
            return Err(self.error(
                start,
                "floating-point numbers are not supported (the subset has `int` only)",
                "a float literal",
            ));
        }
        if matches!(self.peek(0), Some(b'l' | b'L' | b'n')) {
            return Err(self.error(
                start,
                "int32/int64/nativeint literals are not supported",
                "a boxed integer literal",
            ));
        }
        let digits: String = self.text[start..self.pos]
            .chars()
            .filter(|c| *c != '_')
            .collect();
        let value = digits
            .parse::<BigInt>()
            .map_err(|_| self.error(start, "malformed integer literal", "here"))?;
        // OCaml reads a literal up to 2^62 (which is `min_int` unless negated) and rejects
        // a larger one with this message.
        if value > BigInt::from(1u64 << 62) {
            return Err(self.error(
                start,
                "integer literal exceeds the range of representable integers of type int",
                "OCaml's `int` is `-2^62 ..= 2^62 - 1` (`min_int ..= max_int`)",
            ));
        }
        Ok(Tok::Int(value))
    }

    /// A string literal; escapes are kept as written (strings are only printed, never read).
    fn string(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        self.pos += 1;
        while let Some(b) = self.peek(0) {
            self.pos += 1;
            match b {
                b'"' => return Ok(Tok::Str(self.text[start + 1..self.pos - 1].into())),
                b'\\' if self.pos < self.bytes.len() => self.pos += 1,
                _ => {}
            }
        }
        Err(self.error(
            start,
            "unterminated string literal",
            "this string is never closed",
        ))
    }

    /// `'a` (a type variable) or a character literal (not supported).
    fn quote(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        let is_char = self.peek(1) == Some(b'\\') || self.peek(2) == Some(b'\'');
        if is_char {
            return Err(self.error(
                start,
                "characters are not supported (the subset has no `char`)",
                "a character literal",
            ));
        }
        self.pos += 1;
        if !matches!(self.peek(0), Some(b'a'..=b'z' | b'A'..=b'Z' | b'_')) {
            return Err(self.error(
                start,
                "unexpected `'`",
                "expected a type variable such as `'a`",
            ));
        }
        match self.word(false) {
            Tok::Ident(name) => Ok(Tok::TyVar(name)),
            Tok::Keyword(k) => Ok(Tok::TyVar(k.into())),
            _ => Ok(Tok::TyVar("_".into())),
        }
    }

    /// A run of operator characters that OCaml reads as one infix symbol, if it is not one
    /// of [`PUNCT`].
    fn user_operator(&mut self) -> Option<Tok> {
        const START: &[u8] = b"$&*+-/=>@^|%<";
        const REST: &[u8] = b"!$%&*+-./:<=>?@^|~";
        let rest = &self.bytes[self.pos..];
        if !START.contains(rest.first()?) {
            return None;
        }
        let len = rest.iter().take_while(|b| REST.contains(b)).count();
        let text = &self.text[self.pos..self.pos + len];
        if len < 2 || PUNCT.contains(&text) {
            return None;
        }
        self.pos += len;
        Some(Tok::Op(text.into()))
    }

    fn punct(&mut self) -> Result<Tok, Diagnostic> {
        if let Some(op) = self.user_operator() {
            return Ok(op);
        }
        let rest = &self.bytes[self.pos..];
        match PUNCT.iter().find(|p| rest.starts_with(p.as_bytes())) {
            Some(p) => {
                self.pos += p.len();
                Ok(Tok::Punct(p))
            }
            None => {
                let c = self.text[self.pos..].chars().next().unwrap_or('?');
                Err(self.error(
                    self.pos,
                    format!("unexpected character `{c}`"),
                    "not part of any OCaml token",
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        lex(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn words_numbers_and_punctuation() {
        assert_eq!(
            toks("let rec f x = x :: [] (* c (* nested *) *) ;; 'a Some"),
            vec![
                Tok::Keyword("let"),
                Tok::Keyword("rec"),
                Tok::Ident("f".into()),
                Tok::Ident("x".into()),
                Tok::Punct("="),
                Tok::Ident("x".into()),
                Tok::Punct("::"),
                Tok::Punct("["),
                Tok::Punct("]"),
                Tok::Punct(";;"),
                Tok::TyVar("a".into()),
                Tok::UIdent("Some".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn attributes_are_skipped_and_unit_is_not_a_comment() {
        assert_eq!(
            toks("f () [@@@assert \"typeof(main) <: int -> unit\"]"),
            vec![
                Tok::Ident("f".into()),
                Tok::Punct("("),
                Tok::Punct(")"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn floats_and_chars_are_named() {
        assert!(lex("1.5").unwrap_err().message.contains("floating-point"));
        assert!(lex("'c'").unwrap_err().message.contains("characters"));
        assert!(
            lex("(* open")
                .unwrap_err()
                .message
                .contains("unterminated comment")
        );
    }
}
