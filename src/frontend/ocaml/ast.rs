//! The abstract syntax of the OCaml subset (docs/ocaml.md).
//!
//! Every expression and every pattern carries a [`Span`] and a dense id assigned by the
//! parser, so inference keeps its facts (types, resolutions, instantiations) in side tables.
//! The parser already desugars list literals `[a; b]` into `::`/`[]`, and `let f x y = e`
//! into a binding of `f` to `fun x y -> e`.

use crate::span::Span;
use num_bigint::BigInt;
use std::rc::Rc;

/// An expression node, dense in `0..Program::expr_count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

/// A variable-binding occurrence (in a pattern), dense in `0..Program::var_count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// A name with the span where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: Rc<str>,
    pub span: Span,
}

/// A type as written in an annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeExpr {
    Var(Rc<str>, Span),
    /// `int`, `bool`, `unit`, `exn`, or `t list` / `t ref` (with one argument).
    Named(Rc<str>, Vec<TypeExpr>, Span),
    Arrow(Box<TypeExpr>, Box<TypeExpr>),
    Tuple(Vec<TypeExpr>),
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Var(_, s) | TypeExpr::Named(_, _, s) => *s,
            TypeExpr::Arrow(a, b) => a.span().to(b.span()),
            TypeExpr::Tuple(ts) => ts[0].span().to(ts[ts.len() - 1].span()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pattern {
    pub span: Span,
    pub kind: PatternKind,
}

#[derive(Clone, Debug)]
pub enum PatternKind {
    Wild,
    Var(VarId, Name),
    Int(BigInt),
    Bool(bool),
    Unit,
    Nil,
    Cons(Box<Pattern>, Box<Pattern>),
    Tuple(Vec<Pattern>),
    /// An exception constructor, with its argument pattern for `E of int`.
    Construct(Name, Option<Box<Pattern>>),
    Or(Box<Pattern>, Box<Pattern>),
    /// `{ f = p; g; _ }`: the named fields' patterns (`g` alone is `g = g`).
    Record(Vec<(Name, Pattern)>),
    Alias(Box<Pattern>, VarId, Name),
    Annot(Box<Pattern>, TypeExpr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    /// `==`: physical equality.
    PhysEq,
    /// `!=`: physical inequality.
    PhysNe,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "mod",
            BinOp::Eq => "=",
            BinOp::Ne => "<>",
            BinOp::PhysEq => "==",
            BinOp::PhysNe => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub id: ExprId,
    pub span: Span,
    pub kind: ExprKind,
}

/// One case `p when g -> e` of a `match`, `function` or `try`.
#[derive(Clone, Debug)]
pub struct Case {
    pub pattern: Pattern,
    pub guard: Option<Expr>,
    pub body: Expr,
}

/// One binding of a `let` (`p = e`, or `f p1 .. pn = e` already turned into a `fun`).
#[derive(Clone, Debug)]
pub struct Binding {
    pub pattern: Pattern,
    pub value: Expr,
}

/// `let [rec] b1 and b2 ...`
#[derive(Clone, Debug)]
pub struct LetGroup {
    pub recursive: bool,
    pub bindings: Vec<Binding>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(BigInt),
    Bool(bool),
    Unit,
    /// A string literal: allowed only as the argument of `print_string` & co. and `failwith`.
    Str(Rc<str>),
    Nil,
    /// A variable, or a qualified name such as `Random.int` (text `Random.int`).
    Var(Name),
    /// An exception constructor, applied to its argument for `E of int`.
    Construct(Name, Option<Box<Expr>>),
    /// `fun p1 .. pn -> body` (one function of n parameters).
    Fun(Vec<Pattern>, Box<Expr>),
    /// `function cases` (one parameter).
    Function(Vec<Case>),
    App(Box<Expr>, Vec<Expr>),
    Let(LetGroup, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Option<Box<Expr>>),
    Seq(Box<Expr>, Box<Expr>),
    Match(Box<Expr>, Vec<Case>),
    /// `match e with cases | exception p -> h ...`: the value cases, then the exception
    /// cases (tried only for an exception `e` raises, never for one a case body raises).
    MatchExn(Box<Expr>, Vec<Case>, Vec<Case>),
    Try(Box<Expr>, Vec<Case>),
    Tuple(Vec<Expr>),
    Cons(Box<Expr>, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    /// `!e`
    Deref(Box<Expr>),
    /// `e1 := e2`
    Assign(Box<Expr>, Box<Expr>),
    Assert(Box<Expr>),
    Annot(Box<Expr>, TypeExpr),
    /// `{ f1 = e1; ...; fn = en }`, or with `Some(r)`, `{ r with f1 = e1; ... }`.
    Record(Vec<(Name, Expr)>, Option<Box<Expr>>),
    /// `e.f`
    Field(Box<Expr>, Name),
    /// `e1.f <- e2` (a `mutable` field).
    SetField(Box<Expr>, Name, Box<Expr>),
    /// `let open M in e` or `M.(e)`: `e` with the names of the Stdlib module `M` in scope.
    Open(Name, Box<Expr>),
    /// `let exception E [of t] in e`: a local exception, a new one at each evaluation.
    LetException(Name, Option<TypeExpr>, Box<Expr>),
}

/// A top-level item.
#[derive(Clone, Debug)]
pub enum Item {
    Let(LetGroup),
    /// `exception E` or `exception E of t`.
    Exception(Name, Option<TypeExpr>),
    /// `type ('a, ..) t = C1 | C2 of t1 * t2 .. [and u = { f : t1; mutable g : t2 } ..]`: a
    /// group of variant and record types, which may refer to each other.
    Types(TypeGroup),
    /// `open M` of a Stdlib module: its names are in scope for the items after it.
    Open(Name),
}

/// The variant and record types of one `type .. and ..` definition.
#[derive(Clone, Debug, Default)]
pub struct TypeGroup {
    pub variants: Vec<VariantDecl>,
    pub records: Vec<RecordDecl>,
}

impl TypeGroup {
    pub fn is_empty(&self) -> bool {
        self.variants.is_empty() && self.records.is_empty()
    }
}

/// A variant type definition.
#[derive(Clone, Debug)]
pub struct VariantDecl {
    pub name: Name,
    /// The type parameters (`'a`), in order.
    pub params: Vec<Name>,
    pub ctors: Vec<CtorDecl>,
}

/// One constructor of a variant type: `C` or `C of t` (`C of t1 * t2` takes a tuple).
#[derive(Clone, Debug)]
pub struct CtorDecl {
    pub name: Name,
    pub arg: Option<TypeExpr>,
}

/// A record type definition.
#[derive(Clone, Debug)]
pub struct RecordDecl {
    pub name: Name,
    /// The type parameters (`'a`), in order.
    pub params: Vec<Name>,
    pub fields: Vec<FieldDecl>,
}

/// One field of a record type definition.
#[derive(Clone, Debug)]
pub struct FieldDecl {
    pub name: Name,
    pub mutable: bool,
    pub ty: TypeExpr,
}

/// A whole `.ml` file.
#[derive(Clone, Debug)]
pub struct Program {
    pub items: Vec<Item>,
    pub expr_count: u32,
    pub var_count: u32,
    /// The names of the functions defined with labelled or optional parameters (anywhere
    /// in the program): such a function passed as a value is never given an arity adapter
    /// (infer/adapters.rs), since OCaml would first erase its optional parameters.
    pub labelled: Vec<Rc<str>>,
}

/// The direct sub-expressions of `e` (guards and case bodies included), in source order.
pub fn children(e: &Expr) -> Vec<&Expr> {
    fn cases(cs: &[Case]) -> impl Iterator<Item = &Expr> {
        cs.iter()
            .flat_map(|c| c.guard.iter().chain(std::iter::once(&c.body)))
    }
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Unit
        | ExprKind::Str(_)
        | ExprKind::Nil
        | ExprKind::Var(_)
        | ExprKind::Construct(_, None) => vec![],
        ExprKind::Construct(_, Some(x))
        | ExprKind::Fun(_, x)
        | ExprKind::Neg(x)
        | ExprKind::Deref(x)
        | ExprKind::Assert(x)
        | ExprKind::Annot(x, _)
        | ExprKind::Open(_, x)
        | ExprKind::LetException(_, _, x) => vec![x],
        ExprKind::Function(cs) => cases(cs).collect(),
        ExprKind::App(f, args) => std::iter::once(&**f).chain(args).collect(),
        ExprKind::Let(group, body) => group
            .bindings
            .iter()
            .map(|b| &b.value)
            .chain(std::iter::once(&**body))
            .collect(),
        ExprKind::If(c, t, e) => {
            let mut v: Vec<&Expr> = vec![c, t];
            v.extend(e.as_deref());
            v
        }
        ExprKind::Match(x, cs) | ExprKind::Try(x, cs) => {
            std::iter::once(&**x).chain(cases(cs)).collect()
        }
        ExprKind::MatchExn(x, cs, hs) => std::iter::once(&**x)
            .chain(cases(cs))
            .chain(cases(hs))
            .collect(),
        ExprKind::Tuple(xs) => xs.iter().collect(),
        ExprKind::Record(fields, base) => base
            .iter()
            .map(|b| &**b)
            .chain(fields.iter().map(|(_, e)| e))
            .collect(),
        ExprKind::Field(x, _) => vec![x],
        ExprKind::SetField(a, _, b) => vec![a, b],
        ExprKind::Seq(a, b)
        | ExprKind::Cons(a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Assign(a, b) => vec![a, b],
    }
}

/// The name the parser gives the primitive of an array literal: `[| e1; ..; en |]` is
/// this applied to the list literal `[e1; ..; en]` (no OCaml name can contain `#`).
pub const ARRAY_LITERAL: &str = "Array.of_list#lit";

/// The direct sub-expressions of `e`, mutably (the same ones as [`children`]).
pub fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    fn cases(cs: &mut [Case]) -> impl Iterator<Item = &mut Expr> {
        cs.iter_mut()
            .flat_map(|c| c.guard.iter_mut().chain(std::iter::once(&mut c.body)))
    }
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Unit
        | ExprKind::Str(_)
        | ExprKind::Nil
        | ExprKind::Var(_)
        | ExprKind::Construct(_, None) => vec![],
        ExprKind::Construct(_, Some(x))
        | ExprKind::Fun(_, x)
        | ExprKind::Neg(x)
        | ExprKind::Deref(x)
        | ExprKind::Assert(x)
        | ExprKind::Annot(x, _)
        | ExprKind::Open(_, x)
        | ExprKind::LetException(_, _, x)
        | ExprKind::Field(x, _) => vec![x],
        ExprKind::Function(cs) => cases(cs).collect(),
        ExprKind::App(f, args) => std::iter::once(&mut **f).chain(args).collect(),
        ExprKind::Let(group, body) => group
            .bindings
            .iter_mut()
            .map(|b| &mut b.value)
            .chain(std::iter::once(&mut **body))
            .collect(),
        ExprKind::If(c, t, e) => {
            let mut v: Vec<&mut Expr> = vec![c, t];
            v.extend(e.as_deref_mut());
            v
        }
        ExprKind::Match(x, cs) | ExprKind::Try(x, cs) => {
            std::iter::once(&mut **x).chain(cases(cs)).collect()
        }
        ExprKind::MatchExn(x, cs, hs) => std::iter::once(&mut **x)
            .chain(cases(cs))
            .chain(cases(hs))
            .collect(),
        ExprKind::Tuple(xs) => xs.iter_mut().collect(),
        ExprKind::Record(fields, base) => base
            .iter_mut()
            .map(|b| &mut **b)
            .chain(fields.iter_mut().map(|(_, e)| e))
            .collect(),
        ExprKind::SetField(a, _, b)
        | ExprKind::Seq(a, b)
        | ExprKind::Cons(a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Assign(a, b) => vec![a, b],
    }
}
