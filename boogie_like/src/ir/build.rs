//! The builder API: methods on [`Program`] and [`Procedure`] for a lowering pass.
//!
//! Declare first, fill in later: datatypes get their constructors after every datatype is
//! declared (mutual recursion), procedures are declared with their signature and get their
//! body later (mutual recursion), and call sites are created while building a body.
//! Guarantees: [`Program::declare_proc`] lays out locals as params, returns, body locals;
//! [`Program::set_body`] renumbers call sites into textual order. Passing an id that does not
//! belong to the program is a bug in the caller and panics with an internal-error message.

use std::collections::HashMap;

use super::{
    Block, CallSite, CallSiteId, Constructor, CtorId, Datatype, DatatypeId, Expr, Field, Global,
    GlobalId, Local, LocalId, ProcId, Procedure, Program, SortDecl, SortId, SourcePos, Stmt, Type,
    Var,
};
use crate::arena::Arena;

impl Program {
    /// An empty program.
    pub fn new() -> Program {
        Program::default()
    }

    /// Declares an uninterpreted sort.
    pub fn add_sort(&mut self, name: impl Into<String>) -> SortId {
        self.sorts.push(SortDecl { name: name.into() })
    }

    /// Declares a datatype without constructors (add them with [`Program::add_ctor`]).
    pub fn add_datatype(&mut self, name: impl Into<String>) -> DatatypeId {
        self.datatypes.push(Datatype {
            name: name.into(),
            ctors: Vec::new(),
        })
    }

    /// Adds a constructor with the given `(field name, type)` list to `datatype`.
    pub fn add_ctor<S: Into<String>>(
        &mut self,
        datatype: DatatypeId,
        name: impl Into<String>,
        fields: Vec<(S, Type)>,
    ) -> CtorId {
        let fields = fields
            .into_iter()
            .map(|(n, ty)| Field { name: n.into(), ty })
            .collect();
        let dt = &mut self.datatypes[datatype];
        dt.ctors.push(Constructor {
            name: name.into(),
            fields,
        });
        CtorId {
            datatype,
            index: (dt.ctors.len() - 1) as u32,
        }
    }

    /// Declares a global variable.
    pub fn add_global(&mut self, name: impl Into<String>, ty: Type) -> GlobalId {
        self.globals.push(Global {
            name: name.into(),
            ty,
        })
    }

    /// Declares a procedure with an empty body; `params` and `returns` become its first locals.
    pub fn declare_proc(
        &mut self,
        name: impl Into<String>,
        params: &[(&str, Type)],
        returns: &[(&str, Type)],
    ) -> ProcId {
        let mut proc = Procedure::new(name);
        proc.params = params
            .iter()
            .map(|(n, ty)| proc.add_local(*n, *ty))
            .collect();
        proc.returns = returns
            .iter()
            .map(|(n, ty)| proc.add_local(*n, *ty))
            .collect();
        self.procs.push(proc)
    }

    /// Marks `proc` as the (only) entry procedure, unmarking any other.
    pub fn set_entrypoint(&mut self, proc: ProcId) {
        for (id, p) in self.procs.iter_mut() {
            p.entrypoint = id == proc;
        }
    }

    /// Sets the body of `proc` and renumbers its call sites into textual order (sites the
    /// body does not use are dropped).
    pub fn set_body(&mut self, proc: ProcId, body: Block) {
        let p = &mut self.procs[proc];
        p.body = body;
        p.renumber_call_sites();
    }

    /// Adds a body local to `proc` whose name is `base`, or `base#k` for the first `k` that
    /// clashes with no local of `proc` and no global.
    pub fn fresh_local(&mut self, proc: ProcId, base: &str, ty: Type) -> LocalId {
        let taken = |name: &str, p: &Procedure| {
            p.local_by_name(name).is_some() || self.global_by_name(name).is_some()
        };
        let p = &self.procs[proc];
        let mut name = base.to_string();
        let mut k = 0usize;
        while taken(&name, p) {
            k += 1;
            name = format!("{base}#{k}");
        }
        self.procs[proc].add_local(name, ty)
    }
}

impl Procedure {
    /// A procedure without parameters, returns, locals or statements.
    pub fn new(name: impl Into<String>) -> Procedure {
        Procedure {
            name: name.into(),
            params: Vec::new(),
            returns: Vec::new(),
            locals: Arena::new(),
            modifies: Vec::new(),
            reads: Vec::new(),
            entrypoint: false,
            body: Vec::new(),
            call_sites: Arena::new(),
        }
    }

    /// Adds a local variable (after the params and returns, it is a body local).
    pub fn add_local(&mut self, name: impl Into<String>, ty: Type) -> LocalId {
        self.locals.push(Local {
            name: name.into(),
            ty,
        })
    }

    /// Creates a call site and returns the `call` statement that uses it.
    pub fn add_call(
        &mut self,
        callee: ProcId,
        args: Vec<Expr>,
        rets: Vec<Var>,
        source: Option<SourcePos>,
    ) -> Stmt {
        Stmt::Call(self.call_sites.push(CallSite {
            callee,
            args,
            rets,
            source,
        }))
    }

    /// Renumbers the call sites into the textual order of the body's `call` statements and
    /// drops unused ones. Leaves the procedure unchanged if the body uses a missing site.
    pub fn renumber_call_sites(&mut self) {
        let order = super::call_sites_in_order(&self.body);
        if order.iter().any(|s| !self.call_sites.contains(*s)) {
            return;
        }
        let mut map: HashMap<CallSiteId, CallSiteId> = HashMap::new();
        let mut sites = Arena::new();
        for old in order {
            map.entry(old)
                .or_insert_with(|| sites.push(self.call_sites[old].clone()));
        }
        rename_sites(&mut self.body, &map);
        self.call_sites = sites;
    }
}

fn rename_sites(block: &mut Block, map: &HashMap<CallSiteId, CallSiteId>) {
    for stmt in block {
        match stmt {
            Stmt::Call(site) => *site = map[site],
            Stmt::If { then, else_, .. } => {
                stacker::maybe_grow(32 * 1024, 1024 * 1024, || {
                    rename_sites(then, map);
                    rename_sites(else_, map);
                });
            }
            _ => {}
        }
    }
}

impl Stmt {
    /// `var := value;`
    pub fn assign(var: impl Into<Var>, value: Expr) -> Stmt {
        Stmt::Assign(var.into(), value)
    }

    /// `assert {:source …} cond;`
    pub fn assert(cond: Expr, source: Option<SourcePos>) -> Stmt {
        Stmt::Assert { cond, source }
    }

    /// `if (cond) { then } else { else_ }`
    pub fn if_(cond: Expr, then: Block, else_: Block) -> Stmt {
        Stmt::If { cond, then, else_ }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declare_proc_lays_out_params_then_returns() {
        let mut p = Program::new();
        let f = p.declare_proc(
            "f",
            &[("a", Type::Int), ("b", Type::Bool)],
            &[("r", Type::Int)],
        );
        let x = p.fresh_local(f, "a", Type::Int);
        let proc = &p.procs[f];
        assert_eq!(proc.params, vec![LocalId(0), LocalId(1)]);
        assert_eq!(proc.returns, vec![LocalId(2)]);
        assert_eq!(proc.locals[x].name, "a#1");
        assert_eq!(proc.body_locals().collect::<Vec<_>>(), vec![x]);
    }

    #[test]
    fn set_body_renumbers_call_sites_textually() {
        let mut p = Program::new();
        let f = p.declare_proc("f", &[], &[]);
        let proc = &mut p.procs[f];
        let _unused = proc.add_call(f, vec![], vec![], None);
        let second = proc.add_call(f, vec![], vec![], Some(SourcePos { line: 2, col: 1 }));
        let first = proc.add_call(f, vec![], vec![], Some(SourcePos { line: 1, col: 1 }));
        let body = vec![Stmt::if_(Expr::Bool(true), vec![first], vec![second])];
        p.set_body(f, body);
        let proc = &p.procs[f];
        assert_eq!(proc.call_sites.len(), 2);
        assert_eq!(
            super::super::call_sites_in_order(&proc.body),
            vec![CallSiteId(0), CallSiteId(1)]
        );
        assert_eq!(
            proc.call_sites[CallSiteId(0)].source,
            Some(SourcePos { line: 1, col: 1 })
        );
    }

    #[test]
    fn ctor_ids_and_field_lookup() {
        let mut p = Program::new();
        let list = p.add_datatype("IntList");
        let nil = p.add_ctor::<&str>(list, "nil", vec![]);
        let cons = p.add_ctor(
            list,
            "cons",
            vec![("head", Type::Int), ("tail", Type::Data(list))],
        );
        assert_eq!(nil.index, 0);
        assert_eq!(p.ctor_by_name("cons"), Some(cons));
        let tail = p.field_by_name(list, "tail").map(|f| (f.ctor, f.index));
        assert_eq!(tail, Some((cons, 1)));
        assert_eq!(p.type_name(Type::Data(list)), "IntList");
    }

    #[test]
    fn the_docs_example_builds_a_valid_program() {
        let mut p = Program::new();
        let clo = p.add_datatype("Clo_Int_Int");
        let _k_succ = p.add_ctor::<&str>(clo, "K_succ", vec![]);
        let _k_f = p.add_ctor(clo, "K_f_fun1", vec![("K_f_fun1.g", Type::Data(clo))]);
        let r1 = p.add_global("r1", Type::Int);
        let main = p.declare_proc("main", &[("n", Type::Int)], &[("ret", Type::Int)]);
        let succ = p.declare_proc("succ", &[("x", Type::Int)], &[("r", Type::Int)]);
        p.set_entrypoint(main);
        p.procs[main].modifies.push(r1);
        let x = p.fresh_local(main, "x", Type::Int);
        let source = Some(SourcePos { line: 12, col: 5 });
        let call = p.procs[main].add_call(
            succ,
            vec![Expr::var(LocalId(0))],
            vec![Var::Local(x)],
            source,
        );
        p.set_body(main, vec![call, Stmt::assign(LocalId(1), Expr::var(x))]);
        p.set_body(succ, vec![Stmt::assign(LocalId(1), Expr::var(LocalId(0)))]);
        assert_eq!(crate::verify::verify(&p), Ok(()));
    }
}
