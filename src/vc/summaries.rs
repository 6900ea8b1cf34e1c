//! Candidate procedure summaries: simple facts about a procedure's integer results.
//!
//! A summary is a conjunction of [`Candidate`]s over the procedure's integer parameters and
//! results, e.g. `ret > n`, `ret >= 0`, `x >= 101 ==> ret == x + -10`. Candidates come
//! from templates instantiated with the parameters and the integer constants of the program
//! ([`candidates`]); which of them hold is decided by the Houdini fixpoint in
//! `engine::proofs::houdini`. Guarantee of this module: [`Candidate::instantiate`] turns a candidate
//! into a Boolean term over given argument and result terms, and nothing else — it asserts
//! nothing and decides nothing.

use super::smt::int_literal;
use boogie_like::ir::{self, BinOp, Expr, ProcId, Program as IrProgram, Stmt, Type as IrType};
use easy_smt::{Context, SExpr};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// The most candidates one procedure gets (templates beyond are dropped).
pub const MAX_CANDIDATES: usize = 400;

/// An integer term of a candidate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// The `i`-th result.
    Ret(usize),
    /// The `i`-th parameter plus a constant.
    Param(usize, BigInt),
    Const(BigInt),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    Eq,
    Le,
    Ge,
}

/// `lhs rel rhs`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub lhs: Term,
    pub rel: Rel,
    pub rhs: Term,
}

/// `guard ==> fact` (or just `fact`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    pub guard: Option<Atom>,
    pub fact: Atom,
}

impl Term {
    fn term(&self, t: &Context, args: &[SExpr], rets: &[SExpr]) -> SExpr {
        match self {
            Term::Ret(i) => rets[*i],
            Term::Param(i, c) if c == &BigInt::from(0) => args[*i],
            Term::Param(i, c) => t.plus(args[*i], int_literal(t, c)),
            Term::Const(c) => int_literal(t, c),
        }
    }
}

impl Atom {
    fn term(&self, t: &Context, args: &[SExpr], rets: &[SExpr]) -> SExpr {
        let (a, b) = (self.lhs.term(t, args, rets), self.rhs.term(t, args, rets));
        match self.rel {
            Rel::Eq => t.eq(a, b),
            Rel::Le => t.lte(a, b),
            Rel::Ge => t.gte(a, b),
        }
    }
}

impl Candidate {
    /// The candidate as a Boolean term, given the procedure's argument and result terms.
    pub fn instantiate(&self, t: &Context, args: &[SExpr], rets: &[SExpr]) -> SExpr {
        let fact = self.fact.term(t, args, rets);
        match &self.guard {
            Some(guard) => t.imp(guard.term(t, args, rets), fact),
            None => fact,
        }
    }
}

/// The candidate summaries of every procedure (by `ProcId` index).
pub fn candidates(ir: &IrProgram) -> Vec<Vec<Candidate>> {
    let constants = program_constants(ir);
    ir.procs
        .iter()
        .map(|(id, _)| proc_candidates(ir, id, &constants))
        .collect()
}

fn int_positions(ir: &IrProgram, proc: ProcId, locals: &[ir::LocalId]) -> Vec<usize> {
    let p = &ir.procs[proc];
    locals
        .iter()
        .enumerate()
        .filter(|(_, l)| p.locals[**l].ty == IrType::Int)
        .map(|(i, _)| i)
        .collect()
}

fn proc_candidates(ir: &IrProgram, proc: ProcId, constants: &BTreeSet<BigInt>) -> Vec<Candidate> {
    let p = &ir.procs[proc];
    let rets = int_positions(ir, proc, &p.returns);
    if rets.is_empty() || p.entrypoint {
        return Vec::new();
    }
    let params = int_positions(ir, proc, &p.params);
    let mut facts = Vec::new();
    for &r in &rets {
        for &q in &params {
            for rel in [Rel::Eq, Rel::Le, Rel::Ge] {
                facts.push(atom(Term::Ret(r), rel, Term::Param(q, 0.into())));
            }
            facts.push(atom(Term::Ret(r), Rel::Ge, Term::Param(q, 1.into())));
            facts.push(atom(Term::Ret(r), Rel::Le, Term::Param(q, (-1).into())));
            for c in constants {
                facts.push(atom(Term::Ret(r), Rel::Eq, Term::Param(q, c.clone())));
            }
        }
        for c in constants {
            for rel in [Rel::Eq, Rel::Le, Rel::Ge] {
                facts.push(atom(Term::Ret(r), rel, Term::Const(c.clone())));
            }
        }
    }
    let guards = guards(ir, proc, &params);
    let equalities: Vec<Atom> = facts.iter().filter(|f| f.rel == Rel::Eq).cloned().collect();
    let mut out: Vec<Candidate> = facts
        .into_iter()
        .map(|fact| Candidate { guard: None, fact })
        .collect();
    for guard in &guards {
        for fact in &equalities {
            out.push(Candidate {
                guard: Some(guard.clone()),
                fact: fact.clone(),
            });
        }
    }
    out.truncate(MAX_CANDIDATES);
    out
}

fn atom(lhs: Term, rel: Rel, rhs: Term) -> Atom {
    Atom { lhs, rel, rhs }
}

/// Guards `p >= c` / `p <= c` from the comparisons of a parameter with a constant in the
/// procedure's own conditions (and their complements).
fn guards(ir: &IrProgram, proc: ProcId, params: &[usize]) -> Vec<Atom> {
    let p = &ir.procs[proc];
    let mut out = BTreeSet::new();
    let mut visit = |e: &Expr| {
        let Expr::Binary { op, lhs, rhs } = e else {
            return;
        };
        let (Expr::Var(ir::Var::Local(l)), Expr::Int(c)) = (&**lhs, &**rhs) else {
            return;
        };
        let Some(i) = p.params.iter().position(|x| x == l) else {
            return;
        };
        if !params.contains(&i) {
            return;
        }
        let (ge, le) = match op {
            BinOp::Ge | BinOp::Lt => (c.clone(), c - 1),
            BinOp::Gt | BinOp::Le => (c + 1, c.clone()),
            BinOp::Eq | BinOp::Neq => (c.clone(), c.clone()),
            _ => return,
        };
        out.insert((i, Rel::Ge, ge));
        out.insert((i, Rel::Le, le));
    };
    ir::for_each_stmt(&p.body, &mut |s| {
        if let Stmt::If { cond, .. } = s {
            visit_exprs(cond, &mut visit);
        }
    });
    out.into_iter()
        .map(|(i, rel, c)| atom(Term::Param(i, 0.into()), rel, Term::Const(c)))
        .collect()
}

fn visit_exprs(e: &Expr, visit: &mut impl FnMut(&Expr)) {
    visit(e);
    for child in e.children() {
        visit_exprs(child, visit);
    }
}

/// Every integer constant of the program, with 0 and 1.
fn program_constants(ir: &IrProgram) -> BTreeSet<BigInt> {
    let mut constants: BTreeSet<BigInt> = [0, 1].into_iter().map(BigInt::from).collect();
    let mut add = |e: &Expr| {
        if let Expr::Int(c) = e {
            constants.insert(c.clone());
        }
    };
    for p in ir.procs.values() {
        ir::for_each_stmt(&p.body, &mut |s| match s {
            Stmt::Assign(_, e) | Stmt::Assume(e) | Stmt::Assert { cond: e, .. } => {
                visit_exprs(e, &mut add)
            }
            Stmt::If { cond, .. } => visit_exprs(cond, &mut add),
            Stmt::Call(site) => {
                for arg in &p.call_sites[*site].args {
                    visit_exprs(arg, &mut add);
                }
            }
            Stmt::Havoc(_) | Stmt::Return => {}
        });
    }
    constants
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Term::Ret(i) => write!(f, "ret{i}"),
            Term::Param(i, c) if c == &BigInt::from(0) => write!(f, "p{i}"),
            Term::Param(i, c) => write!(f, "p{i} + {c}"),
            Term::Const(c) => write!(f, "{c}"),
        }
    }
}

impl std::fmt::Display for Candidate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rel = |r: Rel| match r {
            Rel::Eq => "==",
            Rel::Le => "<=",
            Rel::Ge => ">=",
        };
        if let Some(g) = &self.guard {
            write!(f, "{} {} {} ==> ", g.lhs, rel(g.rel), g.rhs)?;
        }
        write!(
            f,
            "{} {} {}",
            self.fact.lhs,
            rel(self.fact.rel),
            self.fact.rhs
        )
    }
}

impl Term {
    /// The term with the procedure's own names for its parameters and results.
    fn named(&self, params: &[String], rets: &[String]) -> String {
        let name = |names: &[String], i: usize, fallback: String| {
            names.get(i).cloned().unwrap_or(fallback)
        };
        match self {
            Term::Ret(i) => name(rets, *i, format!("ret{i}")),
            Term::Param(i, c) if c == &BigInt::from(0) => name(params, *i, format!("p{i}")),
            Term::Param(i, c) if c.sign() == num_bigint::Sign::Minus => {
                format!("{} − {}", name(params, *i, format!("p{i}")), -c)
            }
            Term::Param(i, c) => format!("{} + {c}", name(params, *i, format!("p{i}"))),
            Term::Const(c) if c.sign() == num_bigint::Sign::Minus => format!("−{}", -c),
            Term::Const(c) => c.to_string(),
        }
    }
}

impl Candidate {
    /// The fact in the procedure's terms: `n ≥ 101 ⇒ ret = n − 10`.
    pub fn describe(&self, params: &[String], rets: &[String]) -> String {
        let atom = |a: &Atom| {
            let rel = match a.rel {
                Rel::Eq => "=",
                Rel::Le => "≤",
                Rel::Ge => "≥",
            };
            format!(
                "{} {rel} {}",
                a.lhs.named(params, rets),
                a.rhs.named(params, rets)
            )
        };
        match &self.guard {
            Some(g) => format!("({} ⇒ {})", atom(g), atom(&self.fact)),
            None => atom(&self.fact),
        }
    }
}

/// `facts` as they are worth showing: bounds on the same result against the same parameter
/// (or against constants) merged into the strongest one (`ret ≥ n ∧ ret ≥ n + 1` is
/// `ret ≥ n + 1`, a lower and an equal upper bound an equation), other facts as they are.
/// `None` when the facts contradict each other (`ret ≥ n + 1 ∧ ret ≤ n`): the procedure
/// never returns. Only for showing: the proof is re-checked on the facts themselves.
pub fn simplified(facts: &[Candidate]) -> Option<Vec<Candidate>> {
    type Key = (usize, Option<usize>);
    let mut bounds: Vec<(Key, Option<BigInt>, Option<BigInt>)> = Vec::new();
    let mut others = Vec::new();
    for fact in facts {
        let Some((key, rel, c)) = bound_of(fact) else {
            others.push(fact.clone());
            continue;
        };
        let at = match bounds.iter().position(|(k, _, _)| *k == key) {
            Some(at) => at,
            None => {
                bounds.push((key, None, None));
                bounds.len() - 1
            }
        };
        let (_, lower, upper) = &mut bounds[at];
        if matches!(rel, Rel::Ge | Rel::Eq) && lower.as_ref().is_none_or(|l| c > *l) {
            *lower = Some(c.clone());
        }
        if matches!(rel, Rel::Le | Rel::Eq) && upper.as_ref().is_none_or(|u| c < *u) {
            *upper = Some(c);
        }
    }
    let mut out = Vec::new();
    for ((ret, param), lower, upper) in bounds {
        let atom = |rel, c: BigInt| Candidate {
            guard: None,
            fact: Atom {
                lhs: Term::Ret(ret),
                rel,
                rhs: param.map_or(Term::Const(c.clone()), |p| Term::Param(p, c)),
            },
        };
        match (lower, upper) {
            (Some(l), Some(u)) if l > u => return None,
            (Some(l), Some(u)) if l == u => out.push(atom(Rel::Eq, l)),
            (lower, upper) => {
                out.extend(lower.map(|l| atom(Rel::Ge, l)));
                out.extend(upper.map(|u| atom(Rel::Le, u)));
            }
        }
    }
    out.extend(others);
    Some(out)
}

/// An unguarded `ret_i rel p_j + c` (or `ret_i rel c`) as its result, parameter, relation
/// and constant.
fn bound_of(fact: &Candidate) -> Option<((usize, Option<usize>), Rel, BigInt)> {
    if fact.guard.is_some() {
        return None;
    }
    let Term::Ret(ret) = fact.fact.lhs else {
        return None;
    };
    match &fact.fact.rhs {
        Term::Param(p, c) => Some(((ret, Some(*p)), fact.fact.rel, c.clone())),
        Term::Const(c) => Some(((ret, None), fact.fact.rel, c.clone())),
        Term::Ret(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(rel: Rel, rhs: Term) -> Candidate {
        Candidate {
            guard: None,
            fact: Atom {
                lhs: Term::Ret(0),
                rel,
                rhs,
            },
        }
    }

    fn shown(facts: &[Candidate]) -> Option<String> {
        let names = (["n".to_string()], ["ret".to_string()]);
        simplified(facts).map(|kept| {
            kept.iter()
                .map(|c| c.describe(&names.0, &names.1))
                .collect::<Vec<_>>()
                .join(" ∧ ")
        })
    }

    #[test]
    fn implied_bounds_are_dropped() {
        let n = |c: i32| Term::Param(0, BigInt::from(c));
        let facts = [
            fact(Rel::Ge, n(0)),
            fact(Rel::Ge, n(1)),
            fact(Rel::Le, n(5)),
        ];
        assert_eq!(shown(&facts).as_deref(), Some("ret ≥ n + 1 ∧ ret ≤ n + 5"));
    }

    #[test]
    fn a_lower_and_an_equal_upper_bound_are_an_equation() {
        let facts = [
            fact(Rel::Ge, Term::Const(BigInt::from(2))),
            fact(Rel::Le, Term::Const(BigInt::from(2))),
        ];
        assert_eq!(shown(&facts).as_deref(), Some("ret = 2"));
    }

    #[test]
    fn contradictory_bounds_mean_the_procedure_never_returns() {
        let n = |c: i32| Term::Param(0, BigInt::from(c));
        let facts = [fact(Rel::Ge, n(1)), fact(Rel::Le, n(0))];
        assert_eq!(shown(&facts), None);
        let equal = [fact(Rel::Eq, n(0)), fact(Rel::Eq, n(1))];
        assert_eq!(shown(&equal), None);
    }

    #[test]
    fn guarded_facts_are_kept_as_they_are() {
        let guarded = Candidate {
            guard: Some(Atom {
                lhs: Term::Param(0, BigInt::from(0)),
                rel: Rel::Ge,
                rhs: Term::Const(BigInt::from(0)),
            }),
            fact: Atom {
                lhs: Term::Ret(0),
                rel: Rel::Ge,
                rhs: Term::Const(BigInt::from(0)),
            },
        };
        assert_eq!(
            simplified(std::slice::from_ref(&guarded)),
            Some(vec![guarded])
        );
    }
}
