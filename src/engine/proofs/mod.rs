//! Proofs that no execution fails at any depth, found beside the search: Houdini's
//! template summaries ([`houdini`]), Horn clauses solved by Spacer ([`chc`]), procedures
//! proved on their own while a long search runs ([`partial_proofs`], whose facts prune the
//! search through [`site_facts`]), proofs case by case ([`case_proofs`]), a Boogie program's loop invariants checked one
//! iteration at a time ([`loop_cut`]), started beside the search by [`deferred`]; every proof is
//! re-checked before it is reported ([`proof_check`], and clause by clause in `chc`), kept
//! across runs when asked ([`proof_cache`]), and
//! shown readably ([`proof`], [`formula`]).

pub mod case_proofs;
pub mod chc;
pub mod deferred;
pub mod formula;
pub mod houdini;
pub mod lanes;
pub mod loop_cut;
pub mod no_proof;
pub mod partial_proofs;
pub mod proof;
pub mod proof_cache;
pub mod proof_check;
pub mod seeded;
pub mod site_facts;
