//! The random programs' own syntax tree: a small, typed subset of HORef's (with our
//! allocated references, `Ref T`), printed as HORef text.
//!
//! Guarantees: [`Program::text`] is fully parenthesised, so it parses back to the tree it
//! was printed from whatever the precedences; every node knows its type ([`Expr::ty`] is
//! stored at construction), so the shrinker can replace a subterm by another of the same
//! type. The tree is not checked here: the generator builds only well-typed trees, and
//! every program is loaded by horef-si's own front end before use.

use std::fmt::{self, Write};

/// HORef types: horef-si's own.
pub use horef_si::core_lang::ast::Type as Ty;

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl Op {
    pub const ALL: [Op; 11] = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Eq,
        Op::Ne,
        Op::Lt,
        Op::Le,
        Op::Gt,
        Op::Ge,
        Op::And,
        Op::Or,
    ];

    /// The operator as HORef writes it.
    pub fn text(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::And => "&&",
            Op::Or => "||",
        }
    }
}

/// A typed binder `(name:T)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
}

/// An expression with its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: Box<Kind>,
    pub ty: Ty,
}

/// The expression forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Int(i64),
    Skip,
    Fail,
    Nil,
    /// A variable or a method name.
    Var(String),
    Neg(Expr),
    Bin(Op, Expr, Expr),
    App(Expr, Vec<Expr>),
    Fun(Vec<Param>, Expr),
    Let(Param, Expr, Expr),
    /// `let rec (name:T) = fun (params) :(R) -> body in rest`.
    LetRec(Param, Vec<Param>, Expr, Expr),
    If(Expr, Expr, Expr),
    Assert(Expr),
    /// `r := e` and `!r` on a `Store:` reference.
    Assign(String, Expr),
    Deref(String),
    /// `ref e`: a fresh cell.
    Alloc(Expr),
    /// `!e` on any expression of a `Ref` type (a local name, a call, a projection...).
    Load(Expr),
    /// `e1 := e2` on any expression `e1` of a `Ref` type.
    Store(Expr, Expr),
    Pair(Expr, Expr),
    Fst(Expr),
    Snd(Expr),
    Cons(Expr, Expr),
    Hd(Expr),
    Tl(Expr),
    IsEmpty(Expr),
}

impl Expr {
    pub fn new(kind: Kind, ty: Ty) -> Expr {
        Expr {
            kind: Box::new(kind),
            ty,
        }
    }

    pub fn int(i: i64) -> Expr {
        Expr::new(Kind::Int(i), Ty::Int)
    }

    pub fn skip() -> Expr {
        Expr::new(Kind::Skip, Ty::Unit)
    }

    /// Its direct subexpressions, in order.
    pub fn children(&self) -> Vec<&Expr> {
        match &*self.kind {
            Kind::Int(_) | Kind::Skip | Kind::Fail | Kind::Nil | Kind::Var(_) | Kind::Deref(_) => {
                vec![]
            }
            Kind::Neg(a)
            | Kind::Fun(_, a)
            | Kind::Assert(a)
            | Kind::Assign(_, a)
            | Kind::Fst(a)
            | Kind::Snd(a)
            | Kind::Hd(a)
            | Kind::Tl(a)
            | Kind::IsEmpty(a)
            | Kind::Alloc(a)
            | Kind::Load(a) => vec![a],
            Kind::Bin(_, a, b)
            | Kind::Let(_, a, b)
            | Kind::LetRec(_, _, a, b)
            | Kind::Pair(a, b)
            | Kind::Cons(a, b)
            | Kind::Store(a, b) => vec![a, b],
            Kind::If(a, b, c) => vec![a, b, c],
            Kind::App(f, args) => std::iter::once(f).chain(args).collect(),
        }
    }

    /// Its direct subexpressions, mutably, in the order of [`Expr::children`].
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match &mut *self.kind {
            Kind::Int(_) | Kind::Skip | Kind::Fail | Kind::Nil | Kind::Var(_) | Kind::Deref(_) => {
                vec![]
            }
            Kind::Neg(a)
            | Kind::Fun(_, a)
            | Kind::Assert(a)
            | Kind::Assign(_, a)
            | Kind::Fst(a)
            | Kind::Snd(a)
            | Kind::Hd(a)
            | Kind::Tl(a)
            | Kind::IsEmpty(a)
            | Kind::Alloc(a)
            | Kind::Load(a) => vec![a],
            Kind::Bin(_, a, b)
            | Kind::Let(_, a, b)
            | Kind::LetRec(_, _, a, b)
            | Kind::Pair(a, b)
            | Kind::Cons(a, b)
            | Kind::Store(a, b) => vec![a, b],
            Kind::If(a, b, c) => vec![a, b, c],
            Kind::App(f, args) => std::iter::once(f).chain(args.iter_mut()).collect(),
        }
    }

    /// The number of nodes.
    pub fn size(&self) -> usize {
        1 + self.children().iter().map(|c| c.size()).sum::<usize>()
    }

    fn write(&self, out: &mut String) {
        match &*self.kind {
            Kind::Int(i) if *i < 0 => write!(out, "({i})").unwrap(),
            Kind::Int(i) => write!(out, "{i}").unwrap(),
            Kind::Skip => out.push_str("skip"),
            Kind::Fail => out.push_str("fail"),
            Kind::Nil => out.push_str("[]"),
            Kind::Var(name) => out.push_str(name),
            Kind::Neg(a) => wrap(out, "(-", a, ")"),
            Kind::Bin(op, a, b) => {
                wrap(out, "(", a, &format!(" {} ", op.text()));
                wrap(out, "", b, ")");
            }
            Kind::App(f, args) => write_app(out, f, args),
            Kind::Fun(params, body) => {
                write!(out, "(fun {} :({}) -> ", params_text(params), body.ty).unwrap();
                wrap(out, "", body, ")");
            }
            Kind::Let(p, value, rest) => {
                write!(out, "(let ({}:{}) = ", p.name, p.ty).unwrap();
                wrap(out, "", value, " in ");
                wrap(out, "", rest, ")");
            }
            Kind::LetRec(p, params, body, rest) => {
                let ret = match &p.ty {
                    Ty::Arrow(_, ret) => ret.to_string(),
                    other => other.to_string(),
                };
                write!(
                    out,
                    "(let rec ({}:{}) = fun {} :({ret}) -> ",
                    p.name,
                    p.ty,
                    params_text(params)
                )
                .unwrap();
                wrap(out, "(", body, ") in ");
                wrap(out, "", rest, ")");
            }
            Kind::If(c, a, b) => {
                wrap(out, "(if ", c, " then ");
                wrap(out, "", a, " else ");
                wrap(out, "", b, ")");
            }
            Kind::Assert(a) => wrap(out, "assert (", a, ")"),
            Kind::Assign(r, a) => wrap(out, &format!("({r} := "), a, ")"),
            Kind::Deref(r) => write!(out, "(!{r})").unwrap(),
            Kind::Alloc(a) => wrap(out, "(ref (", a, "))"),
            // A local name is read and written by name (it shadows any `Store:` name), any
            // other reference through parentheses: both forms of the grammar are exercised.
            Kind::Load(a) => match &*a.kind {
                Kind::Var(name) => write!(out, "(!{name})").unwrap(),
                _ => wrap(out, "(!(", a, "))"),
            },
            Kind::Store(a, b) => {
                match &*a.kind {
                    Kind::Var(name) => write!(out, "({name} := ").unwrap(),
                    _ => wrap(out, "((", a, ") := "),
                }
                wrap(out, "", b, ")");
            }
            Kind::Pair(a, b) => {
                wrap(out, "Pair(", a, ", ");
                wrap(out, "", b, ")");
            }
            Kind::Fst(a) => wrap(out, "fst (", a, ")"),
            Kind::Snd(a) => wrap(out, "snd (", a, ")"),
            Kind::Cons(a, b) => {
                wrap(out, "(", a, " :: ");
                wrap(out, "", b, ")");
            }
            Kind::Hd(a) => wrap(out, "hd (", a, ")"),
            Kind::Tl(a) => wrap(out, "tl (", a, ")"),
            Kind::IsEmpty(a) => wrap(out, "is_empty (", a, ")"),
        }
    }
}

fn wrap(out: &mut String, before: &str, e: &Expr, after: &str) {
    out.push_str(before);
    e.write(out);
    out.push_str(after);
}

/// `(f) (a)` or `(f) (a, b)`; a method name needs no parentheses.
fn write_app(out: &mut String, f: &Expr, args: &[Expr]) {
    match &*f.kind {
        Kind::Var(name) => out.push_str(name),
        _ => wrap(out, "(", f, ")"),
    }
    out.push_str(" (");
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        a.write(out);
    }
    out.push(')');
}

fn params_text(params: &[Param]) -> String {
    let inner: Vec<String> = params
        .iter()
        .map(|p| format!("{}:{}", p.name, p.ty))
        .collect();
    format!("({})", inner.join(", "))
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out);
        f.write_str(&out)
    }
}

/// `name:T := init;` (`init` a constant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefDecl {
    pub name: String,
    pub ty: Ty,
    pub init: Expr,
}

/// `name (params) :(ret) = body;`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Method {
    pub name: String,
    pub params: Vec<Param>,
    pub body: Expr,
}

impl Method {
    pub fn ty(&self) -> Ty {
        Ty::arrow(
            self.params.iter().map(|p| p.ty.clone()).collect(),
            self.body.ty.clone(),
        )
    }
}

/// A whole program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub store: Vec<RefDecl>,
    pub methods: Vec<Method>,
    pub main_params: Vec<Param>,
    pub main: Expr,
}

impl Program {
    /// The HORef text, one declaration per line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if !self.store.is_empty() {
            out.push_str("Store:\n");
            for r in &self.store {
                writeln!(out, "{}:{} := {};", r.name, r.ty, r.init).unwrap();
            }
            out.push('\n');
        }
        if !self.methods.is_empty() {
            out.push_str("Methods:\n");
            for m in &self.methods {
                writeln!(
                    out,
                    "{} {} :({}) =\n  {};",
                    m.name,
                    params_text(&m.params),
                    m.body.ty,
                    m.body
                )
                .unwrap();
            }
            out.push('\n');
        }
        writeln!(
            out,
            "Main {} :({}):\n  {}",
            params_text(&self.main_params),
            self.main.ty,
            self.main
        )
        .unwrap();
        out
    }

    /// The number of expression nodes.
    pub fn size(&self) -> usize {
        let methods: usize = self.methods.iter().map(|m| m.body.size()).sum();
        let store: usize = self.store.iter().map(|r| r.init.size()).sum();
        methods + store + self.main.size()
    }
}
