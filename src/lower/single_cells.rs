//! Cells allocated at a site that runs at most once per run: globals of their own instead
//! of the heap maps (docs/references.md).
//!
//! A site `ref e` runs at most once per run when it is in `Main`'s body or a `Store:`
//! initialiser, or in the body of a method called at most once per run (exactly one direct
//! call, itself at most once per run, and the method never used as a value), and in none of
//! them under a `fun` or a `let rec` function. Such a cell is given one global per component
//! of its content and a fixed negative address (`-1`, `-2`, … in program order). No heap
//! cell has a negative address (`alloc#next` starts at 0 and only grows), and two single
//! cells never share one, so aliasing in the IR is still aliasing in the source: a read or
//! a write through an address picks, among the single cells of the content type, the one
//! whose address it is, and otherwise the heap maps. A content type whose every cell is a
//! single cell has no heap maps at all.
//!
//! Not for content types some array holds (`Offset` on a `Ref T`): an array's cells are
//! consecutive heap addresses.
//!
//! Why: facts about two balances kept in heap maps at two addresses the procedures are
//! passed are facts about arrays; about two globals they are linear arithmetic, which the
//! proof engine finds (`tests/proofs/exn_bank_abort.ml`).

use super::layout::{Layout, component_names};
use crate::core_lang::ast::*;
use crate::core_lang::typecheck::{Resolution, TypeInfo};
use crate::core_lang::visit::children;
use boogie_like::ir::{GlobalId, Program as IrProgram};
use std::collections::{HashMap, HashSet};

/// One cell allocated at most once per run.
#[derive(Clone, Debug)]
pub struct SingleCell {
    /// Its fixed address (negative).
    pub address: i64,
    /// One global per component of its content.
    pub globals: Vec<GlobalId>,
}

/// The single cells of a program, by allocation site and by content type.
#[derive(Debug, Default)]
pub struct SingleCells {
    by_site: HashMap<ExprId, SingleCell>,
    by_content: HashMap<Type, Vec<SingleCell>>,
    /// The content types with no heap cell: every cell of the type is a single cell.
    without_heap: HashSet<Type>,
}

impl SingleCells {
    /// Finds the single cells of `program` and declares their globals.
    pub fn declare(
        ir: &mut IrProgram,
        layout: &Layout,
        program: &Program,
        info: &TypeInfo,
    ) -> SingleCells {
        let sites = Sites::of(program, info);
        let once = sites.methods_run_once(program);
        let mut cells = SingleCells::default();
        let mut heap_allocated: HashSet<&Type> = HashSet::new();
        let mut names: HashSet<String> = HashSet::new();
        for site in &sites.allocs {
            let content = site.content;
            if info.diverging.contains(&site.content_expr) {
                continue; // `ref fail` allocates nothing
            }
            let single =
                site.once && once.contains(&site.owner) && !sites.indexed.contains(content);
            if !single {
                heap_allocated.insert(content);
                continue;
            }
            let address = -(cells.by_site.len() as i64) - 1;
            // A front end's own binders (`$and1`) name nothing the user wrote; a name
            // taken by an earlier cell is not taken again (`cell#N` never collides).
            let base = match site.binder.filter(|name| !name.starts_with('$')) {
                Some(name) if names.insert(format!("{name}#cell")) => format!("{name}#cell"),
                _ => format!("cell#{}", -address),
            };
            let components = layout.components(content);
            let globals = component_names(&base, components.len())
                .into_iter()
                .zip(components)
                .map(|(name, ty)| ir.add_global(name, ty))
                .collect();
            let cell = SingleCell { address, globals };
            cells.by_site.insert(site.id, cell.clone());
            cells
                .by_content
                .entry(content.clone())
                .or_default()
                .push(cell);
        }
        // A `Ref T` input has an address no allocation gave.
        let inputs: Vec<&Type> = program.main.params.iter().map(|p| &p.ty).collect();
        for content in cells.by_content.keys() {
            let from_input = inputs.iter().any(|t| mentions_ref_to(t, content));
            if !heap_allocated.contains(content) && !from_input {
                cells.without_heap.insert(content.clone());
            }
        }
        cells
    }

    /// How many allocation sites are single cells.
    pub fn count(&self) -> usize {
        self.by_site.len()
    }

    /// The single cell the allocation `site` (an `Alloc` expression) creates, if it is one.
    pub fn at_site(&self, site: ExprId) -> Option<&SingleCell> {
        self.by_site.get(&site)
    }

    /// The single cells holding a `content`, in address order (`-1` first).
    pub fn of_content(&self, content: &Type) -> &[SingleCell] {
        self.by_content.get(content).map_or(&[], Vec::as_slice)
    }

    /// Whether cells of `content` live in the heap maps too (some are not single cells).
    pub fn in_heap(&self, content: &Type) -> bool {
        !self.without_heap.contains(content)
    }
}

/// Whether `ty` holds a `Ref content` somewhere.
fn mentions_ref_to(ty: &Type, content: &Type) -> bool {
    match ty {
        Type::Int | Type::Unit | Type::Data(_) => false,
        Type::Ref(c) => &**c == content || mentions_ref_to(c, content),
        Type::List(e) => mentions_ref_to(e, content),
        Type::Pair(a, b) => mentions_ref_to(a, content) || mentions_ref_to(b, content),
        Type::Arrow(params, ret) => {
            params.iter().any(|p| mentions_ref_to(p, content)) || mentions_ref_to(ret, content)
        }
    }
}

/// Whose body an expression is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Owner {
    /// `Main`'s body or a `Store:` initialiser.
    Main,
    Method(MethodId),
}

/// An allocation `ref e`.
struct Alloc<'p> {
    id: ExprId,
    content_expr: ExprId,
    content: &'p Type,
    owner: Owner,
    /// Whether it runs at most once per run of its owner's body.
    once: bool,
    /// The `let` binding it, for the globals' name.
    binder: Option<&'p str>,
}

/// What the walk over the program collects.
#[derive(Default)]
struct Sites<'p> {
    allocs: Vec<Alloc<'p>>,
    /// The direct calls of each method: the caller, and whether the call runs at most once
    /// per run of the caller's body.
    calls: HashMap<MethodId, Vec<(Owner, bool)>>,
    /// The methods used as values (applied who knows how often).
    as_values: HashSet<MethodId>,
    /// The content types of the cells arrays hold (`Offset`'s base).
    indexed: HashSet<&'p Type>,
}

impl<'p> Sites<'p> {
    fn of(program: &'p Program, info: &'p TypeInfo) -> Sites<'p> {
        let mut sites = Sites::default();
        for decl in &program.store {
            sites.visit(info, &decl.init, Owner::Main, true, None);
        }
        for method in &program.methods {
            sites.visit(info, &method.body, Owner::Method(method.id), true, None);
        }
        sites.visit(info, &program.main.body, Owner::Main, true, None);
        sites
    }

    /// The owners whose body runs at most once per run.
    fn methods_run_once(&self, program: &Program) -> HashSet<Owner> {
        let mut once = HashSet::from([Owner::Main]);
        loop {
            let before = once.len();
            for method in &program.methods {
                let calls = self.calls.get(&method.id).map_or(&[][..], Vec::as_slice);
                if !self.as_values.contains(&method.id)
                    && let [(caller, true)] = calls
                    && once.contains(caller)
                {
                    once.insert(Owner::Method(method.id));
                }
            }
            if once.len() == before {
                return once;
            }
        }
    }

    fn visit(
        &mut self,
        info: &'p TypeInfo,
        e: &'p Expr,
        owner: Owner,
        once: bool,
        binder: Option<&'p str>,
    ) {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || match &e.kind {
            ExprKind::Fun(lambda) => self.visit(info, &lambda.body, owner, false, None),
            ExprKind::LetRec { lambda, body, .. } => {
                self.visit(info, &lambda.body, owner, false, None);
                self.visit(info, body, owner, once, None);
            }
            ExprKind::Let {
                binder: b,
                value,
                body,
            } => {
                self.visit(info, value, owner, once, Some(&b.name.name));
                self.visit(info, body, owner, once, None);
            }
            ExprKind::App { func, args } => {
                match info.resolution(func) {
                    Some(Resolution::Method(m)) if matches!(func.kind, ExprKind::Var(_)) => {
                        self.calls.entry(m).or_default().push((owner, once));
                    }
                    _ => self.visit(info, func, owner, once, None),
                }
                for arg in args {
                    self.visit(info, arg, owner, once, None);
                }
            }
            ExprKind::Var(_) => {
                if let Some(Resolution::Method(m)) = info.resolution(e) {
                    self.as_values.insert(m);
                }
            }
            ExprKind::Alloc(content) => {
                self.allocs.push(Alloc {
                    id: e.id,
                    content_expr: content.id,
                    content: info.type_of(content),
                    owner,
                    once,
                    binder,
                });
                self.visit(info, content, owner, once, None);
            }
            ExprKind::Offset { base, index } => {
                if let Type::Ref(content) = info.type_of(base) {
                    self.indexed.insert(content);
                }
                self.visit(info, base, owner, once, None);
                self.visit(info, index, owner, once, None);
            }
            _ => {
                for child in children(e) {
                    self.visit(info, child, owner, once, None);
                }
            }
        })
    }
}
