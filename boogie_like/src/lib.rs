//! `boogie_like`: the Boogie-like intermediate language of horef-si.
//!
//! HORef programs are lowered (defunctionalized) into this IR; the stratified-inlining VC
//! generator runs on it. The crate provides:
//! - [`ir`]: the data types (typed ids into arenas) and a builder API for a lowering pass;
//! - [`print()`] / [`parse()`]: a text syntax that is a subset of Boogie's and round-trips;
//! - [`verify()`]: the well-formedness checker, which collects every error;
//! - [`interp`]: a concrete, depth-bounded interpreter (the replay oracle for bugs).
//!
//! The pipeline inside the crate reads: `parse` → `verify` → `interp::run` (or VC generation
//! elsewhere) → `print` for dumps. See `docs/ir.md` for grammar, semantics and rules.

pub mod arena;
pub mod intern;
pub mod interp;
pub mod ir;
pub mod parse;
pub mod print;
pub mod verify;

pub use arena::{Arena, EntityId};
pub use interp::map_value::{MapKey, MapValue};
pub use interp::{
    HavocOracle, Interpreter, Outcome, QuantifierOracle, RunConfig, RunResult, RuntimeError,
    TraceEvent, Value, run,
};
pub use ir::{
    BinOp, Block, CallSite, CallSiteId, Constructor, CtorId, Datatype, DatatypeId, Expr, Field,
    FieldRef, Global, GlobalId, Local, LocalId, MapType, ProcId, Procedure, Program, SortDecl,
    SortId, SourcePos, Stmt, Type, UnOp, Var,
};
pub use parse::{ParseError, parse, parse_exprs};
pub use print::{Dialect, print, print_expr, print_in};
pub use verify::{VerifyError, VerifyErrorKind, inhabited_datatypes, verify, verify_expr};
