//! The syntax tree of a Boogie 2 program, as parsed (names unresolved).
//!
//! Guarantees: every node that a message can point at carries its [`Span`]; the tree holds
//! only constructs the translation knows (the parser names the others as unsupported).

use crate::span::Span;
use num_bigint::BigInt;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: Rc<str>,
    pub span: Span,
}

/// A Boogie type. Maps with several indices `[k1, k2]v` are curried (`[k1][k2]v`): the
/// same select, update and equality, with one index at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Bool,
    Map(MapTy),
    /// Any type name, before [`super::types::resolve`] replaces it.
    Named(TyName),
    /// A type declared `type T;` (uninterpreted: an SMT sort, its values only compared for
    /// equality): its name and its position among the program's uninterpreted types
    /// (which is its IR `SortId`).
    Sort(TyName, u32),
    /// A `datatype`: its name and its position among the program's datatypes (which is
    /// its IR `DatatypeId`).
    Data(TyName, u32),
}

/// The name of a declared type (interned, so [`Ty`] stays `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TyName(&'static String);

impl TyName {
    pub fn new(name: &str) -> TyName {
        TyName(boogie_like::intern::intern(name.to_string()))
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// A map type `[key]value` (interned, so [`Ty`] stays `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MapTy(&'static (Ty, Ty));

impl MapTy {
    pub fn new(key: Ty, value: Ty) -> MapTy {
        MapTy(boogie_like::intern::intern((key, value)))
    }

    pub fn key(self) -> Ty {
        self.0.0
    }

    pub fn value(self) -> Ty {
        self.0.1
    }
}

impl Ty {
    /// `[k1][k2]…value` for the keys `k1, k2, …`.
    pub fn curried(keys: &[Ty], value: Ty) -> Ty {
        keys.iter()
            .rev()
            .fold(value, |v, k| Ty::Map(MapTy::new(*k, v)))
    }
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ty::Int => f.write_str("int"),
            Ty::Bool => f.write_str("bool"),
            Ty::Map(m) => write!(f, "[{}]{}", m.key(), m.value()),
            Ty::Named(n) | Ty::Data(n, _) | Ty::Sort(n, _) => f.write_str(n.as_str()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Binding {
    pub name: Ident,
    pub ty: Ty,
}

/// An attribute `{:name args}`: its name and its integer arguments (others are skipped).
#[derive(Clone, Debug)]
pub struct Attr {
    pub name: Ident,
    pub ints: Vec<BigInt>,
}

/// `type Name;` (uninterpreted) or `type Name = T;` (a synonym).
#[derive(Clone, Debug)]
pub struct TypeDecl {
    pub name: Ident,
    pub synonym: Option<Ty>,
}

/// `datatype Name { C(f: T, …), D() }` (Boogie 3).
#[derive(Clone, Debug)]
pub struct DatatypeDecl {
    pub name: Ident,
    pub ctors: Vec<CtorDecl>,
}

/// A constructor of a datatype, with its fields.
#[derive(Clone, Debug)]
pub struct CtorDecl {
    pub name: Ident,
    pub fields: Vec<Binding>,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub types: Vec<TypeDecl>,
    pub datatypes: Vec<DatatypeDecl>,
    pub globals: Vec<Binding>,
    pub consts: Vec<Const>,
    pub axioms: Vec<Expr>,
    pub functions: Vec<Function>,
    pub procs: Vec<Procedure>,
    pub impls: Vec<Implementation>,
}

#[derive(Clone, Debug)]
pub struct Const {
    pub binding: Binding,
    pub unique: bool,
}

/// A function: with a body, a macro expanded where it is applied; without one,
/// uninterpreted (an arbitrary total function, fixed for the whole run).
#[derive(Clone, Debug)]
pub struct Function {
    pub name: Ident,
    pub params: Vec<Binding>,
    pub result: Ty,
    pub body: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct Procedure {
    pub name: Ident,
    pub attrs: Vec<Attr>,
    pub ins: Vec<Binding>,
    pub outs: Vec<Binding>,
    pub specs: Vec<Spec>,
    pub body: Option<Body>,
}

#[derive(Clone, Debug)]
pub struct Implementation {
    pub name: Ident,
    pub ins: Vec<Binding>,
    pub outs: Vec<Binding>,
    pub body: Body,
}

#[derive(Clone, Debug)]
pub enum Spec {
    Requires { free: bool, cond: Expr },
    Ensures { free: bool, cond: Expr },
    Modifies(Vec<Ident>),
}

#[derive(Clone, Debug)]
pub struct Body {
    pub locals: Vec<Binding>,
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// A loop invariant, checked or `free`.
#[derive(Clone, Debug)]
pub struct Invariant {
    pub free: bool,
    pub cond: Expr,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Assign(Vec<Ident>, Vec<Expr>),
    Havoc(Vec<Ident>),
    Assume(Expr),
    Assert(Expr),
    Call {
        outs: Vec<Ident>,
        proc: Ident,
        args: Vec<Expr>,
    },
    /// `if (e)`, or `if (*)` when `cond` is `None`.
    If {
        cond: Option<Expr>,
        then: Vec<Stmt>,
        else_: Vec<Stmt>,
    },
    While {
        cond: Option<Expr>,
        invariants: Vec<Invariant>,
        body: Vec<Stmt>,
    },
    Break,
    Return,
    Goto(Vec<Ident>),
    Label(Ident),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Iff,
    Implies,
    And,
    Or,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(BigInt),
    Bool(bool),
    Var(Ident),
    Old(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    Apply(Ident, Vec<Expr>),
    /// `m[i, j]`
    Select(Box<Expr>, Vec<Expr>),
    /// `m[i, j := v]`
    Update(Box<Expr>, Vec<Expr>, Box<Expr>),
    /// `e is C`: whether `e` was built by the constructor `C`.
    Is(Box<Expr>, Ident),
    /// `e->f`: the field `f` of `e`.
    Field(Box<Expr>, Ident),
    /// `(forall x: T, … :: e)` (`true`) or `(exists x: T, … :: e)`; triggers `{ … }` and
    /// attributes are parsed and dropped.
    Quant(bool, Vec<Binding>, Box<Expr>),
    /// A code expression `|{ var …; L: …; goto M; M: …; return e; }|`, until
    /// [`super::codeexpr::lower`] replaces it by the plain expression it means.
    Code(Box<CodeExpr>),
}

impl Expr {
    /// The direct sub-expressions (a code expression's insides are not among them).
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Var(_) | ExprKind::Code(_) => {
                Vec::new()
            }
            ExprKind::Old(a)
            | ExprKind::Unary(_, a)
            | ExprKind::Is(a, _)
            | ExprKind::Field(a, _)
            | ExprKind::Quant(_, _, a) => vec![a],
            ExprKind::Binary(_, a, b) => vec![a, b],
            ExprKind::Ite(a, b, c) => vec![a, b, c],
            ExprKind::Apply(_, args) => args.iter().collect(),
            ExprKind::Select(m, idx) => std::iter::once(&**m).chain(idx).collect(),
            ExprKind::Update(m, idx, v) => std::iter::once(&**m)
                .chain(idx)
                .chain(std::iter::once(&**v))
                .collect(),
        }
    }

    /// [`Expr::children`], mutable.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match &mut self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Var(_) | ExprKind::Code(_) => {
                Vec::new()
            }
            ExprKind::Old(a)
            | ExprKind::Unary(_, a)
            | ExprKind::Is(a, _)
            | ExprKind::Field(a, _)
            | ExprKind::Quant(_, _, a) => vec![a],
            ExprKind::Binary(_, a, b) => vec![a, b],
            ExprKind::Ite(a, b, c) => vec![a, b, c],
            ExprKind::Apply(_, args) => args.iter_mut().collect(),
            ExprKind::Select(m, idx) => std::iter::once(&mut **m).chain(idx).collect(),
            ExprKind::Update(m, idx, v) => std::iter::once(&mut **m)
                .chain(idx)
                .chain(std::iter::once(&mut **v))
                .collect(),
        }
    }
}

/// A code expression's locals and blocks (the first block is where it starts). Its value
/// is true exactly when every execution of the blocks satisfies each assertion it meets
/// and the expression of the `return` it reaches (Boogie's weakest precondition).
#[derive(Clone, Debug)]
pub struct CodeExpr {
    pub locals: Vec<Binding>,
    pub blocks: Vec<CodeBlock>,
}

/// `L: cmd; …; goto M, N;` or `L: cmd; …; return e;` inside a code expression.
#[derive(Clone, Debug)]
pub struct CodeBlock {
    pub label: Ident,
    pub stmts: Vec<Stmt>,
    pub end: CodeEnd,
}

#[derive(Clone, Debug)]
pub enum CodeEnd {
    Goto(Vec<Ident>),
    Return(Box<Expr>),
}
