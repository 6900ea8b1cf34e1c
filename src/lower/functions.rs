//! The procedures and closure constructors of a lowered program: one of each per function.
//!
//! Guarantees: every method, every lambda (`fun` or `let rec` function) and `Main` gets one
//! procedure with a unique, readable name (`mc91`, `f.fun_3_5`, `f.bcopy`, `Main`); a
//! lambda's procedure takes its captured values first, then its parameters. Every lambda,
//! and every method used as a value (anywhere but as the function of a call), gets one
//! constructor in its arrow type's closure datatype (`K_` + procedure name) whose fields
//! are its captured values; a method only ever called directly needs none (no closure of
//! it exists, so no dispatch tests for it). Arrow types with no finite closure value get a
//! placeholder constructor: those no function has, and those whose every function captures
//! a closure of a type with no finite value either (a dead `fun` capturing a parameter of
//! its own type), so every datatype has a finite value, as the IR verifier requires.

use super::captures::Captures;
use super::layout::{Layout, component_names};
use super::points_to::FunName;
use crate::core_lang::ast::*;
use crate::core_lang::typecheck::{Resolution, TypeInfo};
use crate::core_lang::visit::walk;
use crate::span::SourceFile;
use boogie_like::ir::{CtorId, ProcId, Program as IrProgram, Type as IrType};
use std::collections::{HashMap, HashSet};

/// Where a procedure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Main,
    Function(FunName),
}

/// The procedure and constructor of every function.
#[derive(Debug, Default)]
pub struct Functions {
    pub procs: HashMap<FunName, ProcId>,
    pub ctors: HashMap<FunName, CtorId>,
    /// By `ProcId` index.
    pub origins: Vec<Origin>,
    pub main: Option<ProcId>,
    /// Every lambda, by id.
    pub lambdas: HashMap<LambdaId, std::rc::Rc<Lambda>>,
}

impl Functions {
    pub fn proc(&self, f: FunName) -> ProcId {
        self.procs[&f]
    }

    pub fn ctor(&self, f: FunName) -> CtorId {
        self.ctors[&f]
    }

    pub fn main(&self) -> ProcId {
        self.main.expect("internal error: Main not declared")
    }
}

/// The binder types a lambda's captured values have, in capture order.
pub fn captured_binders<'p>(
    captures: &Captures,
    lambda: LambdaId,
    binders: &HashMap<BinderId, &'p Binder>,
) -> Vec<&'p Binder> {
    captures.of(lambda).iter().map(|b| binders[b]).collect()
}

/// Declares the procedure and constructor of every function of `program`.
pub fn declare(
    ir: &mut IrProgram,
    (program, info): (&Program, &TypeInfo),
    layout: &Layout,
    captures: &Captures,
    binders: &HashMap<BinderId, &Binder>,
    file: &SourceFile,
) -> Functions {
    let mut declarer = Declarer {
        ir,
        layout,
        functions: Functions::default(),
        used_names: HashSet::new(),
    };
    let valued = valued_methods(program, info);
    for method in &program.methods {
        let name = method.name.name.to_string();
        declarer.function(
            FunName::Method(method.id),
            (name, valued.contains(&method.id)),
            &[],
            &method.params,
            &method.ret,
        );
    }
    for (lambda, name) in lambdas_with_names(program, file) {
        let captured = captured_binders(captures, lambda.id, binders);
        declarer.function(
            FunName::Lambda(lambda.id),
            (name, true),
            &captured,
            &lambda.params,
            &lambda.ret,
        );
        declarer.functions.lambdas.insert(lambda.id, lambda);
    }
    declarer.main(&program.main);
    declarer.placeholder_ctors();
    declarer.functions
}

struct Declarer<'a> {
    ir: &'a mut IrProgram,
    layout: &'a Layout,
    functions: Functions,
    used_names: HashSet<String>,
}

impl Declarer<'_> {
    fn unique(&mut self, base: String) -> String {
        let mut name = base.clone();
        let mut k = 0;
        while !self.used_names.insert(name.clone()) {
            k += 1;
            name = format!("{base}#{k}");
        }
        name
    }

    fn components(&self, binders: &[&Binder]) -> Vec<(String, IrType)> {
        let mut out = Vec::new();
        for b in binders {
            let types = self.layout.components(&b.ty);
            let names = component_names(&b.name.name, types.len());
            out.extend(names.into_iter().zip(types));
        }
        out
    }

    fn declare_proc(
        &mut self,
        name: &str,
        params: Vec<(String, IrType)>,
        ret: &Type,
        origin: Origin,
    ) -> ProcId {
        let ret_types = self.layout.components(ret);
        let ret_names = component_names("ret", ret_types.len());
        let rets: Vec<(String, IrType)> = ret_names.into_iter().zip(ret_types).collect();
        let params = dedupe_names(params, &rets);
        let params: Vec<(&str, IrType)> = params.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let rets: Vec<(&str, IrType)> = rets.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let id = self.ir.declare_proc(name, &params, &rets);
        self.functions.origins.push(origin);
        id
    }

    /// Declares `f`'s procedure, and its closure constructor if `with_ctor`.
    fn function(
        &mut self,
        f: FunName,
        (name, with_ctor): (String, bool),
        captured: &[&Binder],
        params: &[Binder],
        ret: &Type,
    ) {
        let name = self.unique(name);
        let fields = self.components(captured);
        let mut all_params = fields.clone();
        all_params.extend(self.components(&params.iter().collect::<Vec<_>>()));
        let proc = self.declare_proc(&name, all_params, ret, Origin::Function(f));
        self.functions.procs.insert(f, proc);
        if !with_ctor {
            return;
        }
        let arrow = Type::arrow(params.iter().map(|p| p.ty.clone()).collect(), ret.clone());
        let datatype = self.layout.closure(&arrow);
        let ctor_name = self.unique(format!("K_{name}"));
        // Field names are unique program-wide (`proc.var`), as SMT selectors must be.
        let fields: Vec<(String, IrType)> = fields
            .into_iter()
            .map(|(f, ty)| (format!("{name}.{f}"), ty))
            .collect();
        let ctor = self.ir.add_ctor(datatype, ctor_name, fields);
        self.functions.ctors.insert(f, ctor);
    }

    fn main(&mut self, main: &MainDecl) {
        let name = self.unique("Main".to_string());
        let params = self.components(&main.params.iter().collect::<Vec<_>>());
        let proc = self.declare_proc(&name, params, &main.ret, Origin::Main);
        self.ir.set_entrypoint(proc);
        self.functions.main = Some(proc);
    }

    fn placeholder_ctors(&mut self) {
        let inhabited = boogie_like::inhabited_datatypes(self.ir);
        let empty: Vec<_> = self
            .layout
            .closure_types()
            .filter(|(_, d)| !inhabited.contains(d))
            .map(|(_, d)| d)
            .collect();
        for datatype in empty {
            let name = self.unique(format!("K_none_{}", self.ir.datatypes[datatype].name));
            self.ir.add_ctor::<&str>(datatype, name, vec![]);
        }
    }
}

/// The methods used as values: named anywhere but as the function of a call (every
/// body, `Store` initialisers and `Main` included). Only these can become closures.
fn valued_methods(program: &Program, info: &TypeInfo) -> HashSet<MethodId> {
    let mut called: HashSet<ExprId> = HashSet::new();
    let mut named: Vec<(ExprId, MethodId)> = Vec::new();
    for body in super::bodies(program) {
        walk(body, &mut |e| match &e.kind {
            ExprKind::App { func, .. } => {
                called.insert(func.id);
            }
            ExprKind::Var(_) => {
                if let Some(Resolution::Method(m)) = info.resolution(e) {
                    named.push((e.id, m));
                }
            }
            _ => {}
        });
    }
    named
        .into_iter()
        .filter(|(id, _)| !called.contains(id))
        .map(|(_, m)| m)
        .collect()
}

/// Renames parameters that repeat a name (a captured variable and a parameter may share
/// a name when one shadows the other) or clash with a result name.
fn dedupe_names(params: Vec<(String, IrType)>, rets: &[(String, IrType)]) -> Vec<(String, IrType)> {
    let mut seen: HashSet<String> = rets.iter().map(|(n, _)| n.clone()).collect();
    params
        .into_iter()
        .map(|(base, ty)| {
            let mut name = base.clone();
            let mut k = 0;
            while !seen.insert(name.clone()) {
                k += 1;
                name = format!("{base}#{k}");
            }
            (name, ty)
        })
        .collect()
}

/// Every lambda of the program with its procedure name: `enclosing.fun_L_C` for a `fun`,
/// `enclosing.name` for a `let rec` function.
fn lambdas_with_names(program: &Program, file: &SourceFile) -> Vec<(std::rc::Rc<Lambda>, String)> {
    let mut out = Vec::new();
    for method in &program.methods {
        collect_lambdas(&method.body, &method.name.name, file, &mut out);
    }
    for decl in &program.store {
        collect_lambdas(&decl.init, "Store", file, &mut out);
    }
    collect_lambdas(&program.main.body, "Main", file, &mut out);
    out
}

fn collect_lambdas(
    body: &Expr,
    enclosing: &str,
    file: &SourceFile,
    out: &mut Vec<(std::rc::Rc<Lambda>, String)>,
) {
    // Names are prefixed by the innermost enclosing function, found by a nested walk.
    let mut direct: Vec<(std::rc::Rc<Lambda>, String)> = Vec::new();
    let mut skip: HashSet<LambdaId> = HashSet::new();
    walk(body, &mut |e| {
        let (lambda, short) = match &e.kind {
            ExprKind::Fun(l) => {
                let at = file.line_col(l.span.start as usize);
                (l, format!("fun_{}_{}", at.line, at.col))
            }
            ExprKind::LetRec { binder, lambda, .. } => (lambda, binder.name.name.to_string()),
            _ => return,
        };
        if skip.contains(&lambda.id) {
            return;
        }
        walk(&lambda.body, &mut |inner| {
            if let ExprKind::Fun(l) | ExprKind::LetRec { lambda: l, .. } = &inner.kind {
                skip.insert(l.id);
            }
        });
        direct.push((lambda.clone(), format!("{enclosing}.{short}")));
    });
    for (lambda, name) in direct {
        collect_lambdas(&lambda.body, &name, file, out);
        out.push((lambda, name));
    }
}
