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
//! - an allocated reference (`Ref T`, not a `Store:` one) is either a one-element array
//!   (`T array`): `ref e` is `[| e |]` when `e` is a literal and `Array.make 1 e`
//!   otherwise, `!e` is `e.(0)`, `e1 := e2` is `e1.(0) <- e2` (a one-cell array is a cell,
//!   and neither allocation costs depth, as `ref e` costs none), so arrays, their bounds
//!   checks and their aliasing are fuzzed against the same HORef program; or a record
//!   with a `mutable` field, one record type per content type (`type cell0 = { mutable
//!   c0 : T; k0 : int }`, `k0` always 0): `ref e` is `{ c0 = e; k0 = 0 }` (`ref !v` is
//!   `{ v with c0 = v.c0 }`, `ref 5` is `{ { c0 = 5; k0 = 0 } with c0 = 5 }`), `!e` is `e.c0` (`!v` is the record pattern `match v with {
//!   c0 = x; _ } -> x`), `e1 := e2` is `e1.c0 <- e2`, so records, their mutable fields,
//!   `with` copies and record patterns are fuzzed (a mutable field is a cell, aliased as
//!   a reference). Which content types are records ([`Printer::new`]) alternates with
//!   their order and the number of methods, so both forms occur.
//!
//! Guarantee: [`text`] is fully parenthesised and annotated; the oracle loads it through
//! horef-si's OCaml front end and checks `verify` on it against the interpreter on the same
//! program, exactly as for the HORef text.

use super::ast::{Expr, Kind, Op, Param, Program, Ty};
use std::fmt::Write;

/// The program as an OCaml file.
pub fn text(program: &Program) -> String {
    let printer = Printer::new(program);
    let mut out = String::from("type 'a maybe = Nothing | Just of 'a\n");
    for (i, content) in printer.cells.iter().enumerate() {
        if let Some(content) = content {
            writeln!(
                out,
                "type cell{i} = {{ mutable c{i} : {}; k{i} : int }}",
                printer.ty(content)
            )
            .unwrap();
        }
    }
    let mut deferred = Vec::new();
    for r in &program.store {
        if initialised_by_method(&r.init) {
            writeln!(out, "let {} = ref {}", r.name, printer.placeholder(&r.ty)).unwrap();
            deferred.push(format!("{} := {}", r.name, printer.expr(&r.init)));
        } else {
            writeln!(out, "let {} = ref {}", r.name, printer.expr(&r.init)).unwrap();
        }
    }
    for (i, m) in program.methods.iter().enumerate() {
        let keyword = if i == 0 { "let rec" } else { "and" };
        writeln!(
            out,
            "{keyword} {} {} : {} =\n  {}",
            m.name,
            printer.binders(&m.params),
            printer.ty(&m.body.ty),
            printer.expr(&m.body)
        )
        .unwrap();
    }
    let params = if program.main_params.is_empty() {
        "()".to_string()
    } else {
        printer.binders(&program.main_params)
    };
    let mut body = String::new();
    for assignment in &deferred {
        write!(body, "{assignment};\n  ").unwrap();
    }
    body.push_str(&printer.expr(&program.main));
    writeln!(
        out,
        "let main {params} : {} =\n  {body}",
        printer.ty(&program.main.ty)
    )
    .unwrap();
    out
}

/// Whether a reference's initial value mentions a name (a method): it must wait for the
/// methods' definitions.
fn initialised_by_method(init: &Expr) -> bool {
    matches!(&*init.kind, Kind::Var(_)) || init.children().into_iter().any(initialised_by_method)
}

/// How one program is printed: which allocated references are records.
struct Printer {
    /// Every content type `T` of a `Ref T` in the program, inner ones first (so each record
    /// type is declared after the ones its field mentions); `Some(T)` when its cells are
    /// records `cell{i}`, `None` when they are one-element arrays.
    cells: Vec<Option<Ty>>,
    /// The content types in the same order.
    contents: Vec<Ty>,
}

impl Printer {
    /// Collects the content types; the i-th is a record when `i + methods` is even.
    fn new(program: &Program) -> Printer {
        let mut contents = Vec::new();
        for r in &program.store {
            collect_type(&r.ty, &mut contents);
            collect_expr(&r.init, &mut contents);
        }
        for m in &program.methods {
            for p in &m.params {
                collect_type(&p.ty, &mut contents);
            }
            collect_expr(&m.body, &mut contents);
        }
        for p in &program.main_params {
            collect_type(&p.ty, &mut contents);
        }
        collect_expr(&program.main, &mut contents);
        let parity = program.methods.len() % 2;
        let cells = contents
            .iter()
            .enumerate()
            .map(|(i, t)| (i + parity).is_multiple_of(2).then(|| t.clone()))
            .collect();
        Printer { cells, contents }
    }

    /// The record type index of the cells holding `content`, if they are records.
    fn record(&self, content: &Ty) -> Option<usize> {
        let i = self.contents.iter().position(|t| t == content)?;
        self.cells[i].as_ref().map(|_| i)
    }

    /// The record index of a `Ref` type's cells, if they are records.
    fn record_of_ref(&self, reference: &Ty) -> Option<usize> {
        match reference {
            Ty::Ref(content) => self.record(content),
            _ => None,
        }
    }

    /// A value of type `t` that is never used: functions that fail if called, any constant
    /// else.
    fn placeholder(&self, t: &Ty) -> String {
        match t {
            Ty::Int => "0".into(),
            Ty::Unit => "()".into(),
            Ty::Data(_) => unreachable!("the generator makes no datatypes"),
            Ty::List(_) => "([] : int list)".into(),
            Ty::Pair(a, b) => format!("({}, {})", self.placeholder(a), self.placeholder(b)),
            Ty::Ref(content) => match self.record(content) {
                Some(i) => format!("{{ c{i} = {}; k{i} = 0 }}", self.placeholder(content)),
                None => format!("[| {} |]", self.placeholder(content)),
            },
            Ty::Arrow(params, ret) => {
                let binders: Vec<String> = params
                    .iter()
                    .map(|p| format!("(_ : {})", self.ty(p)))
                    .collect();
                format!(
                    "(fun {} -> (failwith \"unset\" : {}))",
                    binders.join(" "),
                    self.ty(ret)
                )
            }
        }
    }

    /// An OCaml type, parenthesised wherever it is not atomic.
    fn ty(&self, t: &Ty) -> String {
        match t {
            Ty::Int => "int".into(),
            Ty::Unit => "unit".into(),
            Ty::Data(name) => name.to_string(),
            Ty::List(_) => "int list".into(),
            Ty::Pair(a, b) => format!("({} * {})", self.ty(a), self.ty(b)),
            Ty::Ref(content) => match self.record(content) {
                Some(i) => format!("cell{i}"),
                None => format!("({} array)", self.ty(content)),
            },
            Ty::Arrow(params, ret) => {
                let mut parts: Vec<String> = params.iter().map(|p| self.ty(p)).collect();
                parts.push(self.ty(ret));
                format!("({})", parts.join(" -> "))
            }
        }
    }

    fn binders(&self, params: &[Param]) -> String {
        let each: Vec<String> = params
            .iter()
            .map(|p| format!("({} : {})", p.name, self.ty(&p.ty)))
            .collect();
        each.join(" ")
    }

    /// An expression, fully parenthesised.
    fn expr(&self, e: &Expr) -> String {
        match &*e.kind {
            Kind::Int(i) if *i < 0 => format!("({i})"),
            Kind::Int(i) => i.to_string(),
            Kind::Skip => "()".into(),
            Kind::Fail => format!("(failwith \"fail\" : {})", self.ty(&e.ty)),
            Kind::Nil => "([] : int list)".into(),
            Kind::Var(name) => name.clone(),
            Kind::Neg(a) => format!("(- {})", self.expr(a)),
            Kind::Bin(o @ (Op::Add | Op::Sub | Op::Mul), a, b) => {
                format!("({} {} {})", self.expr(a), op(*o), self.expr(b))
            }
            Kind::Bin(..) | Kind::IsEmpty(_) => format!("(if {} then 1 else 0)", self.test(e)),
            Kind::App(f, args) => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("({} {})", self.expr(f), args.join(" "))
            }
            Kind::Fun(params, body) => {
                format!(
                    "(fun {} -> ({} : {}))",
                    self.binders(params),
                    self.expr(body),
                    self.ty(&body.ty)
                )
            }
            Kind::Let(p, value, rest) => format!(
                "(let ({} : {}) = {} in {})",
                p.name,
                self.ty(&p.ty),
                self.expr(value),
                self.expr(rest)
            ),
            Kind::LetRec(p, params, body, rest) => format!(
                "(let rec {} {} : {} = {} in {})",
                p.name,
                self.binders(params),
                self.ty(&body.ty),
                self.expr(body),
                self.expr(rest)
            ),
            Kind::If(c, a, b) => format!(
                "(if {} then {} else {})",
                self.test(c),
                self.expr(a),
                self.expr(b)
            ),
            Kind::Assert(a) => format!("(assert {})", self.test(a)),
            Kind::Assign(r, a) => format!("({r} := {})", self.expr(a)),
            Kind::Deref(r) => format!("(!{r})"),
            Kind::Alloc(a) => match self.record(&a.ty) {
                // `ref !v`: a copy of `v`'s record with the same content.
                Some(i) => match &*a.kind {
                    Kind::Load(v) if matches!(&*v.kind, Kind::Var(_)) => {
                        let v = self.expr(v);
                        format!("{{ {v} with c{i} = {v}.c{i} }}")
                    }
                    // A literal content: a copy of a literal record (`with` on a base
                    // that is not a name).
                    Kind::Int(_) => format!(
                        "{{ {{ c{i} = {}; k{i} = 0 }} with c{i} = {} }}",
                        self.expr(a),
                        self.expr(a)
                    ),
                    _ => format!("{{ c{i} = {}; k{i} = 0 }}", self.expr(a)),
                },
                None if matches!(&*a.kind, Kind::Int(_)) => format!("[| {} |]", self.expr(a)),
                None => format!("(Array.make 1 {})", self.expr(a)),
            },
            Kind::Load(a) => match self.record_of_ref(&a.ty) {
                Some(i) if matches!(&*a.kind, Kind::Var(_)) => {
                    format!(
                        "(match {} with {{ c{i} = load_v; _ }} -> load_v)",
                        self.expr(a)
                    )
                }
                Some(i) => format!("({}.c{i})", self.expr(a)),
                None => format!("({}.(0))", self.expr(a)),
            },
            Kind::Store(a, b) => match self.record_of_ref(&a.ty) {
                Some(i) => format!("({}.c{i} <- {})", self.expr(a), self.expr(b)),
                None => format!("({}.(0) <- {})", self.expr(a), self.expr(b)),
            },
            Kind::Pair(a, b) => format!("({}, {})", self.expr(a), self.expr(b)),
            Kind::Fst(a) => format!("(fst {})", self.expr(a)),
            Kind::Snd(a) => format!("(snd {})", self.expr(a)),
            Kind::Cons(a, b) => format!("({} :: {})", self.expr(a), self.expr(b)),
            // Through an `option` and a `result` (issue 32's variants): the same values and
            // failures as a direct match.
            Kind::Hd(a) => format!(
                "(match (match {} with hd_v :: _ -> Just hd_v | [] -> Nothing) with Just hd_v -> hd_v | Nothing -> failwith \"hd\")",
                self.expr(a)
            ),
            Kind::Tl(a) => format!(
                "(match (match {} with _ :: tl_v -> Ok tl_v | [] -> Error 0) with Ok tl_v -> tl_v | Error _ -> failwith \"tl\")",
                self.expr(a)
            ),
        }
    }

    /// An integer used as a test, as an OCaml `bool`.
    fn test(&self, e: &Expr) -> String {
        match &*e.kind {
            Kind::Bin(o @ (Op::And | Op::Or), a, b) => {
                format!("({} {} {})", self.test(a), op(*o), self.test(b))
            }
            Kind::Bin(o, a, b) if !matches!(o, Op::Add | Op::Sub | Op::Mul) => {
                format!("({} {} {})", self.expr(a), op(*o), self.expr(b))
            }
            Kind::IsEmpty(a) => format!("(match {} with [] -> true | _ -> false)", self.expr(a)),
            _ => format!("({} <> 0)", self.expr(e)),
        }
    }
}

/// Adds the content types of the `Ref` types inside `t` to `out`, inner ones first.
fn collect_type(t: &Ty, out: &mut Vec<Ty>) {
    match t {
        Ty::Int | Ty::Unit | Ty::Data(_) => {}
        Ty::List(element) => collect_type(element, out),
        Ty::Pair(a, b) => {
            collect_type(a, out);
            collect_type(b, out);
        }
        Ty::Arrow(params, ret) => {
            for p in params {
                collect_type(p, out);
            }
            collect_type(ret, out);
        }
        Ty::Ref(content) => {
            collect_type(content, out);
            if !out.contains(content) {
                out.push((**content).clone());
            }
        }
    }
}

/// Adds the content types of every `Ref` type in `e` (its own, its binders' and its
/// subexpressions') to `out`.
fn collect_expr(e: &Expr, out: &mut Vec<Ty>) {
    collect_type(&e.ty, out);
    match &*e.kind {
        Kind::Fun(params, _) => params.iter().for_each(|p| collect_type(&p.ty, out)),
        Kind::Let(p, ..) => collect_type(&p.ty, out),
        Kind::LetRec(p, params, ..) => {
            collect_type(&p.ty, out);
            params.iter().for_each(|p| collect_type(&p.ty, out));
        }
        _ => {}
    }
    for child in e.children() {
        collect_expr(child, out);
    }
}

/// The operator as OCaml writes it: HORef's but for (in)equality.
fn op(o: Op) -> &'static str {
    match o {
        Op::Eq => "=",
        Op::Ne => "<>",
        other => other.text(),
    }
}
