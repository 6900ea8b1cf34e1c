//! Name resolution: the unresolved syntax tree to the IR.
//!
//! Guarantees: every name in the result refers to an existing entity; datatype, constructor,
//! global and procedure names are unique, field names are unique within their datatype and
//! local names are unique within their procedure and never shadow a global (otherwise the
//! text would be ambiguous: a [`ParseError`] at the second occurrence). Arena order is text
//! order, locals are laid out params, returns, body locals, and call sites are numbered in
//! textual order. `e->f` is resolved through the type of `e` (or, when that type is unknown,
//! through the only field named `f` in the program). Types are otherwise not checked here.

use std::collections::HashMap;

use super::ParseError;
use super::syntax::{Binding, Name, Pos, RCall, RExpr, RExprKind, RProc, RProgram, RStmt, RType};
use crate::arena::Arena;
use crate::ir::{
    Block, CallSite, CallSiteId, CtorId, DatatypeId, Expr, FieldRef, GlobalId, LocalId, ProcId,
    Procedure, Program, SortId, Stmt, Type, Var,
};

type RResult<T> = Result<T, ParseError>;

fn error_at(pos: Pos, message: String) -> ParseError {
    ParseError {
        line: pos.line,
        col: pos.col,
        message,
    }
}

/// Name tables of the program being resolved.
#[derive(Default)]
struct Scope {
    sorts: HashMap<String, SortId>,
    datatypes: HashMap<String, DatatypeId>,
    ctors: HashMap<String, CtorId>,
    globals: HashMap<String, GlobalId>,
    procs: HashMap<String, ProcId>,
}

/// Resolves a whole program.
pub(crate) fn program(raw: &RProgram) -> RResult<Program> {
    let mut program = Program::new();
    let mut scope = Scope::default();
    declare_datatypes(&mut program, &mut scope, raw)?;
    define_ctors(&mut program, &mut scope, raw)?;
    declare_globals(&mut program, &mut scope, &raw.globals)?;
    for rp in &raw.procs {
        let proc = declare_proc(&scope, rp)?;
        let id = program.procs.push(proc);
        insert_unique(&mut scope.procs, &rp.name, id, "procedure")?;
    }
    for (id, rp) in program.procs.ids().zip(&raw.procs) {
        let (body, sites) = resolve_body(&program, &scope, &program.procs[id], &rp.body)?;
        program.procs[id].body = body;
        program.procs[id].call_sites = sites;
    }
    Ok(program)
}

/// Resolves closed expressions (no locals in scope) against `program`.
pub(crate) fn closed_exprs(program: &Program, raw: &[RExpr]) -> RResult<Vec<Expr>> {
    let scope = Scope {
        ctors: program
            .ctors()
            .map(|(id, c)| (c.name.clone(), id))
            .collect(),
        globals: program
            .globals
            .iter()
            .map(|(id, g)| (g.name.clone(), id))
            .collect(),
        ..Scope::default()
    };
    let proc = Procedure::new("");
    let cx = BodyCx::new(program, &scope, &proc);
    raw.iter().map(|e| cx.expr(e)).collect()
}

fn insert_unique<I: Copy>(
    map: &mut HashMap<String, I>,
    name: &Name,
    id: I,
    what: &str,
) -> RResult<()> {
    if map.insert(name.text.clone(), id).is_some() {
        return Err(error_at(
            name.pos,
            format!("duplicate {what} `{}`", name.text),
        ));
    }
    Ok(())
}

fn declare_datatypes(program: &mut Program, scope: &mut Scope, raw: &RProgram) -> RResult<()> {
    for s in &raw.sorts {
        let id = program.add_sort(s.text.clone());
        insert_unique(&mut scope.sorts, s, id, "sort")?;
    }
    for d in &raw.datatypes {
        let id = program.add_datatype(d.name.text.clone());
        insert_unique(&mut scope.datatypes, &d.name, id, "datatype")?;
    }
    Ok(())
}

fn define_ctors(program: &mut Program, scope: &mut Scope, raw: &RProgram) -> RResult<()> {
    for (dt, d) in program.datatypes.ids().zip(&raw.datatypes) {
        let mut field_names = HashMap::new();
        for c in &d.ctors {
            for f in &c.fields {
                insert_unique(&mut field_names, &f.name, (), "field")?;
            }
            let fields = c
                .fields
                .iter()
                .map(|f| Ok((f.name.text.clone(), resolve_type(scope, &f.ty)?)));
            let fields = fields.collect::<RResult<Vec<_>>>()?;
            let id = program.add_ctor(dt, c.name.text.clone(), fields);
            insert_unique(&mut scope.ctors, &c.name, id, "constructor")?;
        }
    }
    Ok(())
}

fn resolve_type(scope: &Scope, ty: &RType) -> RResult<Type> {
    match ty {
        RType::Int => Ok(Type::Int),
        RType::Bool => Ok(Type::Bool),
        RType::Map(key, value) => Ok(Type::map(
            resolve_type(scope, key)?,
            resolve_type(scope, value)?,
        )),
        RType::Named(name) => match scope.datatypes.get(&name.text) {
            Some(id) => Ok(Type::Data(*id)),
            None if scope.sorts.contains_key(&name.text) => Ok(Type::Sort(scope.sorts[&name.text])),
            None => Err(error_at(
                name.pos,
                format!("undefined type `{}`", name.text),
            )),
        },
    }
}

fn declare_globals(program: &mut Program, scope: &mut Scope, globals: &[Binding]) -> RResult<()> {
    for g in globals {
        let id = program.add_global(g.name.text.clone(), resolve_type(scope, &g.ty)?);
        insert_unique(&mut scope.globals, &g.name, id, "global variable")?;
    }
    Ok(())
}

/// The procedure's signature, locals and effects; the body comes later.
fn declare_proc(scope: &Scope, rp: &RProc) -> RResult<Procedure> {
    let mut proc = Procedure::new(rp.name.text.clone());
    proc.entrypoint = rp.entrypoint;
    let mut names = HashMap::new();
    proc.params = add_locals(scope, &mut proc, &mut names, &rp.params)?;
    proc.returns = add_locals(scope, &mut proc, &mut names, &rp.returns)?;
    add_locals(scope, &mut proc, &mut names, &rp.locals)?;
    proc.modifies = rp
        .modifies
        .iter()
        .map(|n| global(scope, n))
        .collect::<RResult<_>>()?;
    proc.reads = rp
        .reads
        .iter()
        .map(|n| global(scope, n))
        .collect::<RResult<_>>()?;
    Ok(proc)
}

fn add_locals(
    scope: &Scope,
    proc: &mut Procedure,
    names: &mut HashMap<String, ()>,
    bindings: &[Binding],
) -> RResult<Vec<LocalId>> {
    let mut ids = Vec::new();
    for b in bindings {
        insert_unique(names, &b.name, (), "local variable")?;
        if scope.globals.contains_key(&b.name.text) {
            let message = format!("local variable `{}` shadows a global variable", b.name.text);
            return Err(error_at(b.name.pos, message));
        }
        ids.push(proc.add_local(b.name.text.clone(), resolve_type(scope, &b.ty)?));
    }
    Ok(ids)
}

fn global(scope: &Scope, name: &Name) -> RResult<GlobalId> {
    match scope.globals.get(&name.text) {
        Some(id) => Ok(*id),
        None => Err(error_at(
            name.pos,
            format!("undefined global variable `{}`", name.text),
        )),
    }
}

fn resolve_body(
    program: &Program,
    scope: &Scope,
    proc: &Procedure,
    body: &[RStmt],
) -> RResult<(Block, Arena<CallSiteId, CallSite>)> {
    let mut cx = BodyCx::new(program, scope, proc);
    let block = cx.block(body)?;
    Ok((block, cx.sites))
}

/// Resolution context of one procedure body.
struct BodyCx<'a> {
    program: &'a Program,
    scope: &'a Scope,
    proc: &'a Procedure,
    locals: HashMap<&'a str, LocalId>,
    sites: Arena<CallSiteId, CallSite>,
}

impl<'a> BodyCx<'a> {
    fn new(program: &'a Program, scope: &'a Scope, proc: &'a Procedure) -> BodyCx<'a> {
        let locals = proc
            .locals
            .iter()
            .map(|(id, l)| (l.name.as_str(), id))
            .collect();
        BodyCx {
            program,
            scope,
            proc,
            locals,
            sites: Arena::new(),
        }
    }

    fn var(&self, name: &Name) -> RResult<Var> {
        if let Some(id) = self.locals.get(name.text.as_str()) {
            return Ok(Var::Local(*id));
        }
        match self.scope.globals.get(&name.text) {
            Some(id) => Ok(Var::Global(*id)),
            None => Err(error_at(
                name.pos,
                format!("undefined variable `{}`", name.text),
            )),
        }
    }

    fn block(&mut self, stmts: &[RStmt]) -> RResult<Block> {
        stmts.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, stmt: &RStmt) -> RResult<Stmt> {
        Ok(match stmt {
            RStmt::Assign(lhs, rhs) => Stmt::Assign(self.var(lhs)?, self.expr(rhs)?),
            RStmt::Havoc(vars) => Stmt::Havoc(self.vars(vars)?),
            RStmt::Assume(e) => Stmt::Assume(self.expr(e)?),
            RStmt::Assert(e, source) => Stmt::Assert {
                cond: self.expr(e)?,
                source: *source,
            },
            RStmt::Call(call) => self.call(call)?,
            RStmt::If(cond, then, else_) => self.if_stmt(cond, then, else_)?,
            RStmt::Return => Stmt::Return,
        })
    }

    fn vars(&self, names: &[Name]) -> RResult<Vec<Var>> {
        names.iter().map(|n| self.var(n)).collect()
    }

    fn if_stmt(&mut self, cond: &RExpr, then: &[RStmt], else_: &[RStmt]) -> RResult<Stmt> {
        let cond = self.expr(cond)?;
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            let then = self.block(then)?;
            let else_ = self.block(else_)?;
            Ok(Stmt::If { cond, then, else_ })
        })
    }

    fn call(&mut self, call: &RCall) -> RResult<Stmt> {
        let Some(callee) = self.scope.procs.get(&call.callee.text).copied() else {
            let message = format!("undefined procedure `{}`", call.callee.text);
            return Err(error_at(call.callee.pos, message));
        };
        let args = call
            .args
            .iter()
            .map(|a| self.expr(a))
            .collect::<RResult<_>>()?;
        let rets = self.vars(&call.rets)?;
        let site = CallSite {
            callee,
            args,
            rets,
            source: call.source,
        };
        Ok(Stmt::Call(self.sites.push(site)))
    }

    fn expr(&self, e: &RExpr) -> RResult<Expr> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_inner(e))
    }

    fn expr_inner(&self, e: &RExpr) -> RResult<Expr> {
        Ok(match &e.kind {
            RExprKind::Int(n) => Expr::Int(n.clone()),
            RExprKind::Bool(b) => Expr::Bool(*b),
            RExprKind::Var(name) => Expr::Var(self.var(name)?),
            RExprKind::Unary(op, a) => Expr::unary(*op, self.expr(a)?),
            RExprKind::Binary(op, a, b) => Expr::binary(*op, self.expr(a)?, self.expr(b)?),
            RExprKind::Ite(c, t, f) => Expr::ite(self.expr(c)?, self.expr(t)?, self.expr(f)?),
            RExprKind::Ctor(name, args) => {
                let args = args.iter().map(|a| self.expr(a)).collect::<RResult<_>>()?;
                Expr::Ctor {
                    ctor: self.ctor(name)?,
                    args,
                }
            }
            RExprKind::Is(a, name) => Expr::is(self.expr(a)?, self.ctor(name)?),
            RExprKind::Select(a, name) => {
                let arg = self.expr(a)?;
                let field = self.field(&arg, name)?;
                Expr::select(arg, field)
            }
            RExprKind::MapConst(key, value) => {
                Expr::map_const(resolve_type(self.scope, key)?, self.expr(value)?)
            }
            RExprKind::MapGet(m, i) => Expr::map_get(self.expr(m)?, self.expr(i)?),
            RExprKind::MapSet(m, i, v) => {
                Expr::map_set(self.expr(m)?, self.expr(i)?, self.expr(v)?)
            }
            RExprKind::Quant(forall, vars, body) => {
                let mut ids = Vec::new();
                for (name, ty) in vars {
                    let Some(id) = self.locals.get(name.text.as_str()) else {
                        return Err(error_at(
                            name.pos,
                            format!(
                                "the bound variable `{}` is not a local of the procedure",
                                name.text
                            ),
                        ));
                    };
                    if self.proc.locals[*id].ty != resolve_type(self.scope, ty)? {
                        return Err(error_at(
                            name.pos,
                            format!(
                                "the bound variable `{}` has another type as a local",
                                name.text
                            ),
                        ));
                    }
                    ids.push(*id);
                }
                Expr::Quant {
                    forall: *forall,
                    vars: ids,
                    body: Box::new(self.expr(body)?),
                }
            }
        })
    }

    fn ctor(&self, name: &Name) -> RResult<CtorId> {
        match self.scope.ctors.get(&name.text) {
            Some(id) => Ok(*id),
            None => Err(error_at(
                name.pos,
                format!("undefined constructor `{}`", name.text),
            )),
        }
    }

    /// The field `name` of `arg`'s datatype, or the program's only field called `name`.
    fn field(&self, arg: &Expr, name: &Name) -> RResult<FieldRef> {
        let ty = self.program.expr_type(self.proc, arg);
        if let Some(Type::Data(dt)) = ty {
            return self.program.field_by_name(dt, &name.text).ok_or_else(|| {
                let dt_name = self.program.type_name(Type::Data(dt));
                error_at(
                    name.pos,
                    format!("datatype `{dt_name}` has no field `{}`", name.text),
                )
            });
        }
        let mut candidates = self
            .program
            .datatypes
            .ids()
            .filter_map(|d| self.program.field_by_name(d, &name.text));
        match (candidates.next(), candidates.next()) {
            (Some(field), None) => Ok(field),
            (None, _) => Err(error_at(
                name.pos,
                format!("undefined field `{}`", name.text),
            )),
            (Some(_), Some(_)) => {
                let message = format!(
                    "cannot tell which field `{}` is meant: the expression's type is not a datatype",
                    name.text
                );
                Err(error_at(name.pos, message))
            }
        }
    }
}
