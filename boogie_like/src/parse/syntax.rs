//! The unresolved syntax tree: what the text says, with names as strings and positions.
//!
//! Guarantees: a faithful record of the parsed text (no name resolution, no checks);
//! [`super::resolve`] turns it into the IR.

use num_bigint::BigInt;

use super::MAX_NESTING;
use super::ParseError;
use crate::ir::{BinOp, SourcePos, UnOp};

/// A 1-based position in the IR text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: u32,
    pub col: u32,
}

/// A name and where it occurs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Name {
    pub text: String,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RType {
    Int,
    Bool,
    Named(Name),
    /// `[key]value`
    Map(Box<RType>, Box<RType>),
}

/// A `name: type` binding (parameter, return, local, field or global).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Binding {
    pub name: Name,
    pub ty: RType,
}

/// An expression; `height` is the height of its tree (a leaf has height 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RExpr {
    pub kind: RExprKind,
    pub pos: Pos,
    pub height: usize,
}

impl RExpr {
    /// The expression `kind` at `pos`; an error if its tree is taller than `MAX_NESTING`.
    pub(crate) fn new(kind: RExprKind, pos: Pos) -> Result<RExpr, ParseError> {
        let height = 1 + kind.children().map(|c| c.height).max().unwrap_or(0);
        if height > MAX_NESTING {
            let message = format!("expression nested deeper than {MAX_NESTING} levels");
            return Err(ParseError {
                line: pos.line,
                col: pos.col,
                message,
            });
        }
        Ok(RExpr { kind, pos, height })
    }
}

impl RExprKind {
    fn children(&self) -> impl Iterator<Item = &RExpr> {
        let (boxed, list): (Vec<&RExpr>, &[RExpr]) = match self {
            RExprKind::Int(_) | RExprKind::Bool(_) | RExprKind::Var(_) => (vec![], &[]),
            RExprKind::Unary(_, a) | RExprKind::Is(a, _) | RExprKind::Select(a, _) => {
                (vec![a], &[])
            }
            RExprKind::Binary(_, a, b) => (vec![a, b], &[]),
            RExprKind::Ite(a, b, c) | RExprKind::MapSet(a, b, c) => (vec![a, b, c], &[]),
            RExprKind::MapConst(_, a) | RExprKind::Quant(_, _, a) => (vec![a], &[]),
            RExprKind::MapGet(a, b) => (vec![a, b], &[]),
            RExprKind::Ctor(_, args) => (vec![], args),
        };
        boxed.into_iter().chain(list.iter())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RExprKind {
    Int(BigInt),
    Bool(bool),
    Var(Name),
    Unary(UnOp, Box<RExpr>),
    Binary(BinOp, Box<RExpr>, Box<RExpr>),
    Ite(Box<RExpr>, Box<RExpr>, Box<RExpr>),
    Ctor(Name, Vec<RExpr>),
    Is(Box<RExpr>, Name),
    Select(Box<RExpr>, Name),
    /// `[key](value)`
    MapConst(RType, Box<RExpr>),
    /// `map[index]`
    MapGet(Box<RExpr>, Box<RExpr>),
    /// `map[index := value]`
    MapSet(Box<RExpr>, Box<RExpr>, Box<RExpr>),
    /// `(forall x: T, … :: body)` (`true`) or `(exists …)`; each bound name is a local of
    /// the procedure, declared with that type.
    Quant(bool, Vec<(Name, RType)>, Box<RExpr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RStmt {
    Assign(Name, RExpr),
    Havoc(Vec<Name>),
    Assume(RExpr),
    Assert(RExpr, Option<SourcePos>),
    Call(RCall),
    If(RExpr, Vec<RStmt>, Vec<RStmt>),
    Return,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RCall {
    pub rets: Vec<Name>,
    pub callee: Name,
    pub args: Vec<RExpr>,
    pub source: Option<SourcePos>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RCtor {
    pub name: Name,
    pub fields: Vec<Binding>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RDatatype {
    pub name: Name,
    pub ctors: Vec<RCtor>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RProc {
    pub name: Name,
    pub entrypoint: bool,
    pub reads: Vec<Name>,
    pub params: Vec<Binding>,
    pub returns: Vec<Binding>,
    pub modifies: Vec<Name>,
    pub locals: Vec<Binding>,
    pub body: Vec<RStmt>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RProgram {
    /// `type T;` (uninterpreted sorts).
    pub sorts: Vec<Name>,
    pub datatypes: Vec<RDatatype>,
    pub globals: Vec<Binding>,
    pub procs: Vec<RProc>,
}
