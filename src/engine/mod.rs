//! The verification engine: the stratified-inlining driver and what it needs from a solver.

pub mod backend;
pub mod driver;
