//! Parses Boogie 2 tokens into the syntax tree ([`super::ast`]).
//!
//! Guarantees: the parser never panics; an error is one [`Diagnostic`] at the offending token
//! saying what was expected and what was found, or naming the Boogie construct that is not
//! supported yet ("unsupported: …"). Attributes `{:name …}` are accepted wherever Boogie
//! allows them; their integer arguments are kept, other arguments skipped. Nesting deeper
//! than [`MAX_NESTING`] and expression trees taller than [`MAX_HEIGHT`] are errors at the
//! offending place, so neither the parser nor a later pass over the tree (translation,
//! cloning, dropping, printing, encoding) overflows the stack. Long chains of an
//! associative operator (`+`, `*`, `&&`, `||`, `<==>`, and `+`/`-` mixed) become balanced
//! trees, so they are accepted at any length; parsing is linear in the input.

use super::ast::*;
use super::lexer::{Tok, Token, lex};
use super::unsupported;
use crate::diagnostics::Diagnostic;
use crate::span::Span;

/// How deep expressions and statements may nest.
pub const MAX_NESTING: usize = 500;

/// How tall an expression tree may be (a chain of `div`, `mod`, `[i]`, `->f` counts one
/// level per operator; a long chain of an associative operator only logarithmically).
pub const MAX_HEIGHT: usize = 2000;

/// Chains of an associative operator with more operands than this become balanced trees
/// (shorter ones stay left-nested, as written).
const BALANCE_FROM: usize = 64;

type PResult<T> = Result<T, Diagnostic>;

/// Parses a whole Boogie file.
pub fn parse(text: &str) -> PResult<Program> {
    let tokens = lex(text)?;
    let mut parser = Parser {
        tokens,
        pos: 0,
        depth: 0,
        open_exprs: 0,
    };
    let mut program = Program::default();
    while parser.peek() != &Tok::Eof {
        parser.decl(&mut program)?;
    }
    Ok(program)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    /// How many expressions are being parsed around the current token (within the
    /// innermost code expression): at 0 an expression is outermost and its height is
    /// checked once it is complete.
    open_exprs: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos.min(self.tokens.len() - 1)].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        &self.tokens[(self.pos + ahead).min(self.tokens.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos.min(self.tokens.len() - 1)].span
    }

    fn prev_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Tok {
        let tok = self.peek().clone();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        tok
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Keyword(q) if *q == k)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let here = self.is_punct(p);
        if here {
            self.bump();
        }
        here
    }

    fn eat_keyword(&mut self, k: &str) -> bool {
        let here = self.is_keyword(k);
        if here {
            self.bump();
        }
        here
    }

    fn expected(&self, what: &str) -> Diagnostic {
        Diagnostic::error(
            self.span(),
            format!("expected {what}, found {}", self.peek()),
            format!("expected {what}"),
        )
    }

    fn punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{p}`")))
        }
    }

    fn keyword(&mut self, k: &str) -> PResult<()> {
        if self.eat_keyword(k) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{k}`")))
        }
    }

    fn ident(&mut self) -> PResult<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) => {
                let span = self.span();
                self.bump();
                Ok(Ident { name, span })
            }
            _ => Err(self.expected("an identifier")),
        }
    }

    fn idents(&mut self) -> PResult<Vec<Ident>> {
        let mut names = vec![self.ident()?];
        while self.eat_punct(",") {
            names.push(self.ident()?);
        }
        Ok(names)
    }

    fn nest<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return Err(Diagnostic::error(
                self.span(),
                format!("the program nests deeper than {MAX_NESTING} levels here"),
                "too deep",
            ));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    // ----- attributes -----

    fn attrs(&mut self) -> PResult<Vec<Attr>> {
        let mut attrs = Vec::new();
        while self.is_punct("{:") {
            attrs.push(self.attr()?);
        }
        Ok(attrs)
    }

    /// `{:name args}`: integer arguments kept, everything else skipped up to the matching `}`.
    fn attr(&mut self) -> PResult<Attr> {
        let open = self.span();
        self.punct("{:")?;
        let name = match self.peek().clone() {
            Tok::Ident(name) => Ident {
                name,
                span: self.span(),
            },
            Tok::Keyword(k) => Ident {
                name: k.into(),
                span: self.span(),
            },
            _ => return Err(self.expected("an attribute name")),
        };
        self.bump();
        let mut ints = Vec::new();
        let mut depth = 1usize;
        loop {
            match self.bump() {
                Tok::Punct("{:") | Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(Attr { name, ints });
                    }
                }
                Tok::Int(i) if depth == 1 => ints.push(i),
                Tok::Eof => {
                    return Err(Diagnostic::error(
                        open,
                        "unterminated attribute: expected `}`",
                        "attribute starts here",
                    ));
                }
                _ => {}
            }
        }
    }

    // ----- declarations -----

    fn decl(&mut self, program: &mut Program) -> PResult<()> {
        match self.peek().clone() {
            Tok::Keyword("var") => {
                self.bump();
                self.attrs()?;
                let bindings = self.bindings()?;
                self.no_where()?;
                self.punct(";")?;
                program.globals.extend(bindings);
            }
            Tok::Keyword("const") => self.const_decl(program)?,
            Tok::Keyword("axiom") => {
                self.bump();
                self.attrs()?;
                let e = self.expr()?;
                self.punct(";")?;
                program.axioms.push(e);
            }
            Tok::Keyword("procedure") => {
                self.bump();
                let p = self.procedure()?;
                program.procs.push(p);
            }
            Tok::Keyword("implementation") => {
                self.bump();
                let i = self.implementation()?;
                program.impls.push(i);
            }
            Tok::Keyword("function") => {
                self.bump();
                let f = self.function()?;
                program.functions.push(f);
            }
            Tok::Keyword("type") => {
                self.bump();
                let t = self.type_decl()?;
                program.types.push(t);
            }
            Tok::Keyword("datatype") => {
                self.bump();
                let d = self.datatype_decl()?;
                program.datatypes.push(d);
            }
            _ => return Err(self.expected("a declaration (`var`, `const`, `axiom`, `function`, `procedure`, `implementation`)")),
        }
        Ok(())
    }

    /// After `datatype`: `Name { C(f: T, …), D() }` (Boogie 3; a `;` after it is allowed).
    fn datatype_decl(&mut self) -> PResult<DatatypeDecl> {
        self.attrs()?;
        let name = self.ident()?;
        if self.is_punct("<") || matches!(self.peek(), Tok::Ident(_)) {
            return Err(unsupported(self.span(), "datatypes with type parameters"));
        }
        self.punct("{")?;
        let mut ctors = Vec::new();
        while !self.is_punct("}") {
            self.attrs()?;
            let ctor = self.ident()?;
            self.punct("(")?;
            let fields = self.opt_bindings(")")?;
            self.punct(")")?;
            ctors.push(CtorDecl { name: ctor, fields });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.punct("}")?;
        self.eat_punct(";");
        Ok(DatatypeDecl { name, ctors })
    }

    /// After `type`: `Name;` or `Name = T;` (no type parameters, no `finite`).
    fn type_decl(&mut self) -> PResult<TypeDecl> {
        self.attrs()?;
        if self.is_keyword("finite") {
            return Err(unsupported(self.span(), "`type finite`"));
        }
        let name = self.ident()?;
        if matches!(self.peek(), Tok::Ident(_)) {
            return Err(unsupported(
                self.span(),
                "type constructors with parameters",
            ));
        }
        let synonym = if self.eat_punct("=") {
            Some(self.ty()?)
        } else {
            None
        };
        self.punct(";")?;
        Ok(TypeDecl { name, synonym })
    }

    fn no_where(&self) -> PResult<()> {
        if self.is_keyword("where") {
            return Err(unsupported(self.span(), "`where` clauses"));
        }
        Ok(())
    }

    fn const_decl(&mut self, program: &mut Program) -> PResult<()> {
        self.bump();
        self.attrs()?;
        let unique = self.eat_keyword("unique");
        let bindings = self.bindings()?;
        if self.is_keyword("extends") || self.is_keyword("complete") {
            return Err(unsupported(self.span(), "order specifications (`extends`)"));
        }
        self.punct(";")?;
        program.consts.extend(
            bindings
                .into_iter()
                .map(|binding| Const { binding, unique }),
        );
        Ok(())
    }

    fn function(&mut self) -> PResult<Function> {
        let attrs = self.attrs()?;
        let name = self.ident()?;
        if let Some(a) = attrs.iter().find(|a| a.name.name.contains("builtin")) {
            let what = format!("functions with a built-in meaning (`{{:{}}}`)", a.name.name);
            return Err(unsupported(a.name.span, &what));
        }
        self.type_params()?;
        self.punct("(")?;
        let params = self.fn_params()?;
        self.punct(")")?;
        let result = if self.eat_keyword("returns") {
            self.punct("(")?;
            if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Punct(":")) {
                self.bump();
                self.bump();
            }
            let ty = self.ty()?;
            self.punct(")")?;
            ty
        } else {
            self.punct(":")?;
            self.ty()?
        };
        let body = if self.eat_punct(";") {
            None
        } else {
            self.punct("{")?;
            let body = self.expr()?;
            self.punct("}")?;
            Some(body)
        };
        Ok(Function {
            name,
            params,
            result,
            body,
        })
    }

    /// A function's parameters: `x: T, y, z: U` or bare types `T, U` (named `#1`, `#2`, …:
    /// only a function without a body may leave them unnamed).
    fn fn_params(&mut self) -> PResult<Vec<Binding>> {
        let mut params = Vec::new();
        if self.is_punct(")") {
            return Ok(params);
        }
        loop {
            if let Some(names) = self.named_params() {
                let ty = self.ty()?;
                params.extend(names.into_iter().map(|name| Binding { name, ty }));
            } else {
                let span = self.span();
                let ty = self.ty()?;
                let name = Ident {
                    name: format!("#{}", params.len() + 1).into(),
                    span,
                };
                params.push(Binding { name, ty });
            }
            if !self.eat_punct(",") {
                return Ok(params);
            }
        }
    }

    /// `x, y :` (consumed, the names returned), or `None` with nothing consumed (the
    /// parameters are bare types, as in `f(Ref, int)`).
    fn named_params(&mut self) -> Option<Vec<Ident>> {
        let start = self.pos;
        if let Ok(names) = self.idents()
            && self.eat_punct(":")
        {
            return Some(names);
        }
        self.pos = start;
        None
    }

    fn type_params(&self) -> PResult<()> {
        if self.is_punct("<") {
            return Err(unsupported(self.span(), "type parameters"));
        }
        Ok(())
    }

    fn signature(&mut self) -> PResult<(Vec<Binding>, Vec<Binding>)> {
        self.type_params()?;
        self.punct("(")?;
        let ins = self.opt_bindings(")")?;
        self.punct(")")?;
        let outs = if self.eat_keyword("returns") {
            self.punct("(")?;
            let outs = self.opt_bindings(")")?;
            self.punct(")")?;
            outs
        } else {
            Vec::new()
        };
        Ok((ins, outs))
    }

    fn procedure(&mut self) -> PResult<Procedure> {
        let attrs = self.attrs()?;
        let name = self.ident()?;
        let (ins, outs) = self.signature()?;
        let mut specs = Vec::new();
        let bodiless = self.eat_punct(";");
        while let Some(spec) = self.spec()? {
            specs.push(spec);
        }
        let body = if bodiless || !self.is_punct("{") {
            None
        } else {
            Some(self.body()?)
        };
        if !bodiless && body.is_none() && specs.is_empty() {
            return Err(self.expected("`;` or a procedure body `{`"));
        }
        Ok(Procedure {
            name,
            attrs,
            ins,
            outs,
            specs,
            body,
        })
    }

    fn spec(&mut self) -> PResult<Option<Spec>> {
        let free = self.eat_keyword("free");
        let spec = match self.peek() {
            Tok::Keyword("requires") => {
                self.bump();
                self.attrs()?;
                Spec::Requires {
                    free,
                    cond: self.expr()?,
                }
            }
            Tok::Keyword("ensures") => {
                self.bump();
                self.attrs()?;
                Spec::Ensures {
                    free,
                    cond: self.expr()?,
                }
            }
            Tok::Keyword("modifies") => {
                self.bump();
                let names = if self.is_punct(";") {
                    Vec::new()
                } else {
                    self.idents()?
                };
                Spec::Modifies(names)
            }
            _ if free => {
                return Err(self.expected("`requires`, `ensures` or `modifies` after `free`"));
            }
            _ => return Ok(None),
        };
        self.punct(";")?;
        Ok(Some(spec))
    }

    fn implementation(&mut self) -> PResult<Implementation> {
        self.attrs()?;
        let name = self.ident()?;
        let (ins, outs) = self.signature()?;
        let body = self.body()?;
        Ok(Implementation {
            name,
            ins,
            outs,
            body,
        })
    }

    fn body(&mut self) -> PResult<Body> {
        self.punct("{")?;
        let locals = self.local_decls()?;
        let stmts = self.stmts()?;
        self.punct("}")?;
        Ok(Body { locals, stmts })
    }

    /// `var x: T; var y, z: U; …` at the start of a body or code expression.
    fn local_decls(&mut self) -> PResult<Vec<Binding>> {
        let mut locals = Vec::new();
        while self.eat_keyword("var") {
            self.attrs()?;
            locals.extend(self.bindings()?);
            self.no_where()?;
            self.punct(";")?;
        }
        Ok(locals)
    }

    fn opt_bindings(&mut self, close: &str) -> PResult<Vec<Binding>> {
        if self.is_punct(close) {
            Ok(Vec::new())
        } else {
            self.bindings()
        }
    }

    /// `x, y: int, z: bool` (attributes allowed before each group).
    fn bindings(&mut self) -> PResult<Vec<Binding>> {
        let mut out = Vec::new();
        loop {
            self.attrs()?;
            let names = self.idents()?;
            self.punct(":")?;
            let ty = self.ty()?;
            self.no_where()?;
            out.extend(names.into_iter().map(|name| Binding { name, ty }));
            if !self.eat_punct(",") {
                return Ok(out);
            }
        }
    }

    fn ty(&mut self) -> PResult<Ty> {
        let span = self.span();
        match self.peek().clone() {
            Tok::Keyword("int") => {
                self.bump();
                Ok(Ty::Int)
            }
            Tok::Keyword("bool") => {
                self.bump();
                Ok(Ty::Bool)
            }
            Tok::Keyword("real") => Err(unsupported(span, "the type `real`")),
            Tok::Punct("[") => self.map_ty(),
            Tok::Punct("<") => Err(unsupported(span, "polymorphic map types (`<a>[a]a`)")),
            Tok::Ident(n) if n.starts_with("bv") && n[2..].parse::<u32>().is_ok() => {
                Err(unsupported(span, "bit-vector types"))
            }
            Tok::Ident(n) => {
                self.bump();
                if matches!(
                    self.peek(),
                    Tok::Ident(_) | Tok::Keyword("int") | Tok::Keyword("bool") | Tok::Punct("[")
                ) {
                    let what = "type constructors with parameters";
                    return Err(unsupported(self.span(), what));
                }
                Ok(Ty::Named(TyName::new(&n)))
            }
            _ => Err(self.expected("a type (`int`, `bool`, `[int]int`)")),
        }
    }

    /// A map's key type: `int` or `bool`.
    fn map_key(&mut self) -> PResult<Ty> {
        let span = self.span();
        match self.nest(Self::ty)? {
            Ty::Map(_) => Err(unsupported(span, "maps indexed by maps")),
            key => Ok(key),
        }
    }

    /// `[k1, k2, …]v`, curried: `[k1][k2]…v`.
    fn map_ty(&mut self) -> PResult<Ty> {
        self.punct("[")?;
        let mut keys = vec![self.map_key()?];
        while self.eat_punct(",") {
            keys.push(self.map_key()?);
        }
        self.punct("]")?;
        let value = self.nest(Self::ty)?;
        Ok(Ty::curried(&keys, value))
    }

    // ----- statements -----

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.punct("{")?;
        let stmts = self.nest(Self::stmts)?;
        self.punct("}")?;
        Ok(stmts)
    }

    fn stmts(&mut self) -> PResult<Vec<Stmt>> {
        let mut stmts = Vec::new();
        while !self.is_punct("}") && self.peek() != &Tok::Eof {
            stmts.push(self.stmt()?);
        }
        Ok(stmts)
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let kind = self.stmt_kind()?;
        Ok(Stmt {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    fn stmt_kind(&mut self) -> PResult<StmtKind> {
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Ident(_) if matches!(self.peek_at(1), Tok::Punct(":")) => {
                let label = self.ident()?;
                self.bump();
                return Ok(StmtKind::Label(label));
            }
            Tok::Ident(_) => self.assign()?,
            Tok::Keyword("havoc") => {
                self.bump();
                StmtKind::Havoc(self.idents()?)
            }
            Tok::Keyword("assume") => {
                self.bump();
                self.attrs()?;
                StmtKind::Assume(self.expr()?)
            }
            Tok::Keyword("assert") => {
                self.bump();
                self.attrs()?;
                StmtKind::Assert(self.expr()?)
            }
            Tok::Keyword("call") => self.call()?,
            Tok::Keyword("if") => return self.if_stmt(),
            Tok::Keyword("while") => return self.while_stmt(),
            Tok::Keyword("break") => {
                self.bump();
                if let Tok::Ident(_) = self.peek() {
                    return Err(unsupported(self.span(), "`break` with a label"));
                }
                StmtKind::Break
            }
            Tok::Keyword("return") => {
                self.bump();
                StmtKind::Return
            }
            Tok::Keyword("goto") => {
                self.bump();
                StmtKind::Goto(self.idents()?)
            }
            Tok::Punct("{") => {
                return Err(unsupported(start, "nested blocks `{ … }` as statements"));
            }
            Tok::Keyword(k @ ("async" | "par" | "yield")) => {
                return Err(unsupported(start, &format!("`{k}` (concurrency)")));
            }
            _ => return Err(self.expected("a statement")),
        };
        self.punct(";")?;
        Ok(kind)
    }

    /// `x, m[i][j, k] := e1, e2;` — a map assignment is sugar for an update of the whole
    /// map, `m := m[i := m[i][j, k := e2]]`, with indices and right sides read before any
    /// assignment (Boogie's parallel assignment).
    fn assign(&mut self) -> PResult<StmtKind> {
        let mut lhs = Vec::new();
        loop {
            let name = self.ident()?;
            let mut indices = Vec::new();
            while self.eat_punct("[") {
                if indices.len() >= MAX_NESTING {
                    let message = format!("more than {MAX_NESTING} map indices on the left");
                    return Err(Diagnostic::error(self.prev_span(), message, "too many"));
                }
                indices.push(self.exprs("]")?);
                self.punct("]")?;
            }
            lhs.push((name, indices));
            if !self.eat_punct(",") {
                break;
            }
        }
        self.punct(":=")?;
        let mut rhs = vec![self.expr()?];
        while self.eat_punct(",") {
            rhs.push(self.expr()?);
        }
        let rhs = if lhs.len() == rhs.len() {
            let pairs = lhs.iter().zip(rhs);
            pairs.map(|((n, ix), r)| updated(n, ix, r)).collect()
        } else {
            rhs
        };
        Ok(StmtKind::Assign(
            lhs.into_iter().map(|(n, _)| n).collect(),
            rhs,
        ))
    }

    fn call(&mut self) -> PResult<StmtKind> {
        self.bump();
        self.attrs()?;
        if self.is_keyword("forall") {
            return Err(unsupported(self.span(), "`call forall`"));
        }
        let first = self.ident()?;
        let (outs, proc) = if self.is_punct("(") {
            (Vec::new(), first)
        } else {
            let mut outs = vec![first];
            while self.eat_punct(",") {
                outs.push(self.ident()?);
            }
            self.punct(":=")?;
            (outs, self.ident()?)
        };
        self.punct("(")?;
        let args = self.exprs(")")?;
        self.punct(")")?;
        Ok(StmtKind::Call { outs, proc, args })
    }

    fn guard(&mut self) -> PResult<Option<Expr>> {
        self.punct("(")?;
        let guard = if self.is_punct("*") && matches!(self.peek_at(1), Tok::Punct(")")) {
            self.bump();
            None
        } else {
            Some(self.expr()?)
        };
        self.punct(")")?;
        Ok(guard)
    }

    fn if_stmt(&mut self) -> PResult<StmtKind> {
        self.keyword("if")?;
        let cond = self.guard()?;
        let then = self.block()?;
        let else_ = if !self.eat_keyword("else") {
            Vec::new()
        } else if self.is_keyword("if") {
            vec![self.nest(Self::stmt)?]
        } else {
            self.block()?
        };
        Ok(StmtKind::If { cond, then, else_ })
    }

    fn while_stmt(&mut self) -> PResult<StmtKind> {
        self.keyword("while")?;
        let cond = self.guard()?;
        let mut invariants = Vec::new();
        loop {
            let free = self.eat_keyword("free");
            if !self.eat_keyword("invariant") {
                if free {
                    return Err(self.expected("`invariant` after `free`"));
                }
                break;
            }
            self.attrs()?;
            let cond = self.expr()?;
            self.punct(";")?;
            invariants.push(Invariant { free, cond });
        }
        let body = self.block()?;
        Ok(StmtKind::While {
            cond,
            invariants,
            body,
        })
    }

    // ----- expressions (Boogie 2 precedence, lowest first) -----

    fn exprs(&mut self, close: &str) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        if self.is_punct(close) {
            return Ok(out);
        }
        out.push(self.expr()?);
        while self.eat_punct(",") {
            out.push(self.expr()?);
        }
        Ok(out)
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        self.open_exprs += 1;
        let e = self.nest(Self::equiv);
        self.open_exprs -= 1;
        let e = e?;
        if self.open_exprs == 0 {
            check_height(&e)?;
        }
        Ok(e)
    }

    fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        let span = lhs.span.to(rhs.span);
        Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            span,
        }
    }

    /// `<==>`, associative.
    fn equiv(&mut self) -> PResult<Expr> {
        let first = self.implies()?;
        let mut rest = Vec::new();
        while self.eat_punct("<==>") {
            rest.push(self.implies()?);
        }
        Ok(balanced(BinOp::Iff, first, rest))
    }

    /// `==>`, right-associative (`<==` is not supported).
    fn implies(&mut self) -> PResult<Expr> {
        let lhs = self.logic()?;
        if self.is_punct("<==") {
            return Err(unsupported(self.span(), "explies `<==`"));
        }
        if self.eat_punct("==>") {
            let rhs = self.nest(Self::implies)?;
            return Ok(Self::binary(BinOp::Implies, lhs, rhs));
        }
        Ok(lhs)
    }

    /// `&&` chains or `||` chains; mixing them needs parentheses.
    fn logic(&mut self) -> PResult<Expr> {
        let lhs = self.relation()?;
        let op = match self.peek() {
            Tok::Punct("&&") => BinOp::And,
            Tok::Punct("||") => BinOp::Or,
            _ => return Ok(lhs),
        };
        let symbol = if op == BinOp::And { "&&" } else { "||" };
        let mut rest = Vec::new();
        while self.eat_punct(symbol) {
            rest.push(self.relation()?);
        }
        if self.is_punct("&&") || self.is_punct("||") {
            return Err(Diagnostic::error(
                self.span(),
                "`&&` and `||` mixed without parentheses",
                "add parentheses",
            ));
        }
        Ok(balanced(op, lhs, rest))
    }

    fn relation(&mut self) -> PResult<Expr> {
        let lhs = self.additive()?;
        if self.eat_keyword("is") {
            let ctor = self.ident()?;
            let span = lhs.span.to(ctor.span);
            return Ok(Expr {
                kind: ExprKind::Is(Box::new(lhs), ctor),
                span,
            });
        }
        let op = match self.peek() {
            Tok::Punct("==") => BinOp::Eq,
            Tok::Punct("!=") => BinOp::Neq,
            Tok::Punct("<") => BinOp::Lt,
            Tok::Punct("<=") => BinOp::Le,
            Tok::Punct(">") => BinOp::Gt,
            Tok::Punct(">=") => BinOp::Ge,
            Tok::Punct("<:") => return Err(unsupported(self.span(), "partial orders `<:`")),
            _ => return Ok(lhs),
        };
        self.bump();
        let rhs = self.additive()?;
        Ok(Self::binary(op, lhs, rhs))
    }

    /// `a + b - c …`: left-nested as written; a long chain as the balanced sum of the
    /// added terms minus the balanced sum of the subtracted ones (the same integer).
    fn additive(&mut self) -> PResult<Expr> {
        let first = self.multiplicative()?;
        let mut terms = Vec::new();
        loop {
            let op = match self.peek() {
                Tok::Punct("+") => BinOp::Add,
                Tok::Punct("-") => BinOp::Sub,
                Tok::Punct("++") => {
                    return Err(unsupported(self.span(), "bit-vector concatenation `++`"));
                }
                _ => break,
            };
            self.bump();
            terms.push((op, self.multiplicative()?));
        }
        if terms.len() < BALANCE_FROM {
            let chain = terms.into_iter();
            return Ok(chain.fold(first, |lhs, (op, rhs)| Self::binary(op, lhs, rhs)));
        }
        let (added, subtracted): (Vec<_>, Vec<_>) =
            terms.into_iter().partition(|(op, _)| *op == BinOp::Add);
        let operands = |terms: Vec<(BinOp, Expr)>| terms.into_iter().map(|(_, e)| e);
        let added = balanced(BinOp::Add, first, operands(added).collect());
        let mut subtracted = operands(subtracted);
        Ok(match subtracted.next() {
            Some(first) => {
                let subtracted = balanced(BinOp::Add, first, subtracted.collect());
                Self::binary(BinOp::Sub, added, subtracted)
            }
            None => added,
        })
    }

    /// `a * b div c …`: left-nested as written; a long chain of `*` alone balanced.
    fn multiplicative(&mut self) -> PResult<Expr> {
        let first = self.unary()?;
        let mut products = Vec::new();
        while self.eat_punct("*") {
            products.push(self.unary()?);
        }
        let mut lhs = balanced(BinOp::Mul, first, products);
        loop {
            let op = match self.peek() {
                Tok::Punct("*") => BinOp::Mul,
                Tok::Keyword("div") => BinOp::Div,
                Tok::Keyword("mod") => BinOp::Mod,
                Tok::Punct("/") => return Err(unsupported(self.span(), "real division `/`")),
                Tok::Punct("%") => {
                    return Err(unsupported(
                        self.span(),
                        "`%` (Boogie's integer remainder is `mod`)",
                    ));
                }
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.unary()?;
            lhs = Self::binary(op, lhs, rhs);
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.span();
        let op = match self.peek() {
            Tok::Punct("-") => UnOp::Neg,
            Tok::Punct("!") => UnOp::Not,
            _ => return self.postfix(),
        };
        self.bump();
        let arg = self.nest(Self::unary)?;
        let span = start.to(arg.span);
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(arg)),
            span,
        })
    }

    /// `e[i, j]` (select), `e[i, j := v]` (update) and `e->f` (a datatype's field), any
    /// number of times.
    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.atom()?;
        loop {
            if self.eat_punct("->") {
                if self.is_punct("(") {
                    return Err(unsupported(self.span(), "field updates `e->(f := v)`"));
                }
                let field = self.ident()?;
                let span = e.span.to(field.span);
                e = Expr {
                    kind: ExprKind::Field(Box::new(e), field),
                    span,
                };
                continue;
            }
            if !self.eat_punct("[") {
                return Ok(e);
            }
            let indices = self.exprs("]")?;
            if indices.is_empty() {
                return Err(self.expected("an index"));
            }
            let update = if self.eat_punct(":=") {
                Some(self.expr()?)
            } else {
                None
            };
            self.punct("]")?;
            let span = e.span.to(self.prev_span());
            let kind = match update {
                Some(value) => ExprKind::Update(Box::new(e), indices, Box::new(value)),
                None => ExprKind::Select(Box::new(e), indices),
            };
            e = Expr { kind, span };
        }
    }

    fn atom(&mut self) -> PResult<Expr> {
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Int(i) => {
                self.bump();
                ExprKind::Int(i)
            }
            Tok::Keyword("true") => {
                self.bump();
                ExprKind::Bool(true)
            }
            Tok::Keyword("false") => {
                self.bump();
                ExprKind::Bool(false)
            }
            Tok::Keyword("old") => {
                self.bump();
                self.punct("(")?;
                let e = self.expr()?;
                self.punct(")")?;
                ExprKind::Old(Box::new(e))
            }
            Tok::Keyword("if") => {
                self.bump();
                let c = self.expr()?;
                self.keyword("then")?;
                let t = self.expr()?;
                self.keyword("else")?;
                let e = self.expr()?;
                ExprKind::Ite(Box::new(c), Box::new(t), Box::new(e))
            }
            Tok::Ident(_) => {
                let name = self.ident()?;
                if self.eat_punct("(") {
                    let args = self.exprs(")")?;
                    self.punct(")")?;
                    ExprKind::Apply(name, args)
                } else {
                    ExprKind::Var(name)
                }
            }
            Tok::Punct("(") => {
                self.bump();
                if self.is_keyword("forall") || self.is_keyword("exists") {
                    let kind = self.quantifier()?;
                    return Ok(Expr {
                        kind,
                        span: start.to(self.prev_span()),
                    });
                }
                if self.is_keyword("lambda") {
                    return Err(unsupported(self.span(), "lambda expressions"));
                }
                let e = self.expr()?;
                self.punct(")")?;
                return Ok(Expr {
                    kind: e.kind,
                    span: start.to(self.prev_span()),
                });
            }
            Tok::Punct("|") if matches!(self.peek_at(1), Tok::Punct("{")) => {
                ExprKind::Code(Box::new(self.nest(Self::code_expr)?))
            }
            _ => return Err(self.expected("an expression")),
        };
        Ok(Expr {
            kind,
            span: start.to(self.prev_span()),
        })
    }
}

impl Parser {
    /// `|{ var x: T; L: cmd; … goto M; M: … return e; }|`: locals, then blocks, each a
    /// label, commands (assignments, `havoc`, `assume`, `assert`, `call`) and `goto` or
    /// `return e`.
    fn code_expr(&mut self) -> PResult<CodeExpr> {
        self.punct("|")?;
        self.punct("{")?;
        let open_exprs = std::mem::take(&mut self.open_exprs);
        let result = self.code_expr_inner();
        self.open_exprs = open_exprs;
        result
    }

    fn code_expr_inner(&mut self) -> PResult<CodeExpr> {
        let locals = self.local_decls()?;
        let mut blocks = Vec::new();
        loop {
            if !matches!(self.peek_at(1), Tok::Punct(":")) {
                return Err(self.expected("a label `L:` starting a block of the code expression"));
            }
            let label = self.ident()?;
            self.punct(":")?;
            let mut stmts = Vec::new();
            let end = loop {
                if self.eat_keyword("return") {
                    let e = self.expr()?;
                    self.punct(";")?;
                    break CodeEnd::Return(Box::new(e));
                }
                if self.eat_keyword("goto") {
                    let targets = self.idents()?;
                    self.punct(";")?;
                    break CodeEnd::Goto(targets);
                }
                if self.is_punct("}") || matches!(self.peek_at(1), Tok::Punct(":")) {
                    return Err(self.expected("`goto L;` or `return e;` ending the block"));
                }
                let stmt = self.stmt()?;
                if !matches!(
                    stmt.kind,
                    StmtKind::Assign(..)
                        | StmtKind::Havoc(_)
                        | StmtKind::Assume(_)
                        | StmtKind::Assert(_)
                        | StmtKind::Call { .. }
                ) {
                    let what = "a structured statement inside a code expression (only \
                                assignments, `havoc`, `assume`, `assert`, `call`, `goto`, \
                                `return e`)";
                    return Err(unsupported(stmt.span, what));
                }
                stmts.push(stmt);
            };
            blocks.push(CodeBlock { label, stmts, end });
            if self.is_punct("}") {
                break;
            }
        }
        self.punct("}")?;
        self.punct("|")?;
        Ok(CodeExpr { locals, blocks })
    }

    /// `forall x: T, … :: {trigger} {:attr} e)` after the `(`: triggers and attributes are
    /// parsed and dropped (z3 chooses its own patterns).
    fn quantifier(&mut self) -> PResult<ExprKind> {
        let forall = self.is_keyword("forall");
        self.bump();
        if self.is_punct("<") {
            let what = "quantifiers with type parameters (`forall<T> …`)";
            return Err(unsupported(self.span(), what));
        }
        let vars = self.bindings()?;
        self.punct("::")?;
        loop {
            if self.is_punct("{:") {
                self.attr()?;
            } else if self.eat_punct("{") {
                self.exprs("}")?;
                self.punct("}")?;
            } else {
                break;
            }
        }
        let body = self.expr()?;
        self.punct(")")?;
        Ok(ExprKind::Quant(forall, vars, Box::new(body)))
    }
}

/// `name[i1][i2]… := rhs` as the value of `name`: `name[i1 := name[i1][i2 := … rhs]]`.
fn updated(name: &Ident, indices: &[Vec<Expr>], rhs: Expr) -> Expr {
    let base = Expr {
        kind: ExprKind::Var(name.clone()),
        span: name.span,
    };
    update_chain(base, indices, rhs)
}

fn update_chain(base: Expr, indices: &[Vec<Expr>], rhs: Expr) -> Expr {
    let Some((index, rest)) = indices.split_first() else {
        return rhs;
    };
    stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
        update_step(base, index, rest, rhs)
    })
}

fn update_step(base: Expr, index: &[Expr], rest: &[Vec<Expr>], rhs: Expr) -> Expr {
    let span = base.span.to(rhs.span);
    let inner = Expr {
        kind: ExprKind::Select(Box::new(base.clone()), index.to_vec()),
        span,
    };
    let value = update_chain(inner, rest, rhs);
    Expr {
        kind: ExprKind::Update(Box::new(base), index.to_vec(), Box::new(value)),
        span,
    }
}

/// `operands` joined by the associative `op`: left-nested as written, or as a balanced
/// tree when there are more than [`BALANCE_FROM`] (same value, logarithmic height).
fn balanced(op: BinOp, first: Expr, mut rest: Vec<Expr>) -> Expr {
    if rest.len() >= BALANCE_FROM {
        let mut right = rest.split_off(rest.len() / 2);
        let right_first = right.remove(0);
        let (left, right) = (balanced(op, first, rest), balanced(op, right_first, right));
        return Parser::binary(op, left, right);
    }
    rest.into_iter()
        .fold(first, |lhs, rhs| Parser::binary(op, lhs, rhs))
}

/// An error at the deepest place if `e` is taller than [`MAX_HEIGHT`] (an explicit stack:
/// the check itself is not recursive).
fn check_height(e: &Expr) -> PResult<()> {
    let mut stack = vec![(e, 1usize)];
    while let Some((e, height)) = stack.pop() {
        if height > MAX_HEIGHT {
            let message = format!(
                "the expression is nested deeper than {MAX_HEIGHT} levels here (each \
                 `div`, `mod`, map index, field or comparison of a chain is one level; add \
                 `var`s for the intermediate values)"
            );
            return Err(Diagnostic::error(e.span, message, "too deep"));
        }
        stack.extend(e.children().into_iter().map(|c| (c, height + 1)));
    }
    Ok(())
}
