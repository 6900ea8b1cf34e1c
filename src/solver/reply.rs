//! Reading the solver's replies: cutting the output stream into whole s-expressions
//! ([`Framer`]) and parsing one into an owned tree ([`Sx`]).
//!
//! Guarantees: linear in the output size (each byte is scanned once by the framer and once by
//! the parser); never panics; a reply nested deeper than [`MAX_NESTING`] is an error rather
//! than a deep recursion. Replies are not interned into the term arena (which never frees).

use std::fmt;

/// Replies nested deeper than this are refused (a model value that deep is not a
/// counterexample anyone can read, and it keeps recursion in decoding bounded).
pub(crate) const MAX_NESTING: usize = 1000;

/// An s-expression as the solver printed it. Quoted symbols `|a b|` are stored unquoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sx {
    Atom(String),
    Str(String),
    List(Vec<Sx>),
}

impl Sx {
    pub(crate) fn atom(&self) -> Option<&str> {
        match self {
            Sx::Atom(a) => Some(a),
            _ => None,
        }
    }

    pub(crate) fn is_atom(&self, name: &str) -> bool {
        self.atom() == Some(name)
    }

    pub(crate) fn list(&self) -> Option<&[Sx]> {
        match self {
            Sx::List(items) => Some(items),
            _ => None,
        }
    }

    /// `(error "msg")` → `msg`.
    pub(crate) fn error_message(&self) -> Option<String> {
        match self.list()? {
            [head, Sx::Str(msg)] if head.is_atom("error") => Some(msg.clone()),
            [head, other] if head.is_atom("error") => Some(other.to_string()),
            _ => None,
        }
    }
}

impl fmt::Display for Sx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sx::Atom(a) => f.write_str(&crate::solver::terms::atom_text(a)),
            Sx::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            Sx::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Where the framer is inside the text it has scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Between,
    Atom,
    Str,
    /// Just saw a `"` inside a string: either the end or the first half of `""`.
    StrQuote,
    Bars,
    Comment,
}

/// Accumulates solver output and hands out one complete top-level datum at a time.
#[derive(Debug)]
pub(crate) struct Framer {
    buf: String,
    /// Bytes of `buf` already scanned.
    scanned: usize,
    /// Start of the current datum in `buf`.
    start: Option<usize>,
    depth: usize,
    mode: Mode,
}

impl Framer {
    pub(crate) fn new() -> Framer {
        Framer {
            buf: String::new(),
            scanned: 0,
            start: None,
            depth: 0,
            mode: Mode::Between,
        }
    }

    pub(crate) fn push(&mut self, text: &str) {
        self.buf.push_str(text);
    }

    /// The output not yet handed out (a reply in the making).
    pub(crate) fn pending(&self) -> &str {
        &self.buf
    }

    /// The text of the next complete datum, if the output so far holds one.
    pub(crate) fn next_datum(&mut self) -> Option<String> {
        let end = self.scan()?;
        let start = self.start.take().unwrap_or(0);
        let datum = self.buf[start..end].to_string();
        self.buf.drain(..end);
        self.scanned = 0;
        self.mode = Mode::Between;
        self.depth = 0;
        Some(datum)
    }

    /// Scans unscanned bytes; returns the end offset of a finished datum.
    fn scan(&mut self) -> Option<usize> {
        while let Some(c) = self.buf[self.scanned..].chars().next() {
            let at = self.scanned;
            if let Some(end) = self.step(c, at) {
                return Some(end);
            }
            self.scanned += c.len_utf8();
        }
        None
    }

    /// One character; `Some(end)` when a top-level datum ends before or at it.
    fn step(&mut self, c: char, at: usize) -> Option<usize> {
        match self.mode {
            Mode::Comment => self.in_comment(c),
            Mode::Str => self.in_string(c),
            Mode::StrQuote => return self.after_string_quote(c, at),
            Mode::Bars => self.in_bars(c),
            Mode::Atom => return self.in_atom(c, at),
            Mode::Between => return self.between(c, at),
        }
        None
    }

    fn in_comment(&mut self, c: char) {
        if c == '\n' {
            self.mode = Mode::Between;
        }
    }

    fn in_string(&mut self, c: char) {
        if c == '"' {
            self.mode = Mode::StrQuote;
        }
    }

    fn in_bars(&mut self, c: char) {
        if c == '|' {
            self.mode = Mode::Atom;
        }
    }

    fn after_string_quote(&mut self, c: char, at: usize) -> Option<usize> {
        if c == '"' {
            self.mode = Mode::Str;
            return None;
        }
        self.mode = Mode::Between;
        if self.depth == 0 {
            return Some(at);
        }
        self.between(c, at)
    }

    fn in_atom(&mut self, c: char, at: usize) -> Option<usize> {
        if c == '|' {
            self.mode = Mode::Bars;
            return None;
        }
        if c.is_whitespace() || "()\";".contains(c) {
            self.mode = Mode::Between;
            if self.depth == 0 {
                return Some(at);
            }
            return self.between(c, at);
        }
        None
    }

    fn between(&mut self, c: char, at: usize) -> Option<usize> {
        if c.is_whitespace() {
            return None;
        }
        if self.depth == 0 && c != ';' && self.start.is_none() {
            self.start = Some(at);
        }
        match c {
            ';' => self.mode = Mode::Comment,
            '"' => self.mode = Mode::Str,
            '|' => self.mode = Mode::Bars,
            '(' => self.depth += 1,
            // A `)` at depth 0 is a datum of its own; the parser rejects it.
            ')' if self.depth <= 1 => return Some(at + 1),
            ')' => self.depth -= 1,
            _ => self.mode = Mode::Atom,
        }
        None
    }
}

/// A token of one complete datum.
enum Token {
    Open,
    Close,
    Leaf(Sx),
}

/// Parses the text of exactly one datum (as cut by the [`Framer`]).
pub(crate) fn parse(text: &str) -> Result<Sx, String> {
    let mut stack: Vec<Vec<Sx>> = Vec::new();
    let mut lexer = Lexer { text, pos: 0 };
    let mut result = None;
    while let Some(token) = lexer.next_token()? {
        if result.is_some() {
            return Err("more than one s-expression".to_string());
        }
        let done = match token {
            Token::Open if stack.len() >= MAX_NESTING => {
                return Err(format!("nested deeper than {MAX_NESTING} levels"));
            }
            Token::Open => {
                stack.push(Vec::new());
                continue;
            }
            Token::Close => Sx::List(stack.pop().ok_or("unbalanced `)`")?),
            Token::Leaf(leaf) => leaf,
        };
        match stack.last_mut() {
            Some(top) => top.push(done),
            None => result = Some(done),
        }
    }
    match (result, stack.is_empty()) {
        (Some(sx), true) => Ok(sx),
        (None, true) => Err("empty reply".to_string()),
        (_, false) => Err("unbalanced `(`".to_string()),
    }
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn next_token(&mut self) -> Result<Option<Token>, String> {
        self.skip_blanks();
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let token = match c {
            '(' => {
                self.bump();
                Token::Open
            }
            ')' => {
                self.bump();
                Token::Close
            }
            '"' => Token::Leaf(Sx::Str(self.string()?)),
            _ => Token::Leaf(Sx::Atom(self.symbol()?)),
        };
        Ok(Some(token))
    }

    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek() {
            if c == ';' {
                while self.bump().is_some_and(|c| c != '\n') {}
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// A string literal; `""` inside stands for one `"`.
    fn string(&mut self) -> Result<String, String> {
        self.bump();
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return Err("unterminated string".to_string()),
                Some('"') if self.peek() == Some('"') => {
                    self.bump();
                    out.push('"');
                }
                Some('"') => return Ok(out),
                Some(c) => out.push(c),
            }
        }
    }

    /// A symbol, keyword or numeral; `|...|` parts are taken verbatim, without the bars.
    fn symbol(&mut self) -> Result<String, String> {
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "()\";".contains(c) {
                break;
            }
            self.bump();
            if c == '|' {
                self.quoted_part(&mut out)?;
            } else {
                out.push(c);
            }
        }
        Ok(out)
    }

    fn quoted_part(&mut self, out: &mut String) -> Result<(), String> {
        loop {
            match self.bump() {
                None => return Err("unterminated `|` symbol".to_string()),
                Some('|') => return Ok(()),
                Some(c) => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(chunks: &[&str]) -> Vec<String> {
        let mut framer = Framer::new();
        let mut out = Vec::new();
        for chunk in chunks {
            framer.push(chunk);
            while let Some(d) = framer.next_datum() {
                out.push(d);
            }
        }
        out
    }

    fn atom(a: &str) -> Sx {
        Sx::Atom(a.to_string())
    }

    #[test]
    fn frames_atoms_lists_and_multiline_replies() {
        assert_eq!(frames(&["success\n", "sat\n"]), ["success", "sat"]);
        assert_eq!(
            frames(&["((x (cons 1\n", "   nil))\n", " (y 2))\n", "unsat\n"]),
            ["((x (cons 1\n   nil))\n (y 2))", "unsat"]
        );
        assert_eq!(frames(&["sat unsat\n"]), ["sat", "unsat"]);
    }

    #[test]
    fn frames_strings_bars_and_comments() {
        assert_eq!(
            frames(&["(error \"a ) \"\" (\")\n"]),
            ["(error \"a ) \"\" (\")"]
        );
        assert_eq!(frames(&["(|a ) b| 1)\n"]), ["(|a ) b| 1)"]);
        assert_eq!(frames(&["; (comment\n", "ok\n"]), ["ok"]);
        assert_eq!(frames(&["\"str\"\n"]), ["\"str\""]);
        assert_eq!(frames(&["\"unterminated\n"]), Vec::<String>::new());
    }

    #[test]
    fn a_partial_atom_waits_for_its_end() {
        let mut framer = Framer::new();
        framer.push("suc");
        assert_eq!(framer.next_datum(), None);
        framer.push("cess\n");
        assert_eq!(framer.next_datum().as_deref(), Some("success"));
    }

    #[test]
    fn parses_replies() {
        assert_eq!(parse("sat"), Ok(atom("sat")));
        assert_eq!(
            parse("(error \"say \"\"hi\"\"\")").unwrap().error_message(),
            Some("say \"hi\"".to_string())
        );
        assert_eq!(
            parse("((x (- 5)) (|a b| nil))"),
            Ok(Sx::List(vec![
                Sx::List(vec![atom("x"), Sx::List(vec![atom("-"), atom("5")])]),
                Sx::List(vec![atom("a b"), atom("nil")]),
            ]))
        );
        assert_eq!(
            parse("(:reason-unknown \"canceled\")"),
            Ok(Sx::List(vec![
                atom(":reason-unknown"),
                Sx::Str("canceled".into())
            ]))
        );
    }

    #[test]
    fn refuses_malformed_replies() {
        assert!(parse(")").is_err());
        assert!(parse("(a").is_err());
        assert!(parse("").is_err());
        assert!(parse("a b").is_err());
        assert!(parse("\"abc").is_err());
        assert!(parse("|abc").is_err());
        let deep = format!(
            "{}{}",
            "(".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn displays_back_as_smtlib() {
        let sx = parse("(a |b c| \"q\"\"\" (d))").unwrap();
        assert_eq!(sx.to_string(), "(a |b c| \"q\"\"\" (d))");
    }
}
