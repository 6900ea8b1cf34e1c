//! The abstract syntax of HORef (docs/semantics.md).
//!
//! Every expression carries a [`Span`] and a dense [`ExprId`]; every binding occurrence
//! (parameter, `let`, `let rec`) carries a [`BinderId`]; every `fun` carries a [`LambdaId`].
//! Ids are assigned by the parser in source order, so later stages keep their facts in side
//! tables indexed by them (types, resolutions, points-to sets) instead of mutating the tree.

use crate::span::Span;
use num_bigint::BigInt;
use std::fmt;
use std::rc::Rc;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// An expression node, dense in `0..Program::expr_count`.
    ExprId
);
id_type!(
    /// A binding occurrence of a variable, dense in `0..Program::binder_count`.
    BinderId
);
id_type!(
    /// A `fun` (or `let rec` function), dense in `0..Program::lambda_count`.
    LambdaId
);
id_type!(
    /// A top-level method, its index in `Program::methods`.
    MethodId
);
id_type!(
    /// A global reference, its index in `Program::store`.
    RefId
);
id_type!(
    /// An exception, its index in `Program::exceptions`.
    ExnId
);

/// A name with the span where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: Rc<str>,
    pub span: Span,
}

/// HORef types. An arrow takes all its parameters at once (no partial application).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Unit,
    /// A list of elements of the boxed type. HORef's `List` is the list of `Int`; other
    /// element types come from the OCaml front end only (`int list list`, lists of pairs,
    /// of closures, ...).
    List(Box<Type>),
    Arrow(Vec<Type>, Box<Type>),
    Pair(Box<Type>, Box<Type>),
    /// `Ref T`: an allocated reference cell holding a `T` (our extension).
    Ref(Box<Type>),
    /// A datatype of the program ([`Program::datatypes`]), by its unique name: only the
    /// OCaml front end produces them (a recursive variant type such as `tree`).
    Data(Rc<str>),
}

impl Type {
    pub fn arrow(params: Vec<Type>, ret: Type) -> Type {
        Type::Arrow(params, Box::new(ret))
    }

    pub fn pair(a: Type, b: Type) -> Type {
        Type::Pair(Box::new(a), Box::new(b))
    }

    pub fn reference(content: Type) -> Type {
        Type::Ref(Box::new(content))
    }

    /// A list of `element`s.
    pub fn list(element: Type) -> Type {
        Type::List(Box::new(element))
    }

    /// HORef's `List`: the list of integers.
    pub fn int_list() -> Type {
        Type::list(Type::Int)
    }

    /// The element type, if this is a list type.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::List(element) => Some(element),
            _ => None,
        }
    }

    /// Whether `Ref` occurs anywhere in this type.
    pub fn mentions_ref(&self) -> bool {
        match self {
            Type::Int | Type::Unit | Type::Data(_) => false,
            Type::List(element) => element.mentions_ref(),
            Type::Ref(_) => true,
            Type::Pair(a, b) => a.mentions_ref() || b.mentions_ref(),
            Type::Arrow(params, ret) => params.iter().any(Type::mentions_ref) || ret.mentions_ref(),
        }
    }

    /// Whether a list of anything but `Int` occurs anywhere in this type.
    pub fn mentions_non_int_list(&self) -> bool {
        match self {
            Type::Int | Type::Unit => false,
            // A datatype is recursive like a list: encoded as the non-integer lists are.
            Type::Data(_) => true,
            Type::List(element) => **element != Type::Int || element.mentions_non_int_list(),
            Type::Ref(content) => content.mentions_non_int_list(),
            Type::Pair(a, b) => a.mentions_non_int_list() || b.mentions_non_int_list(),
            Type::Arrow(params, ret) => {
                params.iter().any(Type::mentions_non_int_list) || ret.mentions_non_int_list()
            }
        }
    }

    /// Ground types are the ones `Main` may take as inputs.
    pub fn is_ground(&self) -> bool {
        matches!(self, Type::Int | Type::Unit)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => write!(f, "Int"),
            Type::Unit => write!(f, "Unit"),
            Type::List(element) if **element == Type::Int => write!(f, "List"),
            Type::List(element) => {
                write!(f, "List<")?;
                write!(f, "{element}")?;
                write!(f, ">")
            }
            Type::Data(name) => write!(f, "{name}"),
            Type::Ref(content) => {
                write!(f, "Ref ")?;
                if matches!(**content, Type::Arrow(..) | Type::Pair(..)) {
                    write!(f, "({content})")
                } else {
                    write!(f, "{content}")
                }
            }
            Type::Pair(a, b) => {
                write_operand(f, a, true)?;
                write!(f, " * ")?;
                write_operand(f, b, true)
            }
            Type::Arrow(params, ret) => {
                if params.len() == 1 {
                    write_operand(f, &params[0], false)?;
                } else {
                    write!(f, "(")?;
                    for (i, p) in params.iter().enumerate() {
                        if i > 0 {
                            write!(f, ", ")?;
                        }
                        write!(f, "{p}")?;
                    }
                    write!(f, ")")?;
                }
                write!(f, " -> {ret}")
            }
        }
    }
}

/// Writes `t` with parentheses where it would otherwise be read differently as an operand
/// of `*` (`in_pair`) or as the single parameter of an arrow.
fn write_operand(f: &mut fmt::Formatter<'_>, t: &Type, in_pair: bool) -> fmt::Result {
    let needs_parens = matches!(t, Type::Arrow(..)) || (in_pair && matches!(t, Type::Pair(..)));
    if needs_parens {
        write!(f, "({t})")
    } else {
        write!(f, "{t}")
    }
}

/// A typed parameter or `let` binder.
#[derive(Clone, Debug)]
pub struct Binder {
    pub id: BinderId,
    pub name: Ident,
    pub ty: Type,
}

/// A `fun (x:T, ...) :(R) -> body`, or the function of a `let rec`.
#[derive(Clone, Debug)]
pub struct Lambda {
    pub id: LambdaId,
    pub params: Vec<Binder>,
    pub ret: Type,
    pub body: Expr,
    pub span: Span,
    /// The closure of a partial application (`add 1` in OCaml; HORef syntax has none): its
    /// body is one application of the function to the captured and the given arguments.
    /// Applying it costs no depth — its body runs at the caller's depth, so only that inner
    /// application, which saturates the function, is a call (docs/semantics.md).
    pub wrapper: bool,
}

impl Lambda {
    pub fn ty(&self) -> Type {
        Type::arrow(
            self.params.iter().map(|p| p.ty.clone()).collect(),
            self.ret.clone(),
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Truncating division (OCaml's `/`); a zero divisor fails (`Division_by_zero`).
    /// Only the OCaml front end produces it; HORef syntax has no division.
    Div,
    /// The remainder of truncating division (OCaml's `mod`: its sign is the dividend's);
    /// a zero divisor fails.
    Mod,
    Eq,
    Ne,
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
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// Which component a projection takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proj {
    Fst,
    Snd,
}

/// The list primitives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListOp {
    Hd,
    Tl,
    IsEmpty,
}

impl ListOp {
    pub fn keyword(self) -> &'static str {
        match self {
            ListOp::Hd => "hd",
            ListOp::Tl => "tl",
            ListOp::IsEmpty => "is_empty",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub id: ExprId,
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(BigInt),
    /// `skip`, the unit value.
    Skip,
    /// `fail`: fails unconditionally.
    Fail,
    /// `[]`
    Nil,
    /// A variable or a method name (resolved by the checker; locals shadow methods).
    Var(Ident),
    Fun(Rc<Lambda>),
    /// `f e` or `f (e1, ..., en)`.
    App {
        func: Box<Expr>,
        args: Vec<Expr>,
    },
    Let {
        binder: Binder,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    LetRec {
        binder: Binder,
        lambda: Rc<Lambda>,
        body: Box<Expr>,
    },
    If {
        cond: Box<Expr>,
        then_branch: Box<Expr>,
        else_branch: Box<Expr>,
    },
    Assert(Box<Expr>),
    /// `r := e` on a name: a `Store:` reference, or a local variable of a `Ref` type
    /// (the checker decides; [`crate::core_lang::typecheck::TypeInfo::cell`]).
    Assign {
        reference: Ident,
        value: Box<Expr>,
    },
    /// `!r` on a name, resolved as [`ExprKind::Assign`]'s name is.
    Deref(Ident),
    /// `ref e` (our extension): a fresh cell holding the value of `e`.
    Alloc(Box<Expr>),
    /// `!e` on any reference-valued expression other than a name.
    Load(Box<Expr>),
    /// `e1 := e2` with any reference-valued `e1` other than a name: `e1` is evaluated
    /// first, then `e2`.
    Store {
        target: Box<Expr>,
        value: Box<Expr>,
    },
    /// The cell `index` cells after the cell `base` (only the OCaml front end produces it,
    /// for arrays: an array's cells are allocated one after the other, so its `i`-th element
    /// is the cell `i` after its first). `base` is evaluated first, then `index`; the front
    /// end checks `0 <= index < length` before, so the result is a cell allocated with
    /// `base`'s type (an address outside the allocated cells is a defect of the producer).
    Offset {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    Pair(Box<Expr>, Box<Expr>),
    /// `(fst:T) e` (with the pair's type `T`) or plain `fst e`.
    Proj {
        which: Proj,
        annot: Option<Type>,
        pair: Box<Expr>,
    },
    /// `e :: e`
    Cons(Box<Expr>, Box<Expr>),
    List(ListOp, Box<Expr>),
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// Unary minus (our extension).
    Neg(Box<Expr>),
    /// `raise E` / `raise (E arg)` (only the OCaml front end produces it): evaluates `arg`,
    /// then raises the exception; it propagates out of every call until a [`ExprKind::Try`]
    /// handles it, and escaping `Main` it is a failure at this expression.
    Raise {
        exn: ExnId,
        arg: Option<Box<Expr>>,
    },
    /// `try body with handlers`: the value of `body`, or, when `body` raises, the value of
    /// the first handler for that exception; with none, the exception propagates unchanged.
    Try {
        body: Box<Expr>,
        handlers: Vec<Handler>,
    },
    /// A fresh input (only the OCaml front end produces it: `read_int ()`, `Random.int n`,
    /// `Random.bool ()`): each evaluation is one new integer, the next value of the run's
    /// input stream. With `below`, `below` is evaluated first and must be positive (else a
    /// failure at this expression), and the input lies in `0 .. below - 1`.
    Input {
        below: Option<Box<Expr>>,
    },
    /// A value of a datatype built by its constructor `ctor` from `args`, one per field
    /// (only the OCaml front end produces it).
    Construct {
        data: Rc<str>,
        ctor: u32,
        args: Vec<Expr>,
    },
    /// Whether `value` (of a datatype) was built by constructor `ctor`: 1 or 0.
    IsCtor {
        ctor: u32,
        value: Box<Expr>,
    },
    /// Field `field` of `value`, which must have been built by constructor `ctor` (the
    /// OCaml front end tests it first; otherwise a failure at this expression).
    Field {
        ctor: u32,
        field: u32,
        value: Box<Expr>,
    },
}

/// A datatype: a name unique in the program and its constructors, each with the types of
/// its fields (which may name this datatype and the other datatypes of the program).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDecl {
    pub name: Rc<str>,
    pub ctors: Vec<CtorDecl>,
}

/// One constructor of a [`DataDecl`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtorDecl {
    pub name: Rc<str>,
    pub fields: Vec<Type>,
}

/// One case of a `try`: `E x -> body`, `E -> body`, or (`exn: None`) `_ -> body`.
#[derive(Clone, Debug)]
pub struct Handler {
    /// The exception handled; `None` handles every exception.
    pub exn: Option<ExnId>,
    /// The binder of the exception's argument (only for an exception with one).
    pub arg: Option<Binder>,
    pub body: Expr,
    pub span: Span,
}

/// A declared exception (`exception E` or `exception E of t`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExnDecl {
    pub name: Rc<str>,
    /// The type of its argument, if it carries one (any type; in the IR it travels in the
    /// payload globals of its type, `lower::exceptions`).
    pub arg: Option<Type>,
}

/// The name under which the OCaml front end declares division by zero's exception: a `/`
/// or `mod` by zero raises it when the program declares it (and catches exceptions).
pub const DIVISION_BY_ZERO: &str = "Division_by_zero";

/// `name (params) :(ret) = body;`
#[derive(Clone, Debug)]
pub struct Method {
    pub id: MethodId,
    pub name: Ident,
    pub params: Vec<Binder>,
    pub ret: Type,
    pub body: Expr,
}

impl Method {
    pub fn ty(&self) -> Type {
        Type::arrow(
            self.params.iter().map(|p| p.ty.clone()).collect(),
            self.ret.clone(),
        )
    }
}

/// `r:T := init;` in the `Store:` section.
#[derive(Clone, Debug)]
pub struct RefDecl {
    pub id: RefId,
    pub name: Ident,
    pub ty: Type,
    pub init: Expr,
}

/// `Main (args) : T : body`
#[derive(Clone, Debug)]
pub struct MainDecl {
    pub params: Vec<Binder>,
    pub ret: Type,
    pub body: Expr,
    pub span: Span,
}

/// How the program's integers relate to machine integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IntModel {
    /// Mathematical integers (HORef).
    #[default]
    Unbounded,
    /// OCaml's `int` (a `.ml` program): the entry's integer inputs and every fresh input
    /// lie in `min_int ..= max_int` ([`ocaml_int_range`]); arithmetic stays mathematical,
    /// and with `overflow_checks` a `+`, `-`, `*`, `/` or unary minus whose result lies
    /// outside that range is a failure at that expression (the interpreter's
    /// `FailureKind::Overflow`, an `assert` in the lowering).
    OCaml { overflow_checks: bool },
}

impl IntModel {
    /// The range the inputs lie in, if bounded.
    pub fn input_range(self) -> Option<(BigInt, BigInt)> {
        match self {
            IntModel::Unbounded => None,
            IntModel::OCaml { .. } => Some(ocaml_int_range()),
        }
    }

    /// The range an arithmetic result must lie in, if overflow is checked.
    pub fn checked_range(self) -> Option<(BigInt, BigInt)> {
        match self {
            IntModel::OCaml {
                overflow_checks: true,
            } => Some(ocaml_int_range()),
            _ => None,
        }
    }
}

/// OCaml's `min_int` and `max_int` on 64-bit machines: `-2^62` and `2^62 - 1`.
pub fn ocaml_int_range() -> (BigInt, BigInt) {
    let bound = BigInt::from(1u64 << 62);
    (-bound.clone(), bound - 1)
}

/// A whole HORef file.
#[derive(Clone, Debug)]
pub struct Program {
    pub store: Vec<RefDecl>,
    /// What an integer is (inputs' range, overflow checks): see [`IntModel`].
    pub ints: IntModel,
    /// The exceptions `Raise` and `Try` name (none in HORef syntax).
    pub exceptions: Vec<ExnDecl>,
    /// The datatypes `Type::Data` names (none in HORef syntax).
    pub datatypes: Vec<DataDecl>,
    pub methods: Vec<Method>,
    pub main: MainDecl,
    pub expr_count: u32,
    pub binder_count: u32,
    pub lambda_count: u32,
}

impl Program {
    pub fn method(&self, id: MethodId) -> &Method {
        &self.methods[id.index()]
    }

    pub fn reference(&self, id: RefId) -> &RefDecl {
        &self.store[id.index()]
    }

    pub fn method_named(&self, name: &str) -> Option<&Method> {
        self.methods.iter().find(|m| &*m.name.name == name)
    }

    pub fn ref_named(&self, name: &str) -> Option<&RefDecl> {
        self.store.iter().find(|r| &*r.name.name == name)
    }

    /// The datatype named `name`.
    pub fn datatype(&self, name: &str) -> Option<&DataDecl> {
        self.datatypes.iter().find(|d| &*d.name == name)
    }

    pub fn exception(&self, id: ExnId) -> &ExnDecl {
        &self.exceptions[id.index()]
    }

    /// Every top-level body: the `Store` initialisers, the methods, `Main`.
    pub fn bodies(&self) -> impl Iterator<Item = &Expr> {
        self.store
            .iter()
            .map(|d| &d.init)
            .chain(self.methods.iter().map(|m| &m.body))
            .chain(std::iter::once(&self.main.body))
    }

    /// The exception a division by zero raises, if the program declares one.
    pub fn division_by_zero(&self) -> Option<ExnId> {
        self.exceptions
            .iter()
            .position(|e| &*e.name == DIVISION_BY_ZERO)
            .map(|i| ExnId(i as u32))
    }
}
