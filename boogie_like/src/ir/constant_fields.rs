//! Constructor fields that hold the same literal in every value: read as that literal.
//!
//! A closure made by a partial application with a constant (`add 5`, defunctionalized as
//! the constructor `K_add(5)`) carries the constant as a field, and every use of the
//! closure reads it back through a selector (`f->K_add.k`). A proof about the closure's
//! uses then has to relate the field to the code that built it: `repeat n (add 5) x`
//! returns `x + k · n` for the field `k`, which is not linear, while `x + 5 · n` is. When
//! every value of constructor `C` that a run can hold has the literal `v` in field `i`,
//! [`fold_constant_fields`] replaces every read `e->C.i` by `if e is C then v else e->C.i`
//! (just `v` when `C` is its datatype's only constructor).
//!
//! Guarantee: every run of the folded program behaves as the same run of the original
//! (same values, same failures), provided the analysis below is right about where values
//! of a datatype come from. A value of datatype `D` in a run is built by a constructor
//! application written in the program, or comes from somewhere the program does not
//! build it. The latter are the *open* datatypes, and nothing is folded for them: the
//! datatypes mentioned (directly, through fields or through maps) by the type of an entry
//! parameter, a `havoc`ed variable, a global (its initial value is a default no
//! constructor application in the program wrote), or a local that may be read before
//! anything assigns it, a procedure's result it may return unassigned included (the VC
//! reads such a local as an arbitrary value). For a closed
//! datatype every value was built by one of the program's applications of its
//! constructors, so if all of `C`'s applications have the literal `v` at field `i`, every
//! value of `C` holds `v` there. A selector applied to a value of another constructor is
//! left as it was (unspecified in Boogie), through the `is C` test.

use super::{
    Block, CtorId, DatatypeId, Expr, FieldRef, LocalId, Procedure, Program, Stmt, Type, Var,
};
use num_bigint::BigInt;
use std::collections::{HashMap, HashSet};

/// The program with every constant field's reads replaced by its literal, or `None` when
/// no field is constant (or the program has quantifiers, whose bound variables the
/// analysis does not follow).
pub fn fold_constant_fields(program: &Program) -> Option<Program> {
    if program.has_quantifiers() {
        return None;
    }
    let open = open_datatypes(program);
    let constants = constant_fields(program, &open);
    if constants.is_empty() {
        return None;
    }
    let mut folded = program.clone();
    let mut changed = false;
    for (_, proc) in folded.procs.iter_mut() {
        proc.for_each_expr_mut(&mut |e| {
            e.rewrite_bottom_up(&mut |e| changed |= fold_read(program, &constants, e))
        });
    }
    changed.then_some(folded)
}

/// A literal a field may be folded to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Literal {
    Int(BigInt),
    Bool(bool),
}

impl Literal {
    fn of(e: &Expr) -> Option<Literal> {
        match e {
            Expr::Int(n) => Some(Literal::Int(n.clone())),
            Expr::Bool(b) => Some(Literal::Bool(*b)),
            _ => None,
        }
    }

    fn expr(&self) -> Expr {
        match self {
            Literal::Int(n) => Expr::Int(n.clone()),
            Literal::Bool(b) => Expr::Bool(*b),
        }
    }
}

/// The fields of closed datatypes whose every constructor application writes the same
/// literal.
fn constant_fields(program: &Program, open: &HashSet<DatatypeId>) -> HashMap<FieldRef, Literal> {
    // `None`: some application writes something else.
    let mut seen: HashMap<FieldRef, Option<Literal>> = HashMap::new();
    let mut note = |e: &Expr| {
        e.for_each_subexpr(&mut |e| {
            if let Expr::Ctor { ctor, args } = e {
                for (index, arg) in (0u32..).zip(args) {
                    let field = FieldRef { ctor: *ctor, index };
                    let literal = Literal::of(arg);
                    seen.entry(field)
                        .and_modify(|known| {
                            if *known != literal {
                                *known = None;
                            }
                        })
                        .or_insert(literal);
                }
            }
        })
    };
    for proc in program.procs.values() {
        proc.for_each_expr(&mut note);
    }
    seen.into_iter()
        .filter(|(field, _)| !open.contains(&field.ctor.datatype))
        .filter_map(|(field, literal)| Some((field, literal?)))
        .collect()
}

/// The datatypes some value of which may come from elsewhere than a constructor
/// application of the program (the module doc lists where).
pub(super) fn open_datatypes(program: &Program) -> HashSet<DatatypeId> {
    let mut roots: Vec<Type> = program.globals.values().map(|g| g.ty).collect();
    for proc in program.procs.values() {
        if proc.entrypoint {
            roots.extend(proc.params.iter().map(|p| proc.locals[*p].ty));
        }
        let mut havocked = Vec::new();
        super::for_each_stmt(&proc.body, &mut |s| {
            if let Stmt::Havoc(vars) = s {
                havocked.extend(vars.iter().copied());
            }
        });
        roots.extend(
            havocked
                .into_iter()
                .filter_map(|v| program.var_type(proc, v)),
        );
        roots.extend(
            maybe_unassigned_reads(proc)
                .into_iter()
                .map(|l| proc.locals[l].ty),
        );
    }
    let mut open = HashSet::new();
    for ty in roots {
        mention(program, ty, &mut open);
    }
    open
}

/// Adds the datatypes `ty` mentions, through fields and maps, to `found`.
fn mention(program: &Program, ty: Type, found: &mut HashSet<DatatypeId>) {
    match ty {
        Type::Int | Type::Bool | Type::Sort(_) => {}
        Type::Map(map) => {
            mention(program, map.key(), found);
            mention(program, map.value(), found);
        }
        Type::Data(id) => {
            if found.insert(id)
                && let Some(datatype) = program.datatypes.get(id)
            {
                for field in datatype.ctors.iter().flat_map(|c| &c.fields) {
                    mention(program, field.ty, found);
                }
            }
        }
    }
}

/// The locals of `proc` (not parameters) that some statement may read before anything
/// assigns them, by a forward analysis over the structured body.
pub(super) fn maybe_unassigned_reads(proc: &Procedure) -> HashSet<LocalId> {
    let mut assigned: HashSet<LocalId> = proc.params.iter().copied().collect();
    let mut unassigned = HashSet::new();
    if assigned_after(proc, &proc.body, &mut assigned, &mut unassigned) {
        returned(proc, &assigned, &mut unassigned);
    }
    unassigned
}

/// Notes the results of `proc` not in `assigned` where it returns: the caller reads them.
fn returned(proc: &Procedure, assigned: &HashSet<LocalId>, unassigned: &mut HashSet<LocalId>) {
    let missing = proc.returns.iter().filter(|r| !assigned.contains(r));
    unassigned.extend(missing);
}

/// Runs the analysis over `block` from `assigned`; returns whether the block may end
/// without `return` (then `assigned` holds what is assigned at its end).
fn assigned_after(
    proc: &Procedure,
    block: &Block,
    assigned: &mut HashSet<LocalId>,
    unassigned: &mut HashSet<LocalId>,
) -> bool {
    for stmt in block {
        match stmt {
            Stmt::Assign(target, e) => {
                read(e, assigned, unassigned);
                if let Var::Local(l) = target {
                    assigned.insert(*l);
                }
            }
            Stmt::Havoc(vars) => assigned.extend(vars.iter().filter_map(|v| match v {
                Var::Local(l) => Some(*l),
                Var::Global(_) => None,
            })),
            Stmt::Assume(e) | Stmt::Assert { cond: e, .. } => read(e, assigned, unassigned),
            Stmt::Call(site) => {
                let site = &proc.call_sites[*site];
                site.args.iter().for_each(|a| read(a, assigned, unassigned));
                assigned.extend(site.rets.iter().filter_map(|v| match v {
                    Var::Local(l) => Some(*l),
                    Var::Global(_) => None,
                }));
            }
            Stmt::If { cond, then, else_ } => {
                read(cond, assigned, unassigned);
                let mut then_assigned = assigned.clone();
                let mut else_assigned = assigned.clone();
                let then_ends = assigned_after(proc, then, &mut then_assigned, unassigned);
                let else_ends = assigned_after(proc, else_, &mut else_assigned, unassigned);
                *assigned = match (then_ends, else_ends) {
                    (true, true) => then_assigned
                        .intersection(&else_assigned)
                        .copied()
                        .collect(),
                    (true, false) => then_assigned,
                    (false, true) => else_assigned,
                    (false, false) => return false,
                };
            }
            Stmt::Return => {
                returned(proc, assigned, unassigned);
                return false;
            }
        }
    }
    true
}

/// Notes the locals `e` reads that are not in `assigned`.
fn read(e: &Expr, assigned: &HashSet<LocalId>, unassigned: &mut HashSet<LocalId>) {
    e.for_each_var(&mut |v| {
        if let Var::Local(l) = v
            && !assigned.contains(&l)
        {
            unassigned.insert(l);
        }
    })
}

/// Replaces `e`, if it reads a constant field, by the field's literal; returns whether it
/// did.
fn fold_read(program: &Program, constants: &HashMap<FieldRef, Literal>, e: &mut Expr) -> bool {
    let Expr::Select { arg, field } = e else {
        return false;
    };
    let Some(literal) = constants.get(field) else {
        return false;
    };
    let only_constructor = program
        .datatypes
        .get(field.ctor.datatype)
        .is_some_and(|d| d.ctors.len() == 1);
    let ctor: CtorId = field.ctor;
    *e = if only_constructor {
        literal.expr()
    } else {
        let tested = Expr::is((**arg).clone(), ctor);
        Expr::ite(tested, literal.expr(), e.clone())
    };
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folded_text(text: &str) -> Option<String> {
        let program = crate::parse(text).expect("parses");
        let folded = fold_constant_fields(&program)?;
        crate::verify(&folded).expect("still a valid program");
        Some(crate::print(&folded))
    }

    const ADDER: &str = "datatype Clo { K_add(k: int, tag: bool) }\n\
        procedure apply(f: Clo, x: int) returns (r: int) { r := x + f->k; }\n\
        procedure {:entrypoint} Main(n: int) {\n\
          var f: Clo; var r: int;\n\
          f := K_add(5, true);\n\
          call r := apply(f, n);\n\
          if (n > 0) { f := K_add(5, false); }\n\
          call r := apply(f, r);\n\
          assert r == n + 10;\n\
        }\n";

    #[test]
    fn a_field_every_application_writes_the_same_literal_is_read_as_it() {
        let text = folded_text(ADDER).expect("k is constant");
        assert!(text.contains("r := x + 5;"), "{text}");
    }

    #[test]
    fn a_field_written_with_two_values_stays() {
        let text = folded_text(&ADDER.replace("K_add(5, false)", "K_add(6, false)"));
        assert!(text.is_none(), "{text:?}");
    }

    #[test]
    fn a_datatype_with_values_from_elsewhere_is_left_alone() {
        // An entry parameter, a havoc, a global and a local read unassigned each make the
        // datatype's values arbitrary.
        let input = ADDER.replace("(n: int) {", "(n: int, g: Clo) {");
        let havoc = ADDER.replace("f := K_add(5, true);", "havoc f;");
        let global = format!("var g: Clo;\n{ADDER}");
        let unassigned = ADDER.replace("f := K_add(5, true);\n", "");
        // A procedure that may return without assigning its result gives its caller an
        // arbitrary value.
        let unreturned = format!(
            "procedure make() returns (c: Clo) {{ }}\n{}",
            ADDER.replace("f := K_add(5, true);", "call f := make();")
        );
        for text in [input, havoc, global, unassigned, unreturned] {
            assert!(folded_text(&text).is_none(), "{text}");
        }
    }

    #[test]
    fn a_read_of_a_value_of_another_constructor_keeps_its_selector() {
        let text = "datatype D { A(x: int), B(y: int) }\n\
            procedure {:entrypoint} Main(n: int) {\n\
              var d: D;\n\
              if (n > 0) { d := A(7); } else { d := B(n); }\n\
              assert d->x == 7;\n\
            }\n";
        let folded = folded_text(text).expect("A's field is constant");
        assert!(folded.contains("if d is A then 7 else d->x"), "{folded}");
    }
}
