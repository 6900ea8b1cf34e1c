//! Expressions of the IR: a boxed tree over typed ids, plus small constructors.
//!
//! Guarantees: an [`Expr`] only refers to program entities through typed ids ([`Var`],
//! [`CtorId`], [`FieldRef`]); whether those ids exist and the tree is well typed is checked
//! by [`crate::verify`], not here.

use num_bigint::BigInt;

use super::{CtorId, FieldRef, LocalId, Type, Var};

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Integer negation `-e`.
    Neg,
    /// Boolean negation `!e`.
    Not,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Integer division truncating toward zero (C's and OCaml's `/`, not Boogie's `div`).
    Div,
    /// The remainder of [`BinOp::Div`] (C's `%`, OCaml's `mod`): its sign is the dividend's.
    Mod,
    /// Euclidean division (Boogie's and SMT-LIB's `div`): `a = b * (a div b) + a mod b`
    /// with `0 <= a mod b < |b|`.
    EuclidDiv,
    /// The remainder of [`BinOp::EuclidDiv`] (Boogie's and SMT-LIB's `mod`): never negative.
    EuclidMod,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Implies,
}

impl BinOp {
    /// All binary operators.
    pub const ALL: [BinOp; 16] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Mod,
        BinOp::EuclidDiv,
        BinOp::EuclidMod,
        BinOp::Eq,
        BinOp::Neq,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::And,
        BinOp::Or,
        BinOp::Implies,
    ];

    /// The operator's concrete syntax.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::EuclidDiv => "div",
            BinOp::EuclidMod => "mod",
            BinOp::Eq => "==",
            BinOp::Neq => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Implies => "==>",
        }
    }

    /// Whether the operator compares two values and yields a boolean (`== != < <= > >=`).
    pub fn is_relational(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// An expression. Evaluation is pure; `&&`, `||`, `==>` and `if` evaluate lazily.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer literal (arbitrary precision, may be negative).
    Int(BigInt),
    /// `true` or `false`.
    Bool(bool),
    /// A local or global variable.
    Var(Var),
    /// `-arg` or `!arg`.
    Unary { op: UnOp, arg: Box<Expr> },
    /// `lhs op rhs`.
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `if cond then then else else_`.
    Ite {
        cond: Box<Expr>,
        then: Box<Expr>,
        else_: Box<Expr>,
    },
    /// Constructor application `C(args)`.
    Ctor { ctor: CtorId, args: Vec<Expr> },
    /// Tester `arg is C`.
    Is { arg: Box<Expr>, ctor: CtorId },
    /// Selector `arg->field`.
    Select { arg: Box<Expr>, field: FieldRef },
    /// The constant map `[key](value)`: every key of type `key` sent to `value`.
    MapConst { key: Type, value: Box<Expr> },
    /// Map read `map[index]`.
    MapGet { map: Box<Expr>, index: Box<Expr> },
    /// Map update `map[index := value]`: `map` with `index` sent to `value`.
    MapSet {
        map: Box<Expr>,
        index: Box<Expr>,
        value: Box<Expr>,
    },
    /// `forall vars :: body` (`forall` true) or `exists vars :: body`: the bound variables
    /// are locals of the enclosing procedure that nothing assigns and that occur nowhere
    /// else; inside `body` they range over every value of their type.
    Quant {
        forall: bool,
        vars: Vec<LocalId>,
        body: Box<Expr>,
    },
}

impl Expr {
    /// An integer literal.
    pub fn int(value: impl Into<BigInt>) -> Expr {
        Expr::Int(value.into())
    }

    /// A local or global variable.
    pub fn var(var: impl Into<Var>) -> Expr {
        Expr::Var(var.into())
    }

    /// `op arg`.
    pub fn unary(op: UnOp, arg: Expr) -> Expr {
        Expr::Unary {
            op,
            arg: Box::new(arg),
        }
    }

    /// `lhs op rhs`.
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    }

    /// `lhs && rhs`.
    pub fn and(lhs: Expr, rhs: Expr) -> Expr {
        Expr::binary(BinOp::And, lhs, rhs)
    }

    /// `lhs || rhs`.
    pub fn or(lhs: Expr, rhs: Expr) -> Expr {
        Expr::binary(BinOp::Or, lhs, rhs)
    }

    /// `lhs == rhs`.
    pub fn eq(lhs: Expr, rhs: Expr) -> Expr {
        Expr::binary(BinOp::Eq, lhs, rhs)
    }

    /// `if cond then then else else_`.
    pub fn ite(cond: Expr, then: Expr, else_: Expr) -> Expr {
        Expr::Ite {
            cond: Box::new(cond),
            then: Box::new(then),
            else_: Box::new(else_),
        }
    }

    /// `ctor(args)`.
    pub fn ctor(ctor: CtorId, args: Vec<Expr>) -> Expr {
        Expr::Ctor { ctor, args }
    }

    /// `arg is ctor`.
    pub fn is(arg: Expr, ctor: CtorId) -> Expr {
        Expr::Is {
            arg: Box::new(arg),
            ctor,
        }
    }

    /// `arg->field`.
    pub fn select(arg: Expr, field: FieldRef) -> Expr {
        Expr::Select {
            arg: Box::new(arg),
            field,
        }
    }

    /// `[key](value)`.
    pub fn map_const(key: Type, value: Expr) -> Expr {
        Expr::MapConst {
            key,
            value: Box::new(value),
        }
    }

    /// `map[index]`.
    pub fn map_get(map: Expr, index: Expr) -> Expr {
        Expr::MapGet {
            map: Box::new(map),
            index: Box::new(index),
        }
    }

    /// `map[index := value]`.
    pub fn map_set(map: Expr, index: Expr, value: Expr) -> Expr {
        Expr::MapSet {
            map: Box::new(map),
            index: Box::new(index),
            value: Box::new(value),
        }
    }

    /// The direct sub-expressions, left to right.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => Vec::new(),
            Expr::Unary { arg, .. }
            | Expr::Is { arg, .. }
            | Expr::Select { arg, .. }
            | Expr::MapConst { value: arg, .. }
            | Expr::Quant { body: arg, .. } => {
                vec![arg]
            }
            Expr::Binary { lhs, rhs, .. }
            | Expr::MapGet {
                map: lhs,
                index: rhs,
            } => {
                vec![lhs, rhs]
            }
            Expr::MapSet { map, index, value } => vec![map, index, value],
            Expr::Ite { cond, then, else_ } => vec![cond, then, else_],
            Expr::Ctor { args, .. } => args.iter().collect(),
        }
    }

    /// The direct sub-expressions, left to right, mutably.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => Vec::new(),
            Expr::Unary { arg, .. }
            | Expr::Is { arg, .. }
            | Expr::Select { arg, .. }
            | Expr::MapConst { value: arg, .. }
            | Expr::Quant { body: arg, .. } => vec![arg],
            Expr::Binary { lhs, rhs, .. }
            | Expr::MapGet {
                map: lhs,
                index: rhs,
            } => vec![lhs, rhs],
            Expr::MapSet { map, index, value } => vec![map, index, value],
            Expr::Ite { cond, then, else_ } => vec![cond, then, else_],
            Expr::Ctor { args, .. } => args.iter_mut().collect(),
        }
    }

    /// Calls `f` on every expression inside the expression and then on the expression
    /// itself, innermost first, each free to replace itself: a bottom-up rewrite.
    pub fn rewrite_bottom_up(&mut self, f: &mut impl FnMut(&mut Expr)) {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
            for child in self.children_mut() {
                child.rewrite_bottom_up(f);
            }
            f(self);
        })
    }

    /// Calls `f` on the expression and every expression inside it, outermost first.
    pub fn for_each_subexpr(&self, f: &mut impl FnMut(&Expr)) {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
            f(self);
            for child in self.children() {
                child.for_each_subexpr(f);
            }
        })
    }

    /// Whether a quantifier occurs in the expression.
    pub fn has_quantifier(&self) -> bool {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || match self {
            Expr::Quant { .. } => true,
            _ => self.children().into_iter().any(Expr::has_quantifier),
        })
    }

    /// Calls `f` on every variable occurring in the expression (a quantifier's bound
    /// variables included).
    pub fn for_each_var(&self, f: &mut impl FnMut(Var)) {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || match self {
            Expr::Var(v) => f(*v),
            _ => self.children().into_iter().for_each(|c| c.for_each_var(f)),
        })
    }
}

/// `!e` builds the expression `!e`.
impl std::ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::unary(UnOp::Not, self)
    }
}

/// `-e` builds the expression `-e` (for a literal `-n`, use [`Expr::int`]).
impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::unary(UnOp::Neg, self)
    }
}
