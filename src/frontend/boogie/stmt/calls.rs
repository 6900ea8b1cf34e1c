//! Calls: the callee's checked `requires` asserted at the call site, its `ensures` assumed
//! after it (arguments and `old` globals saved first); a callee without a body havocs its
//! outs and its `modifies` instead of being called.

use super::*;

impl ImplTranslator<'_, '_> {
    pub(super) fn call(
        &mut self,
        frame: Frame,
        outs: &[Ident],
        name: &Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> TResult<Vec<Stmt>> {
        let Some(callee) = self.decls.procs.get(&*name.name).copied() else {
            return Err(Diagnostic::error(
                name.span,
                format!("undefined procedure `{}`", name.name),
                "not declared here",
            ));
        };
        check_arity(span, &name.name, callee.ins.len(), args.len(), "procedure")?;
        if callee.outs.len() != outs.len() {
            return Err(Diagnostic::error(
                span,
                format!(
                    "the procedure `{}` returns {} value(s), the call takes {}",
                    name.name,
                    callee.outs.len(),
                    outs.len()
                ),
                "wrong number of results",
            ));
        }
        let mut out = Vec::new();
        let mut actuals = Vec::new();
        for (a, formal) in args.iter().zip(&callee.ins) {
            actuals.push(self.body_expr(frame, a, Some(formal.ty))?.0);
        }
        let mut rets = Vec::new();
        for (o, formal) in outs.iter().zip(&callee.outs) {
            let (var, ty) = self.lhs(frame, o)?;
            check_type(o.span, ty, formal.ty)?;
            if rets.contains(&var) {
                return Err(Diagnostic::error(
                    o.span,
                    format!("`{}` receives two results", o.name),
                    "again here",
                ));
            }
            rets.push(var);
        }
        // Checked preconditions: assertions at the call site.
        let pre: HashMap<String, Typed> = callee
            .ins
            .iter()
            .zip(&actuals)
            .map(|(f, a)| (f.name.name.to_string(), (a.clone(), f.ty)))
            .collect();
        for spec in &callee.specs {
            if let ast::Spec::Requires { free: false, cond } = spec {
                let e = self.contract_expr(frame.proc, cond, &pre, &HashMap::new())?;
                out.push(Stmt::assert(e, Some(self.pos(span))));
            }
        }
        let ensures: Vec<&ast::Expr> = callee
            .specs
            .iter()
            .filter_map(|s| match s {
                ast::Spec::Ensures { cond, .. } => Some(cond),
                _ => None,
            })
            .collect();
        let bodiless = !self.decls.ir_procs.contains_key(&*name.name);
        // Arguments and old globals saved when the postconditions need them.
        let mut post: HashMap<String, Typed> = HashMap::new();
        let mut olds: HashMap<String, Expr> = HashMap::new();
        if !ensures.is_empty() {
            for (f, a) in callee.ins.iter().zip(actuals.iter_mut()) {
                let t =
                    self.ir
                        .fresh_local(frame.proc, &format!("{}#arg", f.name.name), ir_type(f.ty));
                out.push(Stmt::assign(t, a.clone()));
                *a = Expr::var(t);
                post.insert(f.name.name.to_string(), (Expr::var(t), f.ty));
            }
            let mut saved = Vec::new();
            for e in &ensures {
                old_globals(e, &self.decls.globals, &mut saved);
            }
            for g in saved {
                let gid = self.ir.global_by_name(&g).expect("internal error: global");
                let ty = ir_type(self.decls.globals[&g]);
                let t = self.ir.fresh_local(frame.proc, &format!("{g}#pre"), ty);
                out.push(Stmt::assign(t, Expr::var(gid)));
                olds.insert(g, Expr::var(t));
            }
        }
        if bodiless {
            for (var, o) in rets.iter().zip(outs) {
                let ty = self.var_type(frame, *var);
                let pos = self.pos(o.span);
                let stmt = self.nondet(
                    frame,
                    *var,
                    ty,
                    format!("{}#{}.{}", o.name, pos.line, pos.col),
                );
                out.push(stmt);
            }
            for spec in &callee.specs {
                if let ast::Spec::Modifies(names) = spec {
                    for n in names {
                        let g = self
                            .ir
                            .global_by_name(&n.name)
                            .expect("internal error: global");
                        let ty = self.ir.globals[g].ty;
                        let pos = self.pos(span);
                        let stmt = self.nondet(
                            frame,
                            Var::Global(g),
                            ty,
                            format!("{}#{}.{}", n.name, pos.line, pos.col),
                        );
                        out.push(stmt);
                    }
                }
            }
        } else {
            let id = self.decls.ir_procs[&*name.name];
            out.push(self.call_stmt(frame.proc, id, actuals, rets.clone(), span));
        }
        for (f, var) in callee.outs.iter().zip(&rets) {
            post.insert(f.name.name.to_string(), (Expr::var(*var), f.ty));
        }
        for e in ensures {
            out.push(Stmt::Assume(
                self.contract_expr(frame.proc, e, &post, &olds)?,
            ));
        }
        Ok(out)
    }
}
