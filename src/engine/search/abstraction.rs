//! CORRAL's variable abstraction (Lal–Qadeer–Lahiri, §3, Fig. 3) as an IR-to-IR
//! transformation parameterised by the set `T` of tracked globals.
//!
//! The globals are the IR's globals: Boogie globals (maps included) and, for HORef/OCaml,
//! each `Store:` reference (one global per IR component of its value, so closure- and
//! list-valued references included), each allocated heap map `heap#n` and the allocation
//! counter (`docs/references.md`). That is the paper's set `G`: finite, one variable per
//! global of the program the stratified inlining searches.
//!
//! Guarantees: [`abstract_program`] returns a program with the same procedures, the same
//! call sites (same ids, same callees, same source positions) and the same asserts, in
//! which no untracked global is read, written or passed in or out of a procedure (it is
//! gone from every `modifies` and `reads` list, so the VC of an instance carries only the
//! tracked globals):
//! - an assignment to an untracked global is dropped (Fig. 3's `assume true`), and so is
//!   its `havoc`; a call's result into an untracked global goes to a local nobody reads;
//! - every read of an untracked global `g` is a fresh arbitrary value: the statement that
//!   reads it is preceded by `havoc g'` for a local `g'` of `g`'s type, and reads `g'`
//!   instead. This is Fig. 3 with the havoc on the read instead of on the whole
//!   expression: still an over-approximation (choose `g'` as `g`'s concrete value), and an
//!   `assert` over an untracked global can fail.
//!
//! So every execution of the program, with its call tree and its failures, is an execution
//! of the abstract program (same inputs, same calls, each `g'` chosen as the value `g`
//! holds): no failure within depth `K` in the abstract program means none in the program.
//! A failure of the abstract program may be spurious; the CEGAR loop
//! ([`super::cegar`]) decides. With every global tracked the result equals the input.

use boogie_like::EntityId;
use boogie_like::ir::{
    Block, Expr, GlobalId, LocalId, ProcId, Procedure, Program as IrProgram, Stmt, Var,
    for_each_stmt,
};
use std::collections::BTreeMap;

/// The prefix of the locals that stand for an untracked global in one procedure.
pub const ABSTRACT_LOCAL: &str = "abs#";

/// By `GlobalId` index: whether the global is tracked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracked(Vec<bool>);

impl Tracked {
    /// Every global of `ir` tracked (the program itself).
    pub fn all(ir: &IrProgram) -> Tracked {
        Tracked(vec![true; ir.globals.len()])
    }

    /// No global tracked.
    pub fn none(ir: &IrProgram) -> Tracked {
        Tracked(vec![false; ir.globals.len()])
    }

    /// Exactly `globals` tracked.
    #[cfg(test)]
    pub fn of(ir: &IrProgram, globals: impl IntoIterator<Item = GlobalId>) -> Tracked {
        let mut tracked = Tracked::none(ir);
        for g in globals {
            tracked.insert(g);
        }
        tracked
    }

    pub fn contains(&self, g: GlobalId) -> bool {
        self.0.get(g.index()).copied().unwrap_or(false)
    }

    pub fn insert(&mut self, g: GlobalId) {
        if let Some(slot) = self.0.get_mut(g.index()) {
            *slot = true;
        }
    }

    /// Whether every global is tracked.
    pub fn is_all(&self) -> bool {
        self.0.iter().all(|t| *t)
    }

    /// The tracked globals, in id order.
    pub fn globals(&self) -> Vec<GlobalId> {
        (0..self.0.len())
            .filter(|i| self.0[*i])
            .map(GlobalId::from_index)
            .collect()
    }

    /// The untracked globals, in id order.
    pub fn untracked(&self) -> Vec<GlobalId> {
        (0..self.0.len())
            .filter(|i| !self.0[*i])
            .map(GlobalId::from_index)
            .collect()
    }

    /// How many globals are tracked.
    pub fn len(&self) -> usize {
        self.0.iter().filter(|t| **t).count()
    }
}

/// The globals the assertions read, directly or through the locals of their procedure
/// that they read (a backward slice over local assignments within each procedure; calls
/// are not followed): the lowering reads `!c` into a local `c.read` before an `assert`
/// uses it. The initial tracked set of the CEGAR loop.
pub fn assertion_globals(ir: &IrProgram) -> Tracked {
    let mut tracked = Tracked::none(ir);
    for proc in ir.procs.values() {
        // Locals whose value may flow into an assertion, grown to a fixpoint.
        let mut wanted = vec![false; proc.locals.len()];
        let note = |e: &Expr, wanted: &mut Vec<bool>, tracked: &mut Tracked| {
            let mut grew = false;
            e.for_each_var(&mut |v| match v {
                Var::Global(g) => tracked.insert(g),
                Var::Local(l) => {
                    if let Some(w) = wanted.get_mut(l.index())
                        && !*w
                    {
                        *w = true;
                        grew = true;
                    }
                }
            });
            grew
        };
        for_each_stmt(&proc.body, &mut |s| {
            if let Stmt::Assert { cond, .. } = s {
                note(cond, &mut wanted, &mut tracked);
            }
        });
        loop {
            let mut grew = false;
            for_each_stmt(&proc.body, &mut |s| {
                if let Stmt::Assign(Var::Local(l), e) = s
                    && wanted.get(l.index()).copied().unwrap_or(false)
                {
                    grew |= note(e, &mut wanted, &mut tracked);
                }
            });
            if !grew {
                break;
            }
        }
    }
    tracked
}

/// The globals that may influence whether an assertion fails: the cone of influence of
/// the assertions, flow-insensitive and across calls. Roots: the variables read by an
/// `assert`, an `assume` or an `if` condition (control is always relevant); then, to a
/// fixpoint, everything read by an assignment to a relevant variable, the arguments of a
/// relevant parameter, the callee's results for a relevant result variable. A global
/// outside it is never read on the way to a failure or to a decision, so abstracting it
/// away adds no failure: tracking the whole cone is exact for failures, and refinement
/// need never look outside it ([`super::cegar`]).
pub fn relevant_globals(ir: &IrProgram) -> Tracked {
    let mut globals = Tracked::none(ir);
    let mut locals: Vec<Vec<bool>> = ir
        .procs
        .values()
        .map(|p| vec![false; p.locals.len()])
        .collect();
    let mut grew = true;
    while grew {
        grew = false;
        for (id, proc) in ir.procs.iter() {
            // Marks what `e` reads as relevant; whether anything was new.
            let mark = |e: &Expr, locals: &mut Vec<Vec<bool>>, globals: &mut Tracked| {
                let mut new = false;
                e.for_each_var(&mut |v| match v {
                    Var::Global(g) if !globals.contains(g) => {
                        globals.insert(g);
                        new = true;
                    }
                    Var::Local(l) => {
                        if let Some(slot) = locals[id.index()].get_mut(l.index())
                            && !*slot
                        {
                            *slot = true;
                            new = true;
                        }
                    }
                    Var::Global(_) => {}
                });
                new
            };
            let relevant = |v: Var, locals: &Vec<Vec<bool>>, globals: &Tracked| match v {
                Var::Global(g) => globals.contains(g),
                Var::Local(l) => locals[id.index()].get(l.index()).copied().unwrap_or(false),
            };
            for_each_stmt(&proc.body, &mut |s| match s {
                Stmt::Assert { cond: e, .. } | Stmt::Assume(e) | Stmt::If { cond: e, .. } => {
                    grew |= mark(e, &mut locals, &mut globals)
                }
                Stmt::Assign(v, e) if relevant(*v, &locals, &globals) => {
                    grew |= mark(e, &mut locals, &mut globals)
                }
                Stmt::Call(site) => {
                    let Some(call) = proc.call_sites.get(*site) else {
                        return;
                    };
                    let Some(callee) = ir.procs.get(call.callee) else {
                        return;
                    };
                    for (ret, out) in call.rets.iter().zip(&callee.returns) {
                        if relevant(*ret, &locals, &globals)
                            && let Some(slot) = locals[call.callee.index()].get_mut(out.index())
                            && !*slot
                        {
                            *slot = true;
                            grew = true;
                        }
                    }
                    for (arg, param) in call.args.iter().zip(&callee.params) {
                        if locals[call.callee.index()]
                            .get(param.index())
                            .copied()
                            .unwrap_or(false)
                        {
                            grew |= mark(arg, &mut locals, &mut globals);
                        }
                    }
                }
                _ => {}
            });
        }
    }
    globals
}

/// The program abstracted with `tracked` (module doc). Returns a clone when every global
/// is tracked.
pub fn abstract_program(ir: &IrProgram, tracked: &Tracked) -> IrProgram {
    let mut out = ir.clone();
    if tracked.is_all() {
        return out;
    }
    let ids: Vec<ProcId> = out.procs.ids().collect();
    for id in ids {
        let proc = &mut out.procs[id];
        proc.modifies.retain(|g| tracked.contains(*g));
        proc.reads.retain(|g| tracked.contains(*g));
        let body = std::mem::take(&mut proc.body);
        let mut abstraction = ProcAbstraction {
            ir,
            tracked,
            flags: &BTreeMap::new(),
            proc,
            stand_ins: BTreeMap::new(),
        };
        let body = abstraction.block(body);
        out.procs[id].body = body;
    }
    out
}

/// The prefix of the Boolean globals of [`parameterised_program`].
pub const TRACK_FLAG: &str = "track#";

/// CORRAL's parameterised variable abstraction (Fig. 5), for its Alg. 2: the program
/// abstracted with `tracked`, except that each global of `candidates` (untracked ones)
/// is governed by a new Boolean global, its flag (returned in `candidates`' order; named
/// [`TRACK_FLAG`] and the global's name): writes of a candidate are kept, and each read
/// of it is `if flag then g else g'` with `g'` its stand-in, havocked before the
/// statement as in [`abstract_program`]. No procedure modifies a flag and every
/// procedure reads all of them, so each instance sees the entry's values. With a flag
/// true the candidate behaves as tracked (every read is its value); with it false, as
/// untracked (no read sees its value, so its kept writes change no failure): the
/// executions that fail with the flags set to `S` are those of the abstraction tracking
/// `tracked ∪ S`. The flags' starting values are the caller's to give (the driver's
/// free entry globals), so that one VC answers for every `S` by assumptions.
pub fn parameterised_program(
    ir: &IrProgram,
    tracked: &Tracked,
    candidates: &[GlobalId],
) -> (IrProgram, Vec<GlobalId>) {
    let mut out = ir.clone();
    let mut flags = BTreeMap::new();
    let mut order = Vec::with_capacity(candidates.len());
    for g in candidates {
        let name = format!("{TRACK_FLAG}{}", ir.globals[*g].name);
        let flag = out.add_global(name, boogie_like::ir::Type::Bool);
        flags.insert(*g, flag);
        order.push(flag);
    }
    // The candidates are written and read as if tracked; the flags decide the reads.
    let mut kept = tracked.clone();
    kept.0.resize(out.globals.len(), true);
    for g in candidates {
        kept.insert(*g);
    }
    let ids: Vec<ProcId> = out.procs.ids().collect();
    for id in ids {
        let proc = &mut out.procs[id];
        proc.modifies.retain(|g| kept.contains(*g));
        proc.reads.retain(|g| kept.contains(*g));
        proc.reads.extend(order.iter().copied());
        let body = std::mem::take(&mut proc.body);
        let mut abstraction = ProcAbstraction {
            ir,
            tracked: &kept,
            flags: &flags,
            proc,
            stand_ins: BTreeMap::new(),
        };
        let body = abstraction.block(body);
        out.procs[id].body = body;
    }
    (out, order)
}

/// The abstraction of one procedure's body.
struct ProcAbstraction<'a> {
    ir: &'a IrProgram,
    tracked: &'a Tracked,
    /// [`parameterised_program`]'s candidates (tracked for writes), each with its flag.
    flags: &'a BTreeMap<GlobalId, GlobalId>,
    proc: &'a mut Procedure,
    /// The local standing for each untracked global in this procedure.
    stand_ins: BTreeMap<GlobalId, LocalId>,
}

impl ProcAbstraction<'_> {
    fn stand_in(&mut self, g: GlobalId) -> LocalId {
        if let Some(l) = self.stand_ins.get(&g) {
            return *l;
        }
        let global = &self.ir.globals[g];
        let base = format!("{ABSTRACT_LOCAL}{}", global.name);
        let mut name = base.clone();
        let mut k = 0usize;
        while self.proc.local_by_name(&name).is_some() {
            k += 1;
            name = format!("{base}#{k}");
        }
        let l = self.proc.add_local(name, global.ty);
        self.stand_ins.insert(g, l);
        l
    }

    fn untracked(&self, v: Var) -> Option<GlobalId> {
        match v {
            Var::Global(g) if !self.tracked.contains(g) => Some(g),
            _ => None,
        }
    }

    /// `e` with every untracked global replaced by its stand-in; the stand-ins used are
    /// added to `havocs` (once each).
    fn expr(&mut self, e: &mut Expr, havocs: &mut Vec<Var>) {
        stacker::maybe_grow(32 * 1024, 1024 * 1024, || match e {
            Expr::Var(Var::Global(g)) if self.flags.contains_key(g) => {
                let (g, flag) = (*g, self.flags[g]);
                let l = Var::Local(self.stand_in(g));
                if !havocs.contains(&l) {
                    havocs.push(l);
                }
                *e = Expr::Ite {
                    cond: Box::new(Expr::Var(Var::Global(flag))),
                    then: Box::new(Expr::Var(Var::Global(g))),
                    else_: Box::new(Expr::Var(l)),
                };
            }
            Expr::Var(v) => {
                if let Some(g) = self.untracked(*v) {
                    let l = Var::Local(self.stand_in(g));
                    if !havocs.contains(&l) {
                        havocs.push(l);
                    }
                    *v = l;
                }
            }
            Expr::Int(_) | Expr::Bool(_) => {}
            Expr::Unary { arg, .. }
            | Expr::Is { arg, .. }
            | Expr::Select { arg, .. }
            | Expr::MapConst { value: arg, .. }
            | Expr::Quant { body: arg, .. } => self.expr(arg, havocs),
            Expr::Binary { lhs, rhs, .. } => {
                self.expr(lhs, havocs);
                self.expr(rhs, havocs);
            }
            Expr::MapGet { map, index } => {
                self.expr(map, havocs);
                self.expr(index, havocs);
            }
            Expr::MapSet { map, index, value } => {
                self.expr(map, havocs);
                self.expr(index, havocs);
                self.expr(value, havocs);
            }
            Expr::Ite { cond, then, else_ } => {
                self.expr(cond, havocs);
                self.expr(then, havocs);
                self.expr(else_, havocs);
            }
            Expr::Ctor { args, .. } => args.iter_mut().for_each(|a| self.expr(a, havocs)),
        })
    }

    /// Pushes `stmt` preceded by the havoc of the stand-ins its expressions read.
    fn emit(out: &mut Block, havocs: Vec<Var>, stmt: Stmt) {
        if !havocs.is_empty() {
            out.push(Stmt::Havoc(havocs));
        }
        out.push(stmt);
    }

    fn block(&mut self, block: Block) -> Block {
        let mut out = Vec::with_capacity(block.len());
        for stmt in block {
            self.stmt(stmt, &mut out);
        }
        out
    }

    fn stmt(&mut self, stmt: Stmt, out: &mut Block) {
        let mut havocs = Vec::new();
        match stmt {
            Stmt::Assign(v, _) if self.untracked(v).is_some() => {}
            Stmt::Assign(v, mut e) => {
                self.expr(&mut e, &mut havocs);
                Self::emit(out, havocs, Stmt::Assign(v, e));
            }
            Stmt::Havoc(vars) => {
                let kept: Vec<Var> = vars
                    .into_iter()
                    .filter(|v| self.untracked(*v).is_none())
                    .collect();
                if !kept.is_empty() {
                    out.push(Stmt::Havoc(kept));
                }
            }
            Stmt::Assume(mut e) => {
                self.expr(&mut e, &mut havocs);
                Self::emit(out, havocs, Stmt::Assume(e));
            }
            Stmt::Assert { mut cond, source } => {
                self.expr(&mut cond, &mut havocs);
                Self::emit(out, havocs, Stmt::Assert { cond, source });
            }
            Stmt::Call(site) => {
                if let Some(call) = self.proc.call_sites.get(site).cloned() {
                    let mut call = call;
                    for arg in &mut call.args {
                        self.expr(arg, &mut havocs);
                    }
                    for ret in &mut call.rets {
                        if let Some(g) = self.untracked(*ret) {
                            *ret = Var::Local(self.stand_in(g));
                        }
                    }
                    self.proc.call_sites[site] = call;
                }
                Self::emit(out, havocs, Stmt::Call(site));
            }
            Stmt::If {
                mut cond,
                then,
                else_,
            } => {
                self.expr(&mut cond, &mut havocs);
                let (then, else_) = stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
                    (self.block(then), self.block(else_))
                });
                Self::emit(out, havocs, Stmt::If { cond, then, else_ });
            }
            Stmt::Return => out.push(Stmt::Return),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> IrProgram {
        let ir = boogie_like::parse(text).expect("test program parses");
        boogie_like::verify(&ir).expect("test program is well formed");
        ir
    }

    const TWO: &str = "var a: int;\nvar b: int;\n\
        procedure bump(n: int) returns (r: int)\n  modifies a, b;\n{\n  a := a + n;\n  b := b + a;\n  r := b;\n}\n\
        procedure {:entrypoint} Main(n: int)\n  modifies a, b;\n{\n  var x: int;\n  call x := bump(n);\n  assert a >= 0;\n}\n";

    #[test]
    fn tracking_everything_changes_nothing() {
        let ir = parse(TWO);
        assert_eq!(abstract_program(&ir, &Tracked::all(&ir)), ir);
    }

    #[test]
    fn untracked_globals_are_dropped_and_their_reads_havocked() {
        let ir = parse(TWO);
        let a = ir.global_by_name("a").unwrap();
        let abs = abstract_program(&ir, &Tracked::of(&ir, [a]));
        boogie_like::verify(&abs).expect("the abstraction is well formed");
        let text = boogie_like::print(&abs);
        // `b` is gone from every modifies list, its write dropped, its read havocked.
        assert!(!text.contains("modifies a, b"), "{text}");
        assert!(!text.contains("b :="), "{text}");
        assert!(text.contains("havoc abs#b;"), "{text}");
        assert!(text.contains("r := abs#b;"), "{text}");
        assert!(text.contains("a := a + n;"), "{text}");
        let none = abstract_program(&ir, &Tracked::none(&ir));
        boogie_like::verify(&none).expect("the abstraction is well formed");
        let text = boogie_like::print(&none);
        assert!(text.contains("assert abs#a >= 0;"), "{text}");
        assert!(!text.contains("modifies"), "{text}");
    }

    #[test]
    fn a_candidate_is_kept_and_read_through_its_flag() {
        let ir = parse(TWO);
        let (a, b) = (
            ir.global_by_name("a").unwrap(),
            ir.global_by_name("b").unwrap(),
        );
        let (par, flags) = parameterised_program(&ir, &Tracked::of(&ir, [a]), &[b]);
        boogie_like::verify(&par).expect("the parameterised program is well formed");
        assert_eq!(flags.len(), 1);
        assert_eq!(par.globals[flags[0]].name, "track#b");
        let text = boogie_like::print(&par);
        // `b`'s writes stay; its read is the flag's choice between it and a havocked
        // stand-in; `a` (tracked) is untouched; nobody modifies the flag.
        assert!(text.contains("modifies a, b;"), "{text}");
        assert!(!text.contains("modifies a, b, track#b"), "{text}");
        assert!(text.contains("havoc abs#b;"), "{text}");
        assert!(
            text.contains("b := (if track#b then b else abs#b) + a;"),
            "{text}"
        );
        assert!(text.contains("a := a + n;"), "{text}");
        // Without candidates it is the abstraction.
        let (none, no_flags) = parameterised_program(&ir, &Tracked::of(&ir, [a]), &[]);
        assert!(no_flags.is_empty());
        assert_eq!(none, abstract_program(&ir, &Tracked::of(&ir, [a])));
    }

    #[test]
    fn the_cone_follows_assignments_conditions_and_calls() {
        let ir = parse(
            "var a: int;\nvar b: int;\nvar c: int;\nvar d: int;\n\
             procedure get(x: int) returns (r: int)\n  modifies d;\n{\n  d := d + 1;\n  r := x;\n}\n\
             procedure {:entrypoint} Main(n: int)\n  modifies a, b, c, d;\n{\n  var y: int;\n\
             call y := get(b);\n  a := y;\n  if (c > 0) {\n  }\n  assert a > 0;\n}\n",
        );
        let names: Vec<&str> = relevant_globals(&ir)
            .globals()
            .into_iter()
            .map(|g| ir.globals[g].name.as_str())
            .collect();
        // `b` reaches the assertion through `get`'s parameter and result, `c` decides a
        // branch; `d` is only written and read by itself.
        assert_eq!(names, vec!["a", "b", "c"]);
    }

    #[test]
    fn assertion_globals_follow_locals_back() {
        let ir = parse(
            "var a: int;\nvar b: int;\nvar c: int;\n\
             procedure {:entrypoint} Main(n: int)\n  modifies a, b, c;\n{\n  var x: int;\n  var y: int;\n\
             y := a + 1;\n  x := y;\n  c := b;\n  assert x > 0;\n}\n",
        );
        let a = ir.global_by_name("a").unwrap();
        assert_eq!(assertion_globals(&ir).globals(), vec![a]);
    }
}
