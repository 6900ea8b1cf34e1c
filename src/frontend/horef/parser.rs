//! Recursive-descent parser for the BMC-2 concrete syntax of HORef (docs/semantics.md).
//!
//! Guarantees: on any input it returns either a [`Program`] whose nodes all carry spans and
//! dense ids, or one [`Diagnostic`] saying what was expected and what was found. It never
//! panics and never overflows the stack: nesting deeper than [`MAX_NESTING`] is an error at
//! the offending position, and recursion grows the stack on demand below that. The limit is
//! on the height of the trees it builds, not only on its own recursion: `1 + 1 + ... + 1` or
//! `Int * ... * Int` with 10^5 operands is an error, not a tree that every later stage (and
//! even dropping it) would have to walk 10^5 levels deep.
//!
//! Precedence, loosest first (ML's): `let`/`if`/`fun`/`r := e` (extend as far right as
//! possible), `||`, `&&`, comparisons (left-assoc), `::` (right-assoc), `+ -`, `*`, unary
//! `-`, application (left-assoc, `f (a, b)` passes two arguments), atoms.

use super::lexer::{LexError, Tok, Token, lex};
use crate::core_lang::ast::*;
use crate::diagnostics::Diagnostic;
use crate::span::Span;
use std::rc::Rc;

/// The deepest nesting of expressions or types the parser accepts.
pub const MAX_NESTING: usize = 2000;

/// Parses a whole HORef file.
pub fn parse_program(text: &str) -> Result<Program, Diagnostic> {
    let tokens = lex(text).map_err(lex_diagnostic)?;
    let mut parser = Parser {
        tokens,
        pos: 0,
        depth: 0,
        exprs: 0,
        binders: 0,
        lambdas: 0,
        heights: Vec::new(),
    };
    parser.program()
}

fn lex_diagnostic(e: LexError) -> Diagnostic {
    Diagnostic::error(e.span, e.message, e.label)
}

fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("program is nested too deeply (more than {MAX_NESTING} levels)"),
        "nesting limit reached here",
    )
}

/// The height of a type's tree (a keyword type has height 1), without recursion.
fn type_height(ty: &Type) -> usize {
    let mut height = 0;
    let mut todo = vec![(ty, 1)];
    while let Some((ty, level)) = todo.pop() {
        height = height.max(level);
        match ty {
            Type::Int | Type::Unit | Type::Data(_) => {}
            Type::Ref(content) | Type::List(content) => todo.push((content, level + 1)),
            Type::Pair(a, b) => todo.extend([(&**a, level + 1), (&**b, level + 1)]),
            Type::Arrow(params, ret) => {
                todo.extend(params.iter().map(|p| (p, level + 1)));
                todo.push((ret, level + 1));
            }
        }
    }
    height
}

type PResult<T> = Result<T, Diagnostic>;

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    exprs: u32,
    binders: u32,
    lambdas: u32,
    /// The height of every expression built so far, by `ExprId` (a leaf has height 1).
    heights: Vec<u32>,
}

/// A parenthesised type may be a parameter list `(T1, ..., Tn)`, valid only before `->`.
enum TypeAtom {
    Single(Type),
    Params(Vec<Type>, Span),
}

impl Parser {
    // ----- token helpers -----

    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.pos + ahead).min(last)].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].span
    }

    /// Where the current token is; at the end of the file, just after the last token (the
    /// end-of-file position may be on an empty line that shows nothing).
    fn found_span(&self) -> Span {
        if *self.peek() == Tok::Eof && self.pos > 0 {
            let end = self.tokens[self.pos - 1].span.end as usize;
            return Span::new(end, end);
        }
        self.span()
    }

    fn prev_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Token {
        let token = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        token
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: &Tok, context: &str) -> PResult<Span> {
        if self.peek() == tok {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(&format!("`{}` {context}", tok.text())))
        }
    }

    fn unexpected(&self, expected: &str) -> Diagnostic {
        let found = self.peek().to_string();
        Diagnostic::error(
            self.found_span(),
            format!("expected {expected}, found {found}"),
            format!("expected {expected}"),
        )
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) => Ok(Ident {
                name,
                span: self.bump().span,
            }),
            _ => Err(self.unexpected(what)),
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(too_deep(self.span()));
        }
        Ok(())
    }

    /// An error unless a tree of height `height` is within [`MAX_NESTING`].
    fn check_height(&self, height: usize) -> PResult<()> {
        if height > MAX_NESTING {
            return Err(too_deep(self.prev_span()));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ----- ids -----

    /// A new node; an error if its tree would be taller than [`MAX_NESTING`].
    fn expr(&mut self, span: Span, kind: ExprKind) -> PResult<Expr> {
        let e = Expr {
            id: ExprId(self.exprs),
            span,
            kind,
        };
        let children = crate::core_lang::visit::children(&e);
        let below = children.iter().map(|c| self.heights[c.id.index()]);
        let height = 1 + below.max().unwrap_or(0);
        self.check_height(height as usize)?;
        self.exprs += 1;
        self.heights.push(height);
        Ok(e)
    }

    fn binder(&mut self, name: Ident, ty: Type) -> Binder {
        let id = BinderId(self.binders);
        self.binders += 1;
        Binder { id, name, ty }
    }

    fn lambda_id(&mut self) -> LambdaId {
        let id = LambdaId(self.lambdas);
        self.lambdas += 1;
        id
    }

    // ----- top level -----

    fn program(&mut self) -> PResult<Program> {
        let store = if self.section_header(&Tok::Store)? {
            self.store_decls()?
        } else {
            Vec::new()
        };
        let methods = if self.section_header(&Tok::Methods)? {
            self.method_decls()?
        } else {
            Vec::new()
        };
        let main = self.main_decl()?;
        if *self.peek() != Tok::Eof {
            return Err(self.unexpected("end of file after the body of `Main`"));
        }
        Ok(Program {
            store,
            ints: IntModel::Unbounded,
            exceptions: Vec::new(),
            datatypes: Vec::new(),
            methods,
            main,
            expr_count: self.exprs,
            binder_count: self.binders,
            lambda_count: self.lambdas,
        })
    }

    fn section_header(&mut self, keyword: &Tok) -> PResult<bool> {
        if self.peek() == keyword && *self.peek_at(1) == Tok::Colon {
            self.bump();
            self.bump();
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn store_decls(&mut self) -> PResult<Vec<RefDecl>> {
        let mut decls = Vec::new();
        while matches!(self.peek(), Tok::Ident(_) | Tok::LParen) {
            let (name, ty) = self.typed_name(
                "a reference name",
                "and a type after the reference name, as in `r:Int := 0;`",
            )?;
            self.expect(&Tok::ColonEq, "before the initial value of the reference")?;
            let init = self.expr_top()?;
            self.expect(&Tok::Semi, "after the initial value of the reference")?;
            let id = RefId(decls.len() as u32);
            decls.push(RefDecl { id, name, ty, init });
        }
        if !matches!(self.peek(), Tok::Methods | Tok::Main) {
            return Err(
                self.unexpected("a reference declaration `r:T := v;`, `Methods:` or `Main`")
            );
        }
        Ok(decls)
    }

    fn method_decls(&mut self) -> PResult<Vec<Method>> {
        let mut methods = Vec::new();
        while matches!(self.peek(), Tok::Ident(_)) {
            let name = self.ident("a method name")?;
            let params = self.params("the method's parameters", false)?;
            self.expect(&Tok::Colon, "before the method's return type")?;
            let ret = self.ty()?;
            self.expect(&Tok::Equals, "before the method's body")?;
            let body = self.expr_top()?;
            self.expect(&Tok::Semi, "after the method's body")?;
            let id = MethodId(methods.len() as u32);
            methods.push(Method {
                id,
                name,
                params,
                ret,
                body,
            });
        }
        if *self.peek() != Tok::Main {
            return Err(
                self.unexpected("a method declaration `name (x:T, ...) :T = body;` or `Main`")
            );
        }
        Ok(methods)
    }

    fn main_decl(&mut self) -> PResult<MainDecl> {
        let start = self.span();
        if *self.peek() != Tok::Main {
            return Err(self.unexpected("`Main (x:T, ...) :T : body`"));
        }
        self.bump();
        let params = self.params("the parameters of `Main`", true)?;
        self.expect(&Tok::Colon, "before the return type of `Main`")?;
        let ret = self.ty()?;
        self.expect(
            &Tok::Colon,
            "between the return type of `Main` and its body",
        )?;
        let body = self.expr_top()?;
        let span = start.to(body.span);
        Ok(MainDecl {
            params,
            ret,
            body,
            span,
        })
    }

    /// `( x:T, ... )`; an empty list only where `allow_empty`.
    fn params(&mut self, what: &str, allow_empty: bool) -> PResult<Vec<Binder>> {
        self.expect(&Tok::LParen, &format!("to open {what}"))?;
        let mut params = Vec::new();
        if allow_empty && self.eat(&Tok::RParen) {
            return Ok(params);
        }
        loop {
            let (name, ty) =
                self.typed_name("a parameter name", "between the parameter and its type")?;
            params.push(self.binder(name, ty));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, &format!("to close {what}"))?;
        Ok(params)
    }

    /// A name with its type, `x:T`, in any number of parentheses — `(x:T)`, `((x:T))` — as
    /// the BMC-2 tool's grammar takes it for parameters, `let` binders and references.
    fn typed_name(&mut self, what: &str, colon: &str) -> PResult<(Ident, Type)> {
        if *self.peek() != Tok::LParen {
            let name = self.ident(what)?;
            self.expect(&Tok::Colon, colon)?;
            return Ok((name, self.ty()?));
        }
        self.bump();
        self.enter()?;
        let inner = self.typed_name(what, colon);
        self.leave();
        let inner = inner?;
        self.expect(&Tok::RParen, "after the type of the name")?;
        Ok(inner)
    }

    // ----- types -----

    /// `type := prod ('->' type)?`
    fn ty(&mut self) -> PResult<Type> {
        self.enter()?;
        let result = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.ty_inner());
        self.leave();
        result
    }

    fn ty_inner(&mut self) -> PResult<Type> {
        let params = match self.type_atom()? {
            TypeAtom::Params(params, _) => {
                if *self.peek() != Tok::Arrow {
                    return Err(self.unexpected("`->` after a parameter list of types"));
                }
                params
            }
            TypeAtom::Single(first) => {
                let operand = self.pair_type_rest(first)?;
                if *self.peek() != Tok::Arrow {
                    return Ok(operand);
                }
                vec![operand]
            }
        };
        self.bump();
        let ret = self.ty()?;
        let arrow = Type::arrow(params, ret);
        self.check_height(type_height(&arrow))?;
        Ok(arrow)
    }

    /// `prod := atom ('*' atom)*`, left-associative.
    fn pair_type_rest(&mut self, mut left: Type) -> PResult<Type> {
        let mut height = type_height(&left);
        while self.eat(&Tok::Star) {
            match self.type_atom()? {
                TypeAtom::Single(right) => {
                    height = 1 + height.max(type_height(&right));
                    self.check_height(height)?;
                    left = Type::pair(left, right);
                }
                TypeAtom::Params(_, span) => {
                    return Err(Diagnostic::error(
                        span,
                        "a parameter list of types cannot be a component of a pair type",
                        "write a pair type as `T1 * T2`",
                    ));
                }
            }
        }
        Ok(left)
    }

    fn type_atom(&mut self) -> PResult<TypeAtom> {
        let start = self.span();
        let ty = match self.peek() {
            Tok::IntTy => Type::Int,
            Tok::UnitTy => Type::Unit,
            Tok::ListTy => Type::int_list(),
            Tok::LParen => return self.paren_type(start),
            Tok::RefTy => return self.ref_type(),
            _ => {
                return Err(
                    self.unexpected("a type (`Int`, `Unit`, `List`, `Ref T`, `T -> T`, `T * T`)")
                );
            }
        };
        self.bump();
        Ok(TypeAtom::Single(ty))
    }

    /// `Ref atom`: binds tighter than `*` and `->` (`Ref Int * Int` is `(Ref Int) * Int`).
    fn ref_type(&mut self) -> PResult<TypeAtom> {
        self.bump();
        self.enter()?;
        let content = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.closed_type());
        self.leave();
        let ty = Type::reference(content?);
        self.check_height(type_height(&ty))?;
        Ok(TypeAtom::Single(ty))
    }

    fn paren_type(&mut self, start: Span) -> PResult<TypeAtom> {
        self.bump();
        let mut types = vec![self.ty()?];
        while self.eat(&Tok::Comma) {
            types.push(self.ty()?);
        }
        self.expect(&Tok::RParen, "to close the parenthesised type")?;
        if types.len() == 1 {
            Ok(TypeAtom::Single(types.pop().expect("one type")))
        } else {
            Ok(TypeAtom::Params(types, start.to(self.prev_span())))
        }
    }

    /// A type that cannot extend over `->`: a keyword type or a parenthesised one.
    fn closed_type(&mut self) -> PResult<Type> {
        match self.type_atom()? {
            TypeAtom::Single(ty) => Ok(ty),
            TypeAtom::Params(_, span) => Err(Diagnostic::error(
                span,
                "a parameter list of types is not a type by itself",
                "add `-> T` inside the parentheses",
            )),
        }
    }

    // ----- expressions -----

    /// A whole expression, with the nesting guard.
    fn expr_top(&mut self) -> PResult<Expr> {
        self.enter()?;
        let result = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_inner());
        self.leave();
        result
    }

    fn expr_inner(&mut self) -> PResult<Expr> {
        match self.peek() {
            Tok::Let => self.let_expr(),
            Tok::If => self.if_expr(),
            Tok::Fun => self.fun_expr(),
            Tok::Ident(_) if *self.peek_at(1) == Tok::ColonEq => self.assign_expr(),
            _ => {
                let lhs = self.or_expr()?;
                if *self.peek() != Tok::ColonEq {
                    return Ok(lhs);
                }
                self.store_expr(lhs)
            }
        }
    }

    /// `e1 := e2` where `e1` is not a name (our extension): `e1` is a reference value.
    fn store_expr(&mut self, target: Expr) -> PResult<Expr> {
        self.bump(); // `:=`
        let value = self.expr_top()?;
        let span = target.span.to(value.span);
        self.expr(
            span,
            ExprKind::Store {
                target: Box::new(target),
                value: Box::new(value),
            },
        )
    }

    fn let_expr(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        let is_rec = self.eat(&Tok::Rec);
        let (name, ty) = self.typed_name(
            "the name being bound, as in `let (x:T) = ...`",
            "between the bound name and its type",
        )?;
        self.expect(&Tok::Equals, "before the bound value")?;
        let binder = self.binder(name, ty);
        if is_rec {
            return self.let_rec_rest(start, binder);
        }
        let value = self.expr_top()?;
        self.expect(&Tok::In, "after the bound value")?;
        let body = self.expr_top()?;
        let span = start.to(body.span);
        self.expr(
            span,
            ExprKind::Let {
                binder,
                value: Box::new(value),
                body: Box::new(body),
            },
        )
    }

    fn let_rec_rest(&mut self, start: Span, binder: Binder) -> PResult<Expr> {
        if *self.peek() != Tok::Fun {
            return Err(self.unexpected("`fun` (the value of a `let rec` must be a function)"));
        }
        let lambda = self.lambda()?;
        self.expect(&Tok::In, "after the function bound by `let rec`")?;
        let body = self.expr_top()?;
        let span = start.to(body.span);
        self.expr(
            span,
            ExprKind::LetRec {
                binder,
                lambda: Rc::new(lambda),
                body: Box::new(body),
            },
        )
    }

    fn if_expr(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        let cond = self.expr_top()?;
        self.expect(&Tok::Then, "after the condition of `if`")?;
        let then_branch = self.expr_top()?;
        self.expect(&Tok::Else, "(every `if` needs an `else` branch)")?;
        let else_branch = self.expr_top()?;
        let span = start.to(else_branch.span);
        self.expr(
            span,
            ExprKind::If {
                cond: Box::new(cond),
                then_branch: Box::new(then_branch),
                else_branch: Box::new(else_branch),
            },
        )
    }

    fn fun_expr(&mut self) -> PResult<Expr> {
        let lambda = self.lambda()?;
        let span = lambda.span;
        self.expr(span, ExprKind::Fun(Rc::new(lambda)))
    }

    /// `fun (x:T, ...) :(R) -> body`
    fn lambda(&mut self) -> PResult<Lambda> {
        let start = self.expect(&Tok::Fun, "")?;
        let id = self.lambda_id();
        let params = self.params("the parameters of `fun`", false)?;
        self.expect(
            &Tok::Colon,
            "before the return type of `fun`, as in `fun (x:Int) :(Int) -> e`",
        )?;
        let ret = self.closed_type()?;
        self.expect(&Tok::Arrow, "between the return type of `fun` and its body")?;
        let body = self.expr_top()?;
        let span = start.to(body.span);
        Ok(Lambda {
            id,
            params,
            ret,
            body,
            span,
            wrapper: false,
        })
    }

    fn assign_expr(&mut self) -> PResult<Expr> {
        let reference = self.ident("a reference name")?;
        self.bump(); // `:=`
        let value = self.expr_top()?;
        let span = reference.span.to(value.span);
        self.expr(
            span,
            ExprKind::Assign {
                reference,
                value: Box::new(value),
            },
        )
    }

    fn binary(&mut self, op: BinOp, lhs: Expr, rhs: Expr) -> PResult<Expr> {
        let span = lhs.span.to(rhs.span);
        self.expr(
            span,
            ExprKind::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
        )
    }

    /// One left-associative level: `next (op next)*`.
    fn left_assoc(
        &mut self,
        next: fn(&mut Parser) -> PResult<Expr>,
        op_of: fn(&Tok) -> Option<BinOp>,
    ) -> PResult<Expr> {
        let mut lhs = next(self)?;
        while let Some(op) = op_of(self.peek()) {
            self.bump();
            let rhs = next(self)?;
            lhs = self.binary(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn or_expr(&mut self) -> PResult<Expr> {
        self.left_assoc(Parser::and_expr, |t| (*t == Tok::OrOr).then_some(BinOp::Or))
    }

    fn and_expr(&mut self) -> PResult<Expr> {
        self.left_assoc(Parser::cmp_expr, |t| {
            (*t == Tok::AndAnd).then_some(BinOp::And)
        })
    }

    fn cmp_expr(&mut self) -> PResult<Expr> {
        self.left_assoc(Parser::cons_expr, |t| match t {
            Tok::EqEq => Some(BinOp::Eq),
            Tok::NotEq => Some(BinOp::Ne),
            Tok::Lt => Some(BinOp::Lt),
            Tok::Le => Some(BinOp::Le),
            Tok::Gt => Some(BinOp::Gt),
            Tok::Ge => Some(BinOp::Ge),
            _ => None,
        })
    }

    /// `add ('::' cons)?`, right-associative.
    fn cons_expr(&mut self) -> PResult<Expr> {
        let head = self.add_expr()?;
        if !self.eat(&Tok::ColonColon) {
            return Ok(head);
        }
        self.enter()?;
        let tail = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.cons_expr());
        self.leave();
        let tail = tail?;
        let span = head.span.to(tail.span);
        self.expr(span, ExprKind::Cons(Box::new(head), Box::new(tail)))
    }

    fn add_expr(&mut self) -> PResult<Expr> {
        self.left_assoc(Parser::mul_expr, |t| match t {
            Tok::Plus => Some(BinOp::Add),
            Tok::Minus => Some(BinOp::Sub),
            _ => None,
        })
    }

    fn mul_expr(&mut self) -> PResult<Expr> {
        self.left_assoc(Parser::unary_expr, |t| {
            (*t == Tok::Star).then_some(BinOp::Mul)
        })
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        match self.peek() {
            Tok::Minus => self.negation(),
            Tok::Let | Tok::If | Tok::Fun => self.expr_top(),
            Tok::Ident(_) if *self.peek_at(1) == Tok::ColonEq => self.expr_top(),
            _ => self.app_expr(),
        }
    }

    /// `-n` is a literal; `-e` negates.
    fn negation(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        if let Tok::Int(value) = self.peek().clone() {
            let span = start.to(self.bump().span);
            return self.expr(span, ExprKind::Int(-value));
        }
        self.enter()?;
        let operand = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.unary_expr());
        self.leave();
        let operand = operand?;
        let span = start.to(operand.span);
        self.expr(span, ExprKind::Neg(Box::new(operand)))
    }

    /// `head arg*`: application is left-associative and binds tighter than any operator.
    fn app_expr(&mut self) -> PResult<Expr> {
        let mut func = self.app_head()?;
        while self.at_atom_start() {
            let args = self.arguments()?;
            let span = func.span.to(self.prev_span());
            func = self.expr(
                span,
                ExprKind::App {
                    func: Box::new(func),
                    args,
                },
            )?;
        }
        Ok(func)
    }

    fn at_atom_start(&self) -> bool {
        match self.peek() {
            Tok::Int(_) | Tok::Skip | Tok::Fail | Tok::LBracket | Tok::Bang | Tok::PairKw => true,
            Tok::Ident(_) => *self.peek_at(1) != Tok::ColonEq,
            Tok::LParen => !self.at_annotated_projection(),
            _ => false,
        }
    }

    fn at_annotated_projection(&self) -> bool {
        *self.peek() == Tok::LParen
            && matches!(self.peek_at(1), Tok::Fst | Tok::Snd)
            && *self.peek_at(2) == Tok::Colon
    }

    /// The function position of an application: an atom or a primitive applied to an atom.
    fn app_head(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Assert => {
                self.bump();
                let arg = self.atom()?;
                self.expr(start.to(arg.span), ExprKind::Assert(Box::new(arg)))
            }
            Tok::RefKw => {
                self.bump();
                let arg = self.atom()?;
                self.expr(start.to(arg.span), ExprKind::Alloc(Box::new(arg)))
            }
            Tok::Hd => self.list_op(ListOp::Hd),
            Tok::Tl => self.list_op(ListOp::Tl),
            Tok::IsEmpty => self.list_op(ListOp::IsEmpty),
            Tok::Fst => self.projection(Proj::Fst, None, start),
            Tok::Snd => self.projection(Proj::Snd, None, start),
            Tok::LParen if self.at_annotated_projection() => self.annotated_projection(start),
            _ => self.atom(),
        }
    }

    fn list_op(&mut self, op: ListOp) -> PResult<Expr> {
        let start = self.bump().span;
        let arg = self.atom()?;
        self.expr(start.to(arg.span), ExprKind::List(op, Box::new(arg)))
    }

    /// `(fst:T) e` / `(snd:T) e`
    fn annotated_projection(&mut self, start: Span) -> PResult<Expr> {
        self.bump(); // `(`
        let which = if self.bump().tok == Tok::Fst {
            Proj::Fst
        } else {
            Proj::Snd
        };
        self.bump(); // `:`
        let annot = self.ty()?;
        self.expect(&Tok::RParen, "after the type of the projection")?;
        let pair = self.atom()?;
        let span = start.to(pair.span);
        self.expr(
            span,
            ExprKind::Proj {
                which,
                annot: Some(annot),
                pair: Box::new(pair),
            },
        )
    }

    fn projection(&mut self, which: Proj, annot: Option<Type>, start: Span) -> PResult<Expr> {
        self.bump();
        let pair = self.atom()?;
        let span = start.to(pair.span);
        self.expr(
            span,
            ExprKind::Proj {
                which,
                annot,
                pair: Box::new(pair),
            },
        )
    }

    /// The arguments of one application: an atom, or `(e1, ..., en)`.
    fn arguments(&mut self) -> PResult<Vec<Expr>> {
        if *self.peek() != Tok::LParen {
            return Ok(vec![self.atom()?]);
        }
        self.bump();
        let items = self.comma_list()?;
        if *self.peek() == Tok::Colon {
            return Err(self.unexpected("`)` to close the argument list").with_note(
                "`name (x:T, ...)` starts a declaration: is the `;` after the previous method's body missing?",
            ));
        }
        self.expect(&Tok::RParen, "to close the argument list")?;
        Ok(items)
    }

    fn comma_list(&mut self) -> PResult<Vec<Expr>> {
        let mut items = vec![self.expr_top()?];
        while self.eat(&Tok::Comma) {
            items.push(self.expr_top()?);
        }
        Ok(items)
    }

    fn atom(&mut self) -> PResult<Expr> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.atom_inner())
    }

    fn atom_inner(&mut self) -> PResult<Expr> {
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Int(value) => ExprKind::Int(value),
            Tok::Skip => ExprKind::Skip,
            Tok::Fail => ExprKind::Fail,
            Tok::Ident(name) => ExprKind::Var(Ident { name, span: start }),
            Tok::LBracket => return self.nil(start),
            Tok::Bang => return self.deref(start),
            Tok::PairKw => return self.pair(start),
            Tok::LParen => return self.parenthesised(start),
            _ => return Err(self.unexpected("an expression")),
        };
        self.bump();
        self.expr(start, kind)
    }

    fn nil(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        let end = self.expect(&Tok::RBracket, "(only the empty list `[]` has a literal)")?;
        self.expr(start.to(end), ExprKind::Nil)
    }

    /// `!name` (a `Store:` reference or a local of a `Ref` type), or `!atom`.
    fn deref(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        if let Tok::Ident(_) = self.peek() {
            let reference = self.ident("a reference name after `!`")?;
            return self.expr(start.to(reference.span), ExprKind::Deref(reference));
        }
        if !matches!(self.peek(), Tok::Bang | Tok::LParen) {
            return Err(self.unexpected("a reference after `!` (a name, `!e` or `(e)`)"));
        }
        self.enter()?;
        let inner = self.atom();
        self.leave();
        let inner = inner?;
        self.expr(start.to(inner.span), ExprKind::Load(Box::new(inner)))
    }

    fn pair(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        self.expect(&Tok::LParen, "after `Pair`, as in `Pair(e1, e2)`")?;
        let first = self.expr_top()?;
        self.expect(&Tok::Comma, "between the components of `Pair`")?;
        let second = self.expr_top()?;
        let end = self.expect(&Tok::RParen, "to close `Pair(e1, e2)`")?;
        self.expr(
            start.to(end),
            ExprKind::Pair(Box::new(first), Box::new(second)),
        )
    }

    fn parenthesised(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        let mut items = self.comma_list()?;
        let end = self.expect(&Tok::RParen, "to close the parenthesis")?;
        if items.len() > 1 {
            return Err(Diagnostic::error(
                start.to(end),
                "a parenthesised list `(e1, ..., en)` is only allowed as the arguments of an application",
                "not the arguments of a call",
            )
            .with_note("write a pair as `Pair(e1, e2)`"));
        }
        let mut inner = items.pop().expect("one item");
        inner.span = start.to(end);
        Ok(inner)
    }
}
