//! Property tests of the front end and the interpreter.
//!
//! 1. Arbitrary bytes and arbitrary soups of HORef tokens never make
//!    [`horef_si::frontend::load_bytes`] panic; when a soup happens to be a valid program,
//!    running it does not panic either (the checker accepts only what the interpreter can
//!    run).
//! 2. Random small well-typed programs (from the generator below: every construct, with
//!    shadowing, references, closures and pairs) check, and run without an internal error
//!    at every depth bound.

use crate::common;

use common::Rng;
use horef_si::core_lang::ast::Type;
use horef_si::core_lang::interp::{self, RunConfig, Value};
use horef_si::frontend::{Checked, load_bytes};
use proptest::prelude::*;

/// Runs a checked program on default inputs (0 / skip) with small limits.
fn run_briefly(checked: &Checked, max_depth: u32) {
    let inputs: Vec<Value> = checked
        .program
        .main
        .params
        .iter()
        .map(|p| match p.ty {
            Type::Unit => Value::Unit,
            _ => Value::int(0),
        })
        .collect();
    let config = RunConfig {
        max_depth,
        fuel: 20_000,
        trace: true,
        memory_limit_mib: None,
    };
    let result = interp::run(&checked.program, &checked.info, &inputs, &config);
    if let interp::Outcome::Value(v) = &result.outcome {
        let _ = v.display(&checked.program, &checked.names).to_string();
    }
}

/// Loads `bytes`; a valid program is also run, and an invalid one rendered.
fn load_and_maybe_run(bytes: &[u8]) {
    match load_bytes("fuzz.horef", bytes) {
        Ok(checked) => run_briefly(&checked, 3),
        Err(e) => {
            let text = e.render();
            assert!(text.contains("fuzz.horef:"), "no location in\n{text}");
        }
    }
}

const TOKENS: &[&str] = &[
    "let",
    "rec",
    "in",
    "if",
    "then",
    "else",
    "fun",
    "assert",
    "skip",
    "fail",
    "Pair",
    "fst",
    "snd",
    "hd",
    "tl",
    "is_empty",
    "Int",
    "Unit",
    "List",
    "Store:",
    "Methods:",
    "Main",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    ":",
    ":=",
    "::",
    "->",
    "=",
    "==",
    "!=",
    "!",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "&&",
    "||",
    "x",
    "y",
    "f",
    "r",
    "n",
    "0",
    "1",
    "-1",
    "42",
    "(*",
    "*)",
    "(fst:Int * Int)",
    "(snd:Int * Int)",
    "\n",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..120).prop_map(|t| t.join(" "))
}

/// A soup behind a valid header, so it reaches deeper into the parser and the checker.
fn headed_soup() -> impl Strategy<Value = String> {
    let header = prop::sample::select(
        &[
            "Main (n:Int) :Int:",
            "Main (n:Int, u:Unit) :Unit:",
            "Store:\nr:Int := 0;\nMethods:\nf (x:Int) :Int = x;\nMain (n:Int) :Int:",
            "Methods:\ng (h:Int -> Int, x:Int) :(Int * Int) = Pair(h x, x);\nMain () :Int:",
        ][..],
    );
    (header, token_soup()).prop_map(|(h, soup)| format!("{h} {soup}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        load_and_maybe_run(&bytes);
    }

    #[test]
    fn token_soups_never_panic(soup in token_soup()) {
        load_and_maybe_run(soup.as_bytes());
    }

    #[test]
    fn soups_after_a_valid_header_never_panic(soup in headed_soup()) {
        load_and_maybe_run(soup.as_bytes());
    }

    #[test]
    fn small_token_soups_that_check_also_run(soup in headed_short_soup()) {
        load_and_maybe_run(soup.as_bytes());
    }
}

/// Very short soups behind a header: a good share of them are valid programs.
fn headed_short_soup() -> impl Strategy<Value = String> {
    let items = prop::sample::select(
        &[
            "n",
            "1",
            "-1",
            "+",
            "-",
            "*",
            "==",
            "<",
            "&&",
            "||",
            "(",
            ")",
            "if",
            "then",
            "else",
            "fail",
            "assert",
            "skip",
            "f",
            "!r",
            "r :=",
            "let (x:Int) =",
            "let (u:Unit) =",
            "in",
            "x",
            "fun (y:Int) :(Int) ->",
            "y",
            "hd",
            "tl",
            "[]",
            "::",
            "is_empty",
        ][..],
    );
    prop::collection::vec(items, 1..12).prop_map(|t| {
        format!(
            "Store:\nr:Int := 0;\nMethods:\nf (x:Int) :Int = x;\nMain (n:Int) :Int: {}",
            t.join(" ")
        )
    })
}

// ----- random well-typed programs -----

/// The types the generator uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Unit,
    List,
    /// `Int -> Int`
    Fun,
    /// `(Int, Int) -> Int`
    Fun2,
    /// `Int * Int`
    Pair,
}

impl Ty {
    const ALL: [Ty; 6] = [Ty::Int, Ty::Unit, Ty::List, Ty::Fun, Ty::Fun2, Ty::Pair];

    fn text(self) -> &'static str {
        match self {
            Ty::Int => "Int",
            Ty::Unit => "Unit",
            Ty::List => "List",
            Ty::Fun => "Int -> Int",
            Ty::Fun2 => "(Int, Int) -> Int",
            Ty::Pair => "Int * Int",
        }
    }
}

/// A method's signature.
struct Sig {
    name: String,
    params: Vec<Ty>,
    ret: Ty,
}

/// Builds the text of a random well-typed program.
struct Generator {
    rng: Rng,
    methods: Vec<Sig>,
    /// Global references: name and type (Int or Int -> Int).
    refs: Vec<(String, Ty)>,
    /// Local variables in scope, innermost last.
    locals: Vec<(String, Ty)>,
}

/// Local names: a small pool, so shadowing happens often, including of method names.
const LOCAL_NAMES: [&str; 6] = ["x", "y", "z", "m0", "m1", "acc"];

impl Generator {
    fn new(seed: u64) -> Generator {
        Generator {
            rng: Rng::new(seed),
            methods: Vec::new(),
            refs: Vec::new(),
            locals: Vec::new(),
        }
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.rng.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.below(items.len())]
    }

    fn program(&mut self) -> String {
        let method_count = 1 + self.rng.below(3);
        for i in 0..method_count {
            let arity = 1 + self.rng.below(2);
            let params = (0..arity).map(|_| self.pick(&Ty::ALL)).collect();
            let ret = self.pick(&Ty::ALL);
            let name = format!("m{i}");
            self.methods.push(Sig { name, params, ret });
        }
        for i in 0..self.rng.below(3) {
            let ty = if self.chance(50) { Ty::Int } else { Ty::Fun };
            self.refs.push((format!("r{i}"), ty));
        }
        let mut text = self.store();
        text.push_str("Methods:\n");
        for i in 0..method_count {
            text.push_str(&self.method(i));
        }
        text.push_str(&self.main());
        text
    }

    fn store(&mut self) -> String {
        if self.refs.is_empty() {
            return String::new();
        }
        let mut text = String::from("Store:\n");
        for (name, ty) in self.refs.clone() {
            let init = match ty {
                Ty::Int => format!("{}", self.rng.below(7) as i64 - 3),
                _ => self
                    .method_of_type(Ty::Fun)
                    .unwrap_or_else(|| "fail".to_string()),
            };
            // `fail` is not a constant; fall back to an Int reference.
            if init == "fail" {
                text.push_str(&format!("{name}:Int := 0;\n"));
                self.set_ref_type(&name, Ty::Int);
            } else {
                text.push_str(&format!("{name}:{} := {init};\n", ty.text()));
            }
        }
        text
    }

    fn set_ref_type(&mut self, name: &str, ty: Ty) {
        for r in &mut self.refs {
            if r.0 == name {
                r.1 = ty;
            }
        }
    }

    fn method_of_type(&mut self, ty: Ty) -> Option<String> {
        let wanted: &[Ty] = match ty {
            Ty::Fun => &[Ty::Int],
            Ty::Fun2 => &[Ty::Int, Ty::Int],
            _ => return None,
        };
        let names: Vec<String> = self
            .methods
            .iter()
            .filter(|m| m.params == wanted && m.ret == Ty::Int)
            .map(|m| m.name.clone())
            .collect();
        (!names.is_empty()).then(|| names[self.rng.below(names.len())].clone())
    }

    fn method(&mut self, i: usize) -> String {
        let (name, params, ret) = {
            let sig = &self.methods[i];
            (sig.name.clone(), sig.params.clone(), sig.ret)
        };
        let names = ["p", "q"];
        let decls: Vec<String> = params
            .iter()
            .zip(names)
            .map(|(ty, n)| format!("{n}:{}", ty.text()))
            .collect();
        self.locals = params
            .iter()
            .zip(names)
            .map(|(t, n)| (n.to_string(), *t))
            .collect();
        let body = self.expr(ret, 4);
        format!(
            "{name} ({}) :({}) =\n  {body};\n",
            decls.join(", "),
            ret.text()
        )
    }

    fn main(&mut self) -> String {
        self.locals = vec![("n".to_string(), Ty::Int), ("u".to_string(), Ty::Unit)];
        let ret = self.pick(&[Ty::Int, Ty::Unit, Ty::List, Ty::Pair, Ty::Fun]);
        let body = self.expr(ret, 5);
        format!("\nMain (n:Int, u:Unit) :({}):\n  {body}\n", ret.text())
    }

    /// The innermost local named `name`, if any.
    fn local(&self, name: &str) -> Option<Ty> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|l| l.1)
    }

    /// Names (locals, or methods not shadowed by a local) that have type `ty`.
    fn variables_of(&self, ty: Ty) -> Vec<String> {
        let mut names: Vec<String> = LOCAL_NAMES
            .iter()
            .chain(&["p", "q", "n", "u", "k", "a", "b"])
            .filter(|n| self.local(n) == Some(ty))
            .map(|n| n.to_string())
            .collect();
        for m in &self.methods {
            let visible = self.local(&m.name).is_none();
            let fits = match ty {
                Ty::Fun => m.params == [Ty::Int] && m.ret == Ty::Int,
                Ty::Fun2 => m.params == [Ty::Int, Ty::Int] && m.ret == Ty::Int,
                _ => false,
            };
            if visible && fits {
                names.push(m.name.clone());
            }
        }
        names
    }

    fn expr(&mut self, ty: Ty, size: usize) -> String {
        if size == 0 || self.chance(15) {
            return self.leaf(ty);
        }
        let n = size - 1;
        match self.rng.below(8) {
            0 => self.let_in(ty, n),
            1 => self.if_then_else(ty, n),
            2 => self.call_method(ty, n),
            3 => {
                // `let (w:Unit) = e in b` sequences `e`, of any type.
                let first = if self.chance(50) {
                    self.effect(n)
                } else {
                    let any = self.pick(&Ty::ALL);
                    self.expr(any, n)
                };
                format!("(let (w:Unit) = {first} in {})", self.expr(ty, n))
            }
            4 if self.chance(5) => "fail".to_string(),
            _ => self.specific(ty, n),
        }
    }

    fn leaf(&mut self, ty: Ty) -> String {
        let vars = self.variables_of(ty);
        if !vars.is_empty() && self.chance(60) {
            return vars[self.rng.below(vars.len())].clone();
        }
        if let Some(deref) = self.deref(ty).filter(|_| self.chance(30)) {
            return deref;
        }
        match ty {
            Ty::Int => self.literal(),
            Ty::Unit => "skip".to_string(),
            Ty::List => "[]".to_string(),
            Ty::Fun => "(fun (k:Int) :(Int) -> k)".to_string(),
            Ty::Fun2 => "(fun (a:Int, b:Int) :(Int) -> a)".to_string(),
            Ty::Pair => format!("Pair({}, {})", self.literal(), self.literal()),
        }
    }

    fn literal(&mut self) -> String {
        match self.rng.below(6) {
            0 => "-1".to_string(),
            1 => "18446744073709551617".to_string(),
            2 => "(- 2)".to_string(),
            _ => self.rng.below(4).to_string(),
        }
    }

    fn let_in(&mut self, ty: Ty, n: usize) -> String {
        let name = self.pick(&LOCAL_NAMES);
        let bound = self.pick(&Ty::ALL);
        let value = self.expr(bound, n);
        self.locals.push((name.to_string(), bound));
        let body = self.expr(ty, n);
        self.locals.pop();
        format!("(let ({name}:{}) = {value} in {body})", bound.text())
    }

    fn if_then_else(&mut self, ty: Ty, n: usize) -> String {
        let cond = self.expr(Ty::Int, n);
        let a = self.expr(ty, n);
        let b = self.expr(ty, n);
        format!("(if {cond} then {a} else {b})")
    }

    fn call_method(&mut self, ty: Ty, n: usize) -> String {
        let candidates: Vec<usize> = (0..self.methods.len())
            .filter(|&i| self.methods[i].ret == ty && self.local(&self.methods[i].name).is_none())
            .collect();
        if candidates.is_empty() {
            return self.specific(ty, n);
        }
        let i = candidates[self.rng.below(candidates.len())];
        let params = self.methods[i].params.clone();
        let args: Vec<String> = params.iter().map(|&p| self.expr(p, n)).collect();
        format!("({} ({}))", self.methods[i].name, args.join(", "))
    }

    /// A Unit expression with an effect: an assertion or an assignment.
    fn effect(&mut self, n: usize) -> String {
        match self.rng.below(3) {
            0 => format!("assert ({})", self.expr(Ty::Int, n)),
            1 if !self.refs.is_empty() => {
                let (name, ty) = self.refs[self.rng.below(self.refs.len())].clone();
                format!("({name} := {})", self.expr(ty, n))
            }
            _ => self.expr(Ty::Unit, n),
        }
    }

    /// A construct of the type's own: operators, applications, projections, lists...
    fn specific(&mut self, ty: Ty, n: usize) -> String {
        match ty {
            Ty::Int => self.int_expr(n),
            Ty::Unit => self.effect(n),
            Ty::List => match self.rng.below(3) {
                0 => format!("({} :: {})", self.expr(Ty::Int, n), self.expr(Ty::List, n)),
                1 => format!("(tl {})", self.list_atom(n)),
                _ => "[]".to_string(),
            },
            Ty::Fun => self.fun_expr(n),
            Ty::Fun2 => {
                self.locals.push(("a".to_string(), Ty::Int));
                self.locals.push(("b".to_string(), Ty::Int));
                let body = self.expr(Ty::Int, n);
                self.locals.truncate(self.locals.len() - 2);
                format!("(fun (a:Int, b:Int) :(Int) -> {body})")
            }
            Ty::Pair => format!("Pair({}, {})", self.expr(Ty::Int, n), self.expr(Ty::Int, n)),
        }
    }

    fn fun_expr(&mut self, n: usize) -> String {
        if self.chance(30) {
            // A recursive local function, possibly shadowing a method or a variable.
            let name = self.pick(&["go", "x", "m0"]);
            self.locals.push((name.to_string(), Ty::Fun));
            self.locals.push(("k".to_string(), Ty::Int));
            let body = self.expr(Ty::Int, n);
            self.locals.pop();
            let tail = self.expr(Ty::Fun, n);
            self.locals.pop();
            return format!(
                "(let rec ({name}:Int -> Int) = fun (k:Int) :(Int) -> {body} in {tail})"
            );
        }
        self.locals.push(("k".to_string(), Ty::Int));
        let body = self.expr(Ty::Int, n);
        self.locals.pop();
        format!("(fun (k:Int) :(Int) -> {body})")
    }

    fn list_atom(&mut self, n: usize) -> String {
        format!("({})", self.expr(Ty::List, n))
    }

    fn int_expr(&mut self, n: usize) -> String {
        let op = self.pick(&["+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "&&", "||"]);
        match self.rng.below(9) {
            0 | 1 => format!("({} {op} {})", self.expr(Ty::Int, n), self.expr(Ty::Int, n)),
            2 => format!("(- {})", self.expr(Ty::Int, n)),
            3 => format!("({} {})", self.expr(Ty::Fun, n), self.int_atom(n)),
            4 => format!(
                "({} ({}, {}))",
                self.expr(Ty::Fun2, n),
                self.expr(Ty::Int, n),
                self.expr(Ty::Int, n)
            ),
            5 => format!("(hd {})", self.list_atom(n)),
            6 => format!("(is_empty {})", self.list_atom(n)),
            7 => {
                let which = self.pick(&["fst", "snd"]);
                if self.chance(50) {
                    format!("({which} ({}))", self.expr(Ty::Pair, n))
                } else {
                    format!("(({which}:Int * Int) ({}))", self.expr(Ty::Pair, n))
                }
            }
            _ => self.deref(Ty::Int).unwrap_or_else(|| self.literal()),
        }
    }

    fn int_atom(&mut self, n: usize) -> String {
        format!("({})", self.expr(Ty::Int, n))
    }

    fn deref(&mut self, ty: Ty) -> Option<String> {
        let refs: Vec<String> = self
            .refs
            .iter()
            .filter(|r| r.1 == ty)
            .map(|r| r.0.clone())
            .collect();
        (!refs.is_empty()).then(|| format!("!{}", refs[self.rng.below(refs.len())]))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_well_typed_programs_check_and_run(seed in any::<u64>()) {
        let text = Generator::new(seed).program();
        let checked = match load_bytes("generated.horef", text.as_bytes()) {
            Ok(checked) => checked,
            Err(e) => panic!("a generated program does not check:\n{text}\n{}", e.render()),
        };
        for max_depth in [0, 1, 3, 6] {
            run_briefly(&checked, max_depth);
        }
    }
}

/// Text that shows a construct was generated.
const CONSTRUCTS: &[&str] = &[
    "let rec",
    "fun (k",
    "fun (a",
    ":=",
    "!r",
    "hd",
    "tl",
    "is_empty",
    "::",
    "Pair",
    "(fst",
    "(snd:",
    "assert",
    "fail",
    "&&",
    "||",
    "(- ",
    "-1",
    "Store:",
    "(let (m0:",
    "(let (w:",
    "18446744073709551617",
];

/// The generator is only worth something if its programs use every construct and reach
/// every kind of outcome.
#[test]
fn generated_programs_cover_the_language() {
    let mut text = String::new();
    let (mut values, mut failures, mut cut_offs) = (0, 0, 0);
    for seed in 0..300 {
        let program = Generator::new(seed).program();
        let checked = load_bytes("generated.horef", program.as_bytes())
            .unwrap_or_else(|e| panic!("{program}\n{}", e.render()));
        let config = RunConfig {
            max_depth: (seed % 3) as u32,
            fuel: 20_000,
            trace: false,
            memory_limit_mib: None,
        };
        let inputs = [Value::int(1), Value::Unit];
        match interp::run(&checked.program, &checked.info, &inputs, &config).outcome {
            interp::Outcome::Value(_) => values += 1,
            interp::Outcome::Failure { .. } => failures += 1,
            interp::Outcome::CutOff { .. } => cut_offs += 1,
            interp::Outcome::OutOfFuel { .. } | interp::Outcome::OutOfMemory { .. } => {}
        }
        text.push_str(&program);
    }
    for construct in CONSTRUCTS {
        assert!(text.contains(construct), "no program uses `{construct}`");
    }
    assert!(
        values > 20 && failures > 20 && cut_offs > 20,
        "{values} values, {failures} failures, {cut_offs} cut-offs"
    );
}
