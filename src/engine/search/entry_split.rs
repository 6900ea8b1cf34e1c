//! Entry splitting: an entry procedure that dispatches to many calls, cut into groups of
//! cases (docs/engine.md; docs/engine.md, "Entry splitting").
//!
//! A `Main` that branches on an input to hundreds of sub-mains (as the HORef paper builds
//! its large programs) makes every solver query pay for the whole call tree: taking one case
//! switches every other case off, by propagation through all of its formula, again after
//! every conflict. [`entry_groups`] cuts the entry's `if` tree into groups of at most
//! [`GROUP_CALLS`] calls, each a copy of the program whose entry body is one way through the
//! upper part of the tree (an `assume` per condition taken) followed by the subtree below;
//! [`crate::engine::search::groups`] verifies them one at a time in scopes of one solver session.
//!
//! Guarantee: every execution of the program is an execution of exactly one group's
//! program, and every execution of a group's program is one of the program — for the
//! statements `P; if c {A} else {B}; S`, the executions are those of `P; assume c; A; S`
//! and those of `P; assume ¬c; B; S`, and `c` holds in one of them only. So a failure within
//! depth K of a group is one of the program, and when no group fails within K neither does
//! the program. The procedures other than the entry are unchanged, so what holds of them
//! (summaries) holds in every group.

use crate::vc::encode::is_assume_false;
use boogie_like::Arena;
use boogie_like::ir::{Block, CallSite, CallSiteId, ProcId, Procedure, Program as IrProgram, Stmt};

/// The most calls a group keeps together (the statements copied around a split `if` hold
/// none).
pub const GROUP_CALLS: usize = 16;

/// A program whose entry is split: the program with one more procedure per group, a copy
/// of the entry with the group's body that nothing calls.
pub struct SplitEntry {
    pub ir: IrProgram,
    /// The groups' entry procedures, in the order of the tree's cases.
    pub entries: Vec<ProcId>,
}

/// The program with its entry split, or `None` when the entry is not worth splitting:
/// fewer than two groups, or an entry some procedure calls (its summary would differ per
/// group).
pub fn entry_groups(ir: &IrProgram) -> Option<SplitEntry> {
    let entry = ir.entrypoint()?;
    let called = ir
        .procs
        .values()
        .any(|p| p.call_sites.values().any(|site| site.callee == entry));
    if called {
        return None;
    }
    let bodies = split_block(&ir.procs[entry].body, GROUP_CALLS);
    if bodies.len() < 2 {
        return None;
    }
    let mut split = ir.clone();
    let original = &ir.procs[entry];
    let entries = bodies
        .into_iter()
        .enumerate()
        .map(|(index, mut body)| {
            let call_sites = renumber_calls(&mut body, &original.call_sites);
            split.procs.push(Procedure {
                name: format!("{}#group{index}", original.name),
                entrypoint: false,
                body,
                call_sites,
                ..original.clone()
            })
        })
        .collect();
    debug_assert!(
        boogie_like::verify(&split).is_ok(),
        "the split program is well-formed"
    );
    Some(SplitEntry { ir: split, entries })
}

/// The call sites `body` uses, numbered afresh in textual order (a well-formed procedure
/// has exactly the sites its `call` statements use), with the statements renumbered.
fn renumber_calls(
    body: &mut [Stmt],
    sites: &Arena<CallSiteId, CallSite>,
) -> Arena<CallSiteId, CallSite> {
    fn walk(
        block: &mut [Stmt],
        old: &Arena<CallSiteId, CallSite>,
        new: &mut Arena<CallSiteId, CallSite>,
    ) {
        for stmt in block {
            match stmt {
                Stmt::Call(site) => *site = new.push(old[*site].clone()),
                Stmt::If { then, else_, .. } => {
                    walk(then, old, new);
                    walk(else_, old, new);
                }
                _ => {}
            }
        }
    }
    let mut renumbered = Arena::new();
    walk(body, sites, &mut renumbered);
    renumbered
}

/// The bodies `block` splits into: itself when it has at most `limit` calls, or when no
/// top-level `if` holds all of its calls; else the splits of each branch of that `if`, with
/// the statements around it and the branch's condition assumed. (Statements around the
/// `if` are copied into every group, so they may hold no call: a call there would be
/// verified once per group.) A branch that is `assume false` has no executions and gives no
/// body.
fn split_block(block: &[Stmt], limit: usize) -> Vec<Block> {
    let total = calls(block);
    if total <= limit {
        return vec![block.to_vec()];
    }
    let holding_all = block
        .iter()
        .position(|s| matches!(s, Stmt::If { .. }) && calls(std::slice::from_ref(s)) == total);
    let Some(index) = holding_all else {
        return vec![block.to_vec()];
    };
    let Stmt::If { cond, then, else_ } = &block[index] else {
        unreachable!("internal error: the statement holding every call is an `if`")
    };
    let (before, after) = (&block[..index], &block[index + 1..]);
    let mut bodies = Vec::new();
    for (taken, branch) in [(cond.clone(), then), (!cond.clone(), else_)] {
        if is_assume_false(branch) {
            continue;
        }
        for inner in split_block(branch, limit) {
            let mut body = before.to_vec();
            body.push(Stmt::Assume(taken.clone()));
            body.extend(inner);
            body.extend_from_slice(after);
            bodies.push(body);
        }
    }
    bodies
}

/// The number of `call` statements in `block`, nested ones included.
fn calls(block: &[Stmt]) -> usize {
    let mut count = 0;
    boogie_like::ir::for_each_stmt(block, &mut |s| {
        count += usize::from(matches!(s, Stmt::Call(_)));
    });
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program with `n` procedures `p0..p{n-1}` and a `Main` that runs `prefix`, then
    /// dispatches on `sel` to each of them in a balanced `if` tree (as the generated large
    /// programs do); `p0` runs `p0_extra` first.
    fn dispatch_program(n: usize, prefix: &str, p0_extra: &str) -> IrProgram {
        fn tree(lo: usize, hi: usize) -> String {
            if lo == hi {
                return format!("call p{lo}(x);");
            }
            let mid = (lo + hi) / 2;
            format!(
                "if (sel <= {mid}) {{ {} }} else {{ {} }}",
                tree(lo, mid),
                tree(mid + 1, hi)
            )
        }
        let mut text = String::from("var g: int;\n");
        for i in 0..n {
            let extra = if i == 0 { p0_extra } else { "" };
            text += &format!(
                "procedure p{i}(y: int)\n  modifies g;\n{{\n  {extra} g := y;\n  assert y != {i};\n}}\n"
            );
        }
        text += &format!(
            "procedure {{:entrypoint}} Main(sel: int, x: int)\n  modifies g;\n{{\n  {prefix} {}\n}}\n",
            tree(0, n - 1)
        );
        boogie_like::parse(&text).unwrap_or_else(|e| panic!("test program: {e:?}\n{text}"))
    }

    fn entry_body(ir: &IrProgram) -> &Block {
        &ir.procs[ir.entrypoint().unwrap()].body
    }

    /// The groups' entry bodies.
    fn group_bodies(split: &SplitEntry) -> Vec<&Block> {
        split
            .entries
            .iter()
            .map(|e| &split.ir.procs[*e].body)
            .collect()
    }

    #[test]
    fn a_small_dispatch_is_not_split() {
        let ir = dispatch_program(GROUP_CALLS, "", "");
        assert!(entry_groups(&ir).is_none());
    }

    #[test]
    fn a_large_dispatch_splits_into_groups_that_make_every_call_once() {
        let n = 10 * GROUP_CALLS + 3;
        let ir = dispatch_program(n, "g := 0;", "");
        let split = entry_groups(&ir).expect("split");
        assert!(
            split.entries.len() > n / GROUP_CALLS,
            "{} groups",
            split.entries.len()
        );
        assert!(boogie_like::verify(&split.ir).is_ok());
        let entry = ir.entrypoint().unwrap();
        let mut seen = Vec::new();
        for &group in &split.entries {
            let body = &split.ir.procs[group].body;
            // The statement before the dispatch stays first, then the conditions taken.
            assert!(matches!(body[0], Stmt::Assign(..)), "{body:?}");
            assert!(matches!(body[1], Stmt::Assume(_)), "{body:?}");
            let n_calls = calls(body);
            assert!((1..=GROUP_CALLS).contains(&n_calls), "{n_calls} calls");
            boogie_like::ir::for_each_stmt(body, &mut |s| {
                if let Stmt::Call(site) = s {
                    seen.push(split.ir.procs[group].call_sites[*site].callee);
                }
            });
        }
        seen.sort();
        let mut all: Vec<_> = ir.procs.iter().map(|(id, _)| id).collect();
        all.retain(|id| *id != entry);
        assert_eq!(
            seen, all,
            "every sub-procedure is called in exactly one group"
        );
    }

    #[test]
    fn the_conditions_assumed_are_the_ones_taken() {
        let ir = dispatch_program(4 * GROUP_CALLS, "", "");
        let split = entry_groups(&ir).expect("split");
        let bodies = group_bodies(&split);
        assert_eq!(bodies.len(), 4);
        let Stmt::If { cond, .. } = &entry_body(&ir)[0] else {
            panic!("the entry starts with its dispatch")
        };
        assert_eq!(bodies[0][0], Stmt::Assume(cond.clone()));
        assert_eq!(bodies[3][0], Stmt::Assume(!cond.clone()));
    }

    #[test]
    fn a_dispatch_after_a_call_is_not_split() {
        // Splitting would verify `p0`'s call tree once per group.
        let ir = dispatch_program(4 * GROUP_CALLS, "call p0(x);", "");
        assert!(entry_groups(&ir).is_none());
        let ir = dispatch_program(4 * GROUP_CALLS, "g := x;", "");
        assert!(entry_groups(&ir).is_some());
    }

    #[test]
    fn an_entry_that_is_called_is_not_split() {
        let called = "if (y > 100) { call Main(y, y); }";
        let ir = dispatch_program(4 * GROUP_CALLS, "", called);
        assert!(entry_groups(&ir).is_none());
    }
}
