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

use super::ast::*;
use super::lexer::{Tok, Token, lex};
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use num_bigint::BigInt;
use std::rc::Rc;

mod labels;
mod loops;
mod records;

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
}

/// Constructs of OCaml outside the subset, by the keyword that starts them.
fn unsupported_keyword(k: &str) -> Option<&'static str> {
    Some(match k {
        "module" | "open" | "include" | "functor" | "sig" | "struct" => "modules",
        "object" | "class" | "method" | "new" | "inherit" | "initializer" | "virtual"
        | "private" => "objects and classes",
        "constraint" => "type constraints",
        "lazy" => "`lazy`",
        "external" | "val" => "external declarations",
        "land" | "lor" | "lxor" | "lsl" | "lsr" | "asr" => "bitwise operators",
        _ => return None,
    })
}

/// A binary operator: its precedence level (higher binds tighter) and right-associativity.
fn binary_op(tok: &Tok) -> Option<(u8, bool, Result<BinOp, &'static str>)> {
    let k = match tok {
        Tok::Punct(p) | Tok::Keyword(p) => *p,
        _ => return None,
    };
    Some(match k {
        "||" | "or" => (1, true, Ok(BinOp::Or)),
        "&&" | "&" => (2, true, Ok(BinOp::And)),
        "=" => (3, false, Ok(BinOp::Eq)),
        "<>" => (3, false, Ok(BinOp::Ne)),
        "==" => (3, false, Ok(BinOp::PhysEq)),
        "!=" => (3, false, Ok(BinOp::PhysNe)),
        "<" => (3, false, Ok(BinOp::Lt)),
        "<=" => (3, false, Ok(BinOp::Le)),
        ">" => (3, false, Ok(BinOp::Gt)),
        ">=" => (3, false, Ok(BinOp::Ge)),
        "|>" => (3, false, Err("|>")),
        "@@" => (4, true, Err("@@")),
        "@" => (4, true, Err("@")),
        "^" => (4, true, Err("string concatenation `^`")),
        "::" => (5, true, Err("::")),
        "+" => (6, false, Ok(BinOp::Add)),
        "-" => (6, false, Ok(BinOp::Sub)),
        "*" => (7, false, Ok(BinOp::Mul)),
        "/" => (7, false, Ok(BinOp::Div)),
        "mod" => (7, false, Ok(BinOp::Mod)),
        "%" => (7, false, Err("the operator `%`")),
        "**" => (8, true, Err("floating-point exponentiation `**`")),
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

    // ----- top level -----

    fn program(&mut self) -> PResult<Program> {
        let mut items = Vec::new();
        loop {
            while self.eat(";;") {}
            if *self.peek() == Tok::Eof {
                break;
            }
            items.push(self.item()?);
        }
        Ok(Program {
            items,
            expr_count: self.exprs,
            var_count: self.vars,
        })
    }

    fn item(&mut self) -> PResult<Item> {
        if self.eat("exception") {
            return self.exception_decl();
        }
        if self.is("type") {
            return self.type_decl();
        }
        if self.is("let") {
            let start = self.span();
            let group = self.let_group()?;
            if self.is("in") {
                return Err(unsupported(
                    start.to(self.span()),
                    "top-level expressions (`let ... in` at top level); the entry is `main`",
                ));
            }
            return Ok(Item::Let(group));
        }
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        Err(unsupported(
            self.span(),
            "top-level expressions; write `let main ... = ...` (the entry is `main`)",
        ))
    }

    fn exception_decl(&mut self) -> PResult<Item> {
        let name = self.uident("an exception name")?;
        let arg = if self.eat("of") {
            Some(self.type_expr()?)
        } else {
            None
        };
        Ok(Item::Exception(name, arg))
    }

    fn uident(&mut self, what: &str) -> PResult<Name> {
        match self.peek().clone() {
            Tok::UIdent(text) => Ok(Name {
                text,
                span: self.bump().span,
            }),
            _ => Err(self.unexpected(what)),
        }
    }

    // ----- let -----

    fn let_group(&mut self) -> PResult<LetGroup> {
        let start = self.expect("let")?;
        if self.is("open") || self.is("module") {
            return Err(unsupported(
                self.span(),
                "modules (`let open`, `let module`)",
            ));
        }
        if self.is("exception") {
            return Err(unsupported(self.span(), "local exception declarations"));
        }
        if matches!(self.peek(), Tok::Punct("*" | "+")) && self.span().start == start.end {
            return Err(unsupported(
                start.to(self.span()),
                "binding operators (`let*`, `let+`)",
            ));
        }
        let recursive = self.eat("rec");
        let mut bindings = vec![self.binding()?];
        while self.eat("and") {
            bindings.push(self.binding()?);
        }
        Ok(LetGroup {
            recursive,
            bindings,
            span: start.to(self.prev_span()),
        })
    }

    /// `f p1 .. pn [: t] = e` or `p = e`.
    fn binding(&mut self) -> PResult<Binding> {
        if self.is("(")
            && match self.peek_at(1) {
                Tok::Keyword(k) => matches!(*k, "let" | "and" | "mod" | "or"),
                Tok::Punct(p) => !matches!(*p, "(" | "[" | "{" | "[|" | "_" | ")" | "-"),
                _ => false,
            }
        {
            return Err(unsupported(
                self.span(),
                "operator definitions (`let ( let* ) ..`, `let ( +! ) ..`)",
            ));
        }
        if self.pos < self.prelude_end
            && *self.peek_at(1) == Tok::Punct(".")
            && let (Tok::UIdent(module), Tok::Ident(field)) =
                (self.peek().clone(), self.peek_at(2).clone())
        {
            let span = self.bump().span;
            self.bump();
            self.bump();
            let id = self.var();
            let text: Rc<str> = format!("{module}.{field}").into();
            let pattern = Pattern {
                span,
                kind: PatternKind::Var(id, Name { text, span }),
            };
            return self.function_binding(pattern);
        }
        // `let a, b = e` is a tuple pattern, not a function `a`.
        if let Tok::Ident(text) = self.peek().clone()
            && !matches!(self.peek_at(1), Tok::Punct(","))
        {
            let span = self.bump().span;
            let id = self.var();
            let pattern = Pattern {
                span,
                kind: PatternKind::Var(id, Name { text, span }),
            };
            return self.function_binding(pattern);
        }
        let pattern = self.pattern()?;
        self.expect("=")?;
        let value = self.expr()?;
        Ok(Binding { pattern, value })
    }

    fn function_binding(&mut self, pattern: Pattern) -> PResult<Binding> {
        let mut params = Vec::new();
        let mut kinds = Vec::new();
        let mut defaults = Vec::new();
        loop {
            if self.is("~") || self.is("?") {
                let (param, kind, default) = self.labelled_param()?;
                params.push(param);
                kinds.push(kind);
                defaults.extend(default);
            } else if self.starts_simple_pattern() {
                params.push(self.simple_pattern()?);
                kinds.push(labels::Param::Positional);
            } else {
                break;
            }
        }
        let annot = if self.eat(":") {
            Some(self.type_expr()?)
        } else {
            None
        };
        self.expect("=")?;
        let mut value = self.expr()?;
        if let Some(t) = annot {
            let span = value.span;
            value = self.mk(span, ExprKind::Annot(Box::new(value), t))?;
        }
        if !params.is_empty() {
            let span = params[0].span.to(value.span);
            value = self.function_of(span, params, value)?;
        }
        if let PatternKind::Var(_, name) = &pattern.kind {
            self.note_labels(&name.text, kinds);
        }
        let value = self.with_defaults(value, defaults)?;
        Ok(Binding { pattern, value })
    }

    // ----- expressions -----

    /// A sequence `e1; e2; ...` (the loosest level).
    fn expr(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            let first = p.expr_nonseq()?;
            if p.is(";") && p.starts_expr_at(1) {
                p.bump();
                let rest = p.expr()?;
                let span = first.span.to(rest.span);
                return p.mk(span, ExprKind::Seq(Box::new(first), Box::new(rest)));
            }
            if p.is(";") && !p.is_list_context() {
                p.bump();
            }
            Ok(first)
        })
    }

    /// Whether a `;` here may end a list element rather than a sequence (never consumed).
    fn is_list_context(&self) -> bool {
        matches!(self.peek_at(1), Tok::Punct("]"))
    }

    fn starts_expr_at(&self, ahead: usize) -> bool {
        match self.peek_at(ahead) {
            Tok::Int(_) | Tok::Ident(_) | Tok::UIdent(_) | Tok::Str(_) => true,
            Tok::Keyword(k) => matches!(
                *k,
                "let"
                    | "fun"
                    | "function"
                    | "match"
                    | "try"
                    | "if"
                    | "assert"
                    | "true"
                    | "false"
                    | "begin"
                    | "not"
                    | "for"
                    | "while"
            ),
            Tok::Punct(p) => matches!(*p, "(" | "[" | "!" | "-" | "{"),
            _ => false,
        }
    }

    /// Everything but `;`: the prefix constructs, then `:=` and below.
    fn expr_nonseq(&mut self) -> PResult<Expr> {
        self.nested(|p| match p.peek() {
            Tok::Keyword("let") => p.let_in(),
            Tok::Keyword("fun") => p.fun(),
            Tok::Keyword("function") => p.function(),
            Tok::Keyword("match") => p.match_or_try(false),
            Tok::Keyword("try") => p.match_or_try(true),
            Tok::Keyword("if") => p.if_expr(),
            Tok::Keyword("for") => p.for_loop(),
            Tok::Keyword("while") => p.while_loop(),
            _ => p.assign(),
        })
    }

    fn let_in(&mut self) -> PResult<Expr> {
        let start = self.span();
        let group = self.let_group()?;
        self.expect("in")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        self.mk(span, ExprKind::Let(group, Box::new(body)))
    }

    fn fun(&mut self) -> PResult<Expr> {
        let start = self.expect("fun")?;
        let mut params = vec![self.simple_pattern()?];
        while self.starts_simple_pattern() {
            params.push(self.simple_pattern()?);
        }
        self.expect("->")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        self.function_of(span, params, body)
    }

    /// `fun ps -> body`, merged with a `fun` directly in `body` as OCaml does:
    /// `fun x -> fun y -> e` is one function of two parameters. So is `fun x -> function
    /// cases` (`let filter p = function ...`): its last parameter is a fresh variable
    /// (`$case<n>`, a name no OCaml variable has) that the cases match.
    fn function_of(&mut self, span: Span, mut params: Vec<Pattern>, body: Expr) -> PResult<Expr> {
        match body.kind {
            ExprKind::Fun(inner, inner_body) => {
                params.extend(inner);
                self.mk(span, ExprKind::Fun(params, inner_body))
            }
            ExprKind::Function(cases) => {
                let at = body.span;
                let id = self.var();
                let text: std::rc::Rc<str> = format!("$case{}", id.0).into();
                params.push(Pattern {
                    span: at,
                    kind: PatternKind::Var(
                        id,
                        Name {
                            text: text.clone(),
                            span: at,
                        },
                    ),
                });
                let scrutinee = self.mk(at, ExprKind::Var(Name { text, span: at }))?;
                let matched = self.mk(at, ExprKind::Match(Box::new(scrutinee), cases))?;
                self.mk(span, ExprKind::Fun(params, Box::new(matched)))
            }
            kind => {
                let body = Expr { kind, ..body };
                self.mk(span, ExprKind::Fun(params, Box::new(body)))
            }
        }
    }

    fn function(&mut self) -> PResult<Expr> {
        let start = self.expect("function")?;
        let cases = self.cases()?;
        let span = start.to(self.prev_span());
        self.mk(span, ExprKind::Function(cases))
    }

    fn match_or_try(&mut self, is_try: bool) -> PResult<Expr> {
        let start = self.bump().span;
        let scrutinee = self.expr()?;
        self.expect("with")?;
        if is_try {
            let cases = self.cases()?;
            let span = start.to(self.prev_span());
            return self.mk(span, ExprKind::Try(Box::new(scrutinee), cases));
        }
        let (cases, exceptions) = self.match_cases()?;
        let span = start.to(self.prev_span());
        let kind = match exceptions.is_empty() {
            true => ExprKind::Match(Box::new(scrutinee), cases),
            false if cases.is_empty() => {
                return Err(Diagnostic::error(
                    span,
                    "a `match` needs at least one case that is not an `exception` case",
                    "only `exception` cases",
                ));
            }
            false => ExprKind::MatchExn(Box::new(scrutinee), cases, exceptions),
        };
        self.mk(span, kind)
    }

    /// The cases of a `match`: its value cases and its `exception` cases.
    fn match_cases(&mut self) -> PResult<(Vec<Case>, Vec<Case>)> {
        let (mut cases, mut exceptions) = (Vec::new(), Vec::new());
        self.eat("|");
        loop {
            if self.eat("exception") {
                exceptions.push(self.case()?);
            } else {
                cases.push(self.case()?);
            }
            if !self.eat("|") {
                return Ok((cases, exceptions));
            }
        }
    }

    fn cases(&mut self) -> PResult<Vec<Case>> {
        self.eat("|");
        let mut cases = vec![self.case()?];
        while self.eat("|") {
            cases.push(self.case()?);
        }
        Ok(cases)
    }

    fn case(&mut self) -> PResult<Case> {
        if self.is("exception") {
            return Err(unsupported(self.span(), "`exception` patterns in `match`"));
        }
        let pattern = self.pattern()?;
        let guard = if self.eat("when") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect("->")?;
        let body = self.expr()?;
        Ok(Case {
            pattern,
            guard,
            body,
        })
    }

    fn if_expr(&mut self) -> PResult<Expr> {
        let start = self.expect("if")?;
        let cond = self.expr()?;
        self.expect("then")?;
        let then_branch = self.expr_nonseq()?;
        let else_branch = if self.eat("else") {
            Some(Box::new(self.expr_nonseq()?))
        } else {
            None
        };
        let end = else_branch.as_ref().map_or(then_branch.span, |e| e.span);
        let kind = ExprKind::If(Box::new(cond), Box::new(then_branch), else_branch);
        self.mk(start.to(end), kind)
    }

    fn assign(&mut self) -> PResult<Expr> {
        let lhs = self.tuple()?;
        if self.eat(":=") {
            let rhs = self.expr_nonseq()?;
            let span = lhs.span.to(rhs.span);
            return self.mk(span, ExprKind::Assign(Box::new(lhs), Box::new(rhs)));
        }
        if self.is("<-")
            && let ExprKind::Field(..) = lhs.kind
        {
            self.bump();
            let rhs = self.expr_nonseq()?;
            let span = lhs.span.to(rhs.span);
            let ExprKind::Field(record, field) = lhs.kind else {
                unreachable!("matched above")
            };
            return self.mk(span, ExprKind::SetField(record, field, Box::new(rhs)));
        }
        if self.is("<-")
            && let ExprKind::App(get, _) = &lhs.kind
            && let ExprKind::Var(name) = &get.kind
            && &*name.text == "Array.get"
            && get.span == lhs.span
        {
            // `a.(i) <- v` is `Array.set a i v`.
            self.bump();
            let rhs = self.expr_nonseq()?;
            let span = lhs.span.to(rhs.span);
            let ExprKind::App(get, mut args) = lhs.kind else {
                unreachable!("matched above")
            };
            args.push(rhs);
            let set = self.mk(
                get.span,
                ExprKind::Var(Name {
                    text: "Array.set".into(),
                    span: get.span,
                }),
            )?;
            return self.mk(span, ExprKind::App(Box::new(set), args));
        }
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        Ok(lhs)
    }

    fn tuple(&mut self) -> PResult<Expr> {
        let first = self.binary(1)?;
        if !self.is(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat(",") {
            // `(0, fun i -> e)`: a prefix construct may follow a comma, as an operator.
            items.push(self.nested(|p| p.binary_operand(1))?);
        }
        let span = items[0].span.to(items[items.len() - 1].span);
        self.mk(span, ExprKind::Tuple(items))
    }

    /// Operators of precedence `min` and tighter (precedence climbing).
    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((prec, right, op)) = binary_op(self.peek()) {
            if prec < min {
                break;
            }
            let op_span = self.bump().span;
            let next = if right { prec } else { prec + 1 };
            let rhs = self.nested(|p| p.binary_operand(next))?;
            let span = lhs.span.to(rhs.span);
            let kind = match op {
                Ok(op) => ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                Err("::") => ExprKind::Cons(Box::new(lhs), Box::new(rhs)),
                // `x |> f` and `f @@ x` are the application `f x` (Stdlib's `%revapply`
                // and `%apply`).
                Err("|>") => ExprKind::App(Box::new(rhs), vec![lhs]),
                Err("@@") => ExprKind::App(Box::new(lhs), vec![rhs]),
                Err("@") => {
                    let text: Rc<str> = "List.append".into();
                    let append = self.mk(
                        op_span,
                        ExprKind::Var(Name {
                            text,
                            span: op_span,
                        }),
                    )?;
                    ExprKind::App(Box::new(append), vec![lhs, rhs])
                }
                Err(what) => return Err(unsupported(op_span, what)),
            };
            lhs = self.mk(span, kind)?;
        }
        Ok(lhs)
    }

    /// The right operand of an operator: a prefix construct (`a + let x = 1 in x`) or more
    /// operators.
    fn binary_operand(&mut self, min: u8) -> PResult<Expr> {
        match self.peek() {
            Tok::Keyword("let" | "fun" | "function" | "match" | "try" | "if") => self.expr_nonseq(),
            _ => self.binary(min),
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        if !self.is("-") {
            return self.application();
        }
        let start = self.bump().span;
        if let Tok::Int(i) = self.peek().clone() {
            let end = self.bump().span;
            let lit = self.mk(start.to(end), ExprKind::Int(-i))?;
            return self.application_from(lit);
        }
        if self.is("-") || self.is(".") {
            return Err(unsupported(self.span(), "floating-point operators"));
        }
        let operand = self.nested(|p| p.unary())?;
        let span = start.to(operand.span);
        self.mk(span, ExprKind::Neg(Box::new(operand)))
    }

    /// Application, `assert e`, constructor application.
    fn application(&mut self) -> PResult<Expr> {
        match self.peek().clone() {
            Tok::Keyword("assert") => {
                let start = self.bump().span;
                let arg = self.atom()?;
                let span = start.to(arg.span);
                self.mk(span, ExprKind::Assert(Box::new(arg)))
            }
            Tok::UIdent(_) if !matches!(self.peek_at(1), Tok::Punct(".")) => self.construct(),
            _ => {
                let head = self.atom()?;
                self.application_from(head)
            }
        }
    }

    fn application_from(&mut self, head: Expr) -> PResult<Expr> {
        if let ExprKind::Var(name) = &head.kind
            && let Some(params) = self.user_labels.get(&name.text).cloned()
        {
            return self.labelled_application(head, &params);
        }
        let labels = match &head.kind {
            ExprKind::Var(name) => labels::labelled_params(&name.text),
            _ => None,
        };
        let mut args = Vec::new();
        let mut labelled: Vec<(usize, Expr)> = Vec::new();
        loop {
            if let (Some(labels), Tok::Punct("~")) = (labels, self.peek()) {
                labelled.push(self.labelled_arg(labels)?);
            } else if self.starts_atom() {
                args.push(self.atom_or_construct()?);
            } else {
                break;
            }
        }
        if let Some(labels) = labels
            && !labelled.is_empty()
        {
            args = labels::place_labelled(labels, args, labelled, head.span)?;
        }
        if args.is_empty() {
            return Ok(head);
        }
        let span = head.span.to(args[args.len() - 1].span);
        self.mk(span, ExprKind::App(Box::new(head), args))
    }

    fn atom_or_construct(&mut self) -> PResult<Expr> {
        match self.peek() {
            Tok::UIdent(_) if !matches!(self.peek_at(1), Tok::Punct(".")) => {
                let name = self.uident("a constructor")?;
                self.mk(name.span, ExprKind::Construct(name, None))
            }
            _ => self.atom(),
        }
    }

    /// `E` or `E atom`.
    fn construct(&mut self) -> PResult<Expr> {
        let name = self.uident("a constructor")?;
        let arg = if self.starts_atom() {
            Some(Box::new(self.atom_or_construct()?))
        } else {
            None
        };
        let span = arg.as_ref().map_or(name.span, |a| name.span.to(a.span));
        self.mk(span, ExprKind::Construct(name, arg))
    }

    fn starts_atom(&self) -> bool {
        match self.peek() {
            Tok::Int(_) | Tok::Ident(_) | Tok::UIdent(_) | Tok::Str(_) => true,
            Tok::Keyword(k) => matches!(*k, "true" | "false" | "begin"),
            Tok::Punct(p) => matches!(*p, "(" | "[" | "!" | "[|" | "{"),
            _ => false,
        }
    }

    fn atom(&mut self) -> PResult<Expr> {
        let atom = self.nested(|p| p.atom_inner())?;
        self.fields_after(atom)
    }

    fn atom_inner(&mut self) -> PResult<Expr> {
        let span = self.span();
        match self.peek().clone() {
            Tok::Int(i) => {
                self.bump();
                self.mk(span, ExprKind::Int(wrapped(i)))
            }
            Tok::Str(s) => {
                self.bump();
                self.mk(span, ExprKind::Str(s))
            }
            Tok::Keyword("true") => self.leaf(ExprKind::Bool(true)),
            Tok::Keyword("false") => self.leaf(ExprKind::Bool(false)),
            // `raise_notrace` is `raise` (they differ only in the backtrace).
            Tok::Ident(text) if &*text == "raise_notrace" => self.leaf(ExprKind::Var(Name {
                text: "raise".into(),
                span,
            })),
            Tok::Ident(text) => self.leaf(ExprKind::Var(Name { text, span })),
            Tok::UIdent(_) => self.qualified(),
            Tok::Keyword("begin") => self.begin_end(),
            Tok::Punct("(") => self.parenthesised(),
            Tok::Punct("[") => self.list_literal(),
            Tok::Punct("[|") => self.array_literal(),
            Tok::Punct("{") => self.record(),
            Tok::Punct("!") => {
                // `!` binds tighter than field access: `!r.f` is `(!r).f`, as in OCaml.
                self.bump();
                let inner = self.nested(|p| p.atom_inner())?;
                let span = span.to(inner.span);
                self.mk(span, ExprKind::Deref(Box::new(inner)))
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    fn leaf(&mut self, kind: ExprKind) -> PResult<Expr> {
        let span = self.bump().span;
        self.mk(span, kind)
    }

    /// `Module.name` (only the prelude's `Random.int`, `Random.bool`, ... are known).
    fn qualified(&mut self) -> PResult<Expr> {
        let mut module = self.uident("a module name")?;
        // `Stdlib.x` is `x`, `Stdlib.List.x` is `List.x`: the Stdlib is open.
        if &*module.text == "Stdlib" && self.is(".") {
            match self.peek_at(1).clone() {
                Tok::Ident(text) => {
                    self.bump();
                    let span = module.span.to(self.bump().span);
                    return self.mk(span, ExprKind::Var(Name { text, span }));
                }
                Tok::UIdent(_) => {
                    self.bump();
                    module = self.uident("a module name")?;
                }
                _ => {}
            }
        }
        if !self.eat(".") {
            return self.mk(module.span, ExprKind::Construct(module, None));
        }
        match self.peek().clone() {
            Tok::Ident(field) => {
                let span = module.span.to(self.bump().span);
                let text: Rc<str> = format!("{}.{}", module.text, field).into();
                self.mk(span, ExprKind::Var(Name { text, span }))
            }
            _ => Err(unsupported(module.span, "modules (`M.(...)`, `M.M`)")),
        }
    }

    fn begin_end(&mut self) -> PResult<Expr> {
        let start = self.expect("begin")?;
        if self.is("end") {
            let end = self.bump().span;
            return self.mk(start.to(end), ExprKind::Unit);
        }
        let inner = self.expr()?;
        self.expect("end")?;
        Ok(inner)
    }

    fn parenthesised(&mut self) -> PResult<Expr> {
        let start = self.expect("(")?;
        if self.is(")") {
            let end = self.bump().span;
            return self.mk(start.to(end), ExprKind::Unit);
        }
        if let Some(op) = self.operator_section() {
            return self.mk(start.to(self.prev_span()), op);
        }
        let inner = self.expr()?;
        if self.eat(":") {
            let ty = self.type_expr()?;
            self.expect(")")?;
            let span = start.to(self.prev_span());
            return self.mk(span, ExprKind::Annot(Box::new(inner), ty));
        }
        self.expect(")")?;
        Ok(inner)
    }

    /// `( + )` and the like: the operator as a function value (named by its symbol).
    fn operator_section(&mut self) -> Option<ExprKind> {
        let symbol = match (self.peek(), self.peek_at(1)) {
            (Tok::Punct(p) | Tok::Keyword(p), Tok::Punct(")"))
                if binary_op(self.peek()).is_some() =>
            {
                *p
            }
            _ => return None,
        };
        let span = self.bump().span;
        self.bump();
        Some(ExprKind::Var(Name {
            text: format!("( {symbol} )").into(),
            span,
        }))
    }

    fn list_literal(&mut self) -> PResult<Expr> {
        self.bracketed_list("[", "]")
    }

    /// `open e1; ..; en close` as the list `e1 :: .. :: en :: []`, spanning the brackets.
    fn bracketed_list(&mut self, open: &str, close: &str) -> PResult<Expr> {
        let start = self.expect(open)?;
        let mut items = Vec::new();
        while !self.is(close) {
            items.push(self.expr_nonseq()?);
            if !self.eat(";") {
                break;
            }
        }
        let end = self.expect(close)?;
        let mut list = self.mk(end, ExprKind::Nil)?;
        for item in items.into_iter().rev() {
            let span = item.span.to(list.span);
            list = self.mk(span, ExprKind::Cons(Box::new(item), Box::new(list)))?;
        }
        list.span = start.to(end);
        Ok(list)
    }

    /// `[| e1; ..; en |]`: the primitive `Array.of_list#lit` applied to the list literal
    /// `[e1; ..; en]` (to_core allocates the cells in place, docs/ocaml.md "Arrays").
    fn array_literal(&mut self) -> PResult<Expr> {
        let list = self.bracketed_list("[|", "|]")?;
        let whole = list.span;
        let lit = self.mk(
            whole,
            ExprKind::Var(Name {
                text: ARRAY_LITERAL.into(),
                span: whole,
            }),
        )?;
        self.mk(whole, ExprKind::App(Box::new(lit), vec![list]))
    }

    // ----- patterns -----

    fn pattern(&mut self) -> PResult<Pattern> {
        self.nested(|p| {
            let mut pat = p.or_pattern()?;
            while p.eat("as") {
                let (id, name) = p.pattern_var()?;
                let span = pat.span.to(name.span);
                pat = Pattern {
                    span,
                    kind: PatternKind::Alias(Box::new(pat), id, name),
                };
            }
            Ok(pat)
        })
    }

    fn pattern_var(&mut self) -> PResult<(VarId, Name)> {
        match self.peek().clone() {
            Tok::Ident(text) => {
                let span = self.bump().span;
                Ok((self.var(), Name { text, span }))
            }
            _ => Err(self.unexpected("a variable name")),
        }
    }

    fn or_pattern(&mut self) -> PResult<Pattern> {
        let mut pat = self.tuple_pattern()?;
        while self.is("|") && !self.starts_case_after_bar() {
            self.bump();
            let rhs = self.nested(|p| p.tuple_pattern())?;
            let span = pat.span.to(rhs.span);
            pat = Pattern {
                span,
                kind: PatternKind::Or(Box::new(pat), Box::new(rhs)),
            };
        }
        Ok(pat)
    }

    /// Never: inside a pattern, `|` always continues an or-pattern (cases are separated
    /// after their `->` body, which the body's parser stops before).
    fn starts_case_after_bar(&self) -> bool {
        false
    }

    fn tuple_pattern(&mut self) -> PResult<Pattern> {
        let first = self.cons_pattern()?;
        if !self.is(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat(",") {
            items.push(self.cons_pattern()?);
        }
        let span = items[0].span.to(items[items.len() - 1].span);
        Ok(Pattern {
            span,
            kind: PatternKind::Tuple(items),
        })
    }

    fn cons_pattern(&mut self) -> PResult<Pattern> {
        let head = self.construct_pattern()?;
        if !self.eat("::") {
            return Ok(head);
        }
        let tail = self.nested(|p| p.cons_pattern())?;
        let span = head.span.to(tail.span);
        Ok(Pattern {
            span,
            kind: PatternKind::Cons(Box::new(head), Box::new(tail)),
        })
    }

    fn construct_pattern(&mut self) -> PResult<Pattern> {
        let Tok::UIdent(_) = self.peek() else {
            return self.simple_pattern();
        };
        let name = self.uident("a constructor")?;
        let arg = if self.starts_simple_pattern() {
            Some(Box::new(self.simple_pattern()?))
        } else {
            None
        };
        let span = arg.as_ref().map_or(name.span, |a| name.span.to(a.span));
        Ok(Pattern {
            span,
            kind: PatternKind::Construct(name, arg),
        })
    }

    fn starts_simple_pattern(&self) -> bool {
        match self.peek() {
            Tok::Ident(_) | Tok::Int(_) | Tok::UIdent(_) => true,
            Tok::Keyword(k) => matches!(*k, "true" | "false"),
            Tok::Punct(p) => matches!(*p, "_" | "(" | "[" | "{" | "-" | "~" | "?"),
            _ => false,
        }
    }

    fn simple_pattern(&mut self) -> PResult<Pattern> {
        self.nested(|p| p.simple_pattern_inner())
    }

    fn simple_pattern_inner(&mut self) -> PResult<Pattern> {
        let span = self.span();
        let kind = match self.peek().clone() {
            Tok::Punct("_") => PatternKind::Wild,
            Tok::Ident(text) => PatternKind::Var(self.var(), Name { text, span }),
            Tok::Int(i) => PatternKind::Int(wrapped(i)),
            Tok::Keyword("true") => PatternKind::Bool(true),
            Tok::Keyword("false") => PatternKind::Bool(false),
            Tok::UIdent(_) => {
                let name = self.uident("a constructor")?;
                return Ok(Pattern {
                    span,
                    kind: PatternKind::Construct(name, None),
                });
            }
            Tok::Punct("-") => return self.negative_pattern(),
            Tok::Punct("(") => return self.parenthesised_pattern(),
            Tok::Punct("[") => return self.list_pattern(),
            Tok::Punct("{") => return self.record_pattern(),
            Tok::Punct("[|") => return Err(unsupported(span, "array patterns (`[| .. |]`)")),
            _ => return Err(self.unexpected("a pattern")),
        };
        self.bump();
        Ok(Pattern { span, kind })
    }

    fn negative_pattern(&mut self) -> PResult<Pattern> {
        let start = self.expect("-")?;
        match self.peek().clone() {
            Tok::Int(i) => {
                let end = self.bump().span;
                Ok(Pattern {
                    span: start.to(end),
                    kind: PatternKind::Int(-i),
                })
            }
            _ => Err(self.unexpected("an integer after `-` in a pattern")),
        }
    }

    fn parenthesised_pattern(&mut self) -> PResult<Pattern> {
        let start = self.expect("(")?;
        if self.is(")") {
            let end = self.bump().span;
            return Ok(Pattern {
                span: start.to(end),
                kind: PatternKind::Unit,
            });
        }
        let mut pat = self.pattern()?;
        if self.eat(":") {
            let ty = self.type_expr()?;
            pat = Pattern {
                span: pat.span,
                kind: PatternKind::Annot(Box::new(pat), ty),
            };
        }
        let end = self.expect(")")?;
        pat.span = start.to(end);
        Ok(pat)
    }

    fn list_pattern(&mut self) -> PResult<Pattern> {
        let start = self.expect("[")?;
        let mut items = Vec::new();
        while !self.is("]") {
            items.push(self.pattern()?);
            if !self.eat(";") {
                break;
            }
        }
        let end = self.expect("]")?;
        let mut list = Pattern {
            span: end,
            kind: PatternKind::Nil,
        };
        for item in items.into_iter().rev() {
            let span = item.span.to(list.span);
            list = Pattern {
                span,
                kind: PatternKind::Cons(Box::new(item), Box::new(list)),
            };
        }
        list.span = start.to(end);
        Ok(list)
    }

    // ----- types -----

    fn type_expr(&mut self) -> PResult<TypeExpr> {
        self.nested(|p| {
            let lhs = p.tuple_type()?;
            if p.eat("->") {
                let rhs = p.type_expr()?;
                return Ok(TypeExpr::Arrow(Box::new(lhs), Box::new(rhs)));
            }
            Ok(lhs)
        })
    }

    fn tuple_type(&mut self) -> PResult<TypeExpr> {
        let first = self.applied_type()?;
        if !self.is("*") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat("*") {
            items.push(self.applied_type()?);
        }
        Ok(TypeExpr::Tuple(items))
    }

    /// An atom followed by postfix constructors: `int list ref`.
    fn applied_type(&mut self) -> PResult<TypeExpr> {
        let mut ty = self.atom_type()?;
        while let Tok::Ident(name) = self.peek().clone() {
            let span = ty.span().to(self.bump().span);
            ty = TypeExpr::Named(name, vec![ty], span);
        }
        Ok(ty)
    }

    fn atom_type(&mut self) -> PResult<TypeExpr> {
        match self.peek().clone() {
            Tok::TyVar(name) => Ok(TypeExpr::Var(name, self.bump().span)),
            Tok::Ident(name) => Ok(TypeExpr::Named(name, vec![], self.bump().span)),
            Tok::Punct("(") => {
                self.bump();
                let inner = self.nested(|p| p.type_expr())?;
                if !self.is(",") {
                    self.expect(")")?;
                    return Ok(inner);
                }
                // `(t1, t2) name`: a type constructor of several arguments.
                let mut args = vec![inner];
                while self.eat(",") {
                    args.push(self.nested(|p| p.type_expr())?);
                }
                self.expect(")")?;
                let Tok::Ident(name) = self.peek().clone() else {
                    return Err(self.unexpected("the name of a type constructor"));
                };
                let span = args[0].span().to(self.bump().span);
                Ok(TypeExpr::Named(name, args, span))
            }
            _ => Err(self.unexpected("a type")),
        }
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
