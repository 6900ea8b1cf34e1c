//! The bounded search: stratified inlining (CORRAL, Fig. 2, with a depth bound) over the
//! per-procedure VCs ([`driver`]), the solver interface it needs ([`backend`]), CORRAL's
//! recursion and stack bounds ([`call_bounds`]), entry splitting for entries that dispatch
//! to many sub-programs ([`entry_split`], [`groups`]), the unrolled tree's size
//! ([`tree_size`]), and the search past the user's bound while a proof is awaited
//! ([`beyond`]). Guarantees: a bug only from an under-approximation, "no bug within K" only
//! from an unsatisfiable over-approximation.

pub mod abstraction;
pub mod backend;
pub mod beyond;
pub mod call_bounds;
pub mod cegar;
pub mod driver;
pub mod entry_split;
pub mod groups;
pub mod tree_size;
