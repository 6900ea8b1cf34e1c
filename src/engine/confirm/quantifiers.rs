//! Deciding a quantifier on the values of a concrete run, for the replay of a bug.
//!
//! The interpreter cannot enumerate `int`, so an `assume (forall …)` or `assert (exists …)`
//! met in a replay is handed to [`SolverQuantifiers`]: the quantifier, with every other
//! variable it reads replaced by its concrete value (maps as constant arrays with stores),
//! goes to a fresh solver (an uninterpreted sort read as the integers: the run's values
//! of it are opaque integers, and there are infinitely many), which must decide `¬q` (`unsat`: q holds; `sat`: a model of
//! `¬q`, q fails) or else `q`. Guarantee: the answer is `Some` only on such a decision
//! (the solver instantiates by patterns only and reports `sat` only when no quantifier is
//! left unchecked); when it answers `unknown` both ways, fails or runs past
//! [`QUANTIFIER_WAIT`], it is `None` and the replay stops there, so the witness is not
//! confirmed (UNKNOWN, never a BUG).

use crate::engine::search::backend::{Backend, CheckResult};
use crate::solver::{DatatypeDecl, DeclKind, Session, SolverConfig};
use crate::vc::encode::Encoder;
use crate::vc::smt::{datatype_declarations, value_term};
use boogie_like::ir::{Expr, Procedure, Program, Var};
use boogie_like::{QuantifierOracle, Value};
use std::time::{Duration, Instant};

/// How long one quantifier check may take.
pub const QUANTIFIER_WAIT: Duration = Duration::from_secs(10);

/// Decides quantifiers with a fresh solver session per question.
#[derive(Debug, Default)]
pub struct SolverQuantifiers {
    pub config: SolverConfig,
}

impl QuantifierOracle for SolverQuantifiers {
    fn decide(
        &self,
        program: &Program,
        proc: &Procedure,
        quant: &Expr,
        free: &[(Var, Value)],
    ) -> Option<bool> {
        let (id, _) = program.procs.iter().find(|(_, p)| std::ptr::eq(*p, proc))?;
        let config = SolverConfig {
            deadline: Some(Instant::now() + QUANTIFIER_WAIT),
            ..self.config.clone()
        };
        let mut session = Session::start(&config).ok()?;
        // The run's view of an uninterpreted sort: its opaque integers, infinitely many.
        let decls: Vec<_> = datatype_declarations(program)
            .into_iter()
            .map(|d| match d.kind {
                DeclKind::Uninterpreted => DatatypeDecl {
                    kind: DeclKind::Integers,
                    ..d
                },
                _ => d,
            })
            .collect();
        session.declare_datatypes(&decls).ok()?;
        let mut out = Vec::new();
        let term = {
            let terms = Backend::terms(&session);
            let bindings: Vec<_> = free
                .iter()
                .map(|(v, value)| (*v, value_term(terms, program, value)))
                .collect();
            Encoder::new(program).closed_term(terms, id, quant, &bindings, &mut out)
        };
        session.send(out).ok()?;
        for holds in [true, false] {
            let claim = if holds {
                Backend::terms(&session).not(term)
            } else {
                term
            };
            session.push().ok()?;
            session
                .send(vec![crate::vc::smt::Command::Assert(claim)])
                .ok()?;
            let answer = session.check(&[]).ok()?;
            session.pop().ok()?;
            // `unsat`: the claim is refuted. `sat`: a model of the claim, which the solver
            // only reports once no quantifier is left unchecked.
            match answer {
                CheckResult::Unsat => return Some(holds),
                CheckResult::Sat => return Some(!holds),
                CheckResult::Unknown { .. } => {}
            }
        }
        None
    }
}
