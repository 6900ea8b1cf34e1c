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
//!   type is left to guess; `is_empty` is a `match`, `Pair(a, b)` is `(a, b)`, `==`/`!=`
//!   are `=`/`<>`;
//! - HORef evaluates left to right, OCaml's compilers right to left (tuple components,
//!   application arguments and the function, the operands of `+`, `<`, `::`, `<-`): where
//!   two or more operands of one construct may have an effect (fail, call, read or write a
//!   reference: not [`inert`]), those are bound first, in HORef's order, `(let (seq3 :
//!   int) = e1 in let (seq4 : int) = e2 in (seq3, seq4))`, so OCaml, the front end and
//!   HORef agree whatever order each uses ([`Printer::operands`]);
//! - a type definition heads every program, `type 'a maybe = Nothing | Just of 'a`, the
//!   variant `hd` may go through (so user-defined parameterised variants are fuzzed), then
//!   the exceptions of [`EXCEPTIONS`]: `Fuzz_fail of int`, `Empty_list`, `Found of int`,
//!   `Found_pair of int * int`, `Found_maybe of int maybe`, `Tail of int list`;
//! - failures and the list accessors are printed through variants and exceptions (issue
//!   32), each occurrence taking the next form of its construct in turn (from a start that
//!   depends on the program's size, so a batch has every form), all with HORef's values
//!   and failures — a HORef failure is an OCaml exception nothing catches (or a failed
//!   `assert`), and each `try` below catches only exceptions raised by its own printed
//!   code, or catches everything and raises it again:
//!   - `fail` is `(failwith "fail" : T)` or `(raise (Fuzz_fail k) : T)` (`k` numbers the
//!     occurrences), which escapes `main` as the run's failure;
//!   - `hd e` is (1) `match (match e with hd_v :: _ -> Just hd_v | [] -> Nothing) with Just
//!     hd_v -> hd_v | Nothing -> failwith "hd"`; (2) `try (match e with [] -> raise
//!     Empty_list | hd_v :: _ -> raise (Found hd_v)) with Found hd_v when hd_v < 0 -> hd_v
//!     | Found hd_v -> hd_v` (a guarded case; `Empty_list` escapes); (3) the same through
//!     `Found_maybe (Just hd_v)` / `Found_maybe Nothing` (a variant argument matched by
//!     pattern; the handler of `Nothing` raises `Empty_list`); (4) `match (match e with
//!     hd_v :: _ -> hd_v | [] -> raise Empty_list) with hd_v -> hd_v | exception
//!     Empty_list -> raise (Fuzz_fail k)`;
//!   - `tl e` is (1) `match (match e with _ :: tl_v -> Ok tl_v | [] -> Error 0) with Ok tl_v
//!     -> tl_v | Error _ -> failwith "tl"`; (2) `try (match e with [] -> raise Empty_list |
//!     _ :: tl_v -> raise (Tail tl_v)) with Tail tl_v -> tl_v | tl_e -> raise tl_e` (any
//!     other exception, `e`'s own included, raised again as a value); (3) the same through
//!     a local exception, `let exception Tl_out of int list in try .. with Tl_out tl_v ->
//!     tl_v` (`Empty_list` escapes);
//!   - every other `Pair(a, b)` of two integers is `try raise (Found_pair (a, b)) with
//!     Found_pair (pair_a, pair_b) when pair_a = pair_b -> (pair_a, pair_a) | Found_pair
//!     (pair_a, pair_b) -> (pair_a, pair_b)`;
//!   - one `let (x : T) = v in rest` in four whose `T` holds no function and is not `unit`
//!     is `let exception Bind of T in try raise (Bind v) with Bind x -> rest` (`rest` runs
//!     in the handler, so nothing it raises is caught there; a `Bind` inside `rest`
//!     shadows this one, a new exception at each evaluation);
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
use std::cell::Cell;
use std::fmt::Write;

/// The exceptions every program declares (see the module doc for their uses).
const EXCEPTIONS: &str = "exception Fuzz_fail of int
exception Empty_list
exception Found of int
exception Found_pair of int * int
exception Found_maybe of int maybe
exception Tail of int list
";

/// The program as an OCaml file.
pub fn text(program: &Program) -> String {
    let printer = Printer::new(program);
    let mut out = String::from("type 'a maybe = Nothing | Just of 'a\n");
    out.push_str(EXCEPTIONS);
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
    /// How many of each construct printed through exceptions were printed so far (from a
    /// start that depends on the program): each occurrence takes the next of its forms.
    turns: Turns,
    /// The number of fresh names (`seq0`, `seq1`, ...) and `Fuzz_fail` arguments handed out.
    fresh: Cell<usize>,
}

/// The counters of [`Printer::turns`], one per construct with several forms.
struct Turns {
    fail: Cell<usize>,
    hd: Cell<usize>,
    tl: Cell<usize>,
    pair: Cell<usize>,
    bind: Cell<usize>,
}

impl Turns {
    fn new(start: usize) -> Turns {
        Turns {
            fail: Cell::new(start),
            hd: Cell::new(start),
            tl: Cell::new(start),
            pair: Cell::new(start),
            bind: Cell::new(start),
        }
    }
}

/// The next form of a construct with `forms` forms, advancing its counter.
fn next(turn: &Cell<usize>, forms: usize) -> usize {
    let t = turn.get();
    turn.set(t + 1);
    t % forms
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
        let start = program.size() + program.methods.len();
        Printer {
            cells,
            contents,
            turns: Turns::new(start),
            fresh: Cell::new(0),
        }
    }

    /// A number not handed out before in this program.
    fn fresh(&self) -> usize {
        let n = self.fresh.get();
        self.fresh.set(n + 1);
        n
    }

    /// The operands of one construct, printed so that OCaml evaluates them left to right
    /// as HORef does (OCaml's compilers evaluate tuple components, application arguments
    /// and the operands of `+`, `<`, `<-` right to left): when two or more of them may
    /// have an effect (fail, call, read or write a reference), those are bound in order
    /// first, `let (seq3 : T) = e in ..`, and the construct uses their names. Returns the
    /// bindings (to print before the construct, inside its parentheses) and the operands.
    fn operands(&self, es: &[&Expr]) -> (String, Vec<String>) {
        let effects = es.iter().filter(|e| !inert(e)).count();
        let mut prefix = String::new();
        let mut out = Vec::new();
        for e in es {
            if effects >= 2 && !inert(e) {
                let name = format!("seq{}", self.fresh());
                write!(
                    prefix,
                    "let ({name} : {}) = {} in ",
                    self.ty(&e.ty),
                    self.expr(e)
                )
                .unwrap();
                out.push(name);
            } else {
                out.push(self.expr(e));
            }
        }
        (prefix, out)
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
            Kind::Fail => match next(&self.turns.fail, 2) {
                0 => format!("(failwith \"fail\" : {})", self.ty(&e.ty)),
                _ => format!("(raise (Fuzz_fail {}) : {})", self.fresh(), self.ty(&e.ty)),
            },
            Kind::Nil => "([] : int list)".into(),
            Kind::Var(name) => name.clone(),
            Kind::Neg(a) => format!("(- {})", self.expr(a)),
            Kind::Bin(o @ (Op::Add | Op::Sub | Op::Mul), a, b) => {
                let (prefix, x) = self.operands(&[a, b]);
                format!("({prefix}{} {} {})", x[0], op(*o), x[1])
            }
            Kind::Bin(..) | Kind::IsEmpty(_) => format!("(if {} then 1 else 0)", self.test(e)),
            Kind::App(f, args) => {
                let operands: Vec<&Expr> = std::iter::once(f).chain(args).collect();
                let (prefix, x) = self.operands(&operands);
                format!("({prefix}{})", x.join(" "))
            }
            Kind::Fun(params, body) => {
                format!(
                    "(fun {} -> ({} : {}))",
                    self.binders(params),
                    self.expr(body),
                    self.ty(&body.ty)
                )
            }
            // A value of a first-order type (not `unit`) is passed, one time in four, out
            // of a local exception: `let exception Bind of T in try raise (Bind v) with
            // Bind x -> rest` (`rest` in the handler: an exception it raises is not caught
            // by this `try`, as nothing of `rest` is in `let x = v in rest`).
            Kind::Let(p, value, rest)
                if p.ty != Ty::Unit && first_order(&p.ty) && next(&self.turns.bind, 4) == 3 =>
            {
                format!(
                    "(let exception Bind of {} in try raise (Bind {}) with Bind {} -> {})",
                    self.ty(&p.ty),
                    self.expr(value),
                    p.name,
                    self.expr(rest)
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
            Kind::Store(a, b) => {
                let (prefix, x) = self.operands(&[a, b]);
                match self.record_of_ref(&a.ty) {
                    Some(i) => format!("({prefix}{}.c{i} <- {})", x[0], x[1]),
                    None => format!("({prefix}{}.(0) <- {})", x[0], x[1]),
                }
            }
            // A pair of integers is, every other time, passed out of a top-level exception
            // with a tuple argument, a guarded case first.
            Kind::Pair(a, b)
                if a.ty == Ty::Int && b.ty == Ty::Int && next(&self.turns.pair, 2) == 1 =>
            {
                let (prefix, x) = self.operands(&[a, b]);
                format!(
                    "(try ({prefix}raise (Found_pair ({}, {}))) with Found_pair (pair_a, pair_b) when pair_a = pair_b -> (pair_a, pair_a) | Found_pair (pair_a, pair_b) -> (pair_a, pair_b))",
                    x[0], x[1]
                )
            }
            Kind::Pair(a, b) => {
                let (prefix, x) = self.operands(&[a, b]);
                format!("({prefix}{}, {})", x[0], x[1])
            }
            Kind::Fst(a) => format!("(fst {})", self.expr(a)),
            Kind::Snd(a) => format!("(snd {})", self.expr(a)),
            Kind::Cons(a, b) => {
                let (prefix, x) = self.operands(&[a, b]);
                format!("({prefix}{} :: {})", x[0], x[1])
            }
            // Through a variant or exceptions (issue 32), in turn: the same values and
            // failures as a direct match (see the module doc).
            Kind::Hd(a) => {
                let a = self.expr(a);
                match next(&self.turns.hd, 4) {
                    0 => format!(
                        "(match (match {a} with hd_v :: _ -> Just hd_v | [] -> Nothing) with Just hd_v -> hd_v | Nothing -> failwith \"hd\")"
                    ),
                    1 => format!(
                        "(try (match {a} with [] -> raise Empty_list | hd_v :: _ -> raise (Found hd_v)) with Found hd_v when hd_v < 0 -> hd_v | Found hd_v -> hd_v)"
                    ),
                    2 => format!(
                        "(try (match {a} with [] -> raise (Found_maybe Nothing) | hd_v :: _ -> raise (Found_maybe (Just hd_v))) with Found_maybe (Just hd_v) -> hd_v | Found_maybe Nothing -> raise Empty_list)"
                    ),
                    _ => format!(
                        "(match (match {a} with hd_v :: _ -> hd_v | [] -> raise Empty_list) with hd_v -> hd_v | exception Empty_list -> raise (Fuzz_fail {}))",
                        self.fresh()
                    ),
                }
            }
            Kind::Tl(a) => {
                let a = self.expr(a);
                match next(&self.turns.tl, 3) {
                    0 => format!(
                        "(match (match {a} with _ :: tl_v -> Ok tl_v | [] -> Error 0) with Ok tl_v -> tl_v | Error _ -> failwith \"tl\")"
                    ),
                    1 => format!(
                        "(try (match {a} with [] -> raise Empty_list | _ :: tl_v -> raise (Tail tl_v)) with Tail tl_v -> tl_v | tl_e -> raise tl_e)"
                    ),
                    _ => format!(
                        "(let exception Tl_out of int list in try (match {a} with _ :: tl_v -> raise (Tl_out tl_v) | [] -> raise Empty_list) with Tl_out tl_v -> tl_v)"
                    ),
                }
            }
        }
    }

    /// An integer used as a test, as an OCaml `bool`.
    fn test(&self, e: &Expr) -> String {
        match &*e.kind {
            Kind::Bin(o @ (Op::And | Op::Or), a, b) => {
                format!("({} {} {})", self.test(a), op(*o), self.test(b))
            }
            Kind::Bin(o, a, b) if !matches!(o, Op::Add | Op::Sub | Op::Mul) => {
                let (prefix, x) = self.operands(&[a, b]);
                format!("({prefix}{} {} {})", x[0], op(*o), x[1])
            }
            Kind::IsEmpty(a) => format!("(match {} with [] -> true | _ -> false)", self.expr(a)),
            _ => format!("({} <> 0)", self.expr(e)),
        }
    }
}

/// Whether evaluating `e` can neither fail, call, nor read or write a reference: its place
/// in the evaluation order does not matter.
fn inert(e: &Expr) -> bool {
    match &*e.kind {
        Kind::Fail
        | Kind::Assert(_)
        | Kind::App(..)
        | Kind::Assign(..)
        | Kind::Store(..)
        | Kind::Deref(_)
        | Kind::Load(_)
        | Kind::Hd(_)
        | Kind::Tl(_) => false,
        // A function's body does not run where it is built.
        Kind::Fun(..) => true,
        Kind::LetRec(_, _, _, rest) => inert(rest),
        _ => e.children().into_iter().all(inert),
    }
}

/// Whether a type holds no function (an exception argument the printer uses).
fn first_order(t: &Ty) -> bool {
    match t {
        Ty::Arrow(..) => false,
        Ty::Int | Ty::Unit | Ty::Data(_) | Ty::List(_) => true,
        Ty::Pair(a, b) => first_order(a) && first_order(b),
        Ty::Ref(content) => first_order(content),
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
