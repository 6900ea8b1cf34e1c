//! Soundness fuzzing (issue 18): random well-typed HORef programs ([`random`]), every
//! verdict at every bound checked against concrete runs ([`oracle`]), disagreements shrunk
//! to small programs ([`shrink`]), and the batch runner behind `horef-bench fuzz`
//! ([`campaign`]).

pub mod ast;
pub mod campaign;
pub mod oracle;
pub mod random;
pub mod shrink;
