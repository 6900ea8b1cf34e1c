//! Turns HORef source text into tokens.
//!
//! Guarantees: every byte of the input is either part of a token, whitespace, or a comment
//! `(* ... *)` (comments nest, as in OCaml; a comment that nesting leaves open at the end of
//! the file ends at its first `*)`, as the BMC-2 tool's comments do); anything else is a
//! [`LexError`] at its position.
//! Integer literals are unbounded. `-` is always its own token: the parser decides between
//! binary minus and a negative literal.

use crate::span::Span;
use num_bigint::BigInt;
use std::fmt;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(Rc<str>),
    Int(BigInt),
    // keywords
    Let,
    Rec,
    In,
    If,
    Then,
    Else,
    Fun,
    Assert,
    Skip,
    Fail,
    PairKw,
    Fst,
    Snd,
    Hd,
    Tl,
    IsEmpty,
    IntTy,
    UnitTy,
    ListTy,
    /// `Ref`, the reference type (our extension).
    RefTy,
    /// `ref`, allocation (our extension).
    RefKw,
    Store,
    Methods,
    Main,
    // punctuation
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Semi,
    Colon,
    ColonEq,
    ColonColon,
    Arrow,
    Equals,
    EqEq,
    NotEq,
    Bang,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    AndAnd,
    OrOr,
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(name) => write!(f, "identifier `{name}`"),
            Tok::Int(i) => write!(f, "integer `{i}`"),
            Tok::Eof => write!(f, "end of file"),
            other => write!(f, "`{}`", other.text()),
        }
    }
}

impl Tok {
    /// The fixed spelling of a keyword or punctuation token.
    pub fn text(&self) -> &'static str {
        match self {
            Tok::Let => "let",
            Tok::Rec => "rec",
            Tok::In => "in",
            Tok::If => "if",
            Tok::Then => "then",
            Tok::Else => "else",
            Tok::Fun => "fun",
            Tok::Assert => "assert",
            Tok::Skip => "skip",
            Tok::Fail => "fail",
            Tok::PairKw => "Pair",
            Tok::Fst => "fst",
            Tok::Snd => "snd",
            Tok::Hd => "hd",
            Tok::Tl => "tl",
            Tok::IsEmpty => "is_empty",
            Tok::IntTy => "Int",
            Tok::UnitTy => "Unit",
            Tok::ListTy => "List",
            Tok::RefTy => "Ref",
            Tok::RefKw => "ref",
            Tok::Store => "Store",
            Tok::Methods => "Methods",
            Tok::Main => "Main",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Semi => ";",
            Tok::Colon => ":",
            Tok::ColonEq => ":=",
            Tok::ColonColon => "::",
            Tok::Arrow => "->",
            Tok::Equals => "=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Bang => "!",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Ident(_) | Tok::Int(_) | Tok::Eof => "",
        }
    }
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "let" => Tok::Let,
        "rec" => Tok::Rec,
        "in" => Tok::In,
        "if" => Tok::If,
        "then" => Tok::Then,
        "else" => Tok::Else,
        "fun" => Tok::Fun,
        "assert" => Tok::Assert,
        "skip" => Tok::Skip,
        "fail" => Tok::Fail,
        "Pair" => Tok::PairKw,
        "fst" => Tok::Fst,
        "snd" => Tok::Snd,
        "hd" => Tok::Hd,
        "tl" => Tok::Tl,
        "is_empty" => Tok::IsEmpty,
        "Int" => Tok::IntTy,
        "Unit" => Tok::UnitTy,
        "List" => Tok::ListTy,
        "Ref" => Tok::RefTy,
        "ref" => Tok::RefKw,
        "Store" => Tok::Store,
        "Methods" => Tok::Methods,
        "Main" => Tok::Main,
        _ => return None,
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// A lexical error: what was found and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub span: Span,
    pub message: String,
    pub label: String,
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let mut lexer = Lexer {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        tokens: Vec::new(),
    };
    lexer.run()?;
    Ok(lexer.tokens)
}

/// The longest integer literal accepted (parsing decimal digits is quadratic).
pub const MAX_DIGITS: usize = 10_000;

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'\''
}

impl Lexer<'_> {
    fn run(&mut self) -> Result<(), LexError> {
        loop {
            self.skip_trivia()?;
            let start = self.pos;
            let Some(&c) = self.bytes.get(self.pos) else {
                self.push(Tok::Eof, start);
                return Ok(());
            };
            let tok = if is_ident_start(c) {
                self.word()
            } else if c.is_ascii_digit() {
                self.number()?
            } else {
                self.punct(c)?
            };
            self.push(tok, start);
        }
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.tokens.push(Token {
            tok,
            span: Span::new(start, self.pos),
        });
    }

    fn skip_trivia(&mut self) -> Result<(), LexError> {
        loop {
            match self.bytes.get(self.pos) {
                Some(c) if c.is_ascii_whitespace() => self.pos += 1,
                Some(b'(') if self.bytes.get(self.pos + 1) == Some(&b'*') => self.comment()?,
                _ => return Ok(()),
            }
        }
    }

    /// Skips a (possibly nested) comment starting at `(*`.
    fn comment(&mut self) -> Result<(), LexError> {
        let start = self.pos;
        let mut depth = 0usize;
        while self.pos < self.bytes.len() {
            if self.bytes[self.pos..].starts_with(b"(*") {
                depth += 1;
                self.pos += 2;
            } else if self.bytes[self.pos..].starts_with(b"*)") {
                depth -= 1;
                self.pos += 2;
                if depth == 0 {
                    return Ok(());
                }
            } else {
                self.pos += 1;
            }
        }
        // BMC-2's comments do not nest: `(* a (* b *)` is a whole comment there.
        if let Some(end) = find(&self.bytes[start + 2..], b"*)") {
            self.pos = start + 2 + end + 2;
            return Ok(());
        }
        Err(LexError {
            span: Span::new(start, start + 2),
            message: "unterminated comment".into(),
            label: "this comment is never closed with `*)`".into(),
        })
    }

    fn word(&mut self) -> Tok {
        let start = self.pos;
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|&c| is_ident_continue(c))
        {
            self.pos += 1;
        }
        let word = &self.text[start..self.pos];
        keyword(word).unwrap_or_else(|| Tok::Ident(word.into()))
    }

    fn number(&mut self) -> Result<Tok, LexError> {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        if self.pos - start > MAX_DIGITS {
            return Err(LexError {
                span: Span::new(start, start + 1),
                message: format!("integer literal with more than {MAX_DIGITS} digits"),
                label: "this literal is too long".into(),
            });
        }
        let digits = &self.text[start..self.pos];
        Ok(Tok::Int(
            digits
                .parse()
                .expect("internal error: digits parse as an integer"),
        ))
    }

    fn punct(&mut self, c: u8) -> Result<Tok, LexError> {
        let next = self.bytes.get(self.pos + 1).copied();
        let (tok, len) = match (c, next) {
            (b':', Some(b'=')) => (Tok::ColonEq, 2),
            (b':', Some(b':')) => (Tok::ColonColon, 2),
            (b'-', Some(b'>')) => (Tok::Arrow, 2),
            (b'=', Some(b'=')) => (Tok::EqEq, 2),
            (b'!', Some(b'=')) => (Tok::NotEq, 2),
            (b'<', Some(b'=')) => (Tok::Le, 2),
            (b'>', Some(b'=')) => (Tok::Ge, 2),
            (b'&', Some(b'&')) => (Tok::AndAnd, 2),
            (b'|', Some(b'|')) => (Tok::OrOr, 2),
            (b'(', _) => (Tok::LParen, 1),
            (b')', _) => (Tok::RParen, 1),
            (b'[', _) => (Tok::LBracket, 1),
            (b']', _) => (Tok::RBracket, 1),
            (b',', _) => (Tok::Comma, 1),
            (b';', _) => (Tok::Semi, 1),
            (b':', _) => (Tok::Colon, 1),
            (b'=', _) => (Tok::Equals, 1),
            (b'!', _) => (Tok::Bang, 1),
            (b'<', _) => (Tok::Lt, 1),
            (b'>', _) => (Tok::Gt, 1),
            (b'+', _) => (Tok::Plus, 1),
            (b'-', _) => (Tok::Minus, 1),
            (b'*', _) => (Tok::Star, 1),
            _ => return Err(self.unexpected_char()),
        };
        self.pos += len;
        Ok(tok)
    }

    fn unexpected_char(&self) -> LexError {
        let ch = self.text[self.pos..].chars().next().unwrap_or('\0');
        let message = match ch {
            '&' => "`&` is not an operator; did you mean `&&`?".to_string(),
            '|' => "`|` is not an operator; did you mean `||`?".to_string(),
            '/' => "division is not part of HORef".to_string(),
            _ => format!("unexpected character {ch:?}"),
        };
        LexError {
            span: Span::new(self.pos, self.pos + ch.len_utf8()),
            message,
            label: "not allowed here".into(),
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
    fn primes_belong_to_identifiers() {
        assert_eq!(toks("f'"), vec![Tok::Ident("f'".into()), Tok::Eof]);
    }

    #[test]
    fn minus_is_separate_from_digits() {
        assert_eq!(
            toks("x + -10"),
            vec![
                Tok::Ident("x".into()),
                Tok::Plus,
                Tok::Minus,
                Tok::Int(10.into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn comments_nest() {
        assert_eq!(toks("(* a (* b *) c *) skip"), vec![Tok::Skip, Tok::Eof]);
        assert!(lex("(* open").is_err());
        assert!(lex("(* open (* and closed once *)").is_ok());
    }

    #[test]
    fn a_comment_nesting_leaves_open_ends_at_its_first_close_as_in_bmc2() {
        let text = "(* a (* b *) skip (* c *) fail";
        assert_eq!(toks(text), vec![Tok::Skip, Tok::Fail, Tok::Eof]);
    }

    #[test]
    fn big_integers_do_not_wrap() {
        let big: BigInt = "123456789012345678901234567890".parse().unwrap();
        assert_eq!(
            toks("123456789012345678901234567890"),
            vec![Tok::Int(big), Tok::Eof]
        );
    }
}
