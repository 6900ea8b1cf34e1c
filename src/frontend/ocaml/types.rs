//! Types of the OCaml subset and their unification (Hindley–Milner with levels).
//!
//! A function type carries its arity: `Fun([a, b], r)` is a function that takes two
//! arguments at once (`fun x y -> ...`), distinct from `Fun([a], Fun([b], r))` (a function
//! returning a function). OCaml's types do not make the distinction; the subset uses it to
//! map every application onto a call that saturates the function's parameters. Applying a
//! function to fewer arguments than its arity is a partial application (a function of the
//! rest); a function used where one of another arity is expected is a mismatch
//! ([`Mismatch::Arity`], docs/ocaml.md).
//!
//! Guarantees: unification is sound (occurs check) and keeps levels for generalisation;
//! every failure is a [`Mismatch`] naming both types.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    Var(u32),
    Int,
    Bool,
    Unit,
    Str,
    Exn,
    List(Box<Ty>),
    Ref(Box<Ty>),
    /// `'a array`: mutable and aliased, invariant as `ref` (docs/ocaml.md, "Arrays").
    Array(Box<Ty>),
    Tuple(Vec<Ty>),
    Fun(Vec<Ty>, Box<Ty>),
    /// A variant type (`'a option`, a user's `type shape = ...`): its index in
    /// `Typing::variants`, its name (for messages) and its type arguments. Nominal: two
    /// variant types unify only when they are the same definition.
    Data(usize, std::rc::Rc<str>, Vec<Ty>),
}

impl Ty {
    pub fn fun(params: Vec<Ty>, ret: Ty) -> Ty {
        Ty::Fun(params, Box::new(ret))
    }
}

/// Why two types do not unify.
#[derive(Debug)]
pub enum Mismatch {
    /// Different types (resolved as far as known).
    Types(Ty, Ty),
    /// Two function types of different arities (`add` passed where `int -> (int -> int)`
    /// is expected).
    Arity(Ty, Ty),
    /// A type would contain itself.
    Occurs(Ty, Ty),
}

/// The substitution: bound type variables and the level of every variable.
#[derive(Debug, Default)]
pub struct Subst {
    bound: Vec<Option<Ty>>,
    levels: Vec<u32>,
}

impl Subst {
    pub fn fresh(&mut self, level: u32) -> Ty {
        self.bound.push(None);
        self.levels.push(level);
        Ty::Var(self.bound.len() as u32 - 1)
    }

    pub fn level(&self, v: u32) -> u32 {
        self.levels[v as usize]
    }

    /// `t` with its outermost bound variables followed.
    pub fn shallow(&self, t: &Ty) -> Ty {
        let mut t = t.clone();
        while let Ty::Var(v) = t {
            match &self.bound[v as usize] {
                Some(next) => t = next.clone(),
                None => break,
            }
        }
        t
    }

    /// `t` with every bound variable replaced, all the way down.
    pub fn resolve(&self, t: &Ty) -> Ty {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || match self.shallow(t) {
            Ty::List(a) => Ty::List(Box::new(self.resolve(&a))),
            Ty::Ref(a) => Ty::Ref(Box::new(self.resolve(&a))),
            Ty::Array(a) => Ty::Array(Box::new(self.resolve(&a))),
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| self.resolve(t)).collect()),
            Ty::Data(id, name, ts) => {
                Ty::Data(id, name, ts.iter().map(|t| self.resolve(t)).collect())
            }
            Ty::Fun(ps, r) => Ty::fun(
                ps.iter().map(|t| self.resolve(t)).collect(),
                self.resolve(&r),
            ),
            other => other,
        })
    }

    pub fn unify(&mut self, a: &Ty, b: &Ty) -> Result<(), Mismatch> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.unify_inner(a, b))
    }

    fn unify_inner(&mut self, a: &Ty, b: &Ty) -> Result<(), Mismatch> {
        let (a, b) = (self.shallow(a), self.shallow(b));
        match (&a, &b) {
            (Ty::Var(x), Ty::Var(y)) if x == y => Ok(()),
            (Ty::Var(x), _) => self.bind(*x, &b),
            (_, Ty::Var(y)) => self.bind(*y, &a),
            (Ty::List(x), Ty::List(y))
            | (Ty::Ref(x), Ty::Ref(y))
            | (Ty::Array(x), Ty::Array(y)) => self.unify(x, y),
            (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => {
                xs.iter().zip(ys).try_for_each(|(x, y)| self.unify(x, y))
            }
            (Ty::Data(i, _, xs), Ty::Data(j, _, ys)) if i == j && xs.len() == ys.len() => {
                xs.iter().zip(ys).try_for_each(|(x, y)| self.unify(x, y))
            }
            (Ty::Fun(ps, r), Ty::Fun(qs, s)) if ps.len() == qs.len() => {
                ps.iter().zip(qs).try_for_each(|(x, y)| self.unify(x, y))?;
                self.unify(r, s)
            }
            (Ty::Fun(..), Ty::Fun(..)) => Err(Mismatch::Arity(self.resolve(&a), self.resolve(&b))),
            _ if a == b => Ok(()),
            _ => Err(Mismatch::Types(self.resolve(&a), self.resolve(&b))),
        }
    }

    fn bind(&mut self, v: u32, t: &Ty) -> Result<(), Mismatch> {
        let level = self.levels[v as usize];
        if self.occurs_and_adjust(v, level, t) {
            return Err(Mismatch::Occurs(Ty::Var(v), self.resolve(t)));
        }
        self.bound[v as usize] = Some(t.clone());
        Ok(())
    }

    /// Whether `v` occurs in `t`; lowers the level of `t`'s variables to `level`.
    fn occurs_and_adjust(&mut self, v: u32, level: u32, t: &Ty) -> bool {
        match self.shallow(t) {
            Ty::Var(w) => {
                let l = &mut self.levels[w as usize];
                *l = (*l).min(level);
                w == v
            }
            Ty::List(a) | Ty::Ref(a) | Ty::Array(a) => self.occurs_and_adjust(v, level, &a),
            Ty::Tuple(ts) | Ty::Data(_, _, ts) => {
                ts.iter().any(|t| self.occurs_and_adjust(v, level, t))
            }
            Ty::Fun(ps, r) => {
                ps.iter().any(|t| self.occurs_and_adjust(v, level, t))
                    || self.occurs_and_adjust(v, level, &r)
            }
            _ => false,
        }
    }

    /// Lowers the level of `t`'s unbound variables, except `keep`, to at most `level`.
    pub fn lower_levels(&mut self, t: &Ty, level: u32, keep: &[u32]) {
        match self.shallow(t) {
            Ty::Var(v) if !keep.contains(&v) => {
                let l = &mut self.levels[v as usize];
                *l = (*l).min(level);
            }
            Ty::List(a) | Ty::Ref(a) | Ty::Array(a) => self.lower_levels(&a, level, keep),
            Ty::Tuple(ts) | Ty::Data(_, _, ts) => {
                ts.iter().for_each(|t| self.lower_levels(t, level, keep))
            }
            Ty::Fun(ps, r) => {
                ps.iter().for_each(|t| self.lower_levels(t, level, keep));
                self.lower_levels(&r, level, keep)
            }
            _ => {}
        }
    }

    /// The variables of `t` in a position that is not covariant: under `ref`, or in a
    /// function's parameter (conservatively, whatever the parameter's own variance).
    pub fn non_covariant(&self, t: &Ty, invariant: bool, out: &mut Vec<u32>) {
        match self.shallow(t) {
            Ty::Var(v) if invariant && !out.contains(&v) => out.push(v),
            Ty::List(a) => self.non_covariant(&a, invariant, out),
            Ty::Ref(a) | Ty::Array(a) => self.non_covariant(&a, true, out),
            Ty::Tuple(ts) => ts
                .iter()
                .for_each(|t| self.non_covariant(t, invariant, out)),
            // A variant's parameters are taken as invariant (conservative: OCaml would
            // generalise a covariant one, here it stays weak and is fixed by its uses).
            Ty::Data(_, _, ts) => ts.iter().for_each(|t| self.non_covariant(t, true, out)),
            Ty::Fun(ps, r) => {
                ps.iter().for_each(|t| self.non_covariant(t, true, out));
                self.non_covariant(&r, invariant, out)
            }
            _ => {}
        }
    }

    /// The unbound variables of `t` whose level is above `level`, in order of appearance.
    pub fn generalisable(&self, t: &Ty, level: u32, out: &mut Vec<u32>) {
        match self.shallow(t) {
            Ty::Var(v) if self.levels[v as usize] > level && !out.contains(&v) => out.push(v),
            Ty::List(a) | Ty::Ref(a) | Ty::Array(a) => self.generalisable(&a, level, out),
            Ty::Tuple(ts) | Ty::Data(_, _, ts) => {
                ts.iter().for_each(|t| self.generalisable(t, level, out))
            }
            Ty::Fun(ps, r) => {
                ps.iter().for_each(|t| self.generalisable(t, level, out));
                self.generalisable(&r, level, out)
            }
            _ => {}
        }
    }
}

/// Replaces the variables `vars[i]` by `with[i]` in `t` (which must be resolved).
pub fn substitute(t: &Ty, vars: &[u32], with: &[Ty]) -> Ty {
    match t {
        Ty::Var(v) => match vars.iter().position(|x| x == v) {
            Some(i) => with[i].clone(),
            None => t.clone(),
        },
        Ty::List(a) => Ty::List(Box::new(substitute(a, vars, with))),
        Ty::Ref(a) => Ty::Ref(Box::new(substitute(a, vars, with))),
        Ty::Array(a) => Ty::Array(Box::new(substitute(a, vars, with))),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| substitute(t, vars, with)).collect()),
        Ty::Data(id, name, ts) => Ty::Data(
            *id,
            name.clone(),
            ts.iter().map(|t| substitute(t, vars, with)).collect(),
        ),
        Ty::Fun(ps, r) => Ty::fun(
            ps.iter().map(|t| substitute(t, vars, with)).collect(),
            substitute(r, vars, with),
        ),
        other => other.clone(),
    }
}

/// OCaml's notation; type variables print as `'a`, `'b`, ... by number.
impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ty(f, self, 0)
    }
}

/// `prec`: 0 anywhere, 1 as an operand of `*`, 2 as an argument of a postfix constructor.
fn write_ty(f: &mut fmt::Formatter<'_>, t: &Ty, prec: u8) -> fmt::Result {
    match t {
        Ty::Var(v) => write!(f, "'{}", var_name(*v)),
        Ty::Int => write!(f, "int"),
        Ty::Bool => write!(f, "bool"),
        Ty::Unit => write!(f, "unit"),
        Ty::Str => write!(f, "string"),
        Ty::Exn => write!(f, "exn"),
        Ty::List(a) => {
            write_ty(f, a, 2)?;
            write!(f, " list")
        }
        Ty::Ref(a) => {
            write_ty(f, a, 2)?;
            write!(f, " ref")
        }
        Ty::Array(a) => {
            write_ty(f, a, 2)?;
            write!(f, " array")
        }
        Ty::Data(_, name, ts) => {
            match ts.len() {
                0 => {}
                1 => {
                    write_ty(f, &ts[0], 2)?;
                    write!(f, " ")?;
                }
                _ => {
                    write!(f, "(")?;
                    for (i, t) in ts.iter().enumerate() {
                        if i > 0 {
                            write!(f, ", ")?;
                        }
                        write_ty(f, t, 0)?;
                    }
                    write!(f, ") ")?;
                }
            }
            write!(f, "{name}")
        }
        Ty::Tuple(ts) => {
            if prec >= 1 {
                write!(f, "(")?;
            }
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    write!(f, " * ")?;
                }
                write_ty(f, t, 2)?;
            }
            if prec >= 1 {
                write!(f, ")")?;
            }
            Ok(())
        }
        Ty::Fun(ps, r) => {
            if prec >= 1 {
                write!(f, "(")?;
            }
            for p in ps {
                write_ty(f, p, 1)?;
                write!(f, " -> ")?;
            }
            write_ty(f, r, 0)?;
            if prec >= 1 {
                write!(f, ")")?;
            }
            Ok(())
        }
    }
}

fn var_name(v: u32) -> String {
    let letter = (b'a' + (v % 26) as u8) as char;
    if v < 26 {
        letter.to_string()
    } else {
        format!("{letter}{}", v / 26)
    }
}
