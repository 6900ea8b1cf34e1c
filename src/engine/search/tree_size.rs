//! How many instances the call tree has when unrolled to depth K, counted on the call graph.
//!
//! The entry runs at depth 0; every call site of a procedure running at depth `d` adds its
//! callee's tree at depth `d + 1` while `d + 1 <= K`. A dispatch contributes one subtree per
//! candidate (each is a call site of its own in the IR), as unrolling would inline them.
//! The count saturates at a cap, so recursive programs and large K cost no more than the
//! cap's worth of levels: a level adds at least one instance for each recursive procedure,
//! and the counts of the others stop changing after as many levels as there are procedures.

use boogie_like::ir::{ProcId, Program as IrProgram};

/// The number of instances of the tree from `entry` unrolled to depth `max_depth`, or
/// `None` if it exceeds `cap`.
pub fn unrolled_tree_size(
    ir: &IrProgram,
    entry: ProcId,
    max_depth: u32,
    cap: usize,
) -> Option<usize> {
    let callees: Vec<Vec<usize>> = ir
        .procs
        .values()
        .map(|p| p.call_sites.values().map(|s| s.callee.0 as usize).collect())
        .collect();
    // sizes[p]: the size of p's tree when p runs at the current depth, from K down to 0.
    let mut sizes = vec![1usize; callees.len()];
    for _ in 0..max_depth {
        let deeper: Vec<usize> = callees
            .iter()
            .map(|cs| {
                cs.iter()
                    .fold(1usize, |n, c| n.saturating_add(sizes[*c]))
                    .min(cap.saturating_add(1))
            })
            .collect();
        if deeper == sizes {
            break; // a fixpoint: every shallower level counts the same
        }
        sizes = deeper;
    }
    Some(sizes[entry.0 as usize]).filter(|n| *n <= cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(text: &str, max_depth: u32, cap: usize) -> Option<usize> {
        let ir = boogie_like::parse(text).unwrap();
        let entry = ir.entrypoint().unwrap();
        unrolled_tree_size(&ir, entry, max_depth, cap)
    }

    const TWICE: &str = "
procedure leaf(x: int) returns (r: int) { r := x; }
procedure mid(x: int) returns (r: int) { call r := leaf(x); call r := leaf(r); }
procedure {:entrypoint} Main(x: int) { var r: int; call r := mid(x); }
";

    const COUNTDOWN: &str = "
procedure down(x: int) returns (r: int) { if (x > 0) { call r := down(x - 1); } else { r := 0; } }
procedure {:entrypoint} Main(x: int) { var r: int; call r := down(x); }
";

    #[test]
    fn counts_every_instance_up_to_the_bound() {
        assert_eq!(size(TWICE, 0, 100), Some(1));
        assert_eq!(size(TWICE, 1, 100), Some(2));
        assert_eq!(size(TWICE, 2, 100), Some(4));
        assert_eq!(size(TWICE, 1000, 100), Some(4));
        assert_eq!(size(COUNTDOWN, 5, 100), Some(6));
    }

    #[test]
    fn a_tree_over_the_cap_has_no_size_whatever_the_bound() {
        assert_eq!(size(COUNTDOWN, 5, 5), None);
        assert_eq!(size(COUNTDOWN, u32::MAX, 100), None);
        assert_eq!(size(COUNTDOWN, 99, 100), Some(100));
    }
}
