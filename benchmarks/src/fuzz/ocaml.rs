//! The random programs printed as OCaml (issue 18's generator for the OCaml front end).
//!
//! The same trees as [`super::ast`], so the generator, the shrinker and the oracle serve
//! both languages; only the text differs. The mapping:
//! - `Store:` references become top-level `let r = ref init`; a reference whose initial
//!   value is a method (OCaml cannot name a method before its `let rec`) starts as a
//!   placeholder function and is assigned the method first thing in `main` — before any
//!   code of the program runs, as in HORef;
//! - the methods are one `let rec ... and ...` group (they may call each other in any
//!   order); `Main` is `main`, its parameters the inputs;
//! - HORef's booleans are integers (0 false, comparisons yield 0/1): a test is printed as an
//!   OCaml `bool` ([`test`]: a comparison as itself, any other integer `e` as `e <> 0`), and
//!   a comparison used as a value as `(if a < b then 1 else 0)`;
//! - every binder is annotated with its type (`(x : int)`, `int -> (int -> int)`), so no
//!   type is left to guess; `fail` is `failwith "fail"`, `hd`/`tl`/`is_empty` are `match`es
//!   (`hd []` raises `Failure`; `hd` goes through an `option`, `tl` through a `result`, so
//!   the front end's variants are fuzzed), `Pair(a, b)` is `(a, b)`, `==`/`!=` are `=`/`<>`;
//! - a type definition heads every program, `type 'a maybe = Nothing | Just of 'a`, the
//!   variant `hd` goes through (so user-defined parameterised variants are fuzzed);
//! - an allocated reference (`Ref T`, not a `Store:` one) is a one-element array (`T
//!   array`): `ref e` is `[| e |]` when `e` is a literal and `Array.make 1 e` otherwise,
//!   `!e` is `e.(0)`, `e1 := e2` is `e1.(0) <- e2` (a one-cell array is a cell, and neither
//!   allocation costs depth, as `ref e` costs none), so arrays, their bounds checks and
//!   their aliasing are fuzzed against the same HORef program.
//!
//! Guarantee: [`text`] is fully parenthesised and annotated; the oracle loads it through
//! horef-si's OCaml front end and checks `verify` on it against the interpreter on the same
//! program, exactly as for the HORef text.

use super::ast::{Expr, Kind, Op, Param, Program, Ty};
use std::fmt::Write;

/// The program as an OCaml file.
pub fn text(program: &Program) -> String {
    let mut out = String::from("type 'a maybe = Nothing | Just of 'a\n");
    let mut deferred = Vec::new();
    for r in &program.store {
        if initialised_by_method(&r.init) {
            writeln!(out, "let {} = ref {}", r.name, placeholder(&r.ty)).unwrap();
            deferred.push(format!("{} := {}", r.name, expr(&r.init)));
        } else {
            writeln!(out, "let {} = ref {}", r.name, expr(&r.init)).unwrap();
        }
    }
    for (i, m) in program.methods.iter().enumerate() {
        let keyword = if i == 0 { "let rec" } else { "and" };
        writeln!(
            out,
            "{keyword} {} {} : {} =\n  {}",
            m.name,
            binders(&m.params),
            ty(&m.body.ty),
            expr(&m.body)
        )
        .unwrap();
    }
    let params = if program.main_params.is_empty() {
        "()".to_string()
    } else {
        binders(&program.main_params)
    };
    let mut body = String::new();
    for assignment in &deferred {
        write!(body, "{assignment};\n  ").unwrap();
    }
    body.push_str(&expr(&program.main));
    writeln!(
        out,
        "let main {params} : {} =\n  {body}",
        ty(&program.main.ty)
    )
    .unwrap();
    out
}

/// Whether a reference's initial value mentions a name (a method): it must wait for the
/// methods' definitions.
fn initialised_by_method(init: &Expr) -> bool {
    matches!(&*init.kind, Kind::Var(_)) || init.children().into_iter().any(initialised_by_method)
}

/// A value of type `t` that is never used: functions that fail if called, any constant else.
fn placeholder(t: &Ty) -> String {
    match t {
        Ty::Int => "0".into(),
        Ty::Unit => "()".into(),
        Ty::Data(_) => unreachable!("the generator makes no datatypes"),
        Ty::List(_) => "([] : int list)".into(),
        Ty::Pair(a, b) => format!("({}, {})", placeholder(a), placeholder(b)),
        Ty::Ref(content) => format!("[| {} |]", placeholder(content)),
        Ty::Arrow(params, ret) => {
            let binders: Vec<String> = params.iter().map(|p| format!("(_ : {})", ty(p))).collect();
            format!(
                "(fun {} -> (failwith \"unset\" : {}))",
                binders.join(" "),
                ty(ret)
            )
        }
    }
}

/// An OCaml type, parenthesised wherever it is not atomic.
fn ty(t: &Ty) -> String {
    match t {
        Ty::Int => "int".into(),
        Ty::Unit => "unit".into(),
        Ty::Data(name) => name.to_string(),
        Ty::List(_) => "int list".into(),
        Ty::Pair(a, b) => format!("({} * {})", ty(a), ty(b)),
        Ty::Ref(content) => format!("({} array)", ty(content)),
        Ty::Arrow(params, ret) => {
            let mut parts: Vec<String> = params.iter().map(ty).collect();
            parts.push(ty(ret));
            format!("({})", parts.join(" -> "))
        }
    }
}

fn binders(params: &[Param]) -> String {
    let each: Vec<String> = params
        .iter()
        .map(|p| format!("({} : {})", p.name, ty(&p.ty)))
        .collect();
    each.join(" ")
}

/// The operator as OCaml writes it: HORef's but for (in)equality.
fn op(o: Op) -> &'static str {
    match o {
        Op::Eq => "=",
        Op::Ne => "<>",
        other => other.text(),
    }
}

/// An expression, fully parenthesised.
fn expr(e: &Expr) -> String {
    match &*e.kind {
        Kind::Int(i) if *i < 0 => format!("({i})"),
        Kind::Int(i) => i.to_string(),
        Kind::Skip => "()".into(),
        Kind::Fail => format!("(failwith \"fail\" : {})", ty(&e.ty)),
        Kind::Nil => "([] : int list)".into(),
        Kind::Var(name) => name.clone(),
        Kind::Neg(a) => format!("(- {})", expr(a)),
        Kind::Bin(o @ (Op::Add | Op::Sub | Op::Mul), a, b) => {
            format!("({} {} {})", expr(a), op(*o), expr(b))
        }
        Kind::Bin(..) | Kind::IsEmpty(_) => format!("(if {} then 1 else 0)", test(e)),
        Kind::App(f, args) => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("({} {})", expr(f), args.join(" "))
        }
        Kind::Fun(params, body) => {
            format!(
                "(fun {} -> ({} : {}))",
                binders(params),
                expr(body),
                ty(&body.ty)
            )
        }
        Kind::Let(p, value, rest) => format!(
            "(let ({} : {}) = {} in {})",
            p.name,
            ty(&p.ty),
            expr(value),
            expr(rest)
        ),
        Kind::LetRec(p, params, body, rest) => format!(
            "(let rec {} {} : {} = {} in {})",
            p.name,
            binders(params),
            ty(&body.ty),
            expr(body),
            expr(rest)
        ),
        Kind::If(c, a, b) => format!("(if {} then {} else {})", test(c), expr(a), expr(b)),
        Kind::Assert(a) => format!("(assert {})", test(a)),
        Kind::Assign(r, a) => format!("({r} := {})", expr(a)),
        Kind::Deref(r) => format!("(!{r})"),
        Kind::Alloc(a) if matches!(&*a.kind, Kind::Int(_)) => format!("[| {} |]", expr(a)),
        Kind::Alloc(a) => format!("(Array.make 1 {})", expr(a)),
        Kind::Load(a) => format!("({}.(0))", expr(a)),
        Kind::Store(a, b) => format!("({}.(0) <- {})", expr(a), expr(b)),
        Kind::Pair(a, b) => format!("({}, {})", expr(a), expr(b)),
        Kind::Fst(a) => format!("(fst {})", expr(a)),
        Kind::Snd(a) => format!("(snd {})", expr(a)),
        Kind::Cons(a, b) => format!("({} :: {})", expr(a), expr(b)),
        // Through an `option` and a `result` (issue 32's variants): the same values and
        // failures as a direct match.
        Kind::Hd(a) => format!(
            "(match (match {} with hd_v :: _ -> Just hd_v | [] -> Nothing) with Just hd_v -> hd_v | Nothing -> failwith \"hd\")",
            expr(a)
        ),
        Kind::Tl(a) => format!(
            "(match (match {} with _ :: tl_v -> Ok tl_v | [] -> Error 0) with Ok tl_v -> tl_v | Error _ -> failwith \"tl\")",
            expr(a)
        ),
    }
}

/// An integer used as a test, as an OCaml `bool`.
fn test(e: &Expr) -> String {
    match &*e.kind {
        Kind::Bin(o @ (Op::And | Op::Or), a, b) => format!("({} {} {})", test(a), op(*o), test(b)),
        Kind::Bin(o, a, b) if !matches!(o, Op::Add | Op::Sub | Op::Mul) => {
            format!("({} {} {})", expr(a), op(*o), expr(b))
        }
        Kind::IsEmpty(a) => format!("(match {} with [] -> true | _ -> false)", expr(a)),
        _ => format!("({} <> 0)", expr(e)),
    }
}
