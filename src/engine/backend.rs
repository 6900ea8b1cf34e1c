//! What the driver needs from a solver: a term store, commands, checks, model values.
//!
//! The driver is written against this trait so the inlining logic is independent of how the
//! solver process is run; [`crate::solver::Session`] implements it.

use crate::solver::{ModelValue, SolverError};
use crate::vc::smt::Command;
use easy_smt::{Context, SExpr};

/// A solver's answer to one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckResult {
    Sat,
    Unsat,
    Unknown { reason: String },
}

pub trait Backend {
    /// The term store terms are built in.
    fn terms(&self) -> &Context;
    /// Declares the program's datatypes: sort names, and one constructor list per sort.
    fn declare_datatypes(&mut self, sorts: Vec<(String, i32)>, decls: Vec<SExpr>) -> Result<(), SolverError>;
    /// Sends declarations and assertions, in order.
    fn send(&mut self, commands: Vec<Command>) -> Result<(), SolverError>;
    /// `(check-sat-assuming assumptions)`.
    fn check(&mut self, assumptions: &[SExpr]) -> Result<CheckResult, SolverError>;
    /// The model's values of `terms` after a `Sat` check.
    fn values(&mut self, terms: &[SExpr]) -> Result<Vec<ModelValue>, SolverError>;
}
