//! The integration tests, one test binary (linking the library once): each module was a
//! test binary of its own and keeps its name (`cargo test --test integration golden::`
//! runs one). The checks that decide at run time whether they can run (the shared BMC-2
//! suite, BenchExec, the documented commands) are the three other binaries under `tests/`.

#[path = "../common/mod.rs"]
mod common;

mod abstraction;
mod abstraction_random;
mod architecture;
mod benchexec_tasks;
mod beyond;
mod boogie_parse_fuzz;
mod boogie_programs;
mod bpl_runs;
mod cli;
mod cli_install;
mod cli_verify;
mod closure_proofs;
mod corral_bounds;
mod dead_functions;
mod differential;
mod division_encoding;
mod emit_boogie;
mod entry_split;
mod exchange;
mod fuzz_regressions;
mod golden;
mod ocaml_frontend;
mod ocaml_mutations;
mod ocaml_oracle;
mod ocaml_pairs;
mod programs;
mod proof_programs;
mod proofs;
mod properties;
mod single_cells;
mod solver_processes;
mod solver_session;
mod suite;
mod suite_cache;
mod suite_corpora;
mod verify;
mod verify_ir_examples;
