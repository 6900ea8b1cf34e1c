//! One question about a call tree another run built: does an execution inside it fail?
//! CORRAL's path check for variable abstraction ([`crate::engine::search::cegar`]): the
//! abstract run's counterexample is its inlined call tree, asked again of the program
//! itself (the concrete check) or of other abstractions of it (the refinement's checks).
//!
//! Guarantees: [`Runner::check_tree`] inlines the entry and then, in the given order,
//! each `(parent, call site)` whose parent was rebuilt and whose site is open there (the
//! programs of one CEGAR loop have the same procedures and call sites, so all are); then
//! it asks the under-approximation (every open site blocked), as the search does. A
//! `Bug` is a failure of this runner's program within the rebuilt tree, read off the
//! model as the search reads it (so it is replayed as any); `None` means no execution
//! inside the rebuilt tree fails.

use super::{
    Backend, CallSiteId, CheckResult, IrType, Runner, SExpr, SolverError, StopReason,
    datatype_declarations,
};
use boogie_like::ir::GlobalId;

impl<B: Backend> Runner<'_, B> {
    /// Rebuilds `tree` ([`super::RunReport::tree`]) and asks once whether an execution
    /// inside it fails; a bug is reported at `bound`. Also returns the solver calls made.
    pub fn check_tree(
        mut self,
        tree: &[(usize, CallSiteId)],
        bound: u32,
    ) -> (Result<Option<StopReason>, SolverError>, usize) {
        let result = self.check_tree_inner(tree, bound);
        (result, self.solver_calls)
    }

    fn check_tree_inner(
        &mut self,
        tree: &[(usize, CallSiteId)],
        bound: u32,
    ) -> Result<Option<StopReason>, SolverError> {
        self.rebuild(tree)?;
        self.inlined_since_under = None;
        self.under_approximation(bound)
    }

    /// Alg. 2's one VC (CORRAL §3.2): rebuilds `tree` with each global of `flags` (the
    /// flags of [`crate::engine::search::abstraction::parameterised_program`]) starting
    /// as a fresh Boolean constant, returned in `flags`' order, for
    /// [`Runner::tree_fails_assuming`] to set by assumptions.
    pub fn rebuild_with_flags(
        &mut self,
        tree: &[(usize, CallSiteId)],
        flags: &[GlobalId],
    ) -> Result<Vec<SExpr>, SolverError> {
        let mut commands = Vec::new();
        let terms = self.backend.terms();
        let constants: Vec<SExpr> = flags
            .iter()
            .map(|_| {
                self.encoder
                    .fresh(terms, "track", IrType::Bool, &mut commands)
            })
            .collect();
        self.backend.send(commands)?;
        self.entry_terms = flags.iter().copied().zip(constants.clone()).collect();
        self.rebuild(tree)?;
        Ok(constants)
    }

    /// Whether an execution inside the rebuilt tree fails with the constants `on` true
    /// and `off` false (`check-sat-assuming`, nothing sent: the VC stays on the stack).
    /// An `unknown` is the solver's answer, as it gives it.
    pub fn tree_fails_assuming(
        &mut self,
        on: &[SExpr],
        off: &[SExpr],
    ) -> Result<CheckResult, SolverError> {
        let keys: Vec<u64> = self.open.keys().copied().collect();
        let mut assumptions = self.blocking(keys);
        let terms = self.backend.terms();
        assumptions.extend(on.iter().copied());
        assumptions.extend(off.iter().map(|c| terms.not(*c)));
        self.check_exactly(&assumptions)
    }

    /// The solver calls made so far.
    pub fn solver_calls(&self) -> usize {
        self.solver_calls
    }

    /// Inlines the entry, then each site of `tree` that is open in the rebuilt parent.
    fn rebuild(&mut self, tree: &[(usize, CallSiteId)]) -> Result<(), SolverError> {
        if !self.datatypes_declared {
            self.backend
                .declare_datatypes(&datatype_declarations(self.ir))?;
        }
        if self.ir.has_quantifiers() {
            self.backend.use_weak_arrays()?;
        }
        self.inline_entry()?;
        // By index in `tree`'s numbering (the entry is 0): the rebuilt instance.
        let mut rebuilt: Vec<Option<usize>> = vec![Some(0)];
        for (parent, site) in tree {
            self.check_deadline()?;
            let parent = rebuilt.get(*parent).copied().flatten();
            let key = parent.and_then(|parent| {
                self.open
                    .iter()
                    .find(|(_, open)| open.parent == parent && open.site.site == *site)
                    .map(|(key, _)| *key)
            });
            match key {
                Some(key) => {
                    rebuilt.push(Some(self.instances.len()));
                    self.inline(key)?;
                }
                None => rebuilt.push(None),
            }
        }
        Ok(())
    }
}
