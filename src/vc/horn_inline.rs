//! Which calls a Horn system unfolds ([`super::horn`]): the *policy* — small procedures
//! off every cycle of the call graph — kept apart from the *mechanism*
//! ([`super::encode::Encoder::inline_site`], the stratified-inlining step).
//!
//! Why: once a relation's list arguments are projected away
//! ([`super::measure_abstract`]), a fact relating the values of two calls of small
//! procedures on one list — `List.hd l` and `List.tl l` in a reversal,
//! `ret + sum(tl) = sum(l)` — can be stated by neither relation alone: each keeps its own
//! call's integers only. With the callees' bodies unfolded into the caller's clause, the
//! list and both results are variables of one clause, and its measure equations
//! (`l = cons(h, t)`) relate them.
//!
//! What is unfolded: a call site whose callee is *non-recursive* (on no cycle of the
//! call graph, so unfolding ends) and *small* (at most [`SMALL_PROC`] statements of its
//! own, counting nested ones). Unfolding repeats into the unfolded bodies, within
//! [`CLAUSE_BUDGET`] statements per clause, sites taken in the order the encoder gives
//! them; a site beyond the budget stays a relation application.
//!
//! Guarantee: unfolding preserves the least model of every relation. A site's
//! application `q!rel(b, args, rets, …)` holds in the least model exactly when `b` is
//! false or `q`'s body clause holds of those values; the unfolded instance has entry
//! condition `b`, so when `b` holds it is `q`'s body clause over the site's values, and
//! when `b` is false every value definition of it is guarded off, its control literals
//! are false and the site's results stay free, as the idle clause leaves them. The
//! unfolded procedure keeps its relation and its own idle and body clauses, so a model
//! still interprets it as every call of it returns (the partial proofs read such
//! interpretations). Every model of the unfolded system is therefore a proof of the
//! program, re-checked clause by clause against the very clauses Spacer was given.

use boogie_like::ir::{ProcId, Program as IrProgram, for_each_stmt};

/// The most statements (nested ones counted) a procedure may have to be unfolded:
/// OCaml's `List.hd`/`List.tl`, record and option accessors, small wrappers. A body that
/// large is a few dozen SMT definitions at each of its call sites.
pub const SMALL_PROC: usize = 40;

/// The most statements unfolded into one clause, over all its unfolded sites (nested
/// ones included): it bounds the clause's growth (each unfolding copies a body).
pub const CLAUSE_BUDGET: usize = 200;

/// By `ProcId` index, the statements of each procedure the Horn clauses may unfold.
#[derive(Clone, Debug, Default)]
pub struct Inlining {
    cost: Vec<Option<usize>>,
}

impl Inlining {
    /// Unfold nothing: every call site is a relation application.
    pub fn none() -> Inlining {
        Inlining::default()
    }

    /// Unfold the calls of small non-recursive procedures ([`SMALL_PROC`]).
    pub fn small_nonrecursive(ir: &IrProgram) -> Inlining {
        let recursive = on_cycles(ir);
        let cost = ir
            .procs
            .iter()
            .map(|(id, p)| {
                let size = statements(&p.body);
                (!recursive[id.0 as usize] && size <= SMALL_PROC).then_some(size)
            })
            .collect();
        Inlining { cost }
    }

    /// The statements unfolding a call of `proc` copies, if it may be unfolded.
    pub fn cost(&self, proc: ProcId) -> Option<usize> {
        self.cost.get(proc.0 as usize).copied().flatten()
    }

    /// Whether nothing is ever unfolded.
    pub fn is_none(&self) -> bool {
        self.cost.iter().all(Option::is_none)
    }
}

/// The statements of `block`, nested ones counted (at least 1: a call costs something).
fn statements(block: &[boogie_like::ir::Stmt]) -> usize {
    let mut count = 0;
    for_each_stmt(block, &mut |_| count += 1);
    count.max(1)
}

/// By `ProcId` index: whether the procedure can call itself, directly or not.
pub(super) fn on_cycles(ir: &IrProgram) -> Vec<bool> {
    let callees: Vec<Vec<usize>> = ir
        .procs
        .values()
        .map(|p| p.call_sites.values().map(|s| s.callee.0 as usize).collect())
        .collect();
    (0..callees.len())
        .map(|start| reaches(&callees, start, start))
        .collect()
}

/// Whether `to` is reachable from `from` by one call or more.
fn reaches(callees: &[Vec<usize>], from: usize, to: usize) -> bool {
    let mut seen = vec![false; callees.len()];
    let mut stack = callees[from].clone();
    while let Some(next) = stack.pop() {
        if next == to {
            return true;
        }
        if !std::mem::replace(&mut seen[next], true) {
            stack.extend(&callees[next]);
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `small` and `wrap` are small and off cycles; `count` calls itself, `ping` and
    /// `pong` call each other; `large` has more than [`SMALL_PROC`] statements.
    fn program() -> IrProgram {
        let large: String = (0..=SMALL_PROC)
            .map(|i| format!("  r := r + {i};\n"))
            .collect();
        let text = format!(
            r#"
procedure small(v: int) returns (r: int) {{ r := v + 1; }}
procedure wrap(v: int) returns (r: int) {{ call r := small(v); }}
procedure large(v: int) returns (r: int) {{
  r := v;
{large}}}
procedure count(n: int) returns (r: int) {{
  if (n <= 0) {{ r := 0; }} else {{ call r := count(n - 1); }}
}}
procedure ping(n: int) returns (r: int) {{
  if (n <= 0) {{ r := 0; }} else {{ call r := pong(n - 1); }}
}}
procedure pong(n: int) returns (r: int) {{ call r := ping(n); }}
procedure {{:entrypoint}} main(n: int) {{
  var x: int;
  call x := wrap(n);
  call x := large(x);
  call x := count(x);
  call x := ping(x);
  assert x >= 0;
}}
"#
        );
        boogie_like::parse(&text).expect("the test program parses")
    }

    #[test]
    fn small_procedures_off_cycles_are_unfolded_and_the_others_are_not() {
        let ir = program();
        let inlining = Inlining::small_nonrecursive(&ir);
        let cost = |name: &str| inlining.cost(ir.proc_by_name(name).expect("a procedure"));
        assert_eq!(cost("small"), Some(1));
        assert_eq!(cost("wrap"), Some(1));
        assert_eq!(cost("large"), None, "over the size limit");
        assert_eq!(cost("count"), None, "calls itself");
        assert_eq!(cost("ping"), None, "on a cycle with pong");
        assert_eq!(cost("pong"), None, "on a cycle with ping");
        assert!(!inlining.is_none());
        assert!(Inlining::none().is_none());
        assert_eq!(
            Inlining::none().cost(ir.proc_by_name("small").unwrap()),
            None
        );
    }
}
