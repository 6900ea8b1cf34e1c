//! Parses the OCaml subset (docs/ocaml.md) into [`ast::Program`](super::ast::Program).
//!
//! Precedence, loosest first, as in OCaml's manual: `;`; `let`/`fun`/`function`/`match`/
//! `try`/`if` (extending as far right as possible); `:=`; `,`; `||`/`or`; `&&`/`&`; the
//! comparisons `= <> < > <= >= == !=` and `|>` (left); `@`, `@@` (right); `::` (right);
//! `+ -` (left); `* / mod` (left); unary `-`; application, `assert`, constructor
//! application; field access `.f`, `.(i)`; prefix `!` (so `!r.f` is `(!r).f`); atoms.
//! `x |> f` and `f @@ x` are read as the application `f x`; labelled and optional
//! parameters of the program's functions are placed at their applications (parser/labels.rs).
//!
//! Guarantees: on any input, a `Program` or one diagnostic at `file:line:col` saying what was
//! expected and what was found, or naming the OCaml construct outside the subset (objects,
//! modules, records, arrays, `for`/`while`, type definitions, ...). Never panics and never
//! overflows the stack: nesting (of the parser's recursion or of the trees it builds) deeper
//! than [`MAX_NESTING`] is an error.
//!
//! This module holds the parser's state, its token and nesting helpers; the grammar is in
//! one module per concept: `items` (top-level items, `let` bindings), `prefix` (sequences
//! and the prefix constructs), `operators` (`:=`, `,`, binary and unary operators),
//! `abbreviations`, `application`, `atoms`, `patterns`, `types`, `toplevel` (top-level patterns and effects), and `labels`, `loops`, `records`,
//! `user_operators`.

use super::ast::*;
use super::lexer::{Tok, Token, lex};
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use num_bigint::BigInt;
use std::rc::Rc;

mod abbreviations;
mod application;
mod atoms;
mod items;
mod labels;
mod loops;
mod operators;
mod patterns;
mod prefix;
mod printing;
mod records;
mod toplevel;
mod types;
mod user_operators;

/// The deepest nesting of expressions, patterns or types accepted.
pub const MAX_NESTING: usize = 2000;

type PResult<T> = Result<T, Diagnostic>;

/// Parses a whole `.ml` file.
pub fn parse_program(text: &str) -> Result<Program, Diagnostic> {
    let user = lex(text)?;
    // The Stdlib definitions the program uses come first (super::stdlib), each read with
    // every token at the span of the program's first use that needs it.
    let mut tokens = Vec::new();
    for (source, span) in super::stdlib::needed(&user) {
        let lexed = lex(source).map_err(|d| {
            Diagnostic::error(
                span,
                format!(
                    "internal error: the Stdlib prelude does not read: {}",
                    d.message
                ),
                "needed here",
            )
        })?;
        tokens.extend(
            lexed
                .into_iter()
                .filter(|t| t.tok != Tok::Eof)
                .map(|t| Token { tok: t.tok, span }),
        );
    }
    let prelude_end = tokens.len();
    tokens.extend(user);
    let mut parser = Parser {
        tokens,
        pos: 0,
        depth: 0,
        exprs: 0,
        vars: 0,
        heights: Vec::new(),
        prelude_end,
        user_labels: std::collections::HashMap::new(),
        abbreviations: std::collections::HashMap::new(),
        effect_items: false,
        labelled: Vec::new(),
    };
    parser.program()
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    exprs: u32,
    vars: u32,
    /// The height of every expression built so far, by `ExprId`.
    heights: Vec<u32>,
    /// The tokens before this index are the Stdlib's (super::stdlib), whose top-level
    /// names are qualified (`let rec List.map f l = ...`).
    prelude_end: usize,
    /// The parameters of the functions defined with labelled or optional ones, by name
    /// (parser/labels.rs).
    user_labels: std::collections::HashMap<Rc<str>, Rc<[labels::Param]>>,
    /// The type abbreviations defined so far, by name (parser/abbreviations.rs).
    abbreviations: std::collections::HashMap<Rc<str>, abbreviations::Abbreviation>,
    /// Whether a top-level `let` with a pattern was read (parser/toplevel.rs).
    effect_items: bool,
    /// Every name [`Program::labelled`] lists.
    labelled: Vec<Rc<str>>,
}

/// Constructs of OCaml outside the subset, by the keyword that starts them.
fn unsupported_keyword(k: &str) -> Option<&'static str> {
    Some(match k {
        // `open` is read (an item, `let open M in`); after an expression it starts the next
        // item, so it is not named here.
        "module" | "include" | "functor" | "sig" | "struct" => "modules",
        "object" | "class" | "method" | "new" | "inherit" | "initializer" | "virtual"
        | "private" => "objects and classes",
        "constraint" => "type constraints",
        "lazy" => "`lazy`",
        "external" | "val" => "external declarations",
        "land" | "lor" | "lxor" | "lsl" | "lsr" | "asr" => "bitwise operators",
        _ => return None,
    })
}

impl Parser {
    // ----- tokens -----

    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        let i = (self.pos + ahead).min(self.tokens.len() - 1);
        &self.tokens[i].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].span
    }

    fn prev_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Token {
        let t = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    fn is(&self, text: &str) -> bool {
        matches!(self.peek(), Tok::Punct(p) | Tok::Keyword(p) if *p == text)
    }

    fn eat(&mut self, text: &str) -> bool {
        if self.is(text) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, text: &str) -> PResult<Span> {
        if self.is(text) {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(&format!("`{text}`")))
        }
    }

    /// "expected X, found Y" at the current token, or the name of an unsupported construct.
    fn unexpected(&self, what: &str) -> Diagnostic {
        if let Some(d) = self.unsupported_here() {
            return d;
        }
        let found = self.peek();
        Diagnostic::error(
            self.span(),
            format!("expected {what}, found {found}"),
            format!("expected {what}"),
        )
    }

    /// A diagnostic naming the construct outside the subset that starts here, if any.
    fn unsupported_here(&self) -> Option<Diagnostic> {
        let what = match self.peek() {
            Tok::Keyword(k) => unsupported_keyword(k)?,
            Tok::Punct("<-") => "`<-` on other than a record field or an array element",
            Tok::Punct("~") | Tok::Punct("?") => "labelled and optional arguments",
            Tok::Punct("#") => "objects and directives (`#`)",
            Tok::Punct("[<") | Tok::Punct("[>") | Tok::Punct("`") => "polymorphic variants",
            _ => return None,
        };
        Some(unsupported(self.span(), what))
    }

    // ----- nesting -----

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(too_deep(self.span()));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Runs `f` one level deeper, on a stack that grows on demand.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Parser) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = stacker::maybe_grow(64 * 1024, 1024 * 1024, || f(self));
        self.leave();
        result
    }

    /// A new node; an error if its tree would be taller than [`MAX_NESTING`].
    fn mk(&mut self, span: Span, kind: ExprKind) -> PResult<Expr> {
        let e = Expr {
            id: ExprId(self.exprs),
            span,
            kind,
        };
        let below = children(&e)
            .iter()
            .map(|c| self.heights[c.id.0 as usize])
            .max();
        let height = 1 + below.unwrap_or(0);
        if height as usize > MAX_NESTING {
            return Err(too_deep(span));
        }
        self.exprs += 1;
        self.heights.push(height);
        Ok(e)
    }

    fn var(&mut self) -> VarId {
        let id = VarId(self.vars);
        self.vars += 1;
        id
    }
}

/// "X is not supported" at `span`.
pub fn unsupported(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("not supported in the OCaml subset: {what}"),
        "outside the subset (see docs/ocaml.md)",
    )
}

fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("program is nested too deeply (more than {MAX_NESTING} levels)"),
        "nesting limit reached here",
    )
}

/// An integer literal's value as OCaml reads it: the lexer keeps literals up to 2^62, and
/// 2^62 itself, not negated, is `min_int` (`4611686018427387904 = min_int` in OCaml).
fn wrapped(literal: BigInt) -> BigInt {
    let bound = BigInt::from(1u64 << 62);
    if literal == bound { -bound } else { literal }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The items of `text` (the prelude's definitions it needs first).
    fn items(text: &str) -> Vec<Item> {
        parse_program(text)
            .unwrap_or_else(|d| panic!("`{text}` does not parse: {}", d.message))
            .items
    }

    /// The body of the function the `index`-th item binds.
    fn body_of(items: &[Item], index: usize) -> &Expr {
        let Item::Let(group) = &items[index] else {
            panic!("not a let: {:?}", items[index])
        };
        let ExprKind::Fun(_, body) = &group.bindings[0].value.kind else {
            panic!("not a function")
        };
        body
    }

    fn bound_names(item: &Item) -> Vec<String> {
        let Item::Let(group) = item else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for b in &group.bindings {
            if let PatternKind::Var(_, name) = &b.pattern.kind {
                out.push(name.text.to_string());
            }
        }
        out
    }

    #[test]
    fn a_top_level_tuple_pattern_binds_each_variable() {
        let items = items("let pos, lo, hi = (1, 2, 3)\nlet main n = pos + lo + hi");
        let names: Vec<String> = items.iter().flat_map(bound_names).collect();
        assert_eq!(names[1..], ["pos", "lo", "hi", "main"]);
        assert!(names[0].starts_with("$top#"));
    }

    #[test]
    fn a_local_tuple_pattern_of_four_parses() {
        let items = items("let main n = let a, b, c, d = (n, n, n, n) in a + b + c + d");
        let body = body_of(&items, 0);
        let ExprKind::Let(inner, _) = &body.kind else {
            panic!("not a let: {:?}", body.kind)
        };
        assert!(matches!(&inner.bindings[0].pattern.kind, PatternKind::Tuple(ps) if ps.len() == 4));
    }

    #[test]
    fn effect_items_without_main_get_an_entry() {
        let items = items("let r = ref 0\nlet () = r := 1\nlet _ = !r");
        let names: Vec<String> = items.iter().flat_map(bound_names).collect();
        assert_eq!(names.last().map(String::as_str), Some("main"));
        let with_main = self::items("let () = ()\nlet main n = n");
        let names: Vec<String> = with_main.iter().flat_map(bound_names).collect();
        assert_eq!(names.iter().filter(|n| *n == "main").count(), 1);
    }

    #[test]
    fn user_operators_are_functions_with_ocaml_precedence() {
        let items = items("let ( +! ) a b = a + b\nlet main n = n +! 1 * 2");
        assert_eq!(bound_names(&items[0]), ["op#plus_bang"]);
        let body = body_of(&items, 1);
        // `+!` is at the level of `+`, below `*`: `n +! (1 * 2)`.
        let ExprKind::App(f, args) = &body.kind else {
            panic!("not an application: {:?}", body.kind)
        };
        assert!(matches!(&f.kind, ExprKind::Var(n) if &*n.text == "op#plus_bang"));
        assert!(matches!(args[1].kind, ExprKind::Binary(BinOp::Mul, ..)));
    }

    #[test]
    fn a_binding_operator_is_an_application_to_a_function() {
        let items = items(
            "let ( let* ) o f = match o with None -> None | Some x -> f x\n\
             let main n = let* x = Some n in Some x",
        );
        assert_eq!(bound_names(&items[0]), ["op#let_star"]);
        let body = body_of(&items, 1);
        let ExprKind::App(f, args) = &body.kind else {
            panic!("not an application: {:?}", body.kind)
        };
        assert!(matches!(&f.kind, ExprKind::Var(n) if &*n.text == "op#let_star"));
        assert!(matches!(&args[1].kind, ExprKind::Fun(ps, _) if ps.len() == 1));
    }

    #[test]
    fn abbreviations_are_expanded_where_used() {
        let items = items("type 'a pair = 'a * 'a\ntype point = int pair\nlet f (p : point) = p");
        let Item::Let(group) = &items[0] else {
            panic!("abbreviations are no items: {:?}", items[0])
        };
        let ExprKind::Fun(params, _) = &group.bindings[0].value.kind else {
            panic!("not a function")
        };
        let PatternKind::Annot(_, ty) = &params[0].kind else {
            panic!("not annotated")
        };
        let TypeExpr::Tuple(parts) = ty else {
            panic!("not expanded: {ty:?}")
        };
        assert!(
            parts.iter().all(
                |t| matches!(t, TypeExpr::Named(n, args, _) if &**n == "int" && args.is_empty())
            )
        );
    }

    #[test]
    fn opens_are_read_in_three_forms() {
        let items = items("open List\nlet main n = let open Option in List.(length [n])");
        // The prelude's `List.length` comes first (the program opens `List`).
        assert!(
            items
                .iter()
                .any(|item| matches!(item, Item::Open(m) if &*m.text == "List"))
        );
        let body = body_of(&items, items.len() - 1);
        let ExprKind::Open(m, inner) = &body.kind else {
            panic!("not an open: {:?}", body.kind)
        };
        assert_eq!(&*m.text, "Option");
        assert!(matches!(&inner.kind, ExprKind::Open(m, _) if &*m.text == "List"));
    }
}
