//! Body-level rules: statement and expression typing, calls, assignability and the
//! read/write effects of each procedure (direct and through callees).

use std::collections::HashSet;

use super::{Context, VerifyError, VerifyErrorKind};
use crate::ir::{
    BinOp, CallSiteId, CtorId, Expr, FieldRef, GlobalId, MapType, ProcId, Procedure, Program, Stmt,
    Type, UnOp, Var, binop_result, call_sites_in_order, is_key_type,
};
use crate::print::print_stmt_header;

/// Reports every body-level violation of procedure `id` into `errors`.
pub(super) fn check(program: &Program, id: ProcId, errors: &mut Vec<VerifyError>) {
    let proc = &program.procs[id];
    let mut cx = Body {
        program,
        proc,
        errors,
        context: Context::Procedure {
            name: proc.name.clone(),
        },
        index: 0,
    };
    cx.block(&proc.body);
    cx.context = Context::Procedure {
        name: proc.name.clone(),
    };
    cx.call_site_numbering();
}

/// The type of `expr` in `proc`, reporting every violation inside it into `errors`.
pub(super) fn expr_type(
    program: &Program,
    proc: &Procedure,
    expr: &Expr,
    errors: &mut Vec<VerifyError>,
) -> Option<Type> {
    let context = Context::Procedure {
        name: proc.name.clone(),
    };
    Body {
        program,
        proc,
        errors,
        context,
        index: 0,
    }
    .expr(expr)
}

struct Body<'a> {
    program: &'a Program,
    proc: &'a Procedure,
    errors: &'a mut Vec<VerifyError>,
    context: Context,
    /// Pre-order number of the next statement.
    index: usize,
}

impl Body<'_> {
    fn report(&mut self, kind: VerifyErrorKind) {
        self.errors.push(VerifyError {
            context: self.context.clone(),
            kind,
        });
    }

    fn type_name(&self, ty: Type) -> String {
        self.program.type_name(ty)
    }

    fn missing(&mut self, what: &'static str, id: impl ToString) {
        self.report(VerifyErrorKind::Missing {
            what,
            id: id.to_string(),
        });
    }

    // ---- statements ----------------------------------------------------------------

    fn block(&mut self, block: &[Stmt]) {
        for stmt in block {
            self.context = Context::Statement {
                proc: self.proc.name.clone(),
                index: self.index,
                text: print_stmt_header(self.program, self.proc, stmt),
            };
            self.index += 1;
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Assign(var, value) => self.assign(*var, value),
            Stmt::Havoc(vars) => self.havoc(vars),
            Stmt::Assume(cond) => self.expect(cond, Type::Bool, "condition of `assume`"),
            Stmt::Assert { cond, .. } => self.expect(cond, Type::Bool, "condition of `assert`"),
            Stmt::Call(site) => self.call(*site),
            Stmt::If { cond, then, else_ } => {
                self.expect(cond, Type::Bool, "condition of `if`");
                stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                    self.block(then);
                    self.block(else_);
                });
            }
            Stmt::Return => {}
        }
    }

    fn assign(&mut self, var: Var, value: &Expr) {
        let var_ty = self.written(var);
        let value_ty = self.expr(value);
        if let (Some(expected), Some(found)) = (var_ty, value_ty) {
            let what = format!("assignment to `{}`", self.var_name(var));
            self.mismatch(&what, expected, found);
        }
    }

    fn havoc(&mut self, vars: &[Var]) {
        if vars.is_empty() {
            self.report(VerifyErrorKind::EmptyHavoc);
        }
        for var in vars {
            self.written(*var);
        }
    }

    /// Checks that `var` exists and may be written here; returns its type.
    fn written(&mut self, var: Var) -> Option<Type> {
        let ty = self.var_type(var)?;
        match var {
            Var::Local(l) if self.proc.is_param(l) => {
                let name = self.var_name(var);
                self.report(VerifyErrorKind::AssignsParam { name });
            }
            Var::Global(g) => self.global_written(g, None),
            Var::Local(_) => {}
        }
        Some(ty)
    }

    fn global_written(&mut self, g: GlobalId, callee: Option<String>) {
        if !self.proc.modifies.contains(&g) {
            let global = self.var_name(Var::Global(g));
            self.report(VerifyErrorKind::WriteNotInModifies { global, callee });
        }
    }

    fn global_read(&mut self, g: GlobalId, callee: Option<String>) {
        if !self.proc.modifies.contains(&g) && !self.proc.reads.contains(&g) {
            let global = self.var_name(Var::Global(g));
            self.report(VerifyErrorKind::ReadNotDeclared { global, callee });
        }
    }

    fn var_type(&mut self, var: Var) -> Option<Type> {
        let ty = self.program.var_type(self.proc, var);
        if ty.is_none() {
            match var {
                Var::Local(l) => self.missing("local variable", l),
                Var::Global(g) => self.missing("global variable", g),
            }
        }
        ty
    }

    fn var_name(&self, var: Var) -> String {
        self.program
            .var_name(self.proc, var)
            .map_or_else(|| format!("{var:?}"), str::to_string)
    }

    // ---- calls ---------------------------------------------------------------------

    fn call(&mut self, site: CallSiteId) {
        let Some(cs) = self.proc.call_sites.get(site) else {
            return self.missing("call site", site);
        };
        let Some(callee) = self.program.procs.get(cs.callee) else {
            return self.missing("procedure", cs.callee);
        };
        let name = format!("`{}`", callee.name);
        self.arity(
            &format!("number of arguments of {name}"),
            callee.params.len(),
            cs.args.len(),
        );
        for (i, (arg, param)) in cs.args.iter().zip(&callee.params).enumerate() {
            let found = self.expr(arg);
            let expected = callee.locals.get(*param).map(|l| l.ty);
            self.mismatch_opt(&format!("argument {} of {name}", i + 1), expected, found);
        }
        self.call_results(cs.rets.as_slice(), callee, &name);
        self.callee_effects(callee);
    }

    fn call_results(&mut self, rets: &[Var], callee: &Procedure, name: &str) {
        self.arity(
            &format!("number of results of {name}"),
            callee.returns.len(),
            rets.len(),
        );
        let mut seen = HashSet::new();
        for (i, (var, ret)) in rets.iter().zip(&callee.returns).enumerate() {
            if !seen.insert(*var) {
                let name = self.var_name(*var);
                self.report(VerifyErrorKind::DuplicateCallResult { name });
            }
            let var_ty = self.written(*var);
            let ret_ty = callee.locals.get(*ret).map(|l| l.ty);
            self.mismatch_opt(&format!("result {} of {name}", i + 1), var_ty, ret_ty);
        }
    }

    fn callee_effects(&mut self, callee: &Procedure) {
        let via = Some(callee.name.clone());
        for g in &callee.modifies {
            self.global_written(*g, via.clone());
        }
        for g in &callee.reads {
            self.global_read(*g, via.clone());
        }
    }

    fn call_site_numbering(&mut self) {
        let used = call_sites_in_order(&self.proc.body);
        let mut counts = vec![0usize; self.proc.call_sites.len()];
        for site in &used {
            if let Some(count) = counts.get_mut(site.0 as usize) {
                *count += 1;
            }
        }
        let misused: Vec<(usize, usize)> = counts
            .into_iter()
            .enumerate()
            .filter(|(_, c)| *c != 1)
            .collect();
        for (i, count) in &misused {
            let site = CallSiteId(*i as u32).to_string();
            self.report(VerifyErrorKind::CallSiteUse {
                site,
                count: *count,
            });
        }
        let in_order = used.iter().enumerate().all(|(i, s)| s.0 as usize == i);
        if misused.is_empty() && used.len() == self.proc.call_sites.len() && !in_order {
            self.report(VerifyErrorKind::CallSiteOrder);
        }
    }

    // ---- expressions ---------------------------------------------------------------

    fn arity(&mut self, what: &str, expected: usize, found: usize) {
        if expected != found {
            self.report(VerifyErrorKind::Arity {
                what: what.to_string(),
                expected,
                found,
            });
        }
    }

    fn mismatch(&mut self, what: &str, expected: Type, found: Type) {
        if expected != found {
            let (expected, found) = (self.type_name(expected), self.type_name(found));
            self.report(VerifyErrorKind::TypeMismatch {
                what: what.to_string(),
                expected,
                found,
            });
        }
    }

    fn mismatch_opt(&mut self, what: &str, expected: Option<Type>, found: Option<Type>) {
        if let (Some(expected), Some(found)) = (expected, found) {
            self.mismatch(what, expected, found);
        }
    }

    fn expect(&mut self, e: &Expr, expected: Type, what: &str) {
        let found = self.expr(e);
        self.mismatch_opt(what, Some(expected), found);
    }

    /// The type of `e`, reporting every violation inside; `None` if it has no type.
    fn expr(&mut self, e: &Expr) -> Option<Type> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &Expr) -> Option<Type> {
        match e {
            Expr::Int(_) => Some(Type::Int),
            Expr::Bool(_) => Some(Type::Bool),
            Expr::Var(var) => self.read(*var),
            Expr::Unary { op, arg } => self.unary(*op, arg),
            Expr::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            Expr::Ite { cond, then, else_ } => self.ite(cond, then, else_),
            Expr::Ctor { ctor, args } => self.ctor_app(*ctor, args),
            Expr::Is { arg, ctor } => self.tester(arg, *ctor),
            Expr::Select { arg, field } => self.selector(arg, *field),
            Expr::Quant { vars, body, .. } => {
                for v in vars {
                    self.var_type(Var::Local(*v));
                }
                self.expect(body, Type::Bool, "body of a quantifier");
                Some(Type::Bool)
            }
            Expr::MapConst { key, value } => {
                let value = self.expr(value)?;
                let ty = Type::map(*key, value);
                if !is_key_type(*key) {
                    let ty = self.type_name(ty);
                    self.report(VerifyErrorKind::MapKeyType { ty });
                }
                Some(ty)
            }
            Expr::MapGet { map, index } => {
                let m = self.map_operand(map, index, "map read");
                m.map(|m| m.value())
            }
            Expr::MapSet { map, index, value } => {
                let m = self.map_operand(map, index, "map update");
                let found = self.expr(value);
                let expected = m.map(|m| m.value());
                self.mismatch_opt("value of the map update", expected, found);
                m.map(Type::Map)
            }
        }
    }

    /// Checks `map[index]`: `map` is a map, `index` of its key type.
    fn map_operand(&mut self, map: &Expr, index: &Expr, what: &str) -> Option<MapType> {
        let found = self.expr(map);
        let index_ty = self.expr(index);
        match found? {
            Type::Map(m) => {
                self.mismatch_opt(&format!("index of the {what}"), Some(m.key()), index_ty);
                Some(m)
            }
            other => {
                let found = self.type_name(other);
                let what = format!("operand of the {what}");
                self.report(VerifyErrorKind::NotAMap { what, found });
                None
            }
        }
    }

    fn read(&mut self, var: Var) -> Option<Type> {
        let ty = self.var_type(var)?;
        if let Var::Global(g) = var {
            self.global_read(g, None);
        }
        Some(ty)
    }

    fn unary(&mut self, op: UnOp, arg: &Expr) -> Option<Type> {
        let (ty, what) = match op {
            UnOp::Neg => (Type::Int, "operand of `-`"),
            UnOp::Not => (Type::Bool, "operand of `!`"),
        };
        self.expect(arg, ty, what);
        Some(ty)
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr) -> Option<Type> {
        let what = format!("operand of `{}`", op.symbol());
        match op {
            BinOp::Eq | BinOp::Neq => {
                let (l, r) = (self.expr(lhs), self.expr(rhs));
                self.mismatch_opt(&format!("right {what}"), l, r);
            }
            BinOp::And | BinOp::Or | BinOp::Implies => {
                self.expect(lhs, Type::Bool, &what);
                self.expect(rhs, Type::Bool, &what);
            }
            _ => {
                self.expect(lhs, Type::Int, &what);
                self.expect(rhs, Type::Int, &what);
            }
        }
        Some(binop_result(op))
    }

    fn ite(&mut self, cond: &Expr, then: &Expr, else_: &Expr) -> Option<Type> {
        self.expect(cond, Type::Bool, "condition of `if then else`");
        let (t, f) = (self.expr(then), self.expr(else_));
        self.mismatch_opt("`else` branch of `if then else`", t, f);
        t.or(f)
    }

    fn ctor_app(&mut self, ctor: CtorId, args: &[Expr]) -> Option<Type> {
        let Some(c) = self.program.ctor(ctor) else {
            for a in args {
                self.expr(a);
            }
            self.missing("constructor", format!("{ctor:?}"));
            return None;
        };
        let name = format!("`{}`", c.name);
        self.arity(
            &format!("number of arguments of {name}"),
            c.fields.len(),
            args.len(),
        );
        for (i, (arg, field)) in args.iter().zip(&c.fields).enumerate() {
            let found = self.expr(arg);
            self.mismatch_opt(
                &format!("argument {} of {name}", i + 1),
                Some(field.ty),
                found,
            );
        }
        for a in args.iter().skip(c.fields.len()) {
            self.expr(a);
        }
        Some(Type::Data(ctor.datatype))
    }

    fn tester(&mut self, arg: &Expr, ctor: CtorId) -> Option<Type> {
        match self.program.ctor(ctor) {
            Some(c) => {
                let what = format!("operand of `is {}`", c.name);
                self.expect(arg, Type::Data(ctor.datatype), &what);
            }
            None => {
                self.expr(arg);
                self.missing("constructor", format!("{ctor:?}"));
            }
        }
        Some(Type::Bool)
    }

    fn selector(&mut self, arg: &Expr, field: FieldRef) -> Option<Type> {
        let Some(f) = self.program.field(field) else {
            self.expr(arg);
            self.missing("field", format!("{field:?}"));
            return None;
        };
        let what = format!("operand of `->{}`", f.name);
        self.expect(arg, Type::Data(field.ctor.datatype), &what);
        Some(f.ty)
    }
}
