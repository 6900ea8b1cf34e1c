//! The verifier: the one place where the full verifier is assembled. A program of the core
//! language gets, beside the engine's own proof systems (the IR's Horn clauses, Houdini),
//! the proof systems read off its source: refinement-type Horn clauses ([`refine`]) and
//! the entry cut into cases, each proved on its own ([`entry_cases`]). An IR program (a
//! Boogie or `.ir` file) goes to the engine as it is.
//!
//! Guarantees: [`verify`] is what `verify`, `suite`, BenchExec (through the CLI) and the
//! fuzz oracle run; no other code attaches proof systems to the engine's options. The
//! extra systems only add proofs, each re-checked like every proof of the engine, so the
//! verdict's soundness is the engine's.

pub mod entry_cases;
pub mod refine;

use crate::core_lang::Checked;
use crate::engine::{self, Options, Outcome};
use crate::frontend::Loaded;
use boogie_like::ir::Program as IrProgram;

/// A loaded program, in the language the engine verifies it in.
#[derive(Clone, Copy, Debug)]
pub enum Program<'a> {
    /// A checked program of the core language (HORef, OCaml).
    Core(&'a Checked),
    /// An IR program (Boogie, IR text).
    Ir(&'a IrProgram),
}

impl<'a> From<&'a Loaded> for Program<'a> {
    fn from(loaded: &'a Loaded) -> Program<'a> {
        match loaded {
            Loaded::Core(checked) => Program::Core(checked),
            Loaded::Ir(ir) => Program::Ir(ir),
        }
    }
}

/// Verifies `program` with every proof system that applies to it.
pub fn verify(program: Program<'_>, options: &Options) -> Outcome {
    match program {
        Program::Core(checked) => {
            engine::verify_horef(checked, &with_source_proofs(checked, options))
        }
        Program::Ir(ir) => engine::verify_ir(ir, options),
    }
}

/// `options` with the proof systems read off the source of `checked`.
fn with_source_proofs(checked: &Checked, options: &Options) -> Options {
    let options = refine::with_refinement_systems(checked, options);
    entry_cases::with_proof_cases(checked, &options)
}
