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

use super::{Backend, CallSiteId, Runner, SolverError, StopReason, datatype_declarations};

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
        self.inlined_since_under = None;
        self.under_approximation(bound)
    }
}
