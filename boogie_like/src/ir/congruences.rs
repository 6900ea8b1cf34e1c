//! Integer parameters (and constructor fields) whose every value is `r` modulo `m`, for
//! each modulus `m` the program divides by: stated as `assume p mod m == r` at the start
//! of the procedure, so that a proof need not find the fact (`step = 2 * k` passed down
//! to a map: Spacer rarely finds `mod(step, 2) = 0` by itself).
//!
//! Guarantee: every run of the program with the assumptions behaves as the same run of
//! the original. The analysis is flow-insensitive and over-approximates: a parameter's
//! class is the join of its call sites' arguments (the entry's parameters are unknown); a
//! local's, the join of everything assigned to it (unknown if it may be read before being
//! assigned: [`super::constant_fields`]' analysis); a field's, the join of its
//! constructor applications (unknown for the open datatypes, whose values may come from
//! elsewhere); globals, call results, havocs and map reads are unknown. So at every call
//! of a procedure its parameter has the class found, and the assumption never blocks a run.

use super::constant_fields::{maybe_unassigned_reads, open_datatypes};
use super::{BinOp, Expr, FieldRef, LocalId, ProcId, Program, Stmt, Type, UnOp, Var};
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::collections::{BTreeSet, HashMap, HashSet};

/// A residue class modulo one `m`: no value seen yet, `r`, or anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    None,
    Rem(u64),
    Any,
}

impl Class {
    fn join(self, other: Class) -> Class {
        match (self, other) {
            (Class::None, c) | (c, Class::None) => c,
            (Class::Rem(a), Class::Rem(b)) if a == b => Class::Rem(a),
            _ => Class::Any,
        }
    }
}

/// The moduli the program divides by: every literal divisor of `/` or `mod` of at least 2
/// in absolute value.
fn moduli(program: &Program) -> BTreeSet<u64> {
    let mut found = BTreeSet::new();
    for proc in program.procs.values() {
        proc.for_each_expr(&mut |e| {
            e.for_each_subexpr(&mut |e| {
                if let Expr::Binary { op, rhs, .. } = e
                    && matches!(
                        op,
                        BinOp::Div | BinOp::Mod | BinOp::EuclidDiv | BinOp::EuclidMod
                    )
                    && let Expr::Int(c) = rhs.as_ref()
                    && let Some(m) = c.to_i64().map(i64::unsigned_abs)
                    && (2..=1 << 20).contains(&m)
                {
                    found.insert(m);
                }
            })
        });
    }
    found
}

struct Analysis<'p> {
    program: &'p Program,
    m: u64,
    params: HashMap<(ProcId, usize), Class>,
    locals: HashMap<(ProcId, LocalId), Class>,
    fields: HashMap<FieldRef, Class>,
    unknown_locals: &'p HashSet<(ProcId, LocalId)>,
    open: &'p HashSet<super::DatatypeId>,
}

impl Analysis<'_> {
    fn eval(&self, proc: ProcId, e: &Expr) -> Class {
        let m = self.m as i128;
        let rem = |c: i128| Class::Rem(c.rem_euclid(m) as u64);
        match e {
            Expr::Int(c) => match c.to_i128() {
                Some(c) => rem(c),
                None => Class::Any,
            },
            Expr::Var(Var::Local(l)) => {
                let p = &self.program.procs[proc];
                if let Some(i) = p.params.iter().position(|q| q == l) {
                    self.params.get(&(proc, i)).copied().unwrap_or(Class::None)
                } else if self.unknown_locals.contains(&(proc, *l)) {
                    Class::Any
                } else {
                    self.locals.get(&(proc, *l)).copied().unwrap_or(Class::None)
                }
            }
            Expr::Unary { op: UnOp::Neg, arg } => match self.eval(proc, arg) {
                Class::Rem(r) => rem(-(r as i128)),
                c => c,
            },
            Expr::Binary { op, lhs, rhs } if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) => {
                let (a, b) = (self.eval(proc, lhs), self.eval(proc, rhs));
                match (a, b) {
                    (Class::None, _) | (_, Class::None) => Class::None,
                    (Class::Rem(0), _) | (_, Class::Rem(0)) if *op == BinOp::Mul => Class::Rem(0),
                    (Class::Rem(x), Class::Rem(y)) => {
                        let (x, y) = (x as i128, y as i128);
                        rem(match op {
                            BinOp::Add => x + y,
                            BinOp::Sub => x - y,
                            _ => x * y,
                        })
                    }
                    _ => Class::Any,
                }
            }
            Expr::Ite { then, else_, .. } => self.eval(proc, then).join(self.eval(proc, else_)),
            Expr::Select { field, .. } if !self.open.contains(&field.ctor.datatype) => {
                self.fields.get(field).copied().unwrap_or(Class::None)
            }
            _ => Class::Any,
        }
    }

    /// One round over every procedure; whether anything changed.
    fn round(&mut self) -> bool {
        let mut changed = false;
        for (id, proc) in self.program.procs.iter() {
            let mut assigned: Vec<(Var, Class)> = Vec::new();
            let mut constructed: Vec<(FieldRef, Class)> = Vec::new();
            let mut passed: Vec<((ProcId, usize), Class)> = Vec::new();
            super::for_each_stmt(&proc.body, &mut |s| match s {
                Stmt::Assign(v, e) => assigned.push((*v, self.eval(id, e))),
                Stmt::Havoc(vs) => assigned.extend(vs.iter().map(|v| (*v, Class::Any))),
                Stmt::Call(site) => {
                    let site = &proc.call_sites[*site];
                    for (i, a) in site.args.iter().enumerate() {
                        passed.push(((site.callee, i), self.eval(id, a)));
                    }
                    assigned.extend(site.rets.iter().map(|v| (*v, Class::Any)));
                }
                _ => {}
            });
            proc.for_each_expr(&mut |e| {
                e.for_each_subexpr(&mut |e| {
                    if let Expr::Ctor { ctor, args } = e {
                        for (index, arg) in (0u32..).zip(args) {
                            constructed.push((FieldRef { ctor: *ctor, index }, self.eval(id, arg)));
                        }
                    }
                })
            });
            for (v, c) in assigned {
                if let Var::Local(l) = v {
                    changed |= widen(&mut self.locals, (id, l), c);
                }
            }
            for (f, c) in constructed {
                changed |= widen(&mut self.fields, f, c);
            }
            for (p, c) in passed {
                changed |= widen(&mut self.params, p, c);
            }
        }
        changed
    }
}

/// Joins `class` into `key`'s entry of `map`; whether the entry changed.
fn widen<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Class>, key: K, class: Class) -> bool {
    let slot = map.entry(key).or_insert(Class::None);
    let old = *slot;
    *slot = slot.join(class);
    old != *slot
}

/// The program with `assume p mod m == r` at the start of every procedure for each
/// integer parameter `p` found in class `r` modulo `m`; `None` when there is none (or the
/// program has quantifiers, whose bound variables the analysis does not follow).
pub fn assume_congruences(program: &Program) -> Option<Program> {
    if program.has_quantifiers() {
        return None;
    }
    let moduli = moduli(program);
    if moduli.is_empty() {
        return None;
    }
    let open = open_datatypes(program);
    let mut unknown_locals = HashSet::new();
    for (id, proc) in program.procs.iter() {
        unknown_locals.extend(maybe_unassigned_reads(proc).into_iter().map(|l| (id, l)));
    }
    let mut out = program.clone();
    let mut any = false;
    for m in moduli {
        let mut analysis = Analysis {
            program,
            m,
            params: HashMap::new(),
            locals: HashMap::new(),
            fields: HashMap::new(),
            unknown_locals: &unknown_locals,
            open: &open,
        };
        for (id, proc) in program.procs.iter() {
            if proc.entrypoint {
                for i in 0..proc.params.len() {
                    analysis.params.insert((id, i), Class::Any);
                }
            }
        }
        let mut rounds = 0;
        while analysis.round() {
            rounds += 1;
            if rounds > 10_000 {
                return None;
            }
        }
        for (id, proc) in out.procs.iter_mut() {
            for (i, p) in proc.params.clone().into_iter().enumerate() {
                if proc.locals[p].ty != Type::Int {
                    continue;
                }
                if let Some(Class::Rem(r)) = analysis.params.get(&(id, i)) {
                    let fact = Expr::binary(
                        BinOp::Eq,
                        Expr::binary(
                            BinOp::EuclidMod,
                            Expr::Var(Var::Local(p)),
                            Expr::Int(BigInt::from(m)),
                        ),
                        Expr::Int(BigInt::from(*r)),
                    );
                    proc.body.insert(0, Stmt::Assume(fact));
                    any = true;
                }
            }
        }
    }
    any.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assumed(text: &str) -> Option<String> {
        let program = crate::parse(text).expect("parses");
        let out = assume_congruences(&program)?;
        crate::verify(&out).expect("still a valid program");
        Some(crate::print(&out))
    }

    const SHIFT: &str = "procedure shift(step: int, x: int) returns (r: int) {\n\
          if (x > 0) { call r := shift(step, x - 1); r := r + step; } else { r := 0; }\n\
        }\n\
        procedure {:entrypoint} Main(k: int, x: int) {\n\
          var step: int; var r: int;\n\
          step := 2 * k;\n\
          call r := shift(step, x);\n\
          assert r % 2 == 0;\n\
        }\n";

    #[test]
    fn a_parameter_every_call_passes_even_is_assumed_even() {
        let text = assumed(SHIFT).expect("step is even");
        assert!(text.contains("assume step mod 2 == 0;"), "{text}");
        assert!(!text.contains("assume x mod"), "{text}");
    }

    #[test]
    fn one_odd_call_or_an_unknown_value_leaves_the_parameter_alone() {
        let odd = SHIFT.replace(
            "step := 2 * k;",
            "step := 2 * k + 1;\n call r := shift(2, x);",
        );
        let input = SHIFT.replace("call r := shift(step, x);", "call r := shift(k, x);");
        let unassigned = SHIFT.replace("step := 2 * k;\n", "");
        for text in [odd, input, unassigned] {
            assert!(
                !assumed(&text).is_some_and(|t| t.contains("assume step")),
                "{text}"
            );
        }
    }
}
