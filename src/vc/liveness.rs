//! Which variable values the encoding of a procedure must keep (classic backward liveness,
//! made interprocedural for globals).
//!
//! The encoder merges, at every `if` join and at a procedure's exit, each variable the
//! branches assign differently (`x' = ite(c, x_then, x_else)`), and hands every global a
//! procedure modifies back to its caller. Most of those values are never read again: a
//! `Main` that dispatches to hundreds of sub-mains merged every global of every sub-main at
//! every level of its dispatch tree, although nothing runs after the dispatch. Those
//! definitions were a third of the solver's time on a generated 4000-line program
//! (benchmarks/RESULTS.md).
//!
//! Guarantees ([`Liveness::of`]):
//! - [`Liveness::exported`]: the globals a call of a procedure must report back — those it
//!   modifies that are live after some call of it (at its callers' exits, its caller's own
//!   exported globals are live). The entry procedure, which nobody calls, exports none.
//!   A global that is not exported is dead after every call: no execution reads it before
//!   writing it again, so the caller may keep its old value.
//! - [`Liveness::live_after_if`]: the variables some execution may read after an `if`
//!   before writing them (an over-approximation: every variable the encoder reads is
//!   in it). A call reads its arguments and every global the callee reads or modifies
//!   (the encoder passes them all in) and writes its results; `return` reads what is
//!   live at the exit.

use boogie_like::ir::{GlobalId, ProcId, Procedure, Program as IrProgram, Stmt, Var};
use std::collections::{BTreeSet, HashMap};

/// Variables live at a program point.
pub type LiveSet = BTreeSet<Var>;

/// The liveness facts of one IR program.
#[derive(Clone, Debug)]
pub struct Liveness {
    /// By `ProcId` index, in the order of the procedure's `modifies`.
    exported: Vec<Vec<GlobalId>>,
    /// By `ProcId` index: live at the procedure's exit (its results and exported globals).
    exit: Vec<LiveSet>,
    /// By the address of an `If` statement of the program (it is borrowed, never moved,
    /// while these facts are used): the variables live after it.
    after_if: HashMap<usize, LiveSet>,
}

impl Liveness {
    /// Computes the facts: exported globals by a fixpoint over the call graph (they only
    /// grow), then the sets at each exit and after each `if` once.
    pub fn of(ir: &IrProgram) -> Liveness {
        let mut facts = Liveness {
            exported: vec![Vec::new(); ir.procs.len()],
            exit: Vec::new(),
            after_if: HashMap::new(),
        };
        loop {
            let mut found: Vec<BTreeSet<GlobalId>> = facts
                .exported
                .iter()
                .map(|e| e.iter().copied().collect())
                .collect();
            for (id, proc) in ir.procs.iter() {
                let mut pass = Pass {
                    ir,
                    proc,
                    exit: live_at_exit(proc, facts.exported(id)),
                    exported_found: Some(&mut found),
                    after_if: None,
                };
                pass.block(&proc.body, pass.exit.clone());
            }
            let grown: Vec<Vec<GlobalId>> = ir
                .procs
                .iter()
                .map(|(id, p)| {
                    let set = &found[id.0 as usize];
                    p.modifies
                        .iter()
                        .copied()
                        .filter(|g| set.contains(g))
                        .collect()
                })
                .collect();
            if grown == facts.exported {
                break;
            }
            facts.exported = grown;
        }
        facts.exit = ir
            .procs
            .iter()
            .map(|(id, proc)| live_at_exit(proc, facts.exported(id)))
            .collect();
        let mut after_if = HashMap::new();
        for (id, proc) in ir.procs.iter() {
            let mut pass = Pass {
                ir,
                proc,
                exit: facts.exit_live(id).clone(),
                exported_found: None,
                after_if: Some(&mut after_if),
            };
            pass.block(&proc.body, pass.exit.clone());
        }
        facts.after_if = after_if;
        facts
    }

    /// The globals a call of `proc` reports back to its caller (a subset of its
    /// `modifies`, in that order).
    pub fn exported(&self, proc: ProcId) -> &[GlobalId] {
        &self.exported[proc.0 as usize]
    }

    /// The variables live after the `if` statement `stmt` (a statement of the program
    /// these facts were computed for).
    pub fn live_after_if(&self, stmt: &Stmt) -> &LiveSet {
        self.after_if
            .get(&address(stmt))
            .expect("internal error: liveness of an `if` of another program")
    }

    /// What is live when procedure `proc` ends: its results and the globals it exports.
    pub fn exit_live(&self, proc: ProcId) -> &LiveSet {
        &self.exit[proc.0 as usize]
    }
}

/// Live at the exit of `proc` when it exports `exported`: its results and those globals.
fn live_at_exit(proc: &Procedure, exported: &[GlobalId]) -> LiveSet {
    let results = proc.returns.iter().map(|r| Var::Local(*r));
    let globals = exported.iter().map(|g| Var::Global(*g));
    results.chain(globals).collect()
}

fn address(stmt: &Stmt) -> usize {
    stmt as *const Stmt as usize
}

/// One backward pass over a procedure body.
struct Pass<'a, 'f> {
    ir: &'a IrProgram,
    proc: &'a Procedure,
    /// Live at the procedure's exit (and so at a `return`).
    exit: LiveSet,
    /// When computing exported globals: by `ProcId` index, the globals found live after
    /// some call of the procedure.
    exported_found: Option<&'f mut Vec<BTreeSet<GlobalId>>>,
    /// When recording: the sets after each `if`.
    after_if: Option<&'f mut HashMap<usize, LiveSet>>,
}

impl Pass<'_, '_> {
    /// The variables live before `block`, given those live after it.
    fn block(&mut self, block: &[Stmt], live_after: LiveSet) -> LiveSet {
        let mut live = live_after;
        for stmt in block.iter().rev() {
            live = self.stmt(stmt, live);
        }
        live
    }

    fn stmt(&mut self, stmt: &Stmt, mut live: LiveSet) -> LiveSet {
        match stmt {
            // live(x := e) = live ∖ {x} ∪ vars(e)
            Stmt::Assign(var, value) => {
                live.remove(var);
                value.for_each_var(&mut |v| {
                    live.insert(v);
                });
            }
            // live(havoc xs) = live ∖ xs
            Stmt::Havoc(vars) => {
                for var in vars {
                    live.remove(var);
                }
            }
            // live(assume e) = live(assert e) = live ∪ vars(e)
            Stmt::Assume(cond) | Stmt::Assert { cond, .. } => cond.for_each_var(&mut |v| {
                live.insert(v);
            }),
            Stmt::Call(site) => live = self.call(*site, live),
            // live(if c {A} else {B}) = vars(c) ∪ live(A) ∪ live(B), each from live after
            Stmt::If { cond, then, else_ } => {
                if let Some(after_if) = self.after_if.as_deref_mut() {
                    after_if.insert(address(stmt), live.clone());
                }
                let mut before = self.block(then, live.clone());
                before.extend(self.block(else_, live));
                cond.for_each_var(&mut |v| {
                    before.insert(v);
                });
                live = before;
            }
            // live(return) = live at the exit
            Stmt::Return => live = self.exit.clone(),
        }
        live
    }

    /// live(call rs := p(args)) = live ∖ rs ∪ vars(args) ∪ reads(p) ∪ modifies(p) (the
    /// call passes in every global `p` reads or modifies, so its exported globals, though
    /// written, are live before it: the set does not depend on what `p` exports, and the
    /// fixpoint only grows); records the globals `p` modifies that are live after it.
    fn call(&mut self, site: boogie_like::ir::CallSiteId, mut live: LiveSet) -> LiveSet {
        let call = &self.proc.call_sites[site];
        let callee = &self.ir.procs[call.callee];
        if let Some(found) = self.exported_found.as_deref_mut() {
            let needed = callee
                .modifies
                .iter()
                .filter(|g| live.contains(&Var::Global(**g)));
            found[call.callee.0 as usize].extend(needed);
        }
        for ret in &call.rets {
            live.remove(ret);
        }
        for arg in &call.args {
            arg.for_each_var(&mut |v| {
                live.insert(v);
            });
        }
        let passed_in = callee.reads.iter().chain(&callee.modifies);
        live.extend(passed_in.map(|g| Var::Global(*g)));
        live
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = r#"
var g: int;
var h: int;
var seen: int;

procedure set_both(v: int)
  modifies g, h;
{
  g := v;
  h := v;
}

procedure wrap(v: int)
  modifies g, h;
{
  call set_both(v);
}

procedure {:entrypoint} main(n: int)
  modifies g, h, seen;
{
  var x: int;
  var y: int;
  call wrap(n);
  if (n > 0) {
    x := 1;
    y := 2;
  } else {
    x := 3;
    y := 4;
  }
  assert g == n || x == 3;
  if (n > 5) {
    seen := 1;
  } else {
    seen := 2;
  }
}
"#;

    fn facts() -> (IrProgram, Liveness) {
        let ir = boogie_like::parse(PROGRAM).expect("the test program parses");
        let facts = Liveness::of(&ir);
        (ir, facts)
    }

    fn names(ir: &IrProgram, globals: &[GlobalId]) -> Vec<String> {
        globals
            .iter()
            .map(|g| ir.globals[*g].name.clone())
            .collect()
    }

    /// The `if` statements of a procedure's body, in order.
    fn ifs(block: &[Stmt]) -> Vec<&Stmt> {
        block
            .iter()
            .filter(|s| matches!(s, Stmt::If { .. }))
            .collect()
    }

    #[test]
    fn only_globals_read_after_some_call_are_exported() {
        let (ir, facts) = facts();
        let proc = |name: &str| ir.proc_by_name(name).unwrap();
        // `main` reads `g` after `wrap`, never `h`; `wrap` passes that on to `set_both`.
        assert_eq!(names(&ir, facts.exported(proc("wrap"))), ["g"]);
        assert_eq!(names(&ir, facts.exported(proc("set_both"))), ["g"]);
        // Nobody calls the entry: it exports nothing, though it modifies three globals.
        assert!(facts.exported(proc("main")).is_empty());
    }

    #[test]
    fn live_after_an_if_is_what_is_read_later() {
        let (ir, facts) = facts();
        let main = &ir.procs[ir.proc_by_name("main").unwrap()];
        let local = |name: &str| Var::Local(main.local_by_name(name).unwrap());
        let (n, x) = (local("n"), local("x"));
        let g = Var::Global(ir.global_by_name("g").unwrap());
        let [first, last] = ifs(&main.body)[..] else {
            panic!("two ifs in main");
        };
        // After the first `if`, the assertion reads `g`, `n` and `x` (the second `if` reads
        // `n` again); nothing reads `y`.
        let after_first: Vec<Var> = facts.live_after_if(first).iter().copied().collect();
        assert_eq!(after_first, {
            let mut expected = vec![n, x, g];
            expected.sort();
            expected
        });
        // After the last one nothing is read: `main` exports nothing.
        assert!(facts.live_after_if(last).is_empty());
    }
}
