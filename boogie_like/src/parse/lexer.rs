//! The lexer: text to tokens with 1-based line/column positions.
//!
//! Guarantees: never panics; every input either lexes to a token list ending in [`Tok::Eof`]
//! or yields one [`ParseError`] at the offending character. Block comments nest (as in
//! Boogie); `\name` is an identifier even when `name` is a keyword.

use num_bigint::BigInt;

use super::ParseError;

/// The reserved words of the IR syntax.
pub const KEYWORDS: [&str; 20] = [
    "datatype",
    "var",
    "procedure",
    "returns",
    "modifies",
    "call",
    "if",
    "then",
    "else",
    "assume",
    "assert",
    "havoc",
    "return",
    "true",
    "false",
    "int",
    "bool",
    "is",
    "div",
    "mod",
];

/// Multi-character punctuation, longest first so that maximal munch works.
const PUNCTS: [&str; 27] = [
    "==>", "==", "!=", "<=", ">=", ":=", "->", "&&", "||", "{:", "(", ")", "{", "}", "[", "]", ",",
    ";", ":", "<", ">", "+", "-", "*", "/", "%", "!",
];

/// A token kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    Int(BigInt),
    Kw(&'static str),
    Punct(&'static str),
    Eof,
}

impl Tok {
    /// How the token is named in "expected X, found Y" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Ident(name) => format!("identifier `{name}`"),
            Tok::Int(n) => format!("integer `{n}`"),
            Tok::Kw(k) => format!("`{k}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

/// Whether `c` may appear in a Boogie identifier.
pub fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_'.$#~^?".contains(c)
}

/// Whether `name` can be written as an identifier (possibly escaped as `\name` when it is
/// a keyword): non-empty, identifier characters only, not starting with a digit.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if is_ident_char(c) && !c.is_ascii_digit())
        && chars.all(is_ident_char)
}

/// Whether `name` is a keyword (and so must be printed as `\name`).
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

struct Lexer<'a> {
    chars: &'a [char],
    pos: usize,
    line: u32,
    col: u32,
}

/// Splits `text` into tokens; the last one is [`Tok::Eof`].
pub(crate) fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut lexer = Lexer {
        chars: &chars,
        pos: 0,
        line: 1,
        col: 1,
    };
    let mut tokens = Vec::new();
    loop {
        lexer.skip_trivia()?;
        let (line, col) = (lexer.line, lexer.col);
        let tok = lexer.next_token()?;
        let done = tok == Tok::Eof;
        tokens.push(Token { tok, line, col });
        if done {
            return Ok(tokens);
        }
    }
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek(0) {
            self.pos += 1;
            if c == '\n' {
                self.line = self.line.saturating_add(1);
                self.col = 1;
            } else {
                self.col = self.col.saturating_add(1);
            }
        }
    }

    fn error(&self, message: String) -> ParseError {
        ParseError {
            line: self.line,
            col: self.col,
            message,
        }
    }

    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(c), _) if c.is_whitespace() => self.bump(),
                (Some('/'), Some('/')) => self.skip_line_comment(),
                (Some('/'), Some('*')) => self.skip_block_comment()?,
                _ => return Ok(()),
            }
        }
    }

    fn skip_line_comment(&mut self) {
        while !matches!(self.peek(0), None | Some('\n')) {
            self.bump();
        }
    }

    fn skip_block_comment(&mut self) -> Result<(), ParseError> {
        let (line, col) = (self.line, self.col);
        let mut depth = 0usize;
        loop {
            match (self.peek(0), self.peek(1)) {
                (None, _) => {
                    let message = "unterminated comment: expected `*/`, found end of input";
                    return Err(ParseError {
                        line,
                        col,
                        message: message.to_string(),
                    });
                }
                (Some('/'), Some('*')) => {
                    self.bump_n(2);
                    depth += 1;
                }
                (Some('*'), Some('/')) => {
                    self.bump_n(2);
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => self.bump(),
            }
        }
    }

    fn bump_n(&mut self, n: usize) {
        (0..n).for_each(|_| self.bump());
    }

    fn next_token(&mut self) -> Result<Tok, ParseError> {
        let Some(c) = self.peek(0) else {
            return Ok(Tok::Eof);
        };
        if c.is_ascii_digit() {
            return Ok(self.number());
        }
        if c == '\\' {
            return self.escaped_ident();
        }
        if is_ident_char(c) {
            return Ok(self.word());
        }
        self.punct()
    }

    fn take_while(&mut self, pred: impl Fn(char) -> bool) -> String {
        let mut text = String::new();
        while let Some(c) = self.peek(0).filter(|c| pred(*c)) {
            text.push(c);
            self.bump();
        }
        text
    }

    fn number(&mut self) -> Tok {
        let digits = self.take_while(|c| c.is_ascii_digit());
        match digits.parse::<BigInt>() {
            Ok(n) => Tok::Int(n),
            Err(_) => panic!("internal error: digit string `{digits}` is not an integer"),
        }
    }

    fn word(&mut self) -> Tok {
        let word = self.take_while(is_ident_char);
        match KEYWORDS.iter().find(|k| **k == word) {
            Some(k) => Tok::Kw(k),
            None => Tok::Ident(word),
        }
    }

    fn escaped_ident(&mut self) -> Result<Tok, ParseError> {
        self.bump();
        let name = self.take_while(is_ident_char);
        if is_valid_name(&name) {
            Ok(Tok::Ident(name))
        } else {
            Err(self.error("expected an identifier after `\\`".to_string()))
        }
    }

    fn punct(&mut self) -> Result<Tok, ParseError> {
        for p in PUNCTS {
            let len = p.chars().count();
            if p.chars().enumerate().all(|(i, c)| self.peek(i) == Some(c)) {
                self.bump_n(len);
                return Ok(Tok::Punct(p));
            }
        }
        let c = self.peek(0).unwrap_or(' ');
        Err(self.error(format!("unexpected character `{}`", c.escape_debug())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        lex(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn lexes_operators_by_maximal_munch() {
        let toks = kinds("a==>b==c<=d:=e->f!=!g");
        let puncts: Vec<_> = toks
            .iter()
            .filter_map(|t| {
                if let Tok::Punct(p) = t {
                    Some(*p)
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(puncts, vec!["==>", "==", "<=", ":=", "->", "!=", "!"]);
    }

    #[test]
    fn identifiers_keep_boogie_characters_and_escapes() {
        assert_eq!(
            kinds("f' x.y#1 \\if if"),
            vec![
                Tok::Ident("f'".into()),
                Tok::Ident("x.y#1".into()),
                Tok::Ident("if".into()),
                Tok::Kw("if"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn comments_nest_and_positions_count_lines() {
        let toks = lex("/* a /* b */ c */ x // y\n  z").unwrap();
        assert_eq!((toks[0].line, toks[0].col), (1, 19));
        assert_eq!(
            (toks[1].tok.clone(), toks[1].line, toks[1].col),
            (Tok::Ident("z".into()), 2, 3)
        );
    }

    #[test]
    fn lex_errors_have_positions() {
        let err = lex("x\n  @").unwrap_err();
        assert_eq!((err.line, err.col), (2, 3));
        assert!(err.message.contains("unexpected character `@`"));
        assert!(
            lex("/* open")
                .unwrap_err()
                .message
                .contains("unterminated comment")
        );
        assert!(lex("\\ x").is_err());
        assert!(is_valid_name("f'") && !is_valid_name("1x") && !is_valid_name(""));
    }

    #[test]
    fn big_integers_survive() {
        let big = "123456789012345678901234567890";
        assert_eq!(kinds(big)[0], Tok::Int(big.parse().unwrap()));
    }
}
