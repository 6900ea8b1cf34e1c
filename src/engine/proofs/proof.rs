//! A proof that no execution fails, at any depth: one summary per procedure, shown to the
//! user in source terms (`fib(n) returns ret: ret ≥ n − 1`).
//!
//! Guarantee: a [`Proof`] is only built from an interpretation of the program's Horn
//! clauses that a fresh solver re-checked clause by clause ([`crate::engine::proofs::chc`]); the text here
//! is for reading, the SMT definitions (`smt`) are what was checked.

use serde::Serialize;

/// What a proof rests on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proof {
    /// `houdini` or `chc` (z3's Spacer on the Horn clauses).
    pub engine: String,
    /// One summary per procedure that has a non-trivial one.
    pub summaries: Vec<Summary>,
}

/// What holds of every call of one procedure that returns (normally or by failing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// The procedure, as the IR names it (`fib`, `make_counter.fun_7_3`).
    pub procedure: String,
    /// Its parameters, then the globals it starts from.
    pub inputs: Vec<String>,
    /// Its results, the globals after the call (`count'`) and `failed`.
    pub outputs: Vec<String>,
    /// The fact, readable: `ret ≥ n − 1`.
    pub formula: String,
    /// The fact as it was checked: the SMT-LIB definition (Spacer's), or the template
    /// instances over `p0…`, `ret0…` (Houdini's).
    pub smt: String,
}

impl Proof {
    /// The proof as indented lines for the human report.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("  proof ({}): procedure summaries", self.engine)];
        for s in &self.summaries {
            let outputs = if s.outputs.is_empty() {
                String::new()
            } else {
                format!(" → {}", s.outputs.join(", "))
            };
            out.push(format!(
                "    {}({}){outputs}:  {}",
                s.procedure,
                s.inputs.join(", "),
                s.formula
            ));
        }
        out
    }
}

impl Proof {
    /// Houdini's summaries (by `ProcId` index) as a proof in the procedures' terms.
    pub fn from_houdini(
        ir: &boogie_like::ir::Program,
        summaries: &[Vec<crate::vc::summaries::Candidate>],
    ) -> Option<Proof> {
        let mut shown = Vec::new();
        for ((_, procedure), facts) in ir.procs.iter().zip(summaries) {
            if facts.is_empty() {
                continue;
            }
            let names = |locals: &[boogie_like::ir::LocalId]| -> Vec<String> {
                locals
                    .iter()
                    .map(|l| procedure.locals[*l].name.clone())
                    .collect()
            };
            let (inputs, outputs) = (names(&procedure.params), names(&procedure.returns));
            let formula = match crate::vc::summaries::simplified(facts) {
                Some(shown) => shown
                    .iter()
                    .map(|c| c.describe(&inputs, &outputs))
                    .collect::<Vec<_>>()
                    .join(" ∧ "),
                None => "never returns".to_string(),
            };
            let smt: Vec<String> = facts.iter().map(ToString::to_string).collect();
            shown.push(Summary {
                procedure: procedure.name.clone(),
                inputs,
                outputs,
                formula,
                smt: smt.join(" && "),
            });
        }
        (!shown.is_empty()).then(|| Proof {
            engine: "houdini".into(),
            summaries: shown,
        })
    }
}

impl Proof {
    /// What a VERIFIED of the search rests on: Houdini's summaries, if any, and the
    /// partial proofs whose facts it assumed at open call sites, if any (`None` when
    /// neither: the call tree ended).
    pub fn of_search(houdini: Option<Proof>, partial: &[&Proof]) -> Option<Proof> {
        if partial.is_empty() {
            return houdini;
        }
        let mut engines: Vec<String> = houdini.iter().map(|p| p.engine.clone()).collect();
        engines.extend(partial.iter().map(|p| p.engine.clone()));
        let mut summaries: Vec<Summary> = houdini.map(|p| p.summaries).unwrap_or_default();
        for proof in partial {
            summaries.extend(proof.summaries.iter().cloned());
        }
        Some(Proof {
            engine: format!("search with {}", engines.join(" + ")),
            summaries,
        })
    }
}
