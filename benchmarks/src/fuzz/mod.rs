//! Soundness fuzzing (issue 18): random well-typed programs ([`random`]), printed as HORef
//! or as OCaml ([`language`], [`ocaml`]), and random Boogie programs ([`boogie`], checked
//! through the IR by [`ir_oracle`]; both run programs through [`runs`]), every
//! verdict at every bound checked against concrete runs ([`oracle`]), disagreements shrunk
//! to small programs ([`shrink`]), and the batch runner behind `horef-bench fuzz`
//! ([`campaign`]).

pub mod ast;
pub mod boogie;
pub mod campaign;
pub mod findings;
pub mod ir_oracle;
pub mod language;
pub mod ocaml;
pub mod oracle;
pub mod random;
mod runs;
pub mod shrink;
