//! Datatypes that only box one scalar, read as that scalar.
//!
//! A closure that captures one integer (`fun v -> v + d`, defunctionalized as the
//! constructor `K_f(d)` of a datatype with no other constructor) is, as a value, just
//! that integer: `K_f` is a bijection between `int` and the datatype. A list of such
//! closures is then a list of integers in disguise, and the facts a proof needs about it
//! (the sum of the steps a loop applies in turn) are those of a list of integers, which
//! the list measures of the Horn clauses state; over the boxed datatype they have no
//! name. [`unbox_scalar_datatypes`] rewrites every datatype with exactly one constructor
//! with exactly one field of type `int` or `bool`, and stored as the element of a
//! recursive datatype (beside a field of the constructor's own datatype: the head of a
//! list), into that type: its constructor application `K(e)` becomes `e`, its selector
//! `e->K.f` becomes `e`, its tester `e is K` becomes `true`, and every type that mentions
//! it (locals, globals, other constructors' fields, map keys and values) mentions the
//! scalar instead.
//!
//! Guarantee: the rewritten program has exactly the runs of the original, values of
//! each unboxed datatype read through the bijection `K(n) ↔ n`. Every value of the
//! datatype is `K(n)` for one `n`, so a `havoc` or an entry input ranges over the same
//! values; equality of two values is equality of their fields; the datatype's default
//! value (its constructor applied to the field's default) is the scalar's default. The
//! datatype's declaration stays, unused, so every other datatype keeps its identifier.

use super::{CtorId, DatatypeId, Expr, MapType, Program, Type};
use std::collections::{HashMap, HashSet};

/// The program with every datatype that boxes one scalar and is stored as a recursive
/// datatype's element replaced by the scalar, or `None` when it has no such datatype.
/// (A closure stored elsewhere, such as the one `List.init` applies, captured by the
/// closure of its inner loop, stays boxed: unboxing it states nothing a list measure
/// could use, and it cost Spacer a proof, `tests/proofs/list_rev_acc_sum.ml`.)
pub fn unbox_scalar_datatypes(program: &Program) -> Option<Program> {
    // The datatypes stored as elements of a recursive one: beside a field of the
    // constructor's own datatype (`cons(head: D, tail: L)`).
    let stored: HashSet<DatatypeId> = program
        .datatypes
        .iter()
        .flat_map(|(own, d)| {
            d.ctors
                .iter()
                .filter(move |c| c.fields.iter().any(|f| f.ty == Type::Data(own)))
                .flat_map(|c| &c.fields)
        })
        .filter_map(|f| match f.ty {
            Type::Data(id) => Some(id),
            _ => None,
        })
        .collect();
    let boxes: HashMap<DatatypeId, Type> = program
        .datatypes
        .iter()
        .filter(|(id, _)| stored.contains(id))
        .filter_map(|(id, datatype)| match datatype.ctors.as_slice() {
            [only] => match only.fields.as_slice() {
                [field] if matches!(field.ty, Type::Int | Type::Bool) => Some((id, field.ty)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    // Only datatypes some value of the program has: a declared, unused one changes nothing.
    if boxes.is_empty() || !mentions_any(program, &boxes) {
        return None;
    }
    let mut unboxed = program.clone();
    let unbox = Unboxer { boxes: &boxes };
    for (id, datatype) in unboxed.datatypes.iter_mut() {
        if boxes.contains_key(&id) {
            continue;
        }
        for field in datatype.ctors.iter_mut().flat_map(|c| c.fields.iter_mut()) {
            field.ty = unbox.ty(field.ty);
        }
    }
    for (_, global) in unboxed.globals.iter_mut() {
        global.ty = unbox.ty(global.ty);
    }
    for (_, proc) in unboxed.procs.iter_mut() {
        for (_, local) in proc.locals.iter_mut() {
            local.ty = unbox.ty(local.ty);
        }
        proc.for_each_expr_mut(&mut |e| e.rewrite_bottom_up(&mut |e| unbox.expr(e)));
    }
    Some(unboxed)
}

/// Whether a local, a global or another datatype's field has a type that mentions one of
/// `boxes`.
fn mentions_any(program: &Program, boxes: &HashMap<DatatypeId, Type>) -> bool {
    let unbox = Unboxer { boxes };
    let changes = |ty: Type| unbox.ty(ty) != ty;
    program.globals.values().any(|g| changes(g.ty))
        || program
            .procs
            .values()
            .any(|p| p.locals.values().any(|l| changes(l.ty)))
}

/// Rewrites types and expressions, the datatypes of `boxes` read as their scalar.
struct Unboxer<'b> {
    boxes: &'b HashMap<DatatypeId, Type>,
}

impl Unboxer<'_> {
    fn ty(&self, ty: Type) -> Type {
        match ty {
            Type::Data(id) => self.boxes.get(&id).copied().unwrap_or(ty),
            Type::Map(map) => Type::Map(MapType::new(self.ty(map.key()), self.ty(map.value()))),
            Type::Int | Type::Bool | Type::Sort(_) => ty,
        }
    }

    fn boxed(&self, ctor: CtorId) -> bool {
        self.boxes.contains_key(&ctor.datatype)
    }

    /// Rewrites one expression whose sub-expressions are rewritten already.
    fn expr(&self, e: &mut Expr) {
        let replacement = match e {
            Expr::Ctor { ctor, args } if self.boxed(*ctor) && args.len() == 1 => args.pop(),
            Expr::Select { arg, field } if self.boxed(field.ctor) => {
                Some(std::mem::replace(&mut **arg, Expr::Bool(false)))
            }
            Expr::Is { ctor, .. } if self.boxed(*ctor) => Some(Expr::Bool(true)),
            Expr::MapConst { key, .. } => {
                *key = self.ty(*key);
                None
            }
            _ => None,
        };
        if let Some(replacement) = replacement {
            *e = replacement;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unboxed_text(text: &str) -> Option<String> {
        let program = crate::parse(text).expect("parses");
        let unboxed = unbox_scalar_datatypes(&program)?;
        crate::verify(&unboxed).expect("still a valid program");
        Some(crate::print(&unboxed))
    }

    /// A list of closures that each capture one integer becomes a list of integers.
    const STEPS: &str = "datatype Step { K_add(d: int) }\n\
        datatype Steps { nil(), cons(head: Step, tail: Steps) }\n\
        var pending: Steps;\n\
        procedure apply(f: Step, v: int) returns (r: int) {\n\
          if (f is K_add) { r := v + f->d; } else { assume false; }\n\
        }\n\
        procedure {:entrypoint} Main(d: int) modifies pending; {\n\
          var f: Step; var r: int; var m: [int]Step;\n\
          f := K_add(d);\n\
          pending := cons(f, pending);\n\
          m := [int](K_add(0));\n\
          m := m[1 := f];\n\
          call r := apply(pending->head, 1);\n\
          assert r == 1 + d && m[1] == K_add(d);\n\
        }\n";

    #[test]
    fn a_datatype_boxing_one_integer_is_read_as_the_integer() {
        let text = unboxed_text(STEPS).expect("Step boxes an int");
        assert!(text.contains("cons(head: int, tail: Steps)"), "{text}");
        assert!(text.contains("procedure apply(f: int, v: int)"), "{text}");
        assert!(text.contains("r := v + f;"), "{text}");
        assert!(text.contains("if (true)"), "{text}");
        assert!(text.contains("f := d;"), "{text}");
        assert!(text.contains("var m: [int]int;"), "{text}");
        assert!(text.contains("m[1] == d"), "{text}");
        // Only the (unused) declaration still names the constructor.
        assert_eq!(text.matches("K_add").count(), 1, "{text}");
    }

    #[test]
    fn datatypes_with_two_fields_or_two_constructors_stay() {
        let two_fields = "datatype P { K_p(a: int, b: int) }\n\
            procedure {:entrypoint} Main(x: int) { var p: P; p := K_p(x, x); assert p->a == x; }\n";
        assert!(unboxed_text(two_fields).is_none());
        let two_ctors = "datatype O { none(), some(v: int) }\n\
            procedure {:entrypoint} Main(x: int) { var o: O; o := some(x); assert o->v == x; }\n";
        assert!(unboxed_text(two_ctors).is_none());
        let boxes_a_datatype = "datatype L { nil(), cons(h: int, t: L) }\n\
            datatype B { K_b(l: L) }\n\
            procedure {:entrypoint} Main(x: int) { var b: B; b := K_b(nil()); assert b->l is nil; }\n";
        assert!(unboxed_text(boxes_a_datatype).is_none());
    }

    /// A closure passed to a function, or captured by another closure, but no element of
    /// a list stays boxed.
    #[test]
    fn a_datatype_boxing_one_integer_in_no_list_stays() {
        let passed = "datatype F { K_f(base: int) }\n\
            datatype G { K_go(n: int, f: F) }\n\
            procedure apply(f: F, i: int) returns (r: int) { r := f->base + i; }\n\
            procedure {:entrypoint} Main(b: int) {\n\
              var r: int; var g: G;\n\
              g := K_go(2, K_f(b));\n\
              call r := apply(g->f, 1); assert r == b + 1;\n\
            }\n";
        assert!(unboxed_text(passed).is_none());
    }

    /// Runs agree: the interpreter gives the unboxed program the same outcome on the
    /// same inputs (a failing assertion stays failing).
    #[test]
    fn unboxed_runs_fail_where_the_original_fails() {
        let failing = STEPS.replace("assert r == 1 + d", "assert r == d");
        for (text, fails) in [(STEPS.to_string(), false), (failing, true)] {
            let program = crate::parse(&text).expect("parses");
            let unboxed = unbox_scalar_datatypes(&program).expect("unboxed");
            for d in [-2, 0, 5] {
                for p in [&program, &unboxed] {
                    let inputs = [crate::interp::Value::from(d)];
                    let config = crate::interp::RunConfig::with_depth(4);
                    let run = crate::interp::run(p, &inputs, &config).expect("runs");
                    let failed = matches!(run.outcome, crate::interp::Outcome::Failure { .. });
                    assert_eq!(failed, fails, "d = {d}: {:?}", run.outcome);
                }
            }
        }
    }
}
