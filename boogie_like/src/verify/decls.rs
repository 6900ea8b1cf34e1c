//! Declaration-level rules: names, types of declarations, inhabited datatypes, the
//! entrypoint, the locals layout and the `reads`/`modifies` lists.

use std::collections::{HashMap, HashSet};

use super::{Context, NameKind, VerifyError, VerifyErrorKind};
use crate::ir::{DatatypeId, GlobalId, LocalId, Procedure, Program, Type, is_key_type};
use crate::parse::is_valid_name;

struct Decls<'a> {
    program: &'a Program,
    errors: &'a mut Vec<VerifyError>,
}

/// Reports every declaration-level violation of `program` into `errors`.
pub(super) fn check(program: &Program, errors: &mut Vec<VerifyError>) {
    let mut cx = Decls { program, errors };
    cx.datatypes();
    cx.globals();
    cx.procedures();
    cx.entrypoint();
}

impl Decls<'_> {
    fn report(&mut self, context: Context, kind: VerifyErrorKind) {
        self.errors.push(VerifyError { context, kind });
    }

    /// Reports invalid names, and duplicates within `names`.
    fn names<'n>(
        &mut self,
        context: &Context,
        kind: NameKind,
        names: impl Iterator<Item = &'n str>,
    ) {
        let mut seen = HashSet::new();
        for name in names {
            if !is_valid_name(name) {
                self.report(
                    context.clone(),
                    VerifyErrorKind::InvalidName {
                        kind,
                        name: name.into(),
                    },
                );
            }
            if !seen.insert(name) {
                self.report(
                    context.clone(),
                    VerifyErrorKind::DuplicateName {
                        kind,
                        name: name.into(),
                    },
                );
            }
        }
    }

    fn check_type(&mut self, context: &Context, ty: Type) {
        match ty {
            Type::Data(d) if !self.program.datatypes.contains(d) => {
                let kind = VerifyErrorKind::Missing {
                    what: "datatype",
                    id: d.to_string(),
                };
                self.report(context.clone(), kind);
            }
            Type::Sort(s) if !self.program.sorts.contains(s) => {
                let kind = VerifyErrorKind::Missing {
                    what: "sort",
                    id: s.to_string(),
                };
                self.report(context.clone(), kind);
            }
            Type::Map(m) => {
                if !is_key_type(m.key()) {
                    let ty = self.program.type_name(ty);
                    self.report(context.clone(), VerifyErrorKind::MapKeyType { ty });
                }
                self.check_type(context, m.key());
                self.check_type(context, m.value());
            }
            _ => {}
        }
    }

    fn datatypes(&mut self) {
        let program = self.program;
        self.names(
            &Context::Program,
            NameKind::Datatype,
            (program.sorts.values().map(|s| s.name.as_str()))
                .chain(program.datatypes.values().map(|d| d.name.as_str())),
        );
        let ctors = program.ctors().map(|(_, c)| c.name.as_str());
        self.names(&Context::Program, NameKind::Constructor, ctors);
        let inhabited = inhabited_datatypes(program);
        for (id, dt) in program.datatypes.iter() {
            let context = Context::Datatype {
                name: dt.name.clone(),
            };
            let fields = dt.ctors.iter().flat_map(|c| &c.fields);
            self.names(
                &context,
                NameKind::Field,
                fields.clone().map(|f| f.name.as_str()),
            );
            fields.for_each(|f| self.check_type(&context, f.ty));
            if !inhabited.contains(&id) {
                self.report(
                    context,
                    VerifyErrorKind::Uninhabited {
                        name: dt.name.clone(),
                    },
                );
            }
        }
    }

    fn globals(&mut self) {
        let program = self.program;
        self.names(
            &Context::Program,
            NameKind::Global,
            program.globals.values().map(|g| g.name.as_str()),
        );
        for (_, g) in program.globals.iter() {
            self.check_type(
                &Context::Global {
                    name: g.name.clone(),
                },
                g.ty,
            );
        }
    }

    fn procedures(&mut self) {
        let program = self.program;
        self.names(
            &Context::Program,
            NameKind::Procedure,
            program.procs.values().map(|p| p.name.as_str()),
        );
        for (_, proc) in program.procs.iter() {
            let context = Context::Procedure {
                name: proc.name.clone(),
            };
            self.locals(&context, proc);
            self.layout(&context, proc);
            self.effects(&context, proc);
        }
    }

    fn locals(&mut self, context: &Context, proc: &Procedure) {
        self.names(
            context,
            NameKind::Local,
            proc.locals.values().map(|l| l.name.as_str()),
        );
        for (_, local) in proc.locals.iter() {
            self.check_type(context, local.ty);
            if self.program.global_by_name(&local.name).is_some() {
                self.report(
                    context.clone(),
                    VerifyErrorKind::ShadowsGlobal {
                        name: local.name.clone(),
                    },
                );
            }
        }
    }

    fn layout(&mut self, context: &Context, proc: &Procedure) {
        let expected = (0..proc.params.len() + proc.returns.len()).map(|i| LocalId(i as u32));
        let actual = proc.params.iter().chain(&proc.returns).copied();
        let fits = proc.params.len() + proc.returns.len() <= proc.locals.len();
        if !fits || !expected.eq(actual) {
            self.report(context.clone(), VerifyErrorKind::LocalLayout);
        }
    }

    fn effects(&mut self, context: &Context, proc: &Procedure) {
        self.effect_list(context, &proc.modifies, "modifies");
        self.effect_list(context, &proc.reads, "reads");
        for g in proc.reads.iter().filter(|g| proc.modifies.contains(g)) {
            let global = self.global_name(*g);
            self.report(
                context.clone(),
                VerifyErrorKind::ReadsAndModifies { global },
            );
        }
    }

    fn effect_list(&mut self, context: &Context, list: &[GlobalId], name: &'static str) {
        let mut seen = HashSet::new();
        for g in list {
            if !self.program.globals.contains(*g) {
                let kind = VerifyErrorKind::Missing {
                    what: "global variable",
                    id: g.to_string(),
                };
                self.report(context.clone(), kind);
            } else if !seen.insert(*g) {
                let global = self.global_name(*g);
                self.report(
                    context.clone(),
                    VerifyErrorKind::DuplicateEffect { global, list: name },
                );
            }
        }
    }

    fn global_name(&self, g: GlobalId) -> String {
        self.program
            .globals
            .get(g)
            .map_or_else(|| g.to_string(), |g| g.name.clone())
    }

    fn entrypoint(&mut self) {
        let found = self.program.procs.values().filter(|p| p.entrypoint).count();
        if found != 1 {
            self.report(Context::Program, VerifyErrorKind::EntrypointCount { found });
        }
    }
}

/// The datatypes that have a finite value: the least fixpoint of "some constructor has only
/// fields of type `int`, `bool` or an inhabited datatype".
pub fn inhabited_datatypes(program: &Program) -> HashSet<DatatypeId> {
    let ranks = datatype_ranks(program);
    ranks.into_keys().collect()
}

/// For each inhabited datatype, the round of the fixpoint in which it became inhabited and
/// the first constructor whose fields were all inhabited in earlier rounds. Following these
/// constructors builds a finite value (ranks strictly decrease along fields).
pub(crate) fn datatype_ranks(program: &Program) -> HashMap<DatatypeId, (usize, u32)> {
    let mut ranks: HashMap<DatatypeId, (usize, u32)> = HashMap::new();
    for round in 0.. {
        let ready = |ty: &Type| match data_inside(*ty) {
            Some(d) => ranks.get(&d).is_some_and(|(r, _)| *r < round),
            None => true,
        };
        let found: Vec<(DatatypeId, u32)> = program
            .datatypes
            .iter()
            .filter(|(id, _)| !ranks.contains_key(id))
            .filter_map(|(id, dt)| {
                let ctor = dt
                    .ctors
                    .iter()
                    .position(|c| c.fields.iter().all(|f| ready(&f.ty)))?;
                Some((id, ctor as u32))
            })
            .collect();
        if found.is_empty() {
            break;
        }
        ranks.extend(found.into_iter().map(|(id, ctor)| (id, (round, ctor))));
    }
    ranks
}

/// The datatype a value of `ty` needs to exist: `ty`'s own, or its map values' (a map's
/// default value is of its value type).
fn data_inside(ty: Type) -> Option<DatatypeId> {
    match ty {
        Type::Data(d) => Some(d),
        Type::Map(m) => data_inside(m.value()),
        Type::Int | Type::Bool | Type::Sort(_) => None,
    }
}
