//! The shared core language: HORef's abstract syntax ([`ast`]), its type checker
//! ([`typecheck`]), the names traces show ([`names`]) and its concrete, depth-bounded
//! interpreter ([`interp`], the reference semantics that confirms every bug).
//!
//! Every front end but Boogie's translates into this language (HORef's own parser builds its
//! AST directly; the OCaml front end translates); the lowering, the proof sources and the
//! engine's bug confirmation read it. Guarantees: nothing in this layer imports a front end,
//! the lowering, the engine or an output layer.

pub mod ast;
pub mod inputs;
pub mod interp;
pub mod method_scope;
pub mod names;
pub mod typecheck;
pub mod visit;

use crate::diagnostics::Diagnostic;
use crate::span::SourceFile;
use ast::Program;
use names::FunctionNames;
use typecheck::TypeInfo;

/// A parsed and type-checked HORef program with its source.
#[derive(Debug)]
pub struct Checked {
    pub file: SourceFile,
    pub program: Program,
    pub info: TypeInfo,
    pub names: FunctionNames,
    /// The entry function asked for (`--entry`, `.ml` files), so that the program can be
    /// loaded again exactly as it was (`frontend::load_source`).
    pub entry: Option<String>,
    /// Whether it was read as OCaml (else HORef), also to load it again as it was.
    pub ocaml: bool,
    /// Accepted for BMC-2 compatibility, worth telling the user (`file:line:col` of both
    /// places of a re-declared method).
    pub warnings: Vec<Diagnostic>,
}

impl Checked {
    /// The name a trace shows for a function: a method's declared name, a lambda's
    /// readable name ([`names::FunctionNames`]).
    pub fn function_name(&self, f: interp::FunctionRef) -> String {
        match f {
            interp::FunctionRef::Method(m) => self.program.method(m).name.name.to_string(),
            interp::FunctionRef::Lambda(l) => self.names.lambda(l).to_string(),
        }
    }
}
