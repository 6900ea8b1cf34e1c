//! CORRAL's bounds on the call tree, beside the call-depth bound (`--max-depth`).
//!
//! - the recursion bound N (`--recursion-bound`, CORRAL's `/recursionBound`): a call is
//!   blocked when its callee already has N activations on the call stack (the caller's
//!   chain of instances up to the entry, the caller included). A loop is a recursive
//!   procedure (`P#loopK`), so leaving a loop after n iterations needs n + 1 activations;
//! - the stack-depth bound D (`--stack-depth-bound`, CORRAL's `/maxStaticDepth`): a call is
//!   blocked when its callee would run deeper than D (the entry runs at depth 0).
//!
//! Guarantee: [`CallBounds::blocks`] depends only on the call's place in the call tree, so a
//! site it blocks is blocked in every query of a run, exactly like a call beyond the depth
//! bound, and the answer "safe" then holds for the executions within every bound.

use serde::{Deserialize, Serialize};

/// The bounds in force besides the call depth; `None`: no such bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CallBounds {
    /// At most this many activations of one procedure on the call stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recursion: Option<u32>,
    /// No body runs deeper than this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack_depth: Option<u32>,
}

impl CallBounds {
    /// No bound besides the call depth.
    pub fn is_none(&self) -> bool {
        self.recursion.is_none() && self.stack_depth.is_none()
    }

    /// Whether a call is blocked whose callee would run at `callee_depth` while it already
    /// has `activations` activations on the stack.
    pub fn blocks(&self, callee_depth: u32, activations: u32) -> bool {
        self.recursion.is_some_and(|n| activations >= n)
            || self.stack_depth.is_some_and(|d| callee_depth > d)
    }

    /// The bounds as words for a verdict: `recursion bound 2, stack depth bound 9` (empty
    /// when there are none).
    pub fn describe(&self) -> Vec<String> {
        let recursion = self.recursion.map(|n| format!("recursion bound {n}"));
        let stack = self.stack_depth.map(|d| format!("stack depth bound {d}"));
        recursion.into_iter().chain(stack).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recursion_bound_counts_activations_on_the_stack() {
        let bounds = CallBounds {
            recursion: Some(2),
            stack_depth: None,
        };
        assert!(!bounds.blocks(50, 0));
        assert!(!bounds.blocks(50, 1));
        assert!(bounds.blocks(3, 2));
    }

    #[test]
    fn the_stack_depth_bound_counts_the_callee_depth() {
        let bounds = CallBounds {
            recursion: None,
            stack_depth: Some(3),
        };
        assert!(!bounds.blocks(3, 9));
        assert!(bounds.blocks(4, 0));
        assert!(!CallBounds::default().blocks(1000, 1000));
    }

    #[test]
    fn describes_the_bounds_in_force() {
        let both = CallBounds {
            recursion: Some(1),
            stack_depth: Some(7),
        };
        assert_eq!(
            both.describe(),
            ["recursion bound 1", "stack depth bound 7"]
        );
        assert!(CallBounds::default().describe().is_empty());
    }
}
