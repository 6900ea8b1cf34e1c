//! Verification conditions for the IR (docs/engine.md): SMT names, and per-instance encoding.

pub mod array_frames;
pub mod canonical;
pub mod encode;
pub mod horn;
pub mod horn_cells;
pub mod horn_contexts;
pub mod horn_facts;
pub mod horn_inline;
pub mod horn_input_split;
pub mod horn_products;
pub mod liveness;
pub mod measure;
pub mod measure_abstract;
pub mod smt;
pub mod summaries;
