//! The procedures a run can reach: the entry procedure and everything its calls lead to.
//!
//! Guarantee: [`only_reachable`] keeps every procedure that the entry can call (directly
//! or through other procedures), in their order, renumbers the call sites' callees, and
//! changes nothing else (globals, datatypes, sorts, bodies); so every run of the entry
//! behaves the same in both programs. A program without an entry is left alone.

use super::{ProcId, Program};
use crate::arena::EntityId;

/// The procedures reachable from the entry, by `ProcId` index; `None` without an entry.
pub fn reachable_procs(program: &Program) -> Option<Vec<bool>> {
    let entry = program.entrypoint()?;
    let mut reached = vec![false; program.procs.len()];
    let mut todo = vec![entry];
    reached[entry.index()] = true;
    while let Some(proc) = todo.pop() {
        for site in program.procs[proc].call_sites.values() {
            if !reached[site.callee.index()] {
                reached[site.callee.index()] = true;
                todo.push(site.callee);
            }
        }
    }
    Some(reached)
}

/// `program` without the procedures its entry cannot reach, or `None` when it has none
/// to drop (or no entry).
pub fn only_reachable(program: &Program) -> Option<Program> {
    let reached = reachable_procs(program)?;
    if reached.iter().all(|r| *r) {
        return None;
    }
    let mut renumbered: Vec<Option<ProcId>> = vec![None; program.procs.len()];
    let mut next = 0;
    for (index, kept) in reached.iter().enumerate() {
        if *kept {
            renumbered[index] = Some(ProcId::from_index(next));
            next += 1;
        }
    }
    let mut pruned = Program {
        sorts: program.sorts.clone(),
        datatypes: program.datatypes.clone(),
        globals: program.globals.clone(),
        procs: Default::default(),
    };
    for (id, proc) in program.procs.iter() {
        if !reached[id.index()] {
            continue;
        }
        let mut proc = proc.clone();
        for (_, site) in proc.call_sites.iter_mut() {
            site.callee = renumbered[site.callee.index()]
                .expect("a callee of a reachable procedure is reachable");
        }
        pruned.procs.push(proc);
    }
    Some(pruned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreachable_procedures_go_and_calls_are_renumbered() {
        let text = "procedure dead(x: int) { call dead(x); }\n\
                    procedure g(x: int) { assert x != 3; }\n\
                    procedure also_dead(x: int) { call g(x); }\n\
                    procedure f(x: int) { call g(x); call g(x + 1); }\n\
                    procedure {:entrypoint} Main(a: int) { call f(a); }\n";
        let program = crate::parse(text).expect("parses");
        let pruned = only_reachable(&program).expect("something to drop");
        let names: Vec<&str> = pruned.procs.values().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["g", "f", "Main"]);
        crate::verify(&pruned).expect("still a valid program");
        let f = pruned.proc_by_name("f").expect("kept");
        let g = pruned.proc_by_name("g").expect("kept");
        assert!(pruned.procs[f].call_sites.values().all(|s| s.callee == g));
        let main = pruned.entrypoint().expect("an entry");
        assert_eq!(
            pruned.procs[main]
                .call_sites
                .values()
                .next()
                .map(|s| s.callee),
            Some(f)
        );
    }

    #[test]
    fn a_program_whose_procedures_are_all_reached_is_left_alone() {
        let text = "procedure g(x: int) { assert x != 3; }\n\
                    procedure {:entrypoint} Main(a: int) { call g(a); }\n";
        let program = crate::parse(text).expect("parses");
        assert!(only_reachable(&program).is_none());
    }
}
