//! The IR verifier: checks that a [`Program`] is well formed and reports every violation.
//!
//! Guarantees: [`verify`] never panics (missing ids are errors, not index panics) and
//! returns *all* errors it finds (deduplicated, in program order), each with its context
//! (datatype, global, procedure or statement). A program that passes satisfies every rule
//! below, which the printer/parser round trip, the interpreter and the VC generator rely on:
//! - names: valid identifiers; datatype, constructor (program-wide), global and procedure
//!   names unique; field names unique within their datatype; local names unique within their
//!   procedure and distinct from every global name;
//! - every id refers to an existing entity; every datatype has a finite value (is inhabited);
//! - exactly one `{:entrypoint}` procedure; locals laid out as params, returns, body locals;
//! - expressions are well typed (`int`, `bool`, datatypes; testers, selectors and
//!   constructors match their datatype, arity and field types); assignments, `assume`,
//!   `assert`, `if` conditions and calls (argument and result arity and types) are typed;
//! - in-parameters are never assigned or havocked; a call's results are distinct variables;
//! - every global written (directly, or by a callee's `modifies`) is in `modifies`; every
//!   global read (directly, or by a callee's `reads` or `modifies`) is in `reads` or
//!   `modifies`; `reads` and `modifies` have no duplicates and are disjoint;
//! - call sites are each used by exactly one `call`, numbered in textual order.

mod body;
mod decls;

use std::collections::HashSet;
use std::fmt;

use crate::ir::{Expr, Procedure, Program, Type};

pub(crate) use decls::datatype_ranks;
pub use decls::inhabited_datatypes;

/// One violated rule, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{context}: {kind}")]
pub struct VerifyError {
    pub context: Context,
    pub kind: VerifyErrorKind,
}

/// Where a [`VerifyError`] was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Context {
    Program,
    Datatype {
        name: String,
    },
    Global {
        name: String,
    },
    Procedure {
        name: String,
    },
    /// Statement number `index` (0-based, textual pre-order) of procedure `proc`.
    Statement {
        proc: String,
        index: usize,
        text: String,
    },
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Context::Program => write!(f, "program"),
            Context::Datatype { name } => write!(f, "datatype `{name}`"),
            Context::Global { name } => write!(f, "global `{name}`"),
            Context::Procedure { name } => write!(f, "procedure `{name}`"),
            Context::Statement { proc, index, text } => {
                write!(f, "procedure `{proc}`, statement #{index} `{text}`")
            }
        }
    }
}

/// The kinds of entity that have names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    Datatype,
    Constructor,
    Field,
    Global,
    Procedure,
    Local,
}

impl fmt::Display for NameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            NameKind::Datatype => "datatype",
            NameKind::Constructor => "constructor",
            NameKind::Field => "field",
            NameKind::Global => "global variable",
            NameKind::Procedure => "procedure",
            NameKind::Local => "local variable",
        };
        f.write_str(text)
    }
}

fn via(callee: &Option<String>) -> String {
    match callee {
        Some(name) => format!(" (through the call to `{name}`)"),
        None => String::new(),
    }
}

/// What rule was violated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyErrorKind {
    #[error("duplicate {kind} name `{name}`")]
    DuplicateName { kind: NameKind, name: String },
    #[error("{kind} name `{name}` is not a valid identifier")]
    InvalidName { kind: NameKind, name: String },
    #[error("reference to a missing {what} ({id})")]
    Missing { what: &'static str, id: String },
    #[error("datatype `{name}` has no finite value (no constructor can be built)")]
    Uninhabited { name: String },
    #[error("{found} procedures are marked {{:entrypoint}}; expected exactly one")]
    EntrypointCount { found: usize },
    #[error("locals must be laid out as parameters, then returns, then body locals")]
    LocalLayout,
    #[error("local variable `{name}` has the same name as a global variable")]
    ShadowsGlobal { name: String },
    #[error("{what}: expected {expected}, found {found}")]
    TypeMismatch {
        what: String,
        expected: String,
        found: String,
    },
    #[error("{what}: expected {expected}, found {found}")]
    Arity {
        what: String,
        expected: usize,
        found: usize,
    },
    #[error("in-parameter `{name}` is assigned (parameters are read-only)")]
    AssignsParam { name: String },
    #[error("variable `{name}` receives more than one result of the call")]
    DuplicateCallResult { name: String },
    #[error("global `{global}` is written but not listed in `modifies`{}", via(.callee))]
    WriteNotInModifies {
        global: String,
        callee: Option<String>,
    },
    #[error("global `{global}` is read but listed in neither `reads` nor `modifies`{}", via(.callee))]
    ReadNotDeclared {
        global: String,
        callee: Option<String>,
    },
    #[error("global `{global}` is listed twice in `{list}`")]
    DuplicateEffect { global: String, list: &'static str },
    #[error("global `{global}` is listed in both `reads` and `modifies`")]
    ReadsAndModifies { global: String },
    #[error("call site {site} is used by {count} `call` statements; expected exactly one")]
    CallSiteUse { site: String, count: usize },
    #[error("call sites are not numbered in textual order")]
    CallSiteOrder,
    #[error("`havoc` needs at least one variable")]
    EmptyHavoc,
    #[error("map type `{ty}`: keys must be `int` or `bool`")]
    MapKeyType { ty: String },
    #[error("{what}: expected a map, found {found}")]
    NotAMap { what: String, found: String },
}

/// Checks every rule of the module doc; `Err` holds all violations, in program order.
pub fn verify(program: &Program) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    decls::check(program, &mut errors);
    for (id, _) in program.procs.iter() {
        body::check(program, id, &mut errors);
    }
    let mut seen = HashSet::new();
    errors.retain(|e| seen.insert(e.to_string()));
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks one expression of procedure `proc` (typing, missing ids, undeclared global reads)
/// and returns its type.
pub fn verify_expr(
    program: &Program,
    proc: &Procedure,
    expr: &Expr,
) -> Result<Type, Vec<VerifyError>> {
    let mut errors = Vec::new();
    let ty = body::expr_type(program, proc, expr, &mut errors);
    match ty {
        Some(ty) if errors.is_empty() => Ok(ty),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests;
