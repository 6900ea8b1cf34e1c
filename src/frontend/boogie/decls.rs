//! What the Boogie-to-IR translation knows about the whole program ([`Decls`]), one
//! implementation ([`Impl`]), and the small checks and name making both the declaration
//! pass ([`super::to_ir`]) and the statement pass ([`super::stmt`]) use.

use super::ast::{self, Ty};
use super::expr::arity;
use crate::diagnostics::Diagnostic;
use crate::span::{SourceFile, Span};
use boogie_like::ir::{GlobalId, ProcId};
use std::collections::{BTreeSet, HashMap};

/// What the translation knows about the whole Boogie program.
pub struct Decls<'a> {
    pub file: &'a SourceFile,
    pub globals: HashMap<String, Ty>,
    pub consts: Vec<&'a ast::Const>,
    pub axioms: &'a [ast::Expr],
    pub functions: HashMap<String, &'a ast::Function>,
    pub procs: HashMap<String, &'a ast::Procedure>,
    /// The IR procedure of each Boogie procedure with an implementation.
    pub ir_procs: HashMap<String, ProcId>,
    /// The global map holding each function without a body.
    pub uninterpreted: HashMap<String, GlobalId>,
}

/// An implementation: the procedure it implements, its own signature and body.
pub struct Impl<'a> {
    pub proc: &'a ast::Procedure,
    pub ins: &'a [ast::Binding],
    pub outs: &'a [ast::Binding],
    pub body: &'a ast::Body,
}

/// `base`, or `base#k` for the first `k` not in `taken`; the name is then taken.
pub fn unique(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name = base.to_string();
    let mut k = 0;
    while taken.contains(&name) {
        k += 1;
        name = format!("{base}#{k}");
    }
    taken.insert(name.clone());
    name
}

/// Checks a call's argument count against the callee.
pub fn check_arity(
    span: Span,
    name: &str,
    want: usize,
    found: usize,
    what: &str,
) -> Result<(), Diagnostic> {
    if want != found {
        return Err(arity(span, what, name, want, found));
    }
    Ok(())
}
