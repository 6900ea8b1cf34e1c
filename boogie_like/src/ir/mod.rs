//! The data types of the Boogie-like IR: programs, datatypes, globals, procedures,
//! statements and expressions, all linked by typed ids.
//!
//! Guarantees: entities live in [`Arena`]s and refer to each other only through typed ids;
//! arena order is declaration order (the printer prints in that order, the parser numbers in
//! that order), so `parse(print(p)) == p` holds structurally for every program that passes
//! [`crate::verify`]. Nothing here checks well-formedness: that is [`crate::verify`]'s job.
//! Building programs is in [`build`](self) (methods on [`Program`] and [`Procedure`]).

mod build;
pub mod congruences;
pub mod constant_fields;
mod expr;
mod map_type;
pub mod reachable;
pub mod specialize;
pub mod unbox;

use std::fmt;

pub use expr::{BinOp, Expr, UnOp};
pub use map_type::{MapSig, MapType, is_key_type};

use crate::arena::{Arena, entity_id};

entity_id!(
    /// A datatype of a [`Program`].
    DatatypeId,
    "dt"
);
entity_id!(
    /// An uninterpreted sort of a [`Program`] (`type T;`).
    SortId,
    "sort"
);
entity_id!(
    /// A global variable of a [`Program`].
    GlobalId,
    "g"
);
entity_id!(
    /// A procedure of a [`Program`].
    ProcId,
    "proc"
);
entity_id!(
    /// A local variable (parameter, return or body local) of one [`Procedure`].
    LocalId,
    "l"
);
entity_id!(
    /// A call site of one [`Procedure`]; numbered densely in textual order.
    CallSiteId,
    "site"
);

/// A constructor: the `index`-th constructor of `datatype`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CtorId {
    pub datatype: DatatypeId,
    pub index: u32,
}

/// A field: the `index`-th field of constructor `ctor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldRef {
    pub ctor: CtorId,
    pub index: u32,
}

/// A type: mathematical integers, booleans, a datatype, a map `[K]V` (a total function
/// from `K` to `V`, an SMT array), or an uninterpreted sort (an SMT `declare-sort`: a
/// nonempty set whose values can only be compared; the interpreter's values of it are
/// opaque integers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    Data(DatatypeId),
    Map(MapType),
    Sort(SortId),
}

impl Type {
    /// The map type `[key]value`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(MapType::new(key, value))
    }
}

/// A position in the HORef source (1-based), carried by calls and asserts for traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourcePos {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A variable: a local of the current procedure or a global of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Var {
    Local(LocalId),
    Global(GlobalId),
}

impl From<LocalId> for Var {
    fn from(id: LocalId) -> Var {
        Var::Local(id)
    }
}

impl From<GlobalId> for Var {
    fn from(id: GlobalId) -> Var {
        Var::Global(id)
    }
}

/// A whole program. Arena order is declaration (and printing) order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// Uninterpreted sorts (`type T;`), declared before the datatypes.
    pub sorts: Arena<SortId, SortDecl>,
    pub datatypes: Arena<DatatypeId, Datatype>,
    pub globals: Arena<GlobalId, Global>,
    pub procs: Arena<ProcId, Procedure>,
}

/// `type Name;`: an uninterpreted sort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortDecl {
    pub name: String,
}

/// `datatype Name { c1(f: T, …), c2(), … }`; may refer to itself and to other datatypes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Datatype {
    pub name: String,
    pub ctors: Vec<Constructor>,
}

impl Datatype {
    /// Its two constructors as `(nil, cons)` when it has exactly two and exactly one of
    /// them has no fields (the shape of a list, an option, …; whether `cons` nests the
    /// datatype is for the caller to ask).
    pub fn nil_and_cons(&self) -> Option<(&Constructor, &Constructor)> {
        let [first, second] = self.ctors.as_slice() else {
            return None;
        };
        match (first.fields.is_empty(), second.fields.is_empty()) {
            (true, false) => Some((first, second)),
            (false, true) => Some((second, first)),
            _ => None,
        }
    }
}

/// A constructor; its name is unique program-wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constructor {
    pub name: String,
    pub fields: Vec<Field>,
}

/// A constructor field; its name is unique within its datatype.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
}

/// `var name: ty;` at top level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Global {
    pub name: String,
    pub ty: Type,
}

/// A local variable: parameter, return or body local.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    pub name: String,
    pub ty: Type,
}

/// A procedure. `params`, `returns` and body locals all live in `locals`; the params come
/// first, then the returns, then the body locals (the layout the parser produces and
/// [`crate::verify`] requires).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Procedure {
    pub name: String,
    pub params: Vec<LocalId>,
    pub returns: Vec<LocalId>,
    pub locals: Arena<LocalId, Local>,
    /// Globals the procedure (or a callee) may write; they may be read too.
    pub modifies: Vec<GlobalId>,
    /// Globals the procedure (or a callee) may read but never writes.
    pub reads: Vec<GlobalId>,
    /// Whether this is the program's entry procedure (exactly one is).
    pub entrypoint: bool,
    pub body: Block,
    /// The procedure's calls, numbered in textual order of their `call` statements.
    pub call_sites: Arena<CallSiteId, CallSite>,
}

/// `call {:source l, c} rets := callee(args);`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub callee: ProcId,
    pub args: Vec<Expr>,
    pub rets: Vec<Var>,
    pub source: Option<SourcePos>,
}

/// A sequence of statements.
pub type Block = Vec<Stmt>;

/// A statement. There are no loops: every run of a procedure body is finite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `x := e;`
    Assign(Var, Expr),
    /// `havoc x, y;` (an arbitrary value for each variable)
    Havoc(Vec<Var>),
    /// `assume e;` (a false assumption blocks the path)
    Assume(Expr),
    /// `assert {:source l, c} e;` (a false assertion is the failure we look for)
    Assert {
        cond: Expr,
        source: Option<SourcePos>,
    },
    /// `call …;` the call site holds callee, arguments and results.
    Call(CallSiteId),
    /// `if (cond) { then } else { else_ }`
    If {
        cond: Expr,
        then: Block,
        else_: Block,
    },
    /// `return;`
    Return,
}

fn block_has_quantifier(block: &[Stmt]) -> bool {
    block.iter().any(|s| match s {
        Stmt::Assign(_, e) | Stmt::Assume(e) | Stmt::Assert { cond: e, .. } => e.has_quantifier(),
        Stmt::If { cond, then, else_ } => {
            cond.has_quantifier() || block_has_quantifier(then) || block_has_quantifier(else_)
        }
        Stmt::Havoc(_) | Stmt::Call(_) | Stmt::Return => false,
    })
}

impl Program {
    /// Whether some expression of the program divides toward zero ([`BinOp::Div`] or
    /// [`BinOp::Mod`]: C's and OCaml's `/` and `mod`, whose results depend on the
    /// dividend's sign).
    pub fn divides_toward_zero(&self) -> bool {
        self.has_expr(&|e| {
            matches!(
                e,
                Expr::Binary {
                    op: BinOp::Div | BinOp::Mod,
                    ..
                }
            )
        })
    }

    /// Whether some expression of the program takes a remainder by the literal `n`
    /// (`x mod n`, rounding toward zero or Euclidean).
    pub fn takes_remainders_by(&self, n: i64) -> bool {
        self.has_expr(&|e| match e {
            Expr::Binary {
                op: BinOp::Mod | BinOp::EuclidMod,
                rhs,
                ..
            } => matches!(&**rhs, Expr::Int(k) if *k == n.into()),
            _ => false,
        })
    }

    /// Whether some expression of some procedure (or a part of one) satisfies `test`.
    fn has_expr(&self, test: &dyn Fn(&Expr) -> bool) -> bool {
        self.procs.values().any(|proc| {
            let mut found = false;
            proc.for_each_expr(&mut |e| e.for_each_subexpr(&mut |e| found |= test(e)));
            found
        })
    }

    /// The constructor `id`, if it exists.
    pub fn ctor(&self, id: CtorId) -> Option<&Constructor> {
        self.datatypes
            .get(id.datatype)?
            .ctors
            .get(id.index as usize)
    }

    /// The field `id`, if it exists.
    pub fn field(&self, id: FieldRef) -> Option<&Field> {
        self.ctor(id.ctor)?.fields.get(id.index as usize)
    }

    /// All constructors of all datatypes, in declaration order.
    pub fn ctors(&self) -> impl Iterator<Item = (CtorId, &Constructor)> {
        self.datatypes.iter().flat_map(|(datatype, dt)| {
            dt.ctors.iter().enumerate().map(move |(i, c)| {
                (
                    CtorId {
                        datatype,
                        index: i as u32,
                    },
                    c,
                )
            })
        })
    }

    /// The datatype named `name`.
    pub fn datatype_by_name(&self, name: &str) -> Option<DatatypeId> {
        self.datatypes
            .iter()
            .find(|(_, d)| d.name == name)
            .map(|(id, _)| id)
    }

    /// The constructor named `name` (constructor names are program-wide).
    pub fn ctor_by_name(&self, name: &str) -> Option<CtorId> {
        self.ctors().find(|(_, c)| c.name == name).map(|(id, _)| id)
    }

    /// The field named `name` of datatype `datatype`.
    pub fn field_by_name(&self, datatype: DatatypeId, name: &str) -> Option<FieldRef> {
        let dt = self.datatypes.get(datatype)?;
        dt.ctors.iter().enumerate().find_map(|(c, ctor)| {
            let index = ctor.fields.iter().position(|f| f.name == name)?;
            let ctor = CtorId {
                datatype,
                index: c as u32,
            };
            Some(FieldRef {
                ctor,
                index: index as u32,
            })
        })
    }

    /// The global named `name`.
    pub fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        self.globals
            .iter()
            .find(|(_, g)| g.name == name)
            .map(|(id, _)| id)
    }

    /// The procedure named `name`.
    pub fn proc_by_name(&self, name: &str) -> Option<ProcId> {
        self.procs
            .iter()
            .find(|(_, p)| p.name == name)
            .map(|(id, _)| id)
    }

    /// The first procedure marked `{:entrypoint}`.
    pub fn entrypoint(&self) -> Option<ProcId> {
        self.procs
            .iter()
            .find(|(_, p)| p.entrypoint)
            .map(|(id, _)| id)
    }

    /// Whether a quantifier occurs anywhere in the program.
    pub fn has_quantifiers(&self) -> bool {
        self.procs.values().any(|p| {
            p.call_sites
                .values()
                .any(|cs| cs.args.iter().any(Expr::has_quantifier))
                || block_has_quantifier(&p.body)
        })
    }

    /// The type of `var` inside procedure `proc`, if both exist.
    pub fn var_type(&self, proc: &Procedure, var: Var) -> Option<Type> {
        match var {
            Var::Local(l) => proc.locals.get(l).map(|l| l.ty),
            Var::Global(g) => self.globals.get(g).map(|g| g.ty),
        }
    }

    /// The name of `var` inside procedure `proc`, if both exist.
    pub fn var_name<'a>(&'a self, proc: &'a Procedure, var: Var) -> Option<&'a str> {
        match var {
            Var::Local(l) => proc.locals.get(l).map(|l| l.name.as_str()),
            Var::Global(g) => self.globals.get(g).map(|g| g.name.as_str()),
        }
    }

    /// The type of `expr` in procedure `proc`, or `None` if it is ill-typed or refers to a
    /// missing entity. Checks only what it needs to find the type.
    pub fn expr_type(&self, proc: &Procedure, expr: &Expr) -> Option<Type> {
        match expr {
            Expr::Int(_) => Some(Type::Int),
            Expr::Bool(_) | Expr::Is { .. } | Expr::Quant { .. } => Some(Type::Bool),
            Expr::Var(v) => self.var_type(proc, *v),
            Expr::Unary { op: UnOp::Neg, .. } => Some(Type::Int),
            Expr::Unary { op: UnOp::Not, .. } => Some(Type::Bool),
            Expr::Binary { op, .. } => Some(binop_result(*op)),
            Expr::Ite { then, else_, .. } => self.ite_type(proc, then, else_),
            Expr::Ctor { ctor, .. } => self.ctor(*ctor).map(|_| Type::Data(ctor.datatype)),
            Expr::Select { field, .. } => self.field(*field).map(|f| f.ty),
            Expr::MapGet { map, .. } => match self.map_expr_type(proc, map)? {
                Type::Map(m) => Some(m.value()),
                _ => None,
            },
            Expr::MapSet { map, .. } => self.map_expr_type(proc, map),
            Expr::MapConst { key, value } => {
                let value = self.map_expr_type(proc, value)?;
                Some(Type::map(*key, value))
            }
        }
    }

    fn map_expr_type(&self, proc: &Procedure, map: &Expr) -> Option<Type> {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || self.expr_type(proc, map))
    }

    fn ite_type(&self, proc: &Procedure, then: &Expr, else_: &Expr) -> Option<Type> {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
            self.expr_type(proc, then)
                .or_else(|| self.expr_type(proc, else_))
        })
    }

    /// The display name of `ty` (`int`, `bool`, the datatype's name, `[int]int`).
    pub fn type_name(&self, ty: Type) -> String {
        match ty {
            Type::Map(m) => format!("[{}]{}", self.type_name(m.key()), self.type_name(m.value())),
            Type::Int => "int".to_string(),
            Type::Bool => "bool".to_string(),
            Type::Data(d) => match self.datatypes.get(d) {
                Some(dt) => dt.name.clone(),
                None => format!("<missing {d}>"),
            },
            Type::Sort(s) => match self.sorts.get(s) {
                Some(sort) => sort.name.clone(),
                None => format!("<missing {s}>"),
            },
        }
    }
}

/// The result type of a binary operator.
pub fn binop_result(op: BinOp) -> Type {
    match op {
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::Div
        | BinOp::Mod
        | BinOp::EuclidDiv
        | BinOp::EuclidMod => Type::Int,
        _ => Type::Bool,
    }
}

impl Procedure {
    /// Calls `f` on every expression the procedure's statements evaluate, in statement
    /// order: assigned values, assumptions, assertions, branch conditions and call
    /// arguments (not their sub-expressions: [`Expr::for_each_subexpr`]).
    pub fn for_each_expr(&self, f: &mut impl FnMut(&Expr)) {
        for_each_stmt(&self.body, &mut |stmt| match stmt {
            Stmt::Assign(_, e) | Stmt::Assume(e) | Stmt::Assert { cond: e, .. } => f(e),
            Stmt::If { cond, .. } => f(cond),
            Stmt::Call(site) => self.call_sites[*site].args.iter().for_each(&mut *f),
            Stmt::Havoc(_) | Stmt::Return => {}
        });
    }

    /// Calls `f` on every expression the procedure evaluates, mutably: those of
    /// [`Procedure::for_each_expr`] (call arguments first, then the body's statements).
    pub fn for_each_expr_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        for (_, site) in self.call_sites.iter_mut() {
            site.args.iter_mut().for_each(&mut *f);
        }
        fn walk(block: &mut Block, f: &mut impl FnMut(&mut Expr)) {
            for stmt in block {
                match stmt {
                    Stmt::Assign(_, e) | Stmt::Assume(e) | Stmt::Assert { cond: e, .. } => f(e),
                    Stmt::If { cond, then, else_ } => {
                        f(cond);
                        walk(then, f);
                        walk(else_, f);
                    }
                    Stmt::Havoc(_) | Stmt::Call(_) | Stmt::Return => {}
                }
            }
        }
        walk(&mut self.body, f);
    }

    /// The local named `name`.
    pub fn local_by_name(&self, name: &str) -> Option<LocalId> {
        self.locals
            .iter()
            .find(|(_, l)| l.name == name)
            .map(|(id, _)| id)
    }

    /// The body locals: all locals that are neither parameters nor returns.
    pub fn body_locals(&self) -> impl Iterator<Item = LocalId> + '_ {
        self.locals
            .ids()
            .filter(|l| !self.params.contains(l) && !self.returns.contains(l))
    }

    /// Whether `id` is an in-parameter (never assigned, as in Boogie).
    pub fn is_param(&self, id: LocalId) -> bool {
        self.params.contains(&id)
    }
}

/// Calls `f` on every statement of `block`, in textual (pre-)order, nested ones included.
pub fn for_each_stmt<'a>(block: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for stmt in block {
        f(stmt);
        if let Stmt::If { then, else_, .. } = stmt {
            stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
                for_each_stmt(then, f);
                for_each_stmt(else_, f);
            });
        }
    }
}

/// The call sites used by `block`, in textual order (with repetitions, if any).
pub fn call_sites_in_order(block: &[Stmt]) -> Vec<CallSiteId> {
    let mut sites = Vec::new();
    for_each_stmt(block, &mut |s| {
        if let Stmt::Call(site) = s {
            sites.push(*site);
        }
    });
    sites
}

/// The name prefix of the locals whose `havoc` is a fresh input of the source program
/// (`read_int ()`, `Random.int n`): the lowering names them so, and the encoder reports them.
pub const FRESH_INPUT: &str = "input#";

/// Whether a variable of this name holds a fresh input ([`FRESH_INPUT`]).
pub fn is_fresh_input(name: &str) -> bool {
    name.starts_with(FRESH_INPUT)
}
