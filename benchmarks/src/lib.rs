//! horef-bench: the benchmarks of horef-si.
//!
//! - [`expect`]: what a program's expectation (read by `horef_si::suite::expect`) claims at
//!   each depth bound, and the `(* expect: ... *)` header of a generated program;
//! - [`compose`] and [`generate`]: composing programs into large ones (the `generate` binary);
//! - [`suite`], [`run`], [`record`], [`plot`], [`summary`]: the harness (the `harness`
//!   binary) that runs `horef-si verify` over suites at K = 1..15 in both modes, writes CSV,
//!   draws PNG plots and prints the tables of `benchmarks/RESULTS.md`.

pub mod compose;
pub mod expect;
pub mod fuzz;
pub mod generate;
pub mod plot;
pub mod record;
pub mod run;
pub mod suite;
pub mod summary;
