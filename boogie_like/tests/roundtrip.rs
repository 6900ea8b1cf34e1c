//! Property: for random well-formed programs `p` (built with the builder API by a seeded
//! generator), `verify(p)` passes, `parse(print(p)) == p` and `print(parse(print(p))) ==
//! print(p)`; running them in the interpreter never panics.

use boogie_like::{
    BinOp, Block, CtorId, DatatypeId, Expr, FieldRef, GlobalId, Interpreter, LocalId, ProcId,
    Program, RunConfig, SourcePos, Stmt, Type, UnOp, Var, parse, print, verify,
};
use num_bigint::BigInt;
use proptest::prelude::*;

/// splitmix64: a tiny deterministic generator driven by the proptest seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())])
    }
}

/// Names that exercise the identifier rules: Boogie characters and escaped keywords.
const NAME_POOL: [&str; 16] = [
    "x", "f'", "a.b", "$t", "if", "call", "is", "k#1", "_u", "^v", "~w", "?q", "int", "then",
    "returns", "g''",
];

struct Gen {
    rng: Rng,
    used: std::collections::HashSet<String>,
    counter: usize,
}

impl Gen {
    /// A program-wide fresh name, preferring the pool.
    fn name(&mut self, base: &str) -> String {
        if self.rng.chance(40) {
            let pooled = NAME_POOL[self.rng.below(NAME_POOL.len())];
            if self.used.insert(pooled.to_string()) {
                return pooled.to_string();
            }
        }
        self.counter += 1;
        let name = format!("{base}{}", self.counter);
        self.used.insert(name.clone());
        name
    }

    fn scalar(&mut self) -> Type {
        if self.rng.chance(50) {
            Type::Int
        } else {
            Type::Bool
        }
    }

    fn any_type(&mut self, p: &Program) -> Type {
        match self.rng.below(4) {
            3 => Type::map(self.scalar(), self.scalar()),
            2 if !p.datatypes.is_empty() => {
                Type::Data(DatatypeId(self.rng.below(p.datatypes.len()) as u32))
            }
            _ => self.scalar(),
        }
    }

    fn datatypes(&mut self, p: &mut Program) {
        let count = self.rng.below(4);
        let ids: Vec<DatatypeId> = (0..count)
            .map(|_| {
                let n = self.name("D");
                p.add_datatype(n)
            })
            .collect();
        for (i, dt) in ids.iter().enumerate() {
            for c in 0..1 + self.rng.below(3) {
                // The first constructor only uses earlier datatypes: every datatype is inhabited.
                let fields = (0..self.rng.below(3))
                    .map(|_| {
                        let ty = match self.rng.below(3) {
                            2 if c > 0 => Type::Data(ids[self.rng.below(count)]),
                            2 if i > 0 => Type::Data(ids[self.rng.below(i)]),
                            _ => self.scalar(),
                        };
                        (self.name("fld"), ty)
                    })
                    .collect();
                let name = self.name("C");
                p.add_ctor(*dt, name, fields);
            }
        }
    }
}

/// What a procedure body may touch.
struct Scope {
    proc: ProcId,
    readable: Vec<Var>,
    writable: Vec<Var>,
    callees: Vec<ProcId>,
}

impl Gen {
    fn var_type(p: &Program, proc: ProcId, v: Var) -> Type {
        p.var_type(&p.procs[proc], v)
            .expect("generated variable exists")
    }

    fn expr(&mut self, p: &Program, s: &Scope, ty: Type, depth: usize) -> Expr {
        let vars: Vec<Var> = s
            .readable
            .iter()
            .copied()
            .filter(|v| Self::var_type(p, s.proc, *v) == ty)
            .collect();
        if depth == 0 || self.rng.chance(25) {
            return match self.rng.pick(&vars) {
                Some(v) if self.rng.chance(70) => Expr::Var(v),
                _ => self.leaf(p, s, ty),
            };
        }
        match (ty, self.rng.below(6)) {
            (_, 0) => Expr::ite(
                self.expr(p, s, Type::Bool, depth - 1),
                self.expr(p, s, ty, depth - 1),
                self.expr(p, s, ty, depth - 1),
            ),
            (_, 1) => self
                .select(p, s, ty, depth)
                .unwrap_or_else(|| self.leaf(p, s, ty)),
            (_, 5) if self.rng.chance(40) => {
                let key = self.scalar();
                Expr::map_get(
                    self.expr(p, s, Type::map(key, ty), depth - 1),
                    self.expr(p, s, key, depth - 1),
                )
            }
            (Type::Map(m), _) => Expr::map_set(
                self.expr(p, s, ty, depth - 1),
                self.expr(p, s, m.key(), depth - 1),
                self.expr(p, s, m.value(), depth - 1),
            ),
            (Type::Int, 2) => -self.expr(p, s, Type::Int, depth - 1),
            (Type::Int, _) => {
                let arithmetic: Vec<BinOp> = BinOp::ALL
                    .into_iter()
                    .filter(|op| boogie_like::ir::binop_result(*op) == Type::Int)
                    .collect();
                let op = self.rng.pick(&arithmetic).unwrap();
                Expr::binary(
                    op,
                    self.expr(p, s, Type::Int, depth - 1),
                    self.expr(p, s, Type::Int, depth - 1),
                )
            }
            (Type::Bool, 2) => Expr::unary(UnOp::Not, self.expr(p, s, Type::Bool, depth - 1)),
            (Type::Bool, 3) => self.comparison(p, s, depth),
            (Type::Bool, 4) if !p.datatypes.is_empty() => {
                let d = DatatypeId(self.rng.below(p.datatypes.len()) as u32);
                let index = self.rng.below(p.datatypes[d].ctors.len()) as u32;
                Expr::is(
                    self.expr(p, s, Type::Data(d), depth - 1),
                    CtorId { datatype: d, index },
                )
            }
            (Type::Bool, _) => {
                let op = self
                    .rng
                    .pick(&[BinOp::And, BinOp::Or, BinOp::Implies])
                    .unwrap();
                Expr::binary(
                    op,
                    self.expr(p, s, Type::Bool, depth - 1),
                    self.expr(p, s, Type::Bool, depth - 1),
                )
            }
            (Type::Data(d), _) => {
                let index = self.rng.below(p.datatypes[d].ctors.len());
                self.ctor_app(p, s, d, index, depth - 1)
            }
            (Type::Sort(_), _) => self.leaf(p, s, ty),
        }
    }

    fn comparison(&mut self, p: &Program, s: &Scope, depth: usize) -> Expr {
        let op = self
            .rng
            .pick(&[
                BinOp::Eq,
                BinOp::Neq,
                BinOp::Lt,
                BinOp::Le,
                BinOp::Gt,
                BinOp::Ge,
            ])
            .unwrap();
        let ty = if op.is_relational() && matches!(op, BinOp::Eq | BinOp::Neq) {
            self.any_type(p)
        } else {
            Type::Int
        };
        Expr::binary(
            op,
            self.expr(p, s, ty, depth - 1),
            self.expr(p, s, ty, depth - 1),
        )
    }

    fn leaf(&mut self, p: &Program, s: &Scope, ty: Type) -> Expr {
        match ty {
            Type::Int if self.rng.chance(10) => {
                Expr::Int(BigInt::from(self.rng.next()) * BigInt::from(self.rng.next()) * -1)
            }
            Type::Int => Expr::int(self.rng.below(41) as i64 - 20),
            Type::Bool => Expr::Bool(self.rng.chance(50)),
            Type::Data(d) => self.ctor_app(p, s, d, 0, 0),
            Type::Map(m) => Expr::map_const(m.key(), self.leaf(p, s, m.value())),
            // Values of a sort have no literal; the generator declares no sorts.
            Type::Sort(_) => unreachable!("the generator makes no uninterpreted sorts"),
        }
    }

    /// `ctor(args)`; constructor 0 at depth 0 only needs earlier datatypes, so this ends.
    fn ctor_app(
        &mut self,
        p: &Program,
        s: &Scope,
        d: DatatypeId,
        index: usize,
        depth: usize,
    ) -> Expr {
        let index = if depth == 0 { 0 } else { index };
        let fields: Vec<Type> = p.datatypes[d].ctors[index]
            .fields
            .iter()
            .map(|f| f.ty)
            .collect();
        let args = fields
            .into_iter()
            .map(|ty| self.expr(p, s, ty, depth))
            .collect();
        Expr::ctor(
            CtorId {
                datatype: d,
                index: index as u32,
            },
            args,
        )
    }

    fn select(&mut self, p: &Program, s: &Scope, ty: Type, depth: usize) -> Option<Expr> {
        let fields: Vec<FieldRef> = p
            .ctors()
            .flat_map(|(ctor, c)| {
                c.fields
                    .iter()
                    .enumerate()
                    .filter(move |(_, f)| f.ty == ty)
                    .map(move |(i, _)| FieldRef {
                        ctor,
                        index: i as u32,
                    })
            })
            .collect();
        let field = self.rng.pick(&fields)?;
        Some(Expr::select(
            self.expr(p, s, Type::Data(field.ctor.datatype), depth - 1),
            field,
        ))
    }
}

impl Gen {
    fn source(&mut self) -> Option<SourcePos> {
        self.rng.chance(60).then(|| SourcePos {
            line: self.rng.below(500) as u32 + 1,
            col: self.rng.below(80) as u32 + 1,
        })
    }

    fn block(&mut self, p: &mut Program, s: &Scope, depth: usize) -> Block {
        (0..self.rng.below(7))
            .filter_map(|_| self.stmt(p, s, depth))
            .collect()
    }

    fn stmt(&mut self, p: &mut Program, s: &Scope, depth: usize) -> Option<Stmt> {
        Some(match self.rng.below(8) {
            0 | 1 => {
                let v = self.rng.pick(&s.writable)?;
                Stmt::Assign(v, self.expr(p, s, Self::var_type(p, s.proc, v), 3))
            }
            2 => Stmt::Havoc(vec![self.rng.pick(&s.writable)?]),
            3 => Stmt::Assume(self.expr(p, s, Type::Bool, 3)),
            4 => Stmt::assert(self.expr(p, s, Type::Bool, 3), self.source()),
            5 => return self.call(p, s),
            6 if depth > 0 => {
                let cond = self.expr(p, s, Type::Bool, 2);
                Stmt::if_(
                    cond,
                    self.block(p, s, depth - 1),
                    self.block(p, s, depth - 1),
                )
            }
            _ => Stmt::Return,
        })
    }

    fn call(&mut self, p: &mut Program, s: &Scope) -> Option<Stmt> {
        let callee = self.rng.pick(&s.callees)?;
        let c = &p.procs[callee];
        let param_types: Vec<Type> = c.params.iter().map(|l| c.locals[*l].ty).collect();
        let ret_types: Vec<Type> = c.returns.iter().map(|l| c.locals[*l].ty).collect();
        let mut rets = Vec::new();
        for ty in ret_types {
            let free: Vec<Var> = s
                .writable
                .iter()
                .copied()
                .filter(|v| Self::var_type(p, s.proc, *v) == ty && !rets.contains(v))
                .collect();
            rets.push(self.rng.pick(&free)?);
        }
        let args = param_types
            .into_iter()
            .map(|ty| self.expr(p, s, ty, 2))
            .collect();
        let source = self.source();
        Some(p.procs[s.proc].add_call(callee, args, rets, source))
    }

    fn declare_procs(&mut self, p: &mut Program) {
        for i in 0..1 + self.rng.below(4) {
            let params: Vec<(String, Type)> = (0..self.rng.below(4))
                .map(|_| (self.name("a"), self.any_type(p)))
                .collect();
            let returns: Vec<(String, Type)> = (0..self.rng.below(3))
                .map(|_| (self.name("r"), self.any_type(p)))
                .collect();
            let name = self.name("p");
            let id = p.declare_proc(name, &as_refs(&params), &as_refs(&returns));
            for _ in 0..self.rng.below(4) {
                let (n, ty) = (self.name("v"), self.any_type(p));
                p.procs[id].add_local(n, ty);
            }
            let globals: Vec<GlobalId> = p.globals.ids().collect();
            p.procs[id].modifies = globals
                .iter()
                .copied()
                .filter(|_| self.rng.chance(40))
                .collect();
            let modifies = p.procs[id].modifies.clone();
            p.procs[id].reads = globals
                .into_iter()
                .filter(|g| !modifies.contains(g) && self.rng.chance(40))
                .collect();
            if i == 0 {
                p.set_entrypoint(id);
            }
        }
    }

    fn scope(p: &Program, proc: ProcId) -> Scope {
        let pr = &p.procs[proc];
        let locals = pr.locals.ids().map(Var::Local);
        let globals_read = pr.modifies.iter().chain(&pr.reads).map(|g| Var::Global(*g));
        let readable = locals.clone().chain(globals_read).collect();
        let writable = locals
            .filter(|v| !matches!(v, Var::Local(l) if pr.is_param(*l)))
            .chain(pr.modifies.iter().map(|g| Var::Global(*g)))
            .collect();
        let callees = p
            .procs
            .iter()
            .filter(|(_, c)| {
                c.modifies.iter().all(|g| pr.modifies.contains(g))
                    && c.reads
                        .iter()
                        .all(|g| pr.modifies.contains(g) || pr.reads.contains(g))
            })
            .map(|(id, _)| id)
            .collect();
        Scope {
            proc,
            readable,
            writable,
            callees,
        }
    }

    fn program(&mut self) -> Program {
        let mut p = Program::new();
        self.datatypes(&mut p);
        for _ in 0..self.rng.below(4) {
            let (name, ty) = (self.name("g"), self.any_type(&p));
            p.add_global(name, ty);
        }
        self.declare_procs(&mut p);
        for proc in p.procs.ids().collect::<Vec<_>>() {
            let scope = Self::scope(&p, proc);
            let body = self.block(&mut p, &scope, 3);
            p.set_body(proc, body);
        }
        p
    }
}

fn as_refs(v: &[(String, Type)]) -> Vec<(&str, Type)> {
    v.iter().map(|(n, t)| (n.as_str(), *t)).collect()
}

fn generate(seed: u64) -> Program {
    Gen {
        rng: Rng(seed),
        used: Default::default(),
        counter: 0,
    }
    .program()
}

fn default_inputs(interp: &Interpreter, p: &Program) -> Vec<boogie_like::Value> {
    let entry = &p.procs[p.entrypoint().expect("entrypoint")];
    entry
        .params
        .iter()
        .map(|l| interp.default_value(entry.locals[*l].ty))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_programs_round_trip(seed in any::<u64>()) {
        let program = generate(seed);
        let printed = print(&program);
        prop_assert_eq!(verify(&program), Ok(()), "generated program:\n{}", printed);
        let reparsed = parse(&printed).map_err(|e| TestCaseError::fail(format!("{e}\n{printed}")))?;
        prop_assert_eq!(&reparsed, &program, "printed:\n{}", printed);
        prop_assert_eq!(print(&reparsed), printed);
    }

    #[test]
    fn random_programs_run_without_panicking(seed in any::<u64>(), depth in 0u32..4) {
        let program = generate(seed);
        let interp = Interpreter::new(&program).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let inputs = default_inputs(&interp, &program);
        let _ = interp.run(&inputs, &RunConfig::with_depth(depth).fuel(5_000).trace(true));
    }
}

#[test]
fn the_generator_covers_the_language() {
    let texts: String = (0..200u64).map(|seed| print(&generate(seed))).collect();
    for needle in [
        "datatype",
        "\\if",
        "call {:source",
        "havoc",
        "assume",
        "assert",
        " is ",
        "->",
        "if (",
        "} else",
        "==>",
        "return;",
        "modifies",
        "{:reads",
        "{:entrypoint}",
        "-(",
        "f'",
    ] {
        assert!(
            texts.contains(needle),
            "no generated program contains `{needle}`"
        );
    }
    let _ = LocalId(0);
}
