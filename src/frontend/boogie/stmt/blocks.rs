//! Top-level labelled blocks and `goto`: inlined when reached from one `goto` target only
//! (in its branch of a nondeterministic choice when the `goto` has several), else a
//! procedure `P#L` that a `goto` tail-calls.

use super::*;

impl ImplTranslator<'_, '_> {
    /// The statements of segment `index`, then its fall-through (the next block, or the
    /// implementation's end).
    pub(super) fn segment(&mut self, frame: Frame, index: usize) -> TResult<Vec<Stmt>> {
        let stmts = self.segments[index].stmts;
        let mut out = self.stmts(frame, stmts)?;
        if ends_in_jump(stmts) {
            return Ok(out);
        }
        match self.segments.get(index + 1).and_then(|s| s.label) {
            Some(next) => {
                let next = next.clone();
                out.extend(self.goto(frame, std::slice::from_ref(&next), next.span)?)
            }
            None => out.extend(self.ensures(frame)?),
        }
        Ok(out)
    }

    fn label_index(&self, label: &Ident) -> TResult<usize> {
        self.segments
            .iter()
            .position(|s| s.label.is_some_and(|l| l.name == label.name))
            .ok_or_else(|| {
                Diagnostic::error(
                    label.span,
                    format!(
                        "undefined label `{}` (labels must be at the top level of the body)",
                        label.name
                    ),
                    "no such label",
                )
            })
    }

    pub(super) fn goto(
        &mut self,
        frame: Frame,
        targets: &[Ident],
        span: Span,
    ) -> TResult<Vec<Stmt>> {
        if frame.in_loop.is_some() {
            return Err(unsupported(span, "`goto` inside a `while` loop"));
        }
        let indices = targets
            .iter()
            .map(|t| self.label_index(t))
            .collect::<TResult<Vec<_>>>()?;
        let mut tails = Vec::new();
        for (t, index) in targets.iter().zip(indices) {
            // A target no other `goto` (or fall-through) reaches runs inline (in its branch
            // when there are several): a loop then costs one procedure per block where
            // paths merge, not one per block.
            let name = t.name.to_string();
            if self.refs.get(&name) == Some(&1) && self.inlined.insert(name) {
                tails.push(self.segment(frame, index)?);
                continue;
            }
            let block = self.block_proc(&t.name, index);
            let args = self.scheme_args(frame.proc);
            let rets = self
                .imp
                .outs
                .iter()
                .map(|o| Var::Local(self.local(frame.proc, &o.name.name)))
                .collect();
            let call = self.call_stmt(frame.proc, block, args, rets, t.span);
            tails.push(vec![call, Stmt::Return]);
        }
        if tails.len() == 1 {
            return Ok(tails.pop().unwrap_or_default());
        }
        let mut out = Vec::new();
        let nd = self.choice(frame, Type::Int, span, &mut out);
        let mut chain = tails.pop().unwrap_or_default();
        while let Some(tail) = tails.pop() {
            let k = tails.len() as i64;
            let pick = Expr::eq(Expr::var(nd), Expr::int(k));
            chain = vec![Stmt::if_(pick, tail, chain)];
        }
        out.extend(chain);
        Ok(out)
    }

    /// The procedure of the block at `label` (declared on first use, translated later).
    fn block_proc(&mut self, label: &str, index: usize) -> ProcId {
        if let Some(id) = self.blocks.get(label) {
            return *id;
        }
        let name = self.proc_name(&format!("{}#{label}", self.imp.proc.name.name));
        let outs: Vec<(String, Type)> = self
            .scheme
            .iter()
            .filter(|v| v.mutable)
            .take(self.imp.outs.len())
            .map(|v| (v.name.clone(), v.ty))
            .collect();
        let id = self.declare_with_scheme(&name, &outs);
        for v in self
            .scheme
            .iter()
            .skip(self.imp.ins.len() + self.imp.outs.len())
            .filter(|v| v.mutable)
        {
            self.ir.procs[id].add_local(v.name.clone(), v.ty);
        }
        self.blocks.insert(label.to_string(), id);
        self.pending.push((index, id));
        id
    }
}
