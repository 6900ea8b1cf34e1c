//! Expressions at the loosest levels: sequences `e1; e2` and the prefix constructs that
//! extend as far right as possible (`let ... in`, `let open M in`, `fun`, `function`, `match`, `try`, `if`,
//! loops), with the cases of `match`, `function` and `try`.
//!
//! Guarantees: `fun x -> fun y -> e` and `fun x -> function ...` are merged into one
//! function of all the parameters (as OCaml does); a `match` with only `exception` cases is
//! an error; a `;` before `]` is left to the list literal.

use super::*;

impl Parser {
    /// A sequence `e1; e2; ...` (the loosest level).
    pub(super) fn expr(&mut self) -> PResult<Expr> {
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
    pub(super) fn is_list_context(&self) -> bool {
        matches!(self.peek_at(1), Tok::Punct("]"))
    }

    pub(super) fn starts_expr_at(&self, ahead: usize) -> bool {
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
    pub(super) fn expr_nonseq(&mut self) -> PResult<Expr> {
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

    /// `let open M in e` (at `let`; `let open! M` alike).
    fn let_open(&mut self) -> PResult<Expr> {
        let start = self.expect("let")?;
        self.expect("open")?;
        self.eat("!");
        let module = self.uident("a module name")?;
        self.expect("in")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        self.mk(span, ExprKind::Open(module, Box::new(body)))
    }

    /// `let exception E [of t] in e` (at `let`).
    fn let_exception(&mut self) -> PResult<Expr> {
        let start = self.expect("let")?;
        self.expect("exception")?;
        let (name, arg) = self.exception_parts()?;
        self.expect("in")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        self.mk(span, ExprKind::LetException(name, arg, Box::new(body)))
    }

    pub(super) fn let_in(&mut self) -> PResult<Expr> {
        if self.at_binding_operator() {
            return self.binding_operator_let();
        }
        if matches!(self.peek_at(1), Tok::Keyword("open")) {
            return self.let_open();
        }
        if matches!(self.peek_at(1), Tok::Keyword("exception")) {
            return self.let_exception();
        }
        let start = self.span();
        let group = self.let_group()?;
        self.expect("in")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        self.mk(span, ExprKind::Let(group, Box::new(body)))
    }

    pub(super) fn fun(&mut self) -> PResult<Expr> {
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
    pub(super) fn function_of(
        &mut self,
        span: Span,
        mut params: Vec<Pattern>,
        body: Expr,
    ) -> PResult<Expr> {
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

    pub(super) fn function(&mut self) -> PResult<Expr> {
        let start = self.expect("function")?;
        let cases = self.cases()?;
        let span = start.to(self.prev_span());
        self.mk(span, ExprKind::Function(cases))
    }

    pub(super) fn match_or_try(&mut self, is_try: bool) -> PResult<Expr> {
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
    pub(super) fn match_cases(&mut self) -> PResult<(Vec<Case>, Vec<Case>)> {
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

    pub(super) fn cases(&mut self) -> PResult<Vec<Case>> {
        self.eat("|");
        let mut cases = vec![self.case()?];
        while self.eat("|") {
            cases.push(self.case()?);
        }
        Ok(cases)
    }

    pub(super) fn case(&mut self) -> PResult<Case> {
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

    pub(super) fn if_expr(&mut self) -> PResult<Expr> {
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
}
