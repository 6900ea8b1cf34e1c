//! `while` loops as recursive procedures (CORRAL's loop extraction).

use super::*;

impl ImplTranslator<'_, '_> {
    pub(super) fn while_(
        &mut self,
        frame: Frame,
        cond: Option<&ast::Expr>,
        invariants: &[Invariant],
        body: &[AStmt],
        span: Span,
    ) -> TResult<Vec<Stmt>> {
        self.loops += 1;
        let name = self.proc_name(&format!("{}#loop{}", self.imp.proc.name.name, self.loops));
        let has_ret = contains(body, &|k| matches!(k, StmtKind::Return));
        let mut returns: Vec<(String, Type)> = self
            .scheme
            .iter()
            .filter(|v| v.mutable)
            .map(|v| (v.name.clone(), v.ty))
            .collect();
        if has_ret {
            let mut taken: BTreeSet<String> = self.scheme.iter().map(|v| v.name.clone()).collect();
            taken.extend(self.decls.globals.keys().cloned());
            returns.push((unique("returned", &mut taken), Type::Bool));
        }
        let id = self.declare_with_scheme(&name, &returns);
        let flag = has_ret.then(|| self.ir.procs[id].returns[returns.len() - 1]);
        let inner = Frame {
            proc: id,
            in_loop: Some(flag),
            hoist: false,
        };
        self.loop_body(inner, cond, invariants, body, span)?;
        // The loop from the enclosing procedure.
        let mut out = Vec::new();
        let mut rets = self.mutable_vars(frame.proc);
        let returned = has_ret.then(|| self.ir.fresh_local(frame.proc, "returned", Type::Bool));
        rets.extend(returned.map(Var::Local));
        let args = self.scheme_args(frame.proc);
        out.push(self.call_stmt(frame.proc, id, args, rets, span));
        if let Some(r) = returned {
            let leave = self.ret(frame)?;
            out.push(Stmt::if_(Expr::var(r), leave, Vec::new()));
        }
        Ok(out)
    }

    /// `P#loopK`: copy in, invariants, then `if (cond) { body; call P#loopK(…) }`.
    fn loop_body(
        &mut self,
        frame: Frame,
        cond: Option<&ast::Expr>,
        invariants: &[Invariant],
        body: &[AStmt],
        span: Span,
    ) -> TResult<()> {
        let mut out = self.copy_in(frame);
        if let Some(Some(flag)) = frame.in_loop {
            out.push(Stmt::assign(flag, Expr::Bool(false)));
        }
        for inv in invariants {
            let e = self.body_expr(frame, &inv.cond, Some(Ty::Bool))?.0;
            if !inv.free {
                out.push(Stmt::assert(e.clone(), Some(self.pos(inv.cond.span))));
            }
            out.push(Stmt::Assume(e));
        }
        let c = match cond {
            Some(c) => self.body_expr(frame, c, Some(Ty::Bool))?.0,
            None => Expr::var(self.choice(frame, Type::Bool, span, &mut out)),
        };
        let mut then = self.stmts(frame, body)?;
        let mut rets = self.mutable_vars(frame.proc);
        if let Some(Some(flag)) = frame.in_loop {
            rets.push(Var::Local(flag));
        }
        let args = self.scheme_args(frame.proc);
        then.push(self.call_stmt(frame.proc, frame.proc, args, rets, span));
        out.push(Stmt::if_(c, then, Vec::new()));
        self.ir.set_body(frame.proc, out);
        Ok(())
    }
}
