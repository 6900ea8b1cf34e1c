//! What the driver needs from a solver: a term store, commands, checks, model values.
//!
//! The driver is written against this trait so the inlining logic is independent of how the
//! solver process is run; [`crate::solver::Session`] implements it.

use crate::solver::{BatchCommand, DatatypeDecl, ModelValue, SatResult, SolverError};
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
    /// Declares the program's datatypes, together.
    fn declare_datatypes(&mut self, decls: &[DatatypeDecl]) -> Result<(), SolverError>;
    /// Sends declarations and assertions, in order.
    fn send(&mut self, commands: Vec<Command>) -> Result<(), SolverError>;
    /// Opens a scope: what is declared and asserted until [`Backend::pop`] is then forgotten.
    fn push(&mut self) -> Result<(), SolverError>;
    fn pop(&mut self) -> Result<(), SolverError>;
    /// `(check-sat-assuming assumptions)`.
    fn check(&mut self, assumptions: &[SExpr]) -> Result<CheckResult, SolverError>;
    /// The model's values of `terms` after a `Sat` check.
    fn values(&mut self, terms: &[SExpr]) -> Result<Vec<ModelValue>, SolverError>;
    /// Faster checks whose `sat` may become `unknown`
    /// ([`crate::solver::Session::use_weak_arrays`]).
    fn use_weak_arrays(&mut self) -> Result<(), SolverError>;
    /// The same check with the full theories and model-based quantifier instantiation,
    /// for at most `wait` ([`crate::solver::Session::check_with_model_search`]): after an
    /// `unknown`, a model that satisfies the quantifiers, or `Unknown` again.
    fn check_with_model_search(
        &mut self,
        assumptions: &[SExpr],
        wait: std::time::Duration,
    ) -> Result<CheckResult, SolverError>;
}

/// A borrowed backend is one: runners that share a session, one scope each
/// ([`crate::engine::search::groups`]).
impl<T: Backend + ?Sized> Backend for &mut T {
    fn terms(&self) -> &Context {
        (**self).terms()
    }

    fn declare_datatypes(&mut self, decls: &[DatatypeDecl]) -> Result<(), SolverError> {
        (**self).declare_datatypes(decls)
    }

    fn send(&mut self, commands: Vec<Command>) -> Result<(), SolverError> {
        (**self).send(commands)
    }

    fn push(&mut self) -> Result<(), SolverError> {
        (**self).push()
    }

    fn pop(&mut self) -> Result<(), SolverError> {
        (**self).pop()
    }

    fn check(&mut self, assumptions: &[SExpr]) -> Result<CheckResult, SolverError> {
        (**self).check(assumptions)
    }

    fn values(&mut self, terms: &[SExpr]) -> Result<Vec<ModelValue>, SolverError> {
        (**self).values(terms)
    }

    fn use_weak_arrays(&mut self) -> Result<(), SolverError> {
        (**self).use_weak_arrays()
    }

    fn check_with_model_search(
        &mut self,
        assumptions: &[SExpr],
        wait: std::time::Duration,
    ) -> Result<CheckResult, SolverError> {
        (**self).check_with_model_search(assumptions, wait)
    }
}

impl Backend for crate::solver::Session {
    fn terms(&self) -> &Context {
        crate::solver::Session::terms(self)
    }

    fn declare_datatypes(&mut self, decls: &[DatatypeDecl]) -> Result<(), SolverError> {
        crate::solver::Session::declare_datatypes(self, decls)
    }

    fn send(&mut self, commands: Vec<Command>) -> Result<(), SolverError> {
        let batch: Vec<BatchCommand> = commands
            .into_iter()
            .map(|command| match command {
                Command::Declare { name, sort } => BatchCommand::Declare {
                    name: self
                        .terms()
                        .get_atom(name)
                        .expect("internal error: a declared name is an atom")
                        .to_string(),
                    sort,
                },
                Command::Assert(term) => BatchCommand::Assert(term),
            })
            .collect();
        self.batch(&batch)
    }

    fn push(&mut self) -> Result<(), SolverError> {
        crate::solver::Session::push(self)
    }

    fn pop(&mut self) -> Result<(), SolverError> {
        crate::solver::Session::pop(self)
    }

    fn check(&mut self, assumptions: &[SExpr]) -> Result<CheckResult, SolverError> {
        Ok(match self.check_assuming(assumptions)? {
            SatResult::Sat => CheckResult::Sat,
            SatResult::Unsat => CheckResult::Unsat,
            SatResult::Unknown { reason } => CheckResult::Unknown { reason },
        })
    }

    fn values(&mut self, terms: &[SExpr]) -> Result<Vec<ModelValue>, SolverError> {
        self.get_values(terms)
    }

    fn use_weak_arrays(&mut self) -> Result<(), SolverError> {
        crate::solver::Session::use_weak_arrays(self)
    }

    fn check_with_model_search(
        &mut self,
        assumptions: &[SExpr],
        wait: std::time::Duration,
    ) -> Result<CheckResult, SolverError> {
        Ok(
            match crate::solver::Session::check_with_model_search(self, assumptions, wait)? {
                SatResult::Sat => CheckResult::Sat,
                SatResult::Unsat => CheckResult::Unsat,
                SatResult::Unknown { reason } => CheckResult::Unknown { reason },
            },
        )
    }
}
