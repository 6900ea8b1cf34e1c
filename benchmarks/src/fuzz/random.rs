//! Random well-typed HORef programs, deterministic per seed.
//!
//! Guarantees: [`generate`] returns the same program for the same seed (the random source is
//! xoshiro256++ seeded with the seed; nothing else varies); every program it returns is
//! well typed by construction (`tests/fuzz.rs` loads thousands through horef-si's checker).
//! The programs cover every construct of HORef — methods calling themselves and each other
//! (terminating, exponential and non-terminating recursion), `let rec`, closures capturing
//! closures, references holding closures, pairs, lists (`hd []` and `tl []` can fail),
//! `assert` inside methods and closures at every call depth, `fail`, `&&`/`||`, unary minus,
//! shadowing (of locals and of method names), and our allocated references (`ref e`, `!e`,
//! `e1 := e2` on locals, parameters, results and projections of `Ref` types: cells holding
//! integers, lists, pairs, closures and other cells, aliased by `let`, by an `if` on an input
//! and by calls, captured by closures, allocated inside recursion) — and lean towards *rare*
//! bugs: an assertion
//! that fails for one input value (`x != 37`), only at one recursion depth (`n != 4` in a
//! countdown), or only after a callback was stored.

use super::ast::{Expr, Kind, Method, Op, Param, Program, RefDecl, Ty};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};

/// Generates the program of `seed`.
pub fn generate(seed: u64) -> Program {
    Generator::new(seed).program()
}

/// Local names: a small pool, so that shadowing is frequent; `m0` shadows a method.
const LOCALS: [&str; 9] = ["x", "y", "z", "n", "acc", "f", "g", "h", "m0"];
const MAIN_PARAMS: [&str; 3] = ["a", "b", "c"];

fn int_to_int() -> Ty {
    Ty::arrow(vec![Ty::Int], Ty::Int)
}

fn ref_int() -> Ty {
    Ty::Ref(Box::new(Ty::Int))
}

/// What allocated cells hold: mostly integers, also closures, lists, pairs and cells.
fn cell_contents() -> Vec<Ty> {
    vec![
        Ty::Int,
        Ty::Int,
        Ty::Int,
        int_to_int(),
        Ty::int_list(),
        Ty::pair(Ty::Int, Ty::Int),
        ref_int(),
    ]
}

/// The function types the programs use.
fn fun_types() -> Vec<Ty> {
    vec![
        int_to_int(),
        int_to_int(),
        Ty::arrow(vec![Ty::Int, Ty::Int], Ty::Int),
        Ty::arrow(vec![Ty::Int], Ty::Unit),
        Ty::arrow(vec![int_to_int()], Ty::Int),
        Ty::arrow(vec![Ty::Int], int_to_int()),
        Ty::arrow(vec![Ty::Unit], Ty::Int),
        Ty::arrow(vec![int_to_int(), Ty::Int], Ty::Int),
        Ty::arrow(vec![Ty::int_list()], Ty::Int),
        Ty::arrow(vec![ref_int()], Ty::Unit),
        Ty::arrow(vec![Ty::Unit], ref_int()),
    ]
}

/// Types of references.
fn ref_types() -> Vec<Ty> {
    vec![
        Ty::Int,
        Ty::Int,
        int_to_int(),
        int_to_int(),
        Ty::arrow(vec![Ty::Int], Ty::Unit),
        Ty::int_list(),
        Ty::pair(Ty::Int, Ty::Int),
        Ty::pair(int_to_int(), Ty::Int),
    ]
}

/// Types of method results and let-bound values.
fn value_types() -> Vec<Ty> {
    let mut types = vec![
        Ty::Int,
        Ty::Int,
        Ty::Int,
        Ty::Unit,
        Ty::int_list(),
        Ty::pair(Ty::Int, Ty::Int),
        Ty::pair(int_to_int(), Ty::Int),
        ref_int(),
        ref_int(),
        Ty::Ref(Box::new(int_to_int())),
        Ty::pair(ref_int(), Ty::Int),
    ];
    types.extend(fun_types());
    types
}

/// Parameter types of methods.
fn param_types() -> Vec<Ty> {
    vec![
        Ty::Int,
        Ty::Int,
        Ty::Int,
        Ty::Int,
        int_to_int(),
        Ty::int_list(),
        Ty::pair(Ty::Int, Ty::Int),
        Ty::Unit,
        ref_int(),
    ]
}

/// The method whose body is being generated, for self-calls.
#[derive(Clone)]
struct Current {
    name: String,
    params: Vec<Param>,
}

struct Generator {
    rng: Xoshiro256PlusPlus,
    /// Method names and types (all known before any body is generated).
    methods: Vec<(String, Ty)>,
    refs: Vec<(String, Ty)>,
    /// Local variables, innermost last.
    env: Vec<(String, Ty)>,
    /// The program's "magic" constants: rare bugs hide behind them.
    magic: Vec<i64>,
    current: Option<Current>,
}

impl Generator {
    fn new(seed: u64) -> Generator {
        Generator {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            methods: Vec::new(),
            refs: Vec::new(),
            env: Vec::new(),
            magic: Vec::new(),
            current: None,
        }
    }

    // ----- randomness -----

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    // ----- the program -----

    fn program(mut self) -> Program {
        let magic_count = 1 + self.below(3);
        self.magic = (0..magic_count).map(|_| self.magic_constant()).collect();
        let method_count = self.below(5);
        let sigs: Vec<(Vec<Ty>, Ty)> = (0..method_count).map(|_| self.signature()).collect();
        for (i, (params, ret)) in sigs.iter().enumerate() {
            self.methods
                .push((format!("m{i}"), Ty::arrow(params.clone(), ret.clone())));
        }
        let store = self.store();
        let methods = sigs
            .into_iter()
            .enumerate()
            .map(|(i, (params, ret))| self.method(i, params, ret))
            .collect();
        let (main_params, main) = self.main();
        Program {
            store,
            methods,
            main_params,
            main,
        }
    }

    fn magic_constant(&mut self) -> i64 {
        match self.below(4) {
            0 => self.range(-20, -2),
            1 => self.range(2, 9),
            2 => self.range(10, 60),
            _ => self.pick(&[7, 13, 37, 42, 100, -1, 0, 1]),
        }
    }

    fn signature(&mut self) -> (Vec<Ty>, Ty) {
        let count = 1 + usize::from(self.chance(35));
        let params = (0..count).map(|_| self.pick(&param_types())).collect();
        (params, self.pick(&value_types()))
    }

    fn store(&mut self) -> Vec<RefDecl> {
        let count = self.below(4);
        let mut store = Vec::new();
        for i in 0..count {
            let ty = self.pick(&ref_types());
            let Some(init) = self.constant(&ty) else {
                continue;
            };
            let name = format!("r{i}");
            self.refs.push((name.clone(), ty.clone()));
            store.push(RefDecl { name, ty, init });
        }
        store
    }

    /// A constant of type `ty` (a `Store` initial value), if there is one.
    fn constant(&mut self, ty: &Ty) -> Option<Expr> {
        Some(match ty {
            Ty::Int => self.literal(),
            Ty::Unit => Expr::skip(),
            Ty::Data(_) => return None,
            Ty::List(_) => self.small_list(),
            Ty::Arrow(..) => {
                let names = self.methods_of(ty);
                if names.is_empty() {
                    return None;
                }
                Expr::new(Kind::Var(self.pick(&names)), ty.clone())
            }
            Ty::Pair(a, b) => {
                let (a, b) = (self.constant(a)?, self.constant(b)?);
                Expr::new(Kind::Pair(a, b), ty.clone())
            }
            // A cell is allocated, never a constant.
            Ty::Ref(_) => return None,
        })
    }

    fn small_list(&mut self) -> Expr {
        let mut list = Expr::new(Kind::Nil, Ty::int_list());
        for _ in 0..self.below(3) {
            let head = self.literal();
            list = Expr::new(Kind::Cons(head, list), Ty::int_list());
        }
        list
    }

    fn method(&mut self, i: usize, param_types: Vec<Ty>, ret: Ty) -> Method {
        let params: Vec<Param> = param_types
            .into_iter()
            .enumerate()
            .map(|(k, ty)| Param {
                name: ["n", "x", "y"][k.min(2)].to_string(),
                ty,
            })
            .collect();
        let name = format!("m{i}");
        self.current = Some(Current {
            name: name.clone(),
            params: params.clone(),
        });
        self.env = params
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone()))
            .collect();
        let size = 4 + self.below(9);
        let body = if self.chance(45) {
            self.recursion_template(&ret, size)
        } else {
            self.expr(&ret, size)
        };
        self.current = None;
        self.env.clear();
        Method { name, params, body }
    }

    fn main(&mut self) -> (Vec<Param>, Expr) {
        let count = self.below(4);
        let params: Vec<Param> = (0..count)
            .map(|k| Param {
                name: MAIN_PARAMS[k].to_string(),
                ty: if self.chance(90) { Ty::Int } else { Ty::Unit },
            })
            .collect();
        self.env = params
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone()))
            .collect();
        let ret = if self.chance(65) { Ty::Unit } else { Ty::Int };
        let size = 8 + self.below(12);
        let mut body = self.expr(&ret, size);
        // Most programs assert something in `Main` too, often about a rare input.
        if self.chance(70) {
            let check = self.rare_assert(3);
            body = seq(check, body);
        }
        (params, body)
    }

    // ----- recursion, biased towards bugs at one depth -----

    /// A method body of the shape `if <stop> then <base> else <step>`, where the step calls
    /// the method itself: counting down (terminating), twice (exponential), or up or with
    /// the same argument (non-terminating unless the depth bound cuts it).
    fn recursion_template(&mut self, ret: &Ty, size: usize) -> Expr {
        let current = self.current.clone().expect("inside a method");
        let Some(counter) = current.params.iter().find(|p| p.ty == Ty::Int).cloned() else {
            return self.expr(ret, size);
        };
        let n = var(&counter.name, Ty::Int);
        let stop_at = self.range(-1, 2);
        let stop = bin(Op::Le, n.clone(), Expr::int(stop_at));
        let mut base = self.expr(ret, size / 3);
        if self.chance(50) {
            // A bug at one depth only: the counter reaches the magic value at the base.
            let check = self.rare_assert(1);
            base = seq(check, base);
        }
        let step = self.recursive_step(&current, &counter, ret, size / 2);
        Expr::new(Kind::If(stop, base, step), ret.clone())
    }

    fn recursive_step(
        &mut self,
        current: &Current,
        counter: &Param,
        ret: &Ty,
        size: usize,
    ) -> Expr {
        let call = |g: &mut Generator, delta: i64| g.self_call(current, counter, delta, size);
        match self.below(5) {
            // Exponential: two calls combined.
            0 if *ret == Ty::Int => {
                let (a, b) = (call(self, -1), call(self, -2));
                bin(Op::Add, a, b)
            }
            // Non-terminating: the argument does not shrink.
            1 => {
                let delta = self.pick(&[0, 1]);
                let step = call(self, delta);
                self.use_result(step, ret, size)
            }
            _ => {
                let step = call(self, -1);
                if self.chance(40) {
                    let check = self.rare_assert(2);
                    seq(check, self.use_result(step, ret, size))
                } else {
                    self.use_result(step, ret, size)
                }
            }
        }
    }

    /// `current (counter + delta, ...)`, the other arguments random.
    fn self_call(&mut self, current: &Current, counter: &Param, delta: i64, size: usize) -> Expr {
        let args = current
            .params
            .iter()
            .map(|p| {
                if p.name == counter.name {
                    bin(Op::Add, var(&p.name, Ty::Int), Expr::int(delta))
                } else {
                    self.expr(&p.ty, size / 3)
                }
            })
            .collect();
        let ty = self
            .methods
            .iter()
            .find(|(name, _)| *name == current.name)
            .map(|(_, ty)| ty.clone())
            .expect("the current method is declared");
        let Ty::Arrow(_, ret) = &ty else {
            unreachable!("methods have arrow types")
        };
        let ret = (**ret).clone();
        let f = Expr::new(Kind::Var(current.name.clone()), ty);
        Expr::new(Kind::App(f, args), ret)
    }

    /// An expression of type `ret` that runs `call` (of the method's own result type `ret`).
    fn use_result(&mut self, call: Expr, ret: &Ty, size: usize) -> Expr {
        if *ret == Ty::Int && self.chance(60) {
            let other = self.expr(&Ty::Int, size / 2);
            let op = self.pick(&[Op::Add, Op::Sub, Op::Mul, Op::Add]);
            return bin(op, call, other);
        }
        if self.chance(50) {
            return call;
        }
        let name = self.fresh_name();
        self.let_in(name, call, ret, size)
    }

    /// `assert (e != c)`, `assert (e < c)` or `if e == c then fail else skip` for a simple
    /// `e` over the variables in scope and a magic `c`: fails for few inputs.
    fn rare_assert(&mut self, size: usize) -> Expr {
        let e = self.int_expr(size);
        let c = self.magic_literal();
        match self.below(6) {
            0 => {
                let fail = Expr::new(Kind::Fail, Ty::Unit);
                let cond = bin(Op::Eq, e, c);
                Expr::new(Kind::If(cond, fail, Expr::skip()), Ty::Unit)
            }
            1 => assert(bin(Op::Lt, e, c)),
            2 => {
                let other = self.int_expr(size);
                let c2 = self.magic_literal();
                let cond = bin(Op::Or, bin(Op::Ne, e, c), bin(Op::Le, other, c2));
                assert(cond)
            }
            _ => assert(bin(Op::Ne, e, c)),
        }
    }

    // ----- expressions -----

    /// A random expression of type `ty` using about `size` constructs.
    fn expr(&mut self, ty: &Ty, size: usize) -> Expr {
        if size == 0 {
            return self.leaf(ty);
        }
        let choice = self.below(100);
        let general = match choice {
            0..=11 => self.let_expr(ty, size),
            12..=19 => self.seq_expr(ty, size),
            20..=29 => self.if_expr(ty, size),
            30..=39 => self.call_method(ty, size),
            40..=47 => self.apply_local(ty, size),
            48..=51 => self.deref_apply(ty, size),
            52..=54 => self.deref(ty),
            55..=57 => self.project(ty, size),
            58..=60 => self.let_rec(ty, size),
            61 => Some(Expr::new(Kind::Fail, ty.clone())),
            62..=66 => self.load(ty, size),
            67..=69 => Some(self.cell_scenario(ty, size)),
            70..=71 => Some(self.list_fold(ty, size)),
            _ => None,
        };
        general.unwrap_or_else(|| self.specific(ty, size))
    }

    /// An expression built by a construct of `ty` itself.
    fn specific(&mut self, ty: &Ty, size: usize) -> Expr {
        match ty {
            Ty::Int => self.int_op(size),
            Ty::Unit => self.unit_op(size),
            Ty::Data(_) => unreachable!("the generator makes no datatypes"),
            Ty::List(_) => self.list_op(size),
            Ty::Arrow(params, ret) => self.lambda(params, ret, size),
            Ty::Pair(a, b) => {
                let (a, b) = (self.expr(a, size / 2), self.expr(b, size / 2));
                Expr::new(Kind::Pair(a, b), ty.clone())
            }
            Ty::Ref(content) => self.reference(ty, content, size),
        }
    }

    /// A value of type `Ref content`: an existing cell (aliasing) or a fresh one.
    fn reference(&mut self, ty: &Ty, content: &Ty, size: usize) -> Expr {
        let vars = self.vars_of(ty);
        if !vars.is_empty() && self.chance(35) {
            return var(&self.pick(&vars), ty.clone());
        }
        let init = self.expr(content, size.saturating_sub(1));
        Expr::new(Kind::Alloc(init), ty.clone())
    }

    fn leaf(&mut self, ty: &Ty) -> Expr {
        let vars = self.vars_of(ty);
        if !vars.is_empty() && self.chance(60) {
            return var(&self.pick(&vars), ty.clone());
        }
        match ty {
            Ty::Int => self.literal(),
            Ty::Unit => Expr::skip(),
            Ty::Data(_) => unreachable!("the generator makes no datatypes"),
            Ty::List(_) => self.small_list(),
            Ty::Arrow(params, ret) => {
                let methods = self.methods_of(ty);
                if !methods.is_empty() && self.chance(50) {
                    return var(&self.pick(&methods), ty.clone());
                }
                self.lambda(params, ret, 0)
            }
            Ty::Pair(a, b) => {
                let (a, b) = (self.leaf(a), self.leaf(b));
                Expr::new(Kind::Pair(a, b), ty.clone())
            }
            Ty::Ref(content) => {
                let init = self.leaf(content);
                Expr::new(Kind::Alloc(init), ty.clone())
            }
        }
    }

    fn literal(&mut self) -> Expr {
        if self.chance(30) {
            return self.magic_literal();
        }
        Expr::int(self.range(-3, 5))
    }

    fn magic_literal(&mut self) -> Expr {
        let c = self.pick(&self.magic.clone());
        Expr::int(c)
    }

    fn int_expr(&mut self, size: usize) -> Expr {
        self.expr(&Ty::Int, size)
    }

    fn int_op(&mut self, size: usize) -> Expr {
        let half = size / 2;
        match self.below(10) {
            0..=4 => {
                let op = self.pick(&Op::ALL);
                let (a, b) = (self.int_expr(half), self.int_expr(half));
                bin(op, a, b)
            }
            5 => Expr::new(Kind::Neg(self.int_expr(size - 1)), Ty::Int),
            6 => {
                let list = self.expr(&Ty::int_list(), size - 1);
                Expr::new(Kind::Hd(list), Ty::Int)
            }
            7 => {
                let list = self.expr(&Ty::int_list(), size - 1);
                Expr::new(Kind::IsEmpty(list), Ty::Int)
            }
            _ => self.leaf(&Ty::Int),
        }
    }

    fn unit_op(&mut self, size: usize) -> Expr {
        match self.below(10) {
            0..=2 => {
                let cond = self.int_expr(size - 1);
                assert(cond)
            }
            3..=4 => self.rare_assert(size - 1),
            5..=6 => self.assign(size).unwrap_or_else(Expr::skip),
            7..=8 => self.write_cell(size).unwrap_or_else(Expr::skip),
            _ => Expr::skip(),
        }
    }

    fn list_op(&mut self, size: usize) -> Expr {
        match self.below(4) {
            0 | 1 => {
                let (h, t) = (
                    self.int_expr(size / 2),
                    self.expr(&Ty::int_list(), size / 2),
                );
                Expr::new(Kind::Cons(h, t), Ty::int_list())
            }
            2 => {
                let list = self.expr(&Ty::int_list(), size - 1);
                Expr::new(Kind::Tl(list), Ty::int_list())
            }
            _ => self.leaf(&Ty::int_list()),
        }
    }

    /// `fun (params) :(ret) -> body`, capturing whatever is in scope.
    fn lambda(&mut self, params: &[Ty], ret: &Ty, size: usize) -> Expr {
        let mut names: Vec<String> = Vec::new();
        for _ in params {
            let mut name = self.fresh_name();
            while names.contains(&name) {
                name = self.fresh_name();
            }
            names.push(name);
        }
        let params: Vec<Param> = params
            .iter()
            .zip(names)
            .map(|(ty, name)| Param {
                name,
                ty: ty.clone(),
            })
            .collect();
        let body = self.scoped(&params, |g| g.expr(ret, size.saturating_sub(1)));
        let ty = Ty::arrow(params.iter().map(|p| p.ty.clone()).collect(), ret.clone());
        Expr::new(Kind::Fun(params, body), ty)
    }

    fn let_expr(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let bound_ty = self.pick(&value_types());
        let value = self.expr(&bound_ty, size / 2);
        let name = self.fresh_name();
        Some(self.let_in(name, value, ty, size / 2))
    }

    fn let_in(&mut self, name: String, value: Expr, ty: &Ty, size: usize) -> Expr {
        let param = Param {
            name,
            ty: value.ty.clone(),
        };
        let rest = self.scoped(std::slice::from_ref(&param), |g| g.expr(ty, size));
        Expr::new(Kind::Let(param, value, rest), ty.clone())
    }

    fn seq_expr(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let first = self.expr(&Ty::Unit, size / 2);
        let rest = self.expr(ty, size / 2);
        Some(seq(first, rest))
    }

    fn if_expr(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let third = size / 3;
        let cond = self.int_expr(third);
        let (a, b) = (self.expr(ty, third), self.expr(ty, third));
        Some(Expr::new(Kind::If(cond, a, b), ty.clone()))
    }

    /// A call of a method (or of the current one) whose result has type `ty`.
    fn call_method(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let candidates: Vec<(String, Ty)> = self
            .methods
            .iter()
            .filter(|(name, mty)| returns(mty, ty) && !self.is_shadowed(name))
            .cloned()
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let (name, mty) = self.pick(&candidates);
        let f = var(&name, mty);
        Some(self.apply(f, size))
    }

    /// `f (args)` for `f` a local of function type returning `ty`.
    fn apply_local(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let candidates: Vec<(String, Ty)> = self
            .visible()
            .into_iter()
            .filter(|(_, t)| returns(t, ty))
            .collect();
        if candidates.is_empty() {
            // Apply a fresh closure or a pair's first half instead, now and then.
            if self.chance(30) {
                let fty = Ty::arrow(vec![Ty::Int], ty.clone());
                let f = self.expr(&fty, size / 2);
                return Some(self.apply(f, size / 2));
            }
            return None;
        }
        let (name, fty) = self.pick(&candidates);
        Some(self.apply(var(&name, fty), size))
    }

    /// `(!r) (args)` for a reference `r` (a `Store:` name or a local cell) holding a
    /// function returning `ty`.
    fn deref_apply(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let mut candidates: Vec<Expr> = self
            .refs
            .iter()
            .filter(|(_, t)| returns(t, ty))
            .map(|(name, fty)| Expr::new(Kind::Deref(name.clone()), fty.clone()))
            .collect();
        for (name, rty) in self.visible() {
            if let Ty::Ref(content) = &rty
                && returns(content, ty)
            {
                let cell = var(&name, rty.clone());
                candidates.push(Expr::new(Kind::Load(cell), (**content).clone()));
            }
        }
        if candidates.is_empty() {
            return None;
        }
        let f = self.pick(&candidates);
        Some(self.apply(f, size))
    }

    /// `!e` of type `ty`: mostly a local cell in scope, else any expression of type
    /// `Ref ty` when cells of `ty` are among those the programs allocate.
    fn load(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let rty = Ty::Ref(Box::new(ty.clone()));
        let vars = self.vars_of(&rty);
        let cell = if !vars.is_empty() && self.chance(75) {
            var(&self.pick(&vars), rty)
        } else if cell_contents().contains(ty) {
            self.expr(&rty, size.saturating_sub(1))
        } else {
            return None;
        };
        Some(Expr::new(Kind::Load(cell), ty.clone()))
    }

    /// A heap pattern whose bug is rare, then `ty`'s expression in its scope: two names for
    /// one cell chosen by a test (a write through one, a check through the other), or a
    /// counter object (a closure adding to its cell, called twice, the count checked).
    fn cell_scenario(&mut self, ty: &Ty, size: usize) -> Expr {
        let cell = |name: &str| Param {
            name: name.to_string(),
            ty: ref_int(),
        };
        let (p, q) = (cell("x"), cell("y"));
        let read = |c: &Param| Expr::new(Kind::Load(var(&c.name, ref_int())), Ty::Int);
        let first = self.literal();
        let fresh = Expr::new(Kind::Alloc(first), ref_int());
        self.env.push((p.name.clone(), p.ty.clone()));
        let body = if self.chance(50) {
            // let x = ref c in let y = if <test> then x else ref d in y := e; assert (!x != m)
            let test = self.int_expr(2);
            let other = self.literal();
            let other = Expr::new(Kind::Alloc(other), ref_int());
            let choice = Expr::new(Kind::If(test, var(&p.name, ref_int()), other), ref_int());
            self.env.push((q.name.clone(), q.ty.clone()));
            let value = self.int_expr(2);
            let write = Expr::new(Kind::Store(var(&q.name, ref_int()), value), Ty::Unit);
            let magic = self.magic_literal();
            let check = assert(bin(Op::Ne, read(&p), magic));
            let rest = self.expr(ty, size / 2);
            self.env.pop();
            let rest = seq(write, seq(check, rest));
            Expr::new(Kind::Let(q.clone(), choice, rest), ty.clone())
        } else {
            // let x = ref c in let f = fun (k) -> x := !x + k in f (e1); f (e2); assert (!x != m)
            let k = Param {
                name: "k".to_string(),
                ty: Ty::Int,
            };
            let bump = Expr::new(
                Kind::Store(
                    var(&p.name, ref_int()),
                    bin(Op::Add, read(&p), var(&k.name, Ty::Int)),
                ),
                Ty::Unit,
            );
            let fty = Ty::arrow(vec![Ty::Int], Ty::Unit);
            let counter = Expr::new(Kind::Fun(vec![k], bump), fty.clone());
            let f = Param {
                name: "f".to_string(),
                ty: fty.clone(),
            };
            self.env.push((f.name.clone(), f.ty.clone()));
            let calls: Vec<Expr> = (0..2)
                .map(|_| {
                    let arg = self.int_expr(1);
                    Expr::new(Kind::App(var(&f.name, fty.clone()), vec![arg]), Ty::Unit)
                })
                .collect();
            let magic = self.magic_literal();
            let check = assert(bin(Op::Ne, read(&p), magic));
            let rest = self.expr(ty, size / 2);
            self.env.pop();
            let [a, b] = <[Expr; 2]>::try_from(calls).expect("two calls");
            let rest = seq(a, seq(b, seq(check, rest)));
            Expr::new(Kind::Let(f, counter, rest), ty.clone())
        };
        self.env.pop();
        Expr::new(Kind::Let(p, fresh, body), ty.clone())
    }

    /// A list built by recursion on an integer and folded by recursion on the list, its sum
    /// checked (the Horn systems' list measures: length, sum, the measures-only system), then
    /// `ty`'s expression in its scope:
    /// `let rec sum = fun (l) -> if is_empty l then 0 else hd l + sum (tl l) in
    ///  let rec build = fun (k) -> if k <= 0 then [] else <k or c> :: build (k - 1) in
    ///  assert (sum (build e) != m or >= c); rest`.
    fn list_fold(&mut self, ty: &Ty, size: usize) -> Expr {
        let list = Ty::int_list();
        let sum_ty = Ty::arrow(vec![list.clone()], Ty::Int);
        let build_ty = Ty::arrow(vec![Ty::Int], list.clone());
        let param = |name: &str, ty: &Ty| Param {
            name: name.to_string(),
            ty: ty.clone(),
        };
        let (sum, l) = (param("sum", &sum_ty), param("l", &list));
        let (build, k) = (param("build", &build_ty), param("k", &Ty::Int));
        let lv = || var("l", Ty::int_list());
        let sum_body = Expr::new(
            Kind::If(
                Expr::new(Kind::IsEmpty(lv()), Ty::Int),
                Expr::int(0),
                bin(
                    Op::Add,
                    Expr::new(Kind::Hd(lv()), Ty::Int),
                    Expr::new(
                        Kind::App(
                            var("sum", sum_ty.clone()),
                            vec![Expr::new(Kind::Tl(lv()), list.clone())],
                        ),
                        Ty::Int,
                    ),
                ),
            ),
            Ty::Int,
        );
        let kv = || var("k", Ty::Int);
        let element = if self.chance(50) {
            kv()
        } else {
            Expr::int(self.range(-1, 3))
        };
        let stop = self.range(-1, 1);
        let build_body = Expr::new(
            Kind::If(
                bin(Op::Le, kv(), Expr::int(stop)),
                Expr::new(Kind::Nil, list.clone()),
                Expr::new(
                    Kind::Cons(
                        element,
                        Expr::new(
                            Kind::App(
                                var("build", build_ty.clone()),
                                vec![bin(Op::Add, kv(), Expr::int(-1))],
                            ),
                            list.clone(),
                        ),
                    ),
                    list.clone(),
                ),
            ),
            list.clone(),
        );
        let arg = self.int_expr(1);
        let built = Expr::new(Kind::App(var("build", build_ty.clone()), vec![arg]), list);
        let folded = Expr::new(Kind::App(var("sum", sum_ty.clone()), vec![built]), Ty::Int);
        let check = if self.chance(50) {
            let magic = self.magic_literal();
            assert(bin(Op::Ne, folded, magic))
        } else {
            assert(bin(Op::Ge, folded, Expr::int(self.range(-1, 1))))
        };
        let rest = self.scoped(&[sum.clone(), build.clone()], |g| g.expr(ty, size / 2));
        let inner = Expr::new(
            Kind::LetRec(build, vec![k], build_body, seq(check, rest)),
            ty.clone(),
        );
        Expr::new(Kind::LetRec(sum, vec![l], sum_body, inner), ty.clone())
    }

    /// `e1 := e2`: mostly on a local cell in scope, else on any expression of a `Ref` type.
    fn write_cell(&mut self, size: usize) -> Option<Expr> {
        let cells: Vec<(String, Ty)> = self
            .visible()
            .into_iter()
            .filter(|(_, t)| matches!(t, Ty::Ref(_)))
            .collect();
        let (cell, content) = if !cells.is_empty() && self.chance(80) {
            let (name, rty) = self.pick(&cells);
            let Ty::Ref(content) = &rty else {
                unreachable!("filtered to references")
            };
            let content = (**content).clone();
            (var(&name, rty), content)
        } else if self.chance(30) {
            let content = self.pick(&cell_contents());
            let rty = Ty::Ref(Box::new(content.clone()));
            (self.expr(&rty, size / 2), content)
        } else {
            return None;
        };
        let value = self.expr(&content, size / 2);
        Some(Expr::new(Kind::Store(cell, value), Ty::Unit))
    }

    fn apply(&mut self, f: Expr, size: usize) -> Expr {
        let Ty::Arrow(params, ret) = f.ty.clone() else {
            unreachable!("only functions are applied")
        };
        let share = size / params.len().max(1);
        let args = params.iter().map(|p| self.expr(p, share)).collect();
        Expr::new(Kind::App(f, args), *ret)
    }

    fn deref(&mut self, ty: &Ty) -> Option<Expr> {
        let candidates: Vec<String> = self
            .refs
            .iter()
            .filter(|(_, t)| t == ty)
            .map(|(n, _)| n.clone())
            .collect();
        if candidates.is_empty() {
            return None;
        }
        Some(Expr::new(Kind::Deref(self.pick(&candidates)), ty.clone()))
    }

    fn assign(&mut self, size: usize) -> Option<Expr> {
        if self.refs.is_empty() {
            return None;
        }
        let (name, ty) = self.pick(&self.refs.clone());
        let value = self.expr(&ty, size.saturating_sub(1));
        Some(Expr::new(Kind::Assign(name, value), Ty::Unit))
    }

    /// `fst p` or `snd p` for a pair `p` with a half of type `ty`.
    fn project(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let other = self.pick(&[Ty::Int, int_to_int()]);
        let first = self.chance(50);
        let pair_ty = if first {
            Ty::pair(ty.clone(), other)
        } else {
            Ty::pair(other, ty.clone())
        };
        let pair = self.expr(&pair_ty, size.saturating_sub(1));
        let kind = if first {
            Kind::Fst(pair)
        } else {
            Kind::Snd(pair)
        };
        Some(Expr::new(kind, ty.clone()))
    }

    /// `let rec (f:Int -> T) = fun (k:Int) :(T) -> <recursion on k> in <uses of f>`.
    fn let_rec(&mut self, ty: &Ty, size: usize) -> Option<Expr> {
        let ret = self.pick(&[Ty::Int, Ty::Unit, ty.clone()]);
        let fty = Ty::arrow(vec![Ty::Int], ret.clone());
        let name = self.pick(&["f", "g", "h", "loop"]).to_string();
        let self_param = Param {
            name: name.clone(),
            ty: fty.clone(),
        };
        let k = Param {
            name: self.pick(&["k", "n", "x"]).to_string(),
            ty: Ty::Int,
        };
        let body = self.scoped(&[self_param.clone(), k.clone()], |g| {
            let stop = bin(Op::Le, var(&k.name, Ty::Int), Expr::int(g.range(-1, 1)));
            let base = g.expr(&ret, size / 4);
            let delta = g.pick(&[-1, -1, -1, -2, 0, 1]);
            let arg = bin(Op::Add, var(&k.name, Ty::Int), Expr::int(delta));
            let call = Expr::new(Kind::App(var(&name, fty.clone()), vec![arg]), ret.clone());
            let step = g.use_result(call, &ret, size / 4);
            Expr::new(Kind::If(stop, base, step), ret.clone())
        });
        let rest = self.scoped(std::slice::from_ref(&self_param), |g| g.expr(ty, size / 2));
        Some(Expr::new(
            Kind::LetRec(self_param, vec![k], body, rest),
            ty.clone(),
        ))
    }

    // ----- scope -----

    fn scoped<T>(&mut self, params: &[Param], f: impl FnOnce(&mut Generator) -> T) -> T {
        let mark = self.env.len();
        self.env
            .extend(params.iter().map(|p| (p.name.clone(), p.ty.clone())));
        let out = f(self);
        self.env.truncate(mark);
        out
    }

    fn fresh_name(&mut self) -> String {
        self.pick(&LOCALS).to_string()
    }

    /// The innermost binding of every visible local name.
    fn visible(&self) -> Vec<(String, Ty)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (name, ty) in self.env.iter().rev() {
            if seen.insert(name.clone()) {
                out.push((name.clone(), ty.clone()));
            }
        }
        out
    }

    fn vars_of(&self, ty: &Ty) -> Vec<String> {
        self.visible()
            .into_iter()
            .filter(|(_, t)| t == ty)
            .map(|(n, _)| n)
            .collect()
    }

    fn is_shadowed(&self, name: &str) -> bool {
        self.env.iter().any(|(n, _)| n == name)
    }

    fn methods_of(&self, ty: &Ty) -> Vec<String> {
        self.methods
            .iter()
            .filter(|(name, t)| t == ty && !self.is_shadowed(name))
            .map(|(n, _)| n.clone())
            .collect()
    }
}

fn returns(fty: &Ty, ty: &Ty) -> bool {
    matches!(fty, Ty::Arrow(_, ret) if **ret == *ty)
}

fn var(name: &str, ty: Ty) -> Expr {
    Expr::new(Kind::Var(name.to_string()), ty)
}

fn bin(op: Op, a: Expr, b: Expr) -> Expr {
    Expr::new(Kind::Bin(op, a, b), Ty::Int)
}

fn assert(cond: Expr) -> Expr {
    Expr::new(Kind::Assert(cond), Ty::Unit)
}

/// `let (u:Unit) = first in rest`: runs `first`, then `rest`.
pub fn seq(first: Expr, rest: Expr) -> Expr {
    let ty = rest.ty.clone();
    let param = Param {
        name: "u".to_string(),
        ty: first.ty.clone(),
    };
    Expr::new(Kind::Let(param, first, rest), ty)
}
