//! What a runner knows about its program before it starts ([`ProgramFacts`]: an encoder,
//! which procedures are recursive, the globals' start values), and Houdini's inference of
//! the program's summaries as a runner does it ([`infer_summaries`], for an inference
//! beside the search).

use crate::engine::proofs::houdini::{self, Summaries};
use crate::engine::search::backend::Backend;
use crate::solver::SolverError;
use crate::vc::encode::Encoder;
use crate::vc::smt::datatype_declarations;
use boogie_like::ir::Program as IrProgram;
use std::rc::Rc;
use std::time::Instant;

/// What a runner needs to know about its program before it starts, computed once for
/// runners over the same program ([`crate::engine::search::groups`]).
#[derive(Clone)]
pub struct ProgramFacts<'a> {
    /// An encoder for the program, with its facts (fresh names start from it).
    pub(super) encoder: Encoder<'a>,
    /// By `ProcId` index: whether the procedure is on a call-graph cycle.
    pub(super) recursive: Rc<[bool]>,
    /// By `GlobalId` index: the value each global starts with.
    pub(super) global_defaults: Rc<[boogie_like::Value]>,
}

impl<'a> ProgramFacts<'a> {
    /// The program these facts are about.
    pub fn ir(&self) -> &'a IrProgram {
        self.encoder.ir()
    }

    pub fn of(ir: &'a IrProgram) -> ProgramFacts<'a> {
        let interpreter = boogie_like::Interpreter::new(ir)
            .unwrap_or_else(|e| panic!("internal error: the IR is ill-formed: {e}"));
        ProgramFacts {
            encoder: Encoder::new(ir),
            recursive: recursive_procs(ir).into(),
            global_defaults: ir
                .globals
                .values()
                .map(|g| interpreter.default_value(g.ty))
                .collect(),
        }
    }
}

/// Houdini's summaries of `encoder`'s program inferred in `session` (a fresh one), with
/// the number of checks they took: how a runner infers them when it first needs them, and
/// how they are inferred beside the search ([`super::Runner::with_summaries_ahead`]).
pub fn infer_summaries<S: Backend + ?Sized>(
    encoder: &mut Encoder,
    session: &mut S,
    deadline: Option<Instant>,
) -> Result<(Summaries, usize), SolverError> {
    let ir = encoder.ir();
    session.declare_datatypes(&datatype_declarations(ir))?;
    let mut checks = 0;
    let summaries = houdini::infer(ir, encoder, session, deadline, &mut checks)?;
    Ok((summaries, checks))
}

/// Whether each procedure lies on a cycle of the call graph.
fn recursive_procs(ir: &IrProgram) -> Vec<bool> {
    let mut recursive = vec![false; ir.procs.len()];
    for scc in houdini::recursive_sccs(ir) {
        for proc in scc {
            recursive[proc.0 as usize] = true;
        }
    }
    recursive
}
